/**
 * Python rules: pyright's document symbols (classes, functions, their parameters, and the
 * variables of every scope, each variable ranging over its name only). Every statement that binds
 * a name declares it here as pyright's binder does (assignments, augmented assignments, `for`,
 * `with ... as`, `except ... as`, `:=`, imports, members assigned through a method's first
 * parameter); pyright then lists each name of a scope once, which `./python_symbols.ts` reduces
 * them to, with the names `global` and `nonlocal` statements rebind moved to the scope they belong
 * to. What names the text does not show (`from m import *`, `__slots__`) is not modelled.
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { fileFact, type Found, K, lastToken, named, type Rule, SKIP, unmodelled } from "./core.ts";

/** The names a target binds and the attributes it assigns (`a, (b, *c), self.d = ...`). */
interface Targets {
  names: Node[];
  attributes: Node[];
}

/**
 * What an assignment, `for`, `with ... as` or augmented assignment target binds (a subscript
 * binds nothing); another target is not modelled.
 */
function pythonTargets(left: Node, out: Targets = { names: [], attributes: [] }): Targets {
  switch (left.type) {
    case "identifier":
      out.names.push(left);
      break;
    case "pattern_list":
    case "tuple_pattern":
    case "list_pattern":
    case "tuple":
    case "list":
    case "expression_list":
    case "parenthesized_expression":
    case "list_splat_pattern":
    case "list_splat":
      for (const child of left.namedChildren) {
        if (child && child.type !== "comment") pythonTargets(child, out);
      }
      break;
    case "attribute":
      out.attributes.push(left);
      break;
    case "subscript":
      break;
    default:
      unmodelled("assignment target");
  }
  return out;
}

/** pyright's constant names (`isConstantName`): upper case, digits and `_`, not only `_`. */
function pythonKind(name: string): number {
  return /^[A-Z0-9_]+$/.test(name) && !/^_+$/.test(name) ? K.Constant : K.Variable;
}

/**
 * Names pyright's binder adds to a module or class scope itself and never lists, whatever the
 * file declares under them.
 */
const IMPLICIT_MODULE_NAMES: ReadonlySet<string> = new Set([
  "__name__",
  "__loader__",
  "__package__",
  "__spec__",
  "__path__",
  "__file__",
  "__cached__",
  "__annotations__",
  "__dict__",
  "__builtins__",
  "__doc__",
]);
const IMPLICIT_CLASS_NAMES: ReadonlySet<string> = new Set([
  "__doc__",
  "__module__",
  "__qualname__",
]);

/**
 * Whether pyright's binder gives the scope `name` itself (then it lists none of its declarations):
 * the module's and classes' implicit names, and `__class__` in every function of a class.
 */
function implicitName(name: string, parentKind: number): boolean {
  if (!name.startsWith("__")) return false;
  if (parentKind === 0) return IMPLICIT_MODULE_NAMES.has(name);
  if (parentKind === K.Class) return IMPLICIT_CLASS_NAMES.has(name);
  return name === "__class__";
}

/** The function or class whose scope a node's names are bound in; null at the module's level. */
function scopeOf(node: Node): Node | null {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "function_definition" || p.type === "class_definition") return p;
  }
  return null;
}

/**
 * The names `global` and `nonlocal` statements rebind, per scope (its node id): found once per
 * file, and only in a file whose text holds one of the words.
 */
function reboundNames(node: Node): Map<number, Map<string, "global" | "nonlocal">> {
  return fileFact("python: global and nonlocal names", () => {
    const out = new Map<number, Map<string, "global" | "nonlocal">>();
    let root = node;
    while (root.parent) root = root.parent;
    if (!/\b(?:global|nonlocal)\b/.test(root.text)) return out;
    for (const statement of root.descendantsOfType(["global_statement", "nonlocal_statement"])) {
      if (!statement) continue;
      const scope = scopeOf(statement);
      const how = statement.type === "global_statement" ? "global" : "nonlocal";
      // `global` at the module's level changes nothing; `nonlocal` there is an error.
      if (scope === null) {
        if (how === "nonlocal") unmodelled(statement);
        continue;
      }
      let names = out.get(scope.id);
      if (!names) out.set(scope.id, names = new Map());
      for (const id of statement.namedChildren) {
        if (id?.type === "identifier") names.set(id.text, how);
      }
    }
    return out;
  });
}

/**
 * Marks a declaration whose name a `global` or `nonlocal` statement of its scope rebinds (`node`:
 * where the name is bound, outside the scope a definition opens).
 */
