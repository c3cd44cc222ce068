/**
 * Python rules: pyright's document symbols (classes, functions, their parameters, and the
 * variables of every scope, each variable ranging over its name only).
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { type Found, K, lastToken, named, type Rule, unmodelled } from "./core.ts";

function pythonTargets(left: Node, out: Node[] = []): Node[] {
  switch (left.type) {
    case "identifier":
      out.push(left);
      break;
    case "pattern_list":
    case "tuple_pattern":
    case "list_pattern":
      for (const child of left.namedChildren) if (child) pythonTargets(child, out);
      break;
    case "subscript":
    case "attribute":
      break; // `a[k] = v`, `obj.x = v`: no declaration (`self.x` is handled by the rule)
    default:
      unmodelled("assignment target"); // starred and other targets
  }
  return out;
}

function pythonKind(name: string, annotation: Node | null): number {
  if (/^_+[A-Z0-9_]*$/.test(name) || annotation?.text.includes("Final")) {
    unmodelled("private or Final name");
  }
  return /^[A-Z][A-Z0-9_]*$/.test(name) ? K.Constant : K.Variable;
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

const STATIC_NAMES = /\b(?:TYPE_CHECKING|version_info|platform)\b|\bos\s*\.\s*name\b/;
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

export const PYTHON_RULES: Readonly<Record<string, Rule>> = {
  class_definition: (n) => {
    if (n.parent?.type === "decorated_definition") return unmodelled("decorated class");
    const found = named(n, K.Class);
    if (found) found.to = lastToken(n);
    return found;
  },
  function_definition: (n, parentKind) => {
    const found = named(n, parentKind === K.Class ? K.Method : K.Function);
    if (!found) return null;
    // A decorated definition's body starts at its first decorator.
    if (n.parent?.type === "decorated_definition") found.node = n.parent;
    found.to = lastToken(n);
    return found;
  },
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
  assert_statement: (n) =>
    n.namedChildren.some((c) => c !== null && maybeStatic(c))
      ? unmodelled("static condition")
      : null,
  parameters: (n, parentKind) => {
    const fn = n.parent;
    if (fn?.type !== "function_definition") return unmodelled("parameters of a lambda");
    const decorators = fn.parent?.type === "decorated_definition" ? fn.parent.text : "";
    // A method's first parameter (self, cls) is not listed; a static method has none.
    const skipFirst = parentKind === K.Method && !/^@staticmethod\b/m.test(decorators);
    const out: Found[] = [];
    let first = true;
    for (const param of n.namedChildren) {
      if (!param) continue;
      const id = pythonParameterName(param);
      if (param.type !== "keyword_separator" && param.type !== "positional_separator" && !id) {
        unmodelled("parameter");
      }
      if (!id) continue;
      if (first && skipFirst) {
        first = false;
        continue;
      }
      first = false;
      out.push({
        name: id.text,
        kind: K.Variable,
        node: param,
        nameNode: param,
        selectAtStart: true,
        detached: true,
        leaf: true,
      });
    }
    return out;
  },
  assignment: (n, parentKind) => {
    const left = n.childForFieldName("left");
    if (!left) return null;
    if (left.type === "attribute") {
      const object = left.childForFieldName("object");
      const attribute = left.childForFieldName("attribute");
      if (parentKind !== K.Method || object?.text !== "self" || !attribute) return null;
      return {
        name: attribute.text,
        kind: K.Variable,
        node: attribute,
        nameNode: attribute,
        member: true,
      };
    }
    const annotation = n.childForFieldName("type");
    return pythonTargets(left).map((id) => ({
      name: id.text,
      kind: pythonKind(id.text, annotation),
      node: id,
      nameNode: id,
      detached: true,
    }));
  },
  // Names bound by other statements: not modelled.
  for_statement: unmodelled,
  // Comprehension variables: pyright lists none (they have a scope of their own).
  for_in_clause: (n) =>
    n.childForFieldName("left")?.type === "identifier" ? null : unmodelled("comprehension target"),
  as_pattern: unmodelled,
  named_expression: unmodelled,
  global_statement: unmodelled,
  nonlocal_statement: unmodelled,
  augmented_assignment: unmodelled,
  match_statement: unmodelled,
  lambda: unmodelled,
  type_alias_statement: unmodelled,
  except_clause: (n) => n.children.some((c) => c?.type === "as") ? unmodelled("except as") : null,
  import_statement: (n, parentKind) => parentKind === 0 ? null : unmodelled(n),
  import_from_statement: (n, parentKind) => parentKind === 0 ? null : unmodelled(n),
};