function rebind(found: Found, node: Node): Found {
  const rebound = reboundNames(node);
  if (rebound.size === 0) return found;
  const scope = scopeOf(node);
  const how = scope === null ? undefined : rebound.get(scope.id)?.get(found.name);
  if (how) found.rebound = how;
  if (how === "global" && implicitName(found.name, 0)) unmodelled("implicit name");
  return found;
}

/** A variable pyright declares for a name (its range is the name's). */
function variable(id: Node, parentKind: number, typed: boolean, annotation?: Node | null): Found {
  const name = id.text;
  if (annotation?.text.includes("Final")) unmodelled("Final name");
  if (implicitName(name, parentKind)) unmodelled("implicit name");
  return rebind({
    name,
    kind: pythonKind(name),
    node: id,
    nameNode: id,
    detached: true,
    typed,
    hidden: name === "_",
  }, id);
}

/**
 * The class an attribute assignment declares a member of, as pyright's binder decides it
 * (`_getMemberAccessInfo`): in a function directly in a class body whose first parameter has a
 * name, `<first parameter>.x` (not in a static method) or `<class name>.x`. Null when none.
 */
function memberOf(target: Node): Node | null {
  const object = target.childForFieldName("object");
  if (object?.type !== "identifier") return null;
  let fn: Node | null = null;
  for (let p = target.parent; p && !fn; p = p.parent) {
    if (p.type === "class_definition") return null;
    if (p.type === "function_definition") fn = p;
  }
  if (!fn) return null;
  let cls: Node | null = null;
  for (let p = fn.parent; p && !cls; p = p.parent) {
    if (p.type === "function_definition") return null;
    if (p.type === "class_definition") cls = p;
  }
  const first = fn.childForFieldName("parameters")?.namedChildren.find((c) =>
    c?.type !== "comment"
  );
  const firstName = first ? pythonParameterName(first) : null;
  if (!cls || !firstName) return null;
  if (object.text === cls.childForFieldName("name")?.text) return cls;
  if (object.text !== firstName.text) return null;
  const decorators = fn.parent?.type === "decorated_definition"
    ? fn.parent.namedChildren.filter((c) => c?.type === "decorator")
    : [];
  const special = ["__new__", "__init_subclass__", "__class_getitem__"];
  if (special.includes(fn.childForFieldName("name")?.text ?? "")) return cls;
  const isStatic = decorators.some((d) =>
    /^@\s*(?:builtins\s*\.\s*)?staticmethod\s*$/.test(d!.text)
  );
  return isStatic ? null : cls;
}

/** The member an attribute target declares (`self.x = 1` in a method), or null. */
function member(target: Node, typed: boolean, annotation?: Node | null): Found | null {
  const attribute = target.childForFieldName("attribute");
  if (!attribute || !memberOf(target)) return null;
  // `self.x: Final = 1` is a constant to pyright, whatever its name.
  if (annotation?.text.includes("Final")) unmodelled("Final name");
  if (implicitName(attribute.text, K.Class) || attribute.text === "__slots__") {
    unmodelled("implicit name");
  }
  return {
    name: attribute.text,
    kind: pythonKind(attribute.text),
    node: attribute,
    nameNode: attribute,
    member: true,
    typed,
    hidden: attribute.text === "_",
  };
}

/**
 * The variables `__slots__ = ("a", "b")` gives its class, one per string (a list, a tuple or one
 * string of plain strings), each at its string, bound after the class body (pyright's
 * `_addSlotsToCurrentScope`; `__dict__` is none). Another value, or a class that names
 * `__slots__` more than once, is not modelled.
 */
function slots(assignment: Node): Found[] {
  const cls = scopeOf(assignment);
  if (cls?.type !== "class_definition" || cls.text.split("__slots__").length !== 2) {
    unmodelled("__slots__");
    return [];
  }
  let value = assignment.childForFieldName("right");
  while (value?.type === "parenthesized_expression") value = value.namedChildren[0] ?? null;
  const items = value?.type === "string"
    ? [value]
    : value?.type === "tuple" || value?.type === "list"
    ? value.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment")
    : null;
  const out: Found[] = [];
  for (const item of items ?? [null]) {
    const parts = item?.type === "string" ? item.namedChildren : null;
    const plain = parts?.length === 3 && parts[0]?.type === "string_start" &&
      /^["']$/.test(parts[0].text) && parts[1]?.type === "string_content" &&
      parts[1].namedChildren.length === 0;
    if (!item || !plain) {
      unmodelled("__slots__");
      continue;
    }
    const name = parts[1]!.text;
    if (name === "__dict__") continue;
    out.push({
      name,
      kind: pythonKind(name),
      node: item,
      nameNode: item,
      detached: true,
      late: true,
      hidden: name === "_",
    });
  }
  return out;
}

/** The declarations a target binds (none typed: an annotation takes one target alone). */
function declarations(left: Node, parentKind: number, typed = false, annotation?: Node | null) {
  const { names, attributes } = pythonTargets(left);
  const out: Found[] = names.map((id) => variable(id, parentKind, typed, annotation));
  for (const a of attributes) {
    const m = member(a, typed, annotation);
    if (m) out.push(m);
  }
  return out;
}

/**
 * The names an import binds (`import a.b` binds `a`; `import a.b as c`, `from m import x as c`
 * bind `c`): pyright lists none of them, but one bound first hides the name's later variables.
 * `from m import *` binds names the file does not show: not modelled.
 */
function imported(n: Node): Found[] {
  const out: Found[] = [];
  for (const spec of n.childrenForFieldName("name")) {
    if (!spec) continue;
    const id = spec.type === "aliased_import"
      ? spec.childForFieldName("alias")
      : spec.type === "dotted_name"
      ? spec.namedChildren[0] ?? null
      : null;
    if (id?.type !== "identifier") {
      unmodelled("import");
      continue;
    }
    out.push(rebind({
      name: id.text,
      kind: K.Variable,
      node: id,
      nameNode: id,
      detached: true,
      hidden: true,
    }, id));
  }
  if (n.namedChildren.some((c) => c?.type === "wildcard_import")) unmodelled("wildcard import");
  return out;
}

/**
 * Where an assignment expression (`:=`) binds: the scope around the comprehensions it is in. In a
 * function's parameters or a class's arguments that is the scope outside the definition, which
 * the walk does not give it; in a lambda, the lambda's (see the `lambda` rule); in a class body's
 * comprehension, an error. Those are not modelled.
 */
function walrusTarget(n: Node, parentKind: number): Node | null {
  let inComprehension = false;
  for (let p = n.parent; p; p = p.parent) {
    if (p.type === "block" || p.type === "module") break;
    if (p.type === "function_definition" || p.type === "class_definition") {
      return unmodelled("assignment expression in a definition's header");
    }
    if (/comprehension$|^generator_expression$/.test(p.type)) inComprehension = true;
  }
  if (inComprehension && parentKind === K.Class) {
    return unmodelled("assignment expression in a class body's comprehension");
  }
  return n.childForFieldName("name");
}

/** The name of a parameter (`a`, `a: int`, `a=1`, `*args`, `**kw: int`), or null (`/`, `*`). */
function pythonParameterName(param: Node): Node | null {
  switch (param.type) {
    case "identifier":
      return param;
    case "typed_parameter":
    case "default_parameter":
    case "typed_default_parameter":
    case "list_splat_pattern":
    case "dictionary_splat_pattern": {
      const first = param.namedChildren[0] ?? null;
      return first?.type === "identifier" ? first : first ? pythonParameterName(first) : null;
    }
    default:
      return null;
  }
}

/** The statements of a block (comments apart). */
function statements(block: Node | null | undefined): Node[] {
  return (block?.namedChildren ?? []).filter((c): c is Node => c !== null && c.type !== "comment");
}

/** The block of an `except`, `else` or `finally` clause (its last block child). */
function clauseBlock(clause: Node): Node | null {
  const blocks = clause.namedChildren.filter((c) => c?.type === "block");
  return blocks[blocks.length - 1] ?? null;
}

/** Whether a `break` inside a loop's body leaves that loop (not an inner loop or function). */
function breaksOut(body: Node): boolean {
  return body.descendantsOfType("break_statement").some((b) => {
    for (let p = b?.parent; p && !p.equals(body); p = p.parent) {
      if (LOOP_OR_SCOPE.has(p.type)) return false;
    }
    return true;
  });
}

const LOOP_OR_SCOPE: ReadonlySet<string> = new Set([
  "for_statement",
  "while_statement",
  "function_definition",
  "class_definition",
  "lambda",
]);

/** Whether a block's control never reaches its end (some statement of it never completes). */
function blockEnds(block: Node | null | undefined): boolean {
  return statements(block).some(ends);
}

/**
 * Whether control never leaves a statement at its end, as pyright's binder reckons it before any
 * type is known: a jump, an `if` whose every branch ends, a `try` whose body (or `else`) and
 * every handler end or whose `finally` ends, `while True` without a `break`. A `with` block can
 * swallow an exception, so code after it is reachable; a call to a `NoReturn` function is judged
 * by the checker later, not here.
 */
function ends(stmt: Node): boolean {
  switch (stmt.type) {
    case "return_statement":
    case "raise_statement":
    case "continue_statement":
    case "break_statement":
      return true;
    case "if_statement": {
      const alternatives = stmt.childrenForFieldName("alternative").filter((c): c is Node =>
        c !== null
      );
      if (!alternatives.some((a) => a.type === "else_clause")) return false;
      return blockEnds(stmt.childForFieldName("consequence")) &&
        alternatives.every((a) =>
          blockEnds(a.childForFieldName(a.type === "else_clause" ? "body" : "consequence"))
        );
    }
    case "while_statement": {
      const body = stmt.childForFieldName("body");
      return stmt.childForFieldName("condition")?.type === "true" && body !== null &&
        !breaksOut(body);
    }
    case "try_statement": {
      const clauses = stmt.namedChildren.filter((c): c is Node => c !== null);
      const fin = clauses.find((c) => c.type === "finally_clause");
      if (fin && blockEnds(clauseBlock(fin))) return true;
      const otherwise = clauses.find((c) => c.type === "else_clause");
      const bodyEnds = blockEnds(stmt.childForFieldName("body")) ||
        (otherwise !== undefined && blockEnds(otherwise.childForFieldName("body")));
      return bodyEnds &&
        clauses.filter((c) => c.type === "except_clause" || c.type === "except_group_clause")
          .every((c) => blockEnds(clauseBlock(c)));
    }
    default:
      return false;
  }
}

/**
 * pyright's binder does not walk code it finds unreachable, so nothing declared there is listed:
 * a statement after one that never completes is not modelled.
 */
function followedByUnreachable(stmt: Node): boolean {
  for (let next = stmt.nextNamedSibling; next; next = next.nextNamedSibling) {
    if (next.type !== "comment") return ends(stmt);
  }
  return false;
}

/** The operands of `not`, `and`, `or` and parentheses in a condition. */
function operands(cond: Node, out: Node[] = []): Node[] {
  switch (cond.type) {
    case "not_operator":
    case "boolean_operator":
    case "parenthesized_expression":
      for (const c of cond.namedChildren) if (c && c.type !== "comment") operands(c, out);
      break;
    default:
      out.push(cond);
  }
  return out;
}

// pyright evaluates `sys.platform`, a member access (not the `platform` module's functions).
const STATIC_NAMES = /\b(?:TYPE_CHECKING|version_info)\b|\.\s*platform\b|\bos\s*\.\s*name\b/;
const STATIC_LITERALS: ReadonlySet<string> = new Set(["true", "false", "none", "integer", "float"]);

/**
 * Whether pyright may evaluate a condition statically (`sys.version_info >= (3, 8)`,
 * `sys.platform == "win32"`, `os.name`, `TYPE_CHECKING`, `True`, a number), and so take one of
 * its branches for unreachable.
 */
function maybeStatic(cond: Node | null): boolean {
  if (!cond) return false;
  return operands(cond).some((o) => STATIC_LITERALS.has(o.type) || STATIC_NAMES.test(o.text));
}

/** `TYPE_CHECKING` or `<module>.TYPE_CHECKING`, which pyright takes for true. */
function isTypeChecking(cond: Node | null): boolean {
  return cond !== null && /^(?:[A-Za-z_][A-Za-z_0-9]*\.)?TYPE_CHECKING$/.test(cond.text);
}

/** A statement after which code may be unreachable: not modelled when code follows. */
const jump: Rule = (n) => followedByUnreachable(n) ? unmodelled("unreachable code") : null;

/** A type comment (`x = 1  # type: int`): it types a declaration as an annotation would. */
const TYPE_COMMENT = /^#\s*type:(?!\s*ignore\b)/;

/** A class or function definition: a typed declaration, its body from its first decorator. */
function definition(n: Node, parentKind: number, kind: number): ReturnType<Rule> {
  const found = named(n, kind);
  if (!found) return null;
  if (implicitName(found.name, parentKind)) unmodelled("implicit name");
  // A decorated definition's body starts at its first decorator.
  if (n.parent?.type === "decorated_definition") found.node = n.parent;
  found.to = lastToken(n);
  found.typed = true;
  return rebind(found, n);
}

export const PYTHON_RULES: Readonly<Record<string, Rule>> = {
  class_definition: (n, parentKind) => definition(n, parentKind, K.Class),
  function_definition: (n, parentKind) =>
    definition(n, parentKind, parentKind === K.Class ? K.Method : K.Function),
  return_statement: jump,
  raise_statement: jump,
  continue_statement: jump,
  break_statement: jump,
  try_statement: jump,
  // `if TYPE_CHECKING:` alone is taken (pyright holds it true); a branch of another condition
  // pyright evaluates may be unreachable to it: not modelled.
  if_statement: (n) => {
    const cond = n.childForFieldName("condition");
    const alone = n.childrenForFieldName("alternative").length === 0;
    if (maybeStatic(cond) && !(alone && isTypeChecking(cond))) {
      return unmodelled("static condition");
    }
    return jump(n, 0);
  },
  elif_clause: (n) =>
    maybeStatic(n.childForFieldName("condition")) ? unmodelled("static condition") : null,
  while_statement: (n) => {
    const cond = n.childForFieldName("condition");
    const loopForever = cond?.type === "true" && n.childForFieldName("alternative") === null;
    if (maybeStatic(cond) && !loopForever) return unmodelled("static condition");
    return jump(n, 0);
  },
  // Only the condition, not the message (`assert ok(), 42`), can make what follows unreachable.
  assert_statement: (n) =>
    maybeStatic(n.namedChildren.find((c) => c?.type !== "comment") ?? null)
      ? unmodelled("static condition")
      : null,
  // Every named parameter is listed (ranging over the whole parameter) but `self`, `cls` and
  // `_`, whatever their place: pyright leaves those names out.
  parameters: (n, parentKind) => {
    const fn = n.parent;
    if (fn?.type !== "function_definition") return unmodelled("parameters of a lambda");
    // Parameters are leaves: an assignment expression in a default value is not walked to.
    if (n.text.includes(":=") && n.descendantsOfType("named_expression").length > 0) {
      return unmodelled("assignment expression in a definition's header");
    }
    const out: Found[] = [];
    for (const param of n.namedChildren) {
      if (!param || param.type === "comment") continue;
      const id = pythonParameterName(param);
      if (param.type !== "keyword_separator" && param.type !== "positional_separator" && !id) {
        unmodelled("parameter");
      }
      if (!id) continue;
      if (implicitName(id.text, parentKind)) unmodelled("implicit name");
      out.push({
        name: id.text,
        kind: K.Variable,
        node: param,
        nameNode: param,
        selectAtStart: true,
        detached: true,
        leaf: true,
        typed: param.type === "typed_parameter" || param.type === "typed_default_parameter",
        hidden: id.text === "self" || id.text === "cls" || id.text === "_",
      });
    }
    return out;
  },
  assignment: (n, parentKind) => {
    const left = n.childForFieldName("left");
    if (!left) return null;
    const annotation = n.childForFieldName("type");
    const found = declarations(left, parentKind, annotation !== null, annotation);
    if (parentKind === K.Class && left.text === "__slots__") found.push(...slots(n));
    return found;
  },
  augmented_assignment: (n, parentKind) => {
    const left = n.childForFieldName("left");
    if (parentKind === K.Class && left?.text === "__slots__") return unmodelled("__slots__");
    return left ? declarations(left, parentKind) : null;
  },
  for_statement: (n, parentKind) => {
    const left = n.childForFieldName("left");
    return left ? declarations(left, parentKind) : null;
  },
  // `with ... as x` and `except E as x`; other `as` (a match pattern's) are not modelled.
  as_pattern: (n, parentKind) => {
    const target = n.childForFieldName("alias")?.namedChildren[0];
    if (!target) return unmodelled(n);
    if (n.parent?.type === "with_item") return declarations(target, parentKind);
    const clause = n.parent?.type;
    const except = clause === "except_clause" || clause === "except_group_clause";
    if (except && target.type === "identifier") {
      return variable(target, parentKind, false);
    }
    return unmodelled(n);
  },
  named_expression: (n, parentKind) => {
    const name = walrusTarget(n, parentKind);
    if (!name) return null;
    const found = variable(name, parentKind, false);
    found.boundEarly = true;
    return found;
  },
  // Comprehension variables: pyright lists none (they have a scope of their own); an attribute
  // target (`for self.x in`) declares a member.
  for_in_clause: (n) => {
    const left = n.childForFieldName("left");
    return left && pythonTargets(left).attributes.length > 0
      ? unmodelled("comprehension target")
      : null;
  },
  // pyright lists nothing of a lambda's scope; an assignment expression in a default value binds
  // outside it (not modelled).
  lambda: (n) =>
    n.text.includes(":=") && n.descendantsOfType("named_expression").length > 0
      ? unmodelled("lambda")
      : SKIP,
  import_statement: imported,
  import_from_statement: imported,
  future_import_statement: imported,
  comment: (n) => TYPE_COMMENT.test(n.text) ? unmodelled("type comment") : null,
  // Other statements: not modelled.
  match_statement: unmodelled,
  type_alias_statement: unmodelled,
  except_clause: (n) => n.children.some((c) => c?.type === "as") ? unmodelled("except as") : null,
};
