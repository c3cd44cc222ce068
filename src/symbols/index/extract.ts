/**
 * Declarations from a tree-sitter syntax tree: what a file declares (name, LSP SymbolKind, body
 * range, name range), nested as the language server nests them, in the compact form the symbol
 * cache uses ({@linkcode CompactSymbol}), so one decoder turns either into name-path trees.
 *
 * The rules are liberal on purpose: the index chooses which files the language server is asked
 * about, so a declaration the server would not list costs one request, while one missed would
 * lose an answer. Local declarations inside functions are kept (servers such as tsserver and
 * pyright list them too).
 * @module
 */
import type { Node, TreeCursor } from "npm:web-tree-sitter@0.25.10";
import type { CompactSymbol } from "../model.ts";
import type { GrammarId } from "./grammars.ts";

/** One declaration found by a rule. */
interface Found {
  name: string;
  kind: number;
  /** The whole declaration (body range). */
  node: Node;
  /** The identifier (selection range). */
  nameNode: Node;
  /**
   * A member of the enclosing class declared from inside a method (Python's `self.x = ...`):
   * listed once among the class's children, as pyright does.
   */
  member?: boolean;
  /** Where the body range starts and ends, when not at the node's own ends. */
  from?: Node | undefined;
  to?: Node | undefined;
  /** The selection range starts where the body range starts (tsserver's callbacks). */
  selectAtStart?: boolean;
  /** Nothing nested in the node is listed (tsserver lists no members of a type alias). */
  leaf?: boolean;
  /** What is nested in the node belongs to the enclosing declaration, not to this one. */
  detached?: boolean;
  /**
   * A function or method that may be overloaded: tsserver gives one navigation item for all
   * declarations of the name, with the name's position of the first, so the later ones'
   * selection range is their whole range.
   */
  overload?: boolean;
  /** Not listed when nothing is nested in it (tsserver's anonymous `<function>`). */
  dropIfEmpty?: boolean;
  /** What overloads share, when not just the name (tsserver merges no static with instance). */
  overloadKey?: string;
}

/** A rule's answer for a node that declares nothing and holds nothing the server lists. */
const SKIP: unique symbol = Symbol("skip");

/**
 * A rule sees a node of its type and the kind of the enclosing declaration (0: top level); it
 * returns what the node declares (its children are visited after), null (nothing; the children
 * are visited), or {@linkcode SKIP} (nothing, nor in the children).
 */
type Rule = (node: Node, parentKind: number) => Found[] | Found | null | typeof SKIP;

/**
 * Whether the file being extracted holds only what the rules model exactly (see
 * {@linkcode extractFile}); a rule that meets a construct whose listing by the server it does
 * not reproduce calls {@linkcode unmodelled}. Extraction is synchronous, so one flag serves.
 */
let exact = true;

/** Where the reasons of the file being extracted go, when asked for (see {@linkcode extractFile}). */
let reasons: Set<string> | null = null;

/**
 * The file holds a construct the rules do not model. `why` names it (a rule used as is names its
 * node type); it is recorded only when the caller asked for reasons.
 */
function unmodelled(why?: string | Node): null {
  exact = false;
  if (reasons !== null) reasons.add(typeof why === "string" ? why : why?.type ?? "unnamed");
  return null;
}

const K = {
  Module: 2,
  Namespace: 3,
  Class: 5,
  Method: 6,
  Property: 7,
  Field: 8,
  Constructor: 9,
  Enum: 10,
  Interface: 11,
  Function: 12,
  Variable: 13,
  Constant: 14,
  Object: 19,
  EnumMember: 22,
  Struct: 23,
  TypeParameter: 26,
} as const;

function named(node: Node, kind: number, field = "name"): Found | null {
  const nameNode = node.childForFieldName(field);
  return nameNode ? { name: nameNode.text, kind, node, nameNode } : null;
}

/** A name bound by a pattern: its identifier, and the binding element tsserver spans. */
interface Bound {
  /** `a`, `b: c = 1`, `...rest`: the identifier with its property name, default or dots. */
  element: Node;
  id: Node;
}

/** The names bound by a destructuring pattern (or the identifier itself). */
function boundIdentifiers(pattern: Node, out: Bound[] = [], element: Node | null = null): Bound[] {
  switch (pattern.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      out.push({ element: element ?? pattern, id: pattern });
      break;
    case "pair_pattern": {
      const value = pattern.childForFieldName("value");
      if (value) boundIdentifiers(value, out, pattern);
      break;
    }
    case "assignment_pattern":
    case "object_assignment_pattern": {
      // `a = 1`: the default value binds nothing.
      const left = pattern.childForFieldName("left");
      if (left) boundIdentifiers(left, out, element ?? pattern);
      break;
    }
    case "rest_pattern": {
      const target = pattern.namedChildren[0];
      if (target) boundIdentifiers(target, out, element ?? pattern);
      break;
    }
    default:
      // A nested object or array pattern: its elements are elements of their own.
      for (const child of pattern.namedChildren) if (child) boundIdentifiers(child, out);
  }
  return out;
}

const CONTAINERS: ReadonlySet<number> = new Set([K.Class, K.Interface, K.Struct, K.Object]);

// TypeScript, TSX and JavaScript (tsserver's navigation tree, as typescript-language-server
// sends it: checked against it by tests/index/agreement_test.ts).

/** A declaration wrapped in `export`, `export default` or `declare` starts at the wrapper. */
function tsOuter(node: Node): Node {
  let outer = node;
  for (let p = node.parent; p; p = p.parent) {
    if (p.type !== "export_statement" && p.type !== "ambient_declaration") break;
    outer = p;
  }
  return outer;
}

/** A member's `;` or `,` belongs to it (tsserver's node includes the separator). */
function tsSeparator(node: Node): Node | undefined {
  if (node.parent?.type === "object") return undefined; // object literals: not included
  const next = node.nextSibling;
  return next && !next.isNamed && (next.type === ";" || next.type === ",") ? next : undefined;
}

const FUNCTION_EXPRESSIONS: ReadonlySet<string> = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

/** tsserver's name of a called expression: `a.b.c` for `a.b.c(...)`, undefined for others. */
function calledName(expr: Node | null): string | undefined {
  if (!expr) return undefined;
  if (expr.type === "identifier") return expr.text;
  if (expr.type === "member_expression") {
    const property = expr.childForFieldName("property");
    if (!property) return undefined;
    const left = calledName(expr.childForFieldName("object"));
    return left === undefined ? property.text : `${left}.${property.text}`;
  }
  return undefined;
}

const SIGNATURE_LISTED = ["object_type", "object_pattern", "array_pattern", "assignment_pattern"];

/** Whether a function's parameters, return type or type parameters hold anything tsserver lists. */
function signatureLists(fn: Node): boolean {
  for (const field of ["parameters", "parameter", "return_type", "type_parameters"]) {
    const part = fn.childForFieldName(field);
    if (!part) continue;
    if (part.descendantsOfType(SIGNATURE_LISTED).length > 0) return true;
    const params = part.descendantsOfType(["required_parameter", "optional_parameter"]);
    if (params.some((p) => p?.childForFieldName("value"))) return true;
  }
  return false;
}

/**
 * A function expression: named after its variable, property or field (listed there); as an
 * argument of a call, tsserver's `callee("string args") callback`; assigned (`a.b = () => 1`),
 * after the property; with a name of its own, by it; else `<function>`, listed only when
 * something is nested in it.
 */
const functionExpression: Rule = (node) => {
  const parent = node.parent;
  if (!parent) return unmodelled("function expression at the root");
  const ownName = node.childForFieldName("name");
  if (parent.type === "export_statement") return null; // `export default () => ...`: the default
  if (
    (parent.type === "variable_declarator" || parent.type === "pair" ||
      parent.type === "public_field_definition" || parent.type === "field_definition") &&
    parent.childForFieldName("value")?.equals(node)
  ) {
    // Merged into its variable or property, whose children tsserver takes from the whole
    // function: destructured parameters, defaults and type literals too. Not modelled.
    return signatureLists(node) ? unmodelled("listed parts in a function value's signature") : null;
  }
  if (ownName) return { name: ownName.text, kind: K.Function, node, nameNode: ownName };
  if (parent.type === "assignment_expression" && parent.childForFieldName("right")?.equals(node)) {
    const left = parent.childForFieldName("left");
    const target = left?.type === "member_expression" ? left.childForFieldName("property") : left;
    if (target?.type !== "identifier" && target?.type !== "property_identifier") {
      return unmodelled("function assigned to a computed target");
    }
    return { name: target.text, kind: K.Function, node, nameNode: node, selectAtStart: true };
  }
  const call = parent.parent;
  if (parent.type !== "arguments" || call?.type !== "call_expression") {
    return {
      name: "<function>",
      kind: K.Function,
      node,
      nameNode: node,
      selectAtStart: true,
      dropIfEmpty: true,
    };
  }
  const callee = calledName(call.childForFieldName("function"));
  if (callee === undefined) return unmodelled("callback of a computed callee");
  const strings = parent.namedChildren.filter((a): a is Node =>
    a !== null && (a.type === "string" ||
      a.type === "template_string" && !a.namedChildren.some((c) => c?.type !== "string_fragment"))
  ).map((a) => a.text);
  const name = `${callee}(${strings.join(", ")}) callback`;
  if (name.length > 100 || name.includes("\n")) return unmodelled("long callback name"); // tsserver shortens these
  return { name, kind: K.Function, node, nameNode: node, selectAtStart: true };
};

const variableDeclarator: Rule = (node) => {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return null;
  if (
    nameNode.type === "identifier" &&
    node.parent?.namedChildren.some((d) =>
      d !== null && !d.equals(node) && d.childForFieldName("name")?.text === nameNode.text
    )
  ) return unmodelled("name declared twice in one statement");
  const isConst = node.parent?.firstChild?.type === "const";
  const kind = isConst ? K.Constant : K.Variable;
  if (nameNode.type === "identifier") return { name: nameNode.text, kind, node, nameNode };
  // Destructuring: each bound name is a declaration of its own, without children, and
  // tsserver lists nothing of the initializer.
  return boundIdentifiers(nameNode).map(({ element, id }) => ({
    name: id.text,
    kind,
    node: element,
    nameNode: id,
    detached: true,
    leaf: true,
  }));
};

/** `catch (e)`: a variable, ranging over its declaration (`e`, `e: unknown`, a pattern's elements). */
const catchClause: Rule = (node) => {
  const param = node.childForFieldName("parameter");
  if (!param) return null;
  const type = node.childForFieldName("type");
  if (param.type === "identifier") {
    return {
      name: param.text,
      kind: K.Variable,
      node: param,
      nameNode: param,
      to: type ?? undefined,
      detached: true,
    };
  }
  return boundIdentifiers(param).map(({ element, id }) => ({
    name: id.text,
    kind: K.Variable,
    node: element,
    nameNode: id,
    detached: true,
  }));
};

/** `for (const x of xs)`: the loop variables, each as its identifier. */
const forInStatement: Rule = (node) => {
  const left = node.childForFieldName("left");
  const kind = node.childForFieldName("kind")?.text;
  if (!left || kind === undefined) return null; // `for (x of xs)` declares nothing
  const k = kind === "const" ? K.Constant : K.Variable;
  return boundIdentifiers(left).map(({ element, id }) => ({
    name: id.text,
    kind: k,
    node: element,
    nameNode: id,
    detached: true,
  }));
};

const methodDefinition: Rule = (node, parentKind) => {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return null;
  const name = nameNode.text;
  if (name === "constructor" && CONTAINERS.has(parentKind)) {
    const found: Found[] = [{
      name,
      kind: K.Constructor,
      node,
      nameNode,
      selectAtStart: true,
      // A signature's `;` is part of it; a body is followed by none.
      to: node.type === "method_signature" ? tsSeparator(node) : undefined,
    }];
    // Parameter properties (`constructor(private radius: number)`) are members of the class.
    const params = node.childForFieldName("parameters");
    for (const param of params?.namedChildren ?? []) {
      if (
        !param || !param.namedChildren.some((c) =>
            c?.type === "accessibility_modifier" ||
            c?.type === "override_modifier"
          ) && !/^\s*readonly\b/.test(param.text)
      ) continue;
      const id = param.childForFieldName("pattern");
      if (id?.type === "identifier") {
        found.push({ name: id.text, kind: K.Property, node: param, nameNode: id });
      } else unmodelled("destructured parameter property");
    }
    return found;
  }
  return tsMethod({ name, kind: K.Method, node, nameNode, to: tsSeparator(node) });
};

/**
 * A method (with a body or not): overloads are same-named methods, all static or all not;
 * accessors (`get x()`, `set x(v)`) are never merged, not even with each other.
 */
function tsMethod(found: Found): Found {
  const tokens = found.node.children;
  // Methods of object literals are never overloads (one literal's same-named ones: see `once`).
  if (found.node.parent?.type === "object") return once(found.node, found) ?? found;
  found.overload = !tokens.some((c) => c?.type === "get" || c?.type === "set");
  if (tokens.some((c) => c?.type === "static")) found.overloadKey = `static ${found.name}`;
  return found;
}

const overloadable = (rule: Rule): Rule => (n, parentKind) => {
  const found = rule(n, parentKind);
  if (found && found !== SKIP && !Array.isArray(found)) found.overload = true;
  return found;
};

/** A declaration that may be wrapped in `export` or `declare`. */
const exported = (kind: number, leaf = false): Rule => (n) => {
  const found = named(n, kind);
  if (found) {
    found.from = tsOuter(n);
    found.leaf = leaf;
  }
  return found;
};

/** A member whose `;` or `,` is part of its range. */
/**
 * Names of the members seen so far per parent node (by node id), for the file being extracted:
 * tsserver merges same-named properties of one object literal, class or interface, but not of
 * two, so a second one in the same parent is unmodelled.
 */
const memberNames = new Map<number, Set<string>>();

/** The member found, or unmodelled when its parent already has one of that name. */
function once(n: Node, found: Found | null, key = found?.name): Found | null {
  const parent = n.parent;
  if (!found || !parent || key === undefined) return found;
  let names = memberNames.get(parent.id);
  if (!names) memberNames.set(parent.id, names = new Set());
  if (names.has(key)) return unmodelled("member declared twice in one body");
  names.add(key);
  return found;
}

const member = (kind: number, field = "name"): Rule => (n) => {
  const found = named(n, kind, field);
  if (found) found.to = tsSeparator(n);
  const isStatic = n.children.some((c) => c?.type === "static");
  return once(n, found, found && isStatic ? `static ${found.name}` : found?.name);
};

const methodSignature: Rule = (n) => {
  const found = named(n, K.Method);
  if (!found) return null;
  found.to = tsSeparator(n);
  return tsMethod(found);
};

/**
 * tsserver visits only the body of a function or method and only the initializer of a variable
 * or property: their parameters (but parameter properties, which the constructor's rule lists),
 * type annotations, type parameters and heritage clauses list nothing.
 */
const skip: Rule = () => SKIP;

/**
 * An index, call or construct signature of an interface or class: tsserver names it `[]`, `()`
 * or `new()`, a variable from its start. Two of a kind in one body are merged: not modelled.
 */
const signature = (name: string): Rule => (n) => {
  if (n.parent?.namedChildren.some((c) => c !== null && c.type === n.type && !c.equals(n))) {
    return unmodelled(`several ${n.type}s`);
  }
  return { name, kind: K.Variable, node: n, nameNode: n, selectAtStart: true, to: tsSeparator(n) };
};

/**
 * `export default <expression>` and `export = <expression>`: tsserver's `default` or `export=`,
 * a constant (a function for a function) over the whole statement, named from its start. What
 * is nested in an object literal, a call or a function's body is listed in it; nothing else is.
 */
const exportStatement: Rule = (n) => {
  if (n.childForFieldName("declaration")) return null;
  const isDefault = n.children.some((c) => c?.type === "default");
  if (!isDefault && !n.children.some((c) => c?.type === "=")) return null; // export { a }, *
  const value = n.childForFieldName("value") ??
    n.namedChildren.find((c) => c !== null && c.type !== "comment");
  if (!value || value.type === "class" || value.type === "decorator") {
    return unmodelled("export default expression");
  }
  const fn = FUNCTION_EXPRESSIONS.has(value.type);
  return {
    name: isDefault ? "default" : "export=",
    kind: fn ? K.Function : K.Constant,
    node: n,
    nameNode: n,
    selectAtStart: true,
    leaf: !fn && value.type !== "object" && value.type !== "call_expression",
  };
};

const TS_RULES: Readonly<Record<string, Rule>> = {
  // Imports list nothing (typescript-language-server drops aliases), nor their attributes.
  import_statement: skip,
  // `using x = ...` and `await using x = ...` are read by this grammar as an assignment that
  // starts before its left side: tsserver lists a variable. Not modelled.
  assignment_expression: (n) =>
    n.childForFieldName("left")?.startIndex !== n.startIndex
      ? unmodelled("using declaration")
      : null,
  formal_parameters: skip,
  type_annotation: skip,
  opting_type_annotation: skip,
  omitting_type_annotation: skip,
  type_predicate_annotation: skip,
  asserts_annotation: skip,
  type_parameters: skip,
  class_heritage: skip,
  extends_type_clause: skip,
  // A type literal anywhere else (`x as { a: 1 }`, `f<{ a: 1 }>()`): tsserver visits it.
  object_type: () => unmodelled("type literal in an expression"),
  class_declaration: exported(K.Class),
  abstract_class_declaration: exported(K.Class),
  class: unmodelled,
  interface_declaration: exported(K.Interface),
  enum_declaration: exported(K.Enum),
  enum_assignment: (n) => named(n, K.Constant),
  property_identifier: (n) => {
    if (n.parent?.type !== "enum_body") return null;
    return { name: n.text, kind: K.Constant, node: n, nameNode: n };
  },
  type_alias_declaration: exported(K.Variable, true),
  function_declaration: overloadable(exported(K.Function)),
  generator_function_declaration: overloadable(exported(K.Function)),
  function_signature: overloadable(exported(K.Function)),
  method_definition: methodDefinition,
  // A constructor without a body (in a declaration file) is listed as one with a body.
  method_signature: (n, parentKind) =>
    n.childForFieldName("name")?.text === "constructor" && CONTAINERS.has(parentKind)
      ? methodDefinition(n, parentKind)
      : methodSignature(n, parentKind),
  abstract_method_signature: overloadable(member(K.Method)),
  public_field_definition: member(K.Property),
  field_definition: member(K.Property, "property"),
  property_signature: member(K.Property),
  index_signature: signature("[]"),
  call_signature: signature("()"),
  construct_signature: signature("new()"),
  variable_declarator: variableDeclarator,
  for_in_statement: forInStatement,
  catch_clause: catchClause,
  internal_module: exported(K.Module),
  module: exported(K.Module),
  arrow_function: functionExpression,
  function_expression: functionExpression,
  function: functionExpression,
  generator_function: functionExpression,
  pair: (n) => {
    const key = n.childForFieldName("key");
    if (!key) return null;
    const value = n.childForFieldName("value");
    const kind = value && FUNCTION_EXPRESSIONS.has(value.type) ? K.Method : K.Property;
    return once(n, { name: key.text, kind, node: n, nameNode: key });
  },
  shorthand_property_identifier: (n) =>
    once(n, { name: n.text, kind: K.Property, node: n, nameNode: n }),
  spread_element: (n) => {
    if (n.parent?.type !== "object") return null;
    const arg = n.namedChildren[0];
    if (arg?.type === "object") return unmodelled("spread of an object literal");
    if (arg?.type === "identifier") {
      return once(n, { name: arg.text, kind: K.Property, node: n, nameNode: arg });
    }
    // `...a.b`: tsserver has no name for it; other expressions are not modelled.
    if (arg?.type !== "member_expression") return unmodelled("spread of an expression");
    const unknown = { name: "<unknown>", kind: K.Property, node: n, nameNode: n };
    return once(n, { ...unknown, selectAtStart: true });
  },
  export_statement: exportStatement,
  // Decorators are part of their member's or class's range, as in tsserver; before `export`
  // (`@d export class`) they are not modelled.
  decorator: (n) =>
    n.parent?.type === "export_statement" ? unmodelled("decorator before export") : null,
};

/** JavaScript: tsserver also lists assignments to members (`module.exports.x =`, `this.x =`). */
/** `exports` or `module.exports`. */
function isExports(node: Node | null): boolean {
  if (node?.type === "identifier") return node.text === "exports";
  return node?.type === "member_expression" && node.text === "module.exports";
}

/** `void 0`, which TypeScript's CommonJS output assigns to each export before defining it. */
function isVoidZero(node: Node | null): boolean {
  return node?.type === "unary_expression" && /^void\s+0$/.test(node.text);
}

/**
 * JavaScript: tsserver lists a CommonJS export `exports.x = value` (a constant, or a function
 * for a function value, beside the function itself), but not one of `void 0` or of a name
 * declared elsewhere (`exports.X = X`); other assignments to members list nothing, except ES5
 * classes (`F.prototype.m = ...`) and `module.exports = ...`, which are not modelled.
 */
const jsAssignment: Rule = (n) => {
  const left = n.childForFieldName("left");
  if (left && left.startIndex !== n.startIndex) return unmodelled("using declaration");
  if (left?.type !== "member_expression") return null;
  if (/\bprototype\b/.test(left.text)) return unmodelled("prototype assignment");
  if (isExports(left)) return unmodelled("module.exports assignment");
  const object = left.childForFieldName("object");
  const property = left.childForFieldName("property");
  if (!isExports(object)) return null;
  let right = n.childForFieldName("right");
  const chained = right?.type === "assignment_expression";
  while (right?.type === "assignment_expression") right = right.childForFieldName("right");
  if (isVoidZero(right)) return null;
  if (chained) return unmodelled("chained export assignment");
  if (property?.type !== "property_identifier" || !right) return unmodelled("computed export");
  if (right.type === "identifier") return null;
  if (right.type === "class") return unmodelled("exported class expression");
  const kind = FUNCTION_EXPRESSIONS.has(right.type) ? K.Function : K.Constant;
  return { name: property.text, kind, node: n, nameNode: property };
};

const JS_RULES: Readonly<Record<string, Rule>> = {
  ...TS_RULES,
  assignment_expression: jsAssignment,
};

// Python (pyright's document symbols: classes, functions, their parameters, and the variables
// of every scope, each variable ranging over its name only).
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

const PYTHON_RULES: Readonly<Record<string, Rule>> = {
  class_definition: (n) =>
    n.parent?.type === "decorated_definition" ? unmodelled("decorated class") : named(n, K.Class),
  function_definition: (n, parentKind) => {
    const found = named(n, parentKind === K.Class ? K.Method : K.Function);
    // A decorated definition's body starts at its first decorator.
    if (found && n.parent?.type === "decorated_definition") found.node = n.parent;
    return found;
  },
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

// Rust (rust-analyzer's document symbols). An item's range starts at the comments and
// attributes before it, as rust-analyzer attaches them: comments not separated by a blank
// line (an outer doc comment may be), up to an inner doc comment.
function rustStart(node: Node): Node {
  let start = node;
  for (let p = node.previousSibling; p; p = p.previousSibling) {
    if (p.type === "attribute_item") {
      start = p;
      continue;
    }
    if (p.type !== "line_comment" && p.type !== "block_comment") break;
    const text = p.text;
    if (text.startsWith("//!") || text.startsWith("/*!")) break;
    const outerDoc = (text.startsWith("///") && !text.startsWith("////")) ||
      (text.startsWith("/**") && !text.startsWith("/***") && text !== "/**/");
    if (start.startPosition.row - p.endPosition.row >= 2 && !outerDoc) break;
    start = p;
  }
  return start;
}

const rustItem = (rule: Rule): Rule => (n, parentKind) => {
  const result = rule(n, parentKind);
  if (result === SKIP) return result;
  for (const f of result === null ? [] : Array.isArray(result) ? result : [result]) {
    f.from = rustStart(f.node);
  }
  return result;
};

/** Whether a function takes `self` (`self`, `&self`, `mut self: Box<Self>`). */
function rustSelf(fn: Node): boolean {
  const first = fn.childForFieldName("parameters")?.namedChildren.find((p) =>
    p !== null && p.type !== "attribute_item" && p.type !== "line_comment" &&
    p.type !== "block_comment"
  );
  if (first?.type === "self_parameter") return true;
  // `mut self: Box<Self>` is an ordinary parameter to tree-sitter.
  return first?.type === "parameter" &&
    /^(mut\s+)?self$/.test(first.childForFieldName("pattern")?.text ?? "");
}

const RUST_ITEM_RULES: Readonly<Record<string, Rule>> = {
  // rust-analyzer: a method takes `self`; an associated function without it is a function.
  function_item: (n) => named(n, rustSelf(n) ? K.Method : K.Function),
  function_signature_item: (n) => named(n, rustSelf(n) ? K.Method : K.Function),
  struct_item: (n) => named(n, K.Struct),
  union_item: (n) => named(n, K.Struct),
  enum_item: (n) => named(n, K.Enum),
  enum_variant: (n) => named(n, K.EnumMember),
  field_declaration: (n) => named(n, K.Field),
  trait_item: (n) => named(n, K.Interface),
  impl_item: (n) => {
    const type = n.childForFieldName("type");
    if (!type) return null;
    if (n.childForFieldName("type_parameters")) unmodelled("generic impl"); // rust-analyzer's name differs
    const trait = n.childForFieldName("trait");
    const name = `impl ${trait ? `${trait.text} for ` : ""}${type.text}`;
    return { name, kind: K.Object, node: n, nameNode: type };
  },
  const_item: (n) => named(n, K.Constant),
  static_item: (n) => named(n, K.Constant),
  type_item: (n) => named(n, K.TypeParameter),
  associated_type: (n) => named(n, K.TypeParameter),
  mod_item: (n) => named(n, K.Module),
  macro_definition: (n) => named(n, K.Function),
  macro_invocation: (n) =>
    n.parent?.type === "source_file" || n.parent?.type === "declaration_list"
      ? unmodelled("item macro")
      : null,
  foreign_mod_item: unmodelled,
  extern_crate_declaration: unmodelled,
};

const RUST_RULES: Readonly<Record<string, Rule>> = Object.fromEntries(
  Object.entries(RUST_ITEM_RULES).map(([type, rule]) => [type, rustItem(rule)]),
);

// Go (gopls: package-level declarations, struct fields and interface methods; methods named
// after their receiver, `(*T).M`).
function goNames(n: Node, kind: number): Found[] {
  const names = n.childrenForFieldName("name").filter((c): c is Node => c !== null && c.isNamed);
  if (names.some((id) => id.text === "_")) unmodelled("blank name");
  return names.map((id) => ({ name: id.text, kind, node: n, nameNode: id }));
}

/** An embedded type's name (`T`, `pkg.T`), or null when gopls's listing is not modelled. */
function goEmbedded(type: Node | null | undefined): Node | null {
  if (type?.type === "type_identifier") return type;
  if (type?.type === "qualified_type") return type.childForFieldName("name");
  return null;
}

/**
 * A field or method of a struct or interface type: listed in a type declaration; in a function
 * body (`tests := []struct{ name string }{...}`) gopls lists nothing; in a variable's type, not
 * modelled.
 */
const goMember = (rule: Rule): Rule => (n, parentKind) => {
  if (parentKind === K.Function || parentKind === K.Method) return SKIP;
  if (parentKind === K.Variable || parentKind === K.Constant) {
    return unmodelled("member of a variable's type");
  }
  return rule(n, parentKind);
};

const GO_RULES: Readonly<Record<string, Rule>> = {
  function_declaration: (n) => named(n, K.Function),
  method_declaration: (n) => {
    const found = named(n, K.Method);
    const receiver = n.childForFieldName("receiver")?.namedChildren.find((c) =>
      c?.type === "parameter_declaration"
    );
    const type = receiver?.childForFieldName("type");
    if (!found || !type || /\s/.test(type.text)) return unmodelled("method receiver");
    found.name = `(${type.text}).${found.name}`;
    return found;
  },
  type_spec: (n, parentKind) => {
    if (parentKind !== 0) return unmodelled("local type"); // types declared in functions
    const t = n.childForFieldName("type")?.type;
    return named(
      n,
      t === "struct_type"
        ? K.Struct
        : t === "interface_type"
        ? K.Interface
        : t === "function_type"
        ? K.Function
        : K.Class,
    );
  },
  type_alias: (n, parentKind) => {
    if (parentKind !== 0) return unmodelled("local type alias");
    const t = n.childForFieldName("type")?.type;
    return t === "function_type" || t === "struct_type" || t === "interface_type"
      ? unmodelled("alias of a type literal")
      : named(n, K.Class);
  },
  field_declaration: goMember((n) => {
    const type = n.childForFieldName("type");
    const names = goNames(n, K.Field);
    if (type?.type === "struct_type" || type?.type === "interface_type") {
      return unmodelled("anonymous struct field");
    }
    if (names.length > 0) return names;
    const id = goEmbedded(type);
    return id
      ? { name: id.text, kind: K.Field, node: n, nameNode: id }
      : unmodelled("embedded field");
  }),
  method_spec: goMember((n) => named(n, K.Method)),
  method_elem: goMember((n) => named(n, K.Method)),
  constraint_elem: goMember((n) => {
    const id = n.namedChildCount === 1 ? goEmbedded(n.namedChildren[0]) : null;
    return id ? { name: id.text, kind: K.Field, node: n, nameNode: id } : unmodelled("constraint");
  }),
  type_elem: goMember(unmodelled),
  const_spec: (n, parentKind) => parentKind === 0 ? goNames(n, K.Constant) : null,
  var_spec: (n, parentKind) => parentKind === 0 ? goNames(n, K.Variable) : null,
};

// C and C++ (clangd).
/** The name inside a (possibly nested) declarator: `*f(int)`, `A::f`, `arr[3]`. */
function declaratorName(node: Node | null): { nameNode: Node; isFunction: boolean } | null {
  let isFunction = false;
  for (let d = node; d; d = d.childForFieldName("declarator")) {
    if (d.type === "function_declarator") isFunction = true;
    switch (d.type) {
      case "identifier":
      case "field_identifier":
      case "type_identifier":
      case "destructor_name":
      case "operator_name":
        return { nameNode: d, isFunction };
      case "qualified_identifier": {
        let q: Node | null = d;
        while (q?.type === "qualified_identifier") q = q.childForFieldName("name");
        return q ? { nameNode: q, isFunction } : null;
      }
    }
  }
  return null;
}

const IN_TYPE: ReadonlySet<number> = new Set([K.Class, K.Struct]);

function cDeclaration(n: Node, parentKind: number): Found[] {
  const out: Found[] = [];
  const atScope = parentKind === 0 || parentKind === K.Namespace || IN_TYPE.has(parentKind);
  if (!atScope) return out; // locals: clangd lists none
  for (const d of n.childrenForFieldName("declarator")) {
    const found = declaratorName(d);
    if (!found) continue;
    const kind = found.isFunction
      ? (IN_TYPE.has(parentKind) ? K.Method : K.Function)
      : (IN_TYPE.has(parentKind) ? K.Field : K.Variable);
    out.push({ name: found.nameNode.text, kind, node: n, nameNode: found.nameNode });
  }
  return out;
}

const typeSpecifier = (kind: number): Rule => (n) =>
  n.childForFieldName("body") ? named(n, kind) : null;

const C_RULES: Readonly<Record<string, Rule>> = {
  function_definition: (n, parentKind) => {
    const found = declaratorName(n.childForFieldName("declarator"));
    if (!found) return null;
    const kind = IN_TYPE.has(parentKind) ? K.Method : K.Function;
    return { name: found.nameNode.text, kind, node: n, nameNode: found.nameNode };
  },
  declaration: cDeclaration,
  field_declaration: cDeclaration,
  struct_specifier: typeSpecifier(K.Struct),
  union_specifier: typeSpecifier(K.Struct),
  class_specifier: typeSpecifier(K.Class),
  enum_specifier: typeSpecifier(K.Enum),
  enumerator: (n) => named(n, K.EnumMember),
  namespace_definition: (n) => named(n, K.Namespace),
  type_definition: (n) => {
    const found = declaratorName(n.childForFieldName("declarator"));
    return found
      ? { name: found.nameNode.text, kind: K.Class, node: n, nameNode: found.nameNode }
      : null;
  },
  alias_declaration: (n) => named(n, K.Class),
  preproc_def: (n) => named(n, K.Constant),
  preproc_function_def: (n) => named(n, K.Function),
};

/**
 * C as clangd lists it: each declarator of a declaration is a symbol whose range runs from the
 * declaration's start to the declarator's end (no `;`); a struct defined in a declaration or
 * typedef is its sibling; unions are classes; macros are not listed. Conditional compilation
 * other than a header guard is unmodelled (clangd leaves inactive branches out).
 */
function cDeclarators(n: Node, parentKind: number): Found[] {
  const inType = IN_TYPE.has(parentKind);
  if (parentKind !== 0 && !inType) {
    if (parentKind !== K.Function) unmodelled("local declaration"); // locals in functions: clangd lists none
    return [];
  }
  const out: Found[] = [];
  for (const d of n.childrenForFieldName("declarator")) {
    if (!d) continue;
    const found = declaratorName(d);
    if (!found || found.nameNode.type === "qualified_identifier") {
      unmodelled("qualified declarator");
      continue;
    }
    const kind = n.type === "type_definition"
      ? K.Class
      : found.isFunction
      ? (inType ? K.Method : K.Function)
      : (inType ? K.Field : K.Variable);
    out.push({
      name: found.nameNode.text,
      kind,
      node: n,
      nameNode: found.nameNode,
      to: d,
      detached: true,
    });
  }
  return out;
}

function isHeaderGuard(n: Node): boolean {
  if (n.parent?.type !== "translation_unit" || !n.text.startsWith("#ifndef")) return false;
  const name = n.childForFieldName("name")?.text;
  const first = n.namedChildren[1];
  return first?.type === "preproc_def" && first.childForFieldName("name")?.text === name &&
    !first.childForFieldName("value");
}

/** A struct, union or enum definition (one with a body), at file scope or in a type. */
const cType = (kind: number): Rule => (n, parentKind) => {
  if (!n.childForFieldName("body")) return null;
  return parentKind === 0 || IN_TYPE.has(parentKind) ? named(n, kind) : unmodelled("local type");
};

const C_EXACT_RULES: Readonly<Record<string, Rule>> = {
  ...C_RULES,
  function_definition: (n, parentKind) =>
    parentKind === 0 ? C_RULES.function_definition!(n, parentKind) : unmodelled("nested function"),
  declaration: cDeclarators,
  field_declaration: cDeclarators,
  type_definition: cDeclarators,
  struct_specifier: cType(K.Struct),
  union_specifier: cType(K.Class),
  enum_specifier: cType(K.Enum),
  preproc_def: () => null,
  preproc_function_def: () => null,
  preproc_ifdef: (n) => isHeaderGuard(n) ? null : unmodelled("conditional compilation"),
  preproc_if: unmodelled,
  preproc_elif: unmodelled,
  preproc_else: unmodelled,
  preproc_call: unmodelled,
};

// Bash (bash-language-server: functions and variables).
/** Commands that set variables without an assignment (`read x`), which the server lists. */
const BASH_BINDING_COMMANDS: ReadonlySet<string> = new Set([
  "read",
  "mapfile",
  "readarray",
  "getopts",
  "printf",
  "let",
]);

/** A variable, listed where it is first assigned in its function (or the script). */
const bashAssignment: Rule = (n) => {
  let scope = n.parent;
  while (scope && scope.type !== "function_definition" && scope.type !== "program") {
    scope = scope.parent;
  }
  const found = named(n, K.Variable);
  if (!found || !scope) return found;
  let names = memberNames.get(scope.id);
  if (!names) memberNames.set(scope.id, names = new Set());
  if (names.has(found.name)) return null;
  names.add(found.name);
  // Assigned in two functions, or in one and the script: which the server lists is not modelled.
  const key = `\0bash ${found.name}`;
  let scopes = memberNames.get(-1);
  if (!scopes) memberNames.set(-1, scopes = new Set());
  if (scopes.has(key)) return unmodelled("variable assigned in several functions");
  scopes.add(key);
  return found;
};

const BASH_RULES: Readonly<Record<string, Rule>> = {
  function_definition: (n) => named(n, K.Function),
  variable_assignment: bashAssignment,
  command: (n) =>
    BASH_BINDING_COMMANDS.has(n.childForFieldName("name")?.text ?? "")
      ? unmodelled("variable bound by a command")
      : null,
};

// Java (Eclipse JDT LS). The server names methods and constructors with their parameter types
// (`area()`, `Circle(double)`); the index keeps the bare identifier, which is what a search's
// name is matched against to choose the files the server is asked about. Not proven exact.
/** A field's kind: JDT LS lists `static final` fields as constants. */
function javaFieldKind(n: Node): number {
  const modifiers = n.namedChildren.find((c) => c?.type === "modifiers")?.text ?? "";
  return /\bstatic\b/.test(modifiers) && /\bfinal\b/.test(modifiers) ? K.Constant : K.Field;
}

const JAVA_RULES: Readonly<Record<string, Rule>> = {
  package_declaration: (n) => {
    const id = n.namedChildren.find((c) =>
      c?.type === "identifier" || c?.type === "scoped_identifier"
    );
    return id ? { name: id.text, kind: 4, node: n, nameNode: id, leaf: true } : null;
  },
  class_declaration: (n) => named(n, K.Class),
  record_declaration: (n) => named(n, K.Class),
  interface_declaration: (n) => named(n, K.Interface),
  annotation_type_declaration: (n) => named(n, K.Interface),
  enum_declaration: (n) => named(n, K.Enum),
  enum_constant: (n) => named(n, K.EnumMember),
  method_declaration: (n) => named(n, K.Method),
  constructor_declaration: (n) => named(n, K.Constructor),
  compact_constructor_declaration: (n) => named(n, K.Constructor),
  field_declaration: (n) => {
    const kind = javaFieldKind(n);
    return n.childrenForFieldName("declarator").flatMap((d) => {
      const found = d ? named(d, kind) : null;
      return found ? [{ ...found, node: n }] : [];
    });
  },
  constant_declaration: (n) =>
    n.childrenForFieldName("declarator").flatMap((d) => {
      const found = d ? named(d, K.Constant) : null;
      return found ? [{ ...found, node: n }] : [];
    }),
};

const RULES: Readonly<Record<GrammarId, Readonly<Record<string, Rule>>>> = {
  typescript: TS_RULES,
  tsx: TS_RULES,
  javascript: JS_RULES,
  python: PYTHON_RULES,
  rust: RUST_RULES,
  go: GO_RULES,
  c: C_EXACT_RULES,
  cpp: C_RULES,
  bash: BASH_RULES,
  java: JAVA_RULES,
};

/** Per sibling list, the names of overloadable declarations seen so far. */
const OVERLOADS = new WeakMap<CompactSymbol[], Set<string>>();

function compact(found: Found, laterOverload = false): CompactSymbol {
  const from = found.from ?? found.node;
  const to = found.to ?? found.node;
  if (laterOverload) {
    const r = [from.startPosition, to.endPosition] as const;
    return [
      found.name,
      found.kind,
      r[0].row,
      r[0].column,
      r[1].row,
      r[1].column,
      r[0].row,
      r[0].column,
      r[1].row,
      r[1].column,
    ];
  }
  const s = found.selectAtStart ? from : found.nameNode;
  return [
    found.name,
    found.kind,
    from.startPosition.row,
    from.startPosition.column,
    to.endPosition.row,
    to.endPosition.column,
    s.startPosition.row,
    s.startPosition.column,
    (found.selectAtStart ? from : s).endPosition.row,
    (found.selectAtStart ? from : s).endPosition.column,
  ];
}

/** The declarations of a file, and whether they are exactly what its language server lists. */
export interface Extracted {
  symbols: CompactSymbol[];
  /**
   * True when the file's grammar is one whose rules were proven equal to its server's
   * documentSymbol ({@linkcode EXACT_GRAMMARS}), the file parsed without errors, and it holds
   * no construct the rules do not model: then the declarations (names, kinds, nesting, ranges)
   * are the server's answer, and tools may use them instead of asking it.
   */
  exact: boolean;
}

/**
 * The grammars whose rules reproduce their server's documentSymbol exactly, for files that hold
 * only modelled constructs (tests/index/agreement_test.ts proves it on the fixtures, server by
 * server). Others are used only to choose which files the server is asked about.
 */
export const EXACT_GRAMMARS: ReadonlySet<GrammarId> = new Set<GrammarId>([
  "typescript",
  "tsx",
  "javascript",
  "go",
  "c",
  "rust",
  "python",
  "bash",
]);

/**
 * The server each proven grammar's rules were proven against (its command's name): a file whose
 * project runs another server for it (basedpyright or pylsp for Python, `deno lsp` for a Deno
 * project, a configured command) is never answered from the index.
 */
export const PROVEN_SERVERS: Readonly<Partial<Record<GrammarId, string>>> = {
  typescript: "typescript-language-server",
  tsx: "typescript-language-server",
  javascript: "typescript-language-server",
  python: "pyright-langserver",
  rust: "rust-analyzer",
  go: "gopls",
  c: "clangd",
  bash: "bash-language-server",
};

/** Same-named siblings the rules reproduce (tsserver lists overloads and accessors apart). */
const SEPARATE_DUPLICATES: ReadonlySet<number> = new Set([K.Function, K.Method, K.Constructor]);

const TS_FAMILY: ReadonlySet<GrammarId> = new Set<GrammarId>(["typescript", "tsx", "javascript"]);

/**
 * tsserver merges same-named declarations only of one kind and one parent node: variables of
 * separate statements (`const x` in two blocks, two `catch (e)`) and properties of separate
 * object literals stay apart, also beside each other (a name declared twice in one statement or
 * body is unmodelled: see {@linkcode variableDeclarator} and `once`).
 */
const TS_SEPARATE_DUPLICATES: ReadonlySet<number> = new Set([
  ...SEPARATE_DUPLICATES,
  K.Variable,
  K.Constant,
  K.Property,
]);

function duplicatesModelled(symbols: readonly CompactSymbol[], grammar: GrammarId): boolean {
  // pyright lists a scope's symbol once, however often it is assigned: not modelled.
  if (grammar === "python") {
    return new Set(symbols.map((s) => s[0])).size === symbols.length &&
      symbols.every((s) => !s[10] || duplicatesModelled(s[10], grammar));
  }
  const separate = TS_FAMILY.has(grammar) ? TS_SEPARATE_DUPLICATES : SEPARATE_DUPLICATES;
  const seen = new Map<string, number>();
  for (const s of symbols) {
    const before = seen.get(s[0]);
    if (before !== undefined && !(separate.has(before) && separate.has(s[1]))) {
      return false;
    }
    seen.set(s[0], s[1]);
    if (s[10] && !duplicatesModelled(s[10], grammar)) return false;
  }
  return true;
}

/**
 * The declarations of a parsed file, as a forest in document order. Syntax errors do not stop
 * it: tree-sitter recovers, and whatever parsed is listed.
 */
export function extractDeclarations(root: Node, grammar: GrammarId): CompactSymbol[] {
  return extractFile(root, grammar).symbols;
}

/**
 * {@linkcode extractDeclarations}, with whether they are exact (see {@linkcode Extracted}).
 * With `why`, the reasons a file is not exact are added to it (the constructs not modelled,
 * "syntax error", "duplicate names", "grammar not proven"): scripts/index_agreement.ts's
 * histogram.
 */
export function extractFile(root: Node, grammar: GrammarId, why?: Set<string>): Extracted {
  const rules = RULES[grammar];
  const top: CompactSymbol[] = [];
  const cursor = root.walk();
  exact = true;
  reasons = why ?? null;
  try {
    visitChildren(cursor, rules, top, 0, null);
  } finally {
    cursor.delete();
    reasons = null;
    memberNames.clear();
  }
  const proven = EXACT_GRAMMARS.has(grammar);
  const syntaxError = root.hasError;
  const duplicates = !duplicatesModelled(top, grammar);
  if (why) {
    if (!proven) why.add("grammar not proven");
    if (syntaxError) why.add("syntax error");
    if (duplicates) why.add("duplicate names");
  }
  return { symbols: top, exact: exact && proven && !syntaxError && !duplicates };
}

function visitChildren(
  cursor: TreeCursor,
  rules: Readonly<Record<string, Rule>>,
  siblings: CompactSymbol[],
  parentKind: number,
  members: CompactSymbol[] | null,
): void {
  if (!cursor.gotoFirstChild()) return;
  do {
    const rule = cursor.nodeIsNamed ? rules[cursor.nodeType] : undefined;
    let owner: CompactSymbol | null = null;
    let kind = parentKind;
    let leaf = false;
    let dropIfEmpty = false;
    if (rule) {
      const result = rule(cursor.currentNode, parentKind);
      if (result === SKIP) continue;
      const found = result === null ? [] : Array.isArray(result) ? result : [result];
      for (const f of found) {
        let overloadNames = OVERLOADS.get(siblings);
        if (f.overload && !overloadNames) OVERLOADS.set(siblings, overloadNames = new Set());
        const key = f.overloadKey ?? f.name;
        const later = f.overload && overloadNames!.has(key);
        if (f.overload) overloadNames!.add(key);
        const c = compact(f, later);
        if (f.member) {
          if (members !== null && !members.some((m) => m[0] === f.name)) members.push(c);
          continue;
        }
        siblings.push(c);
        if (f.leaf) leaf = true;
        // The first declaration owns what is nested in the node (a constructor's body, not
        // the parameter properties listed beside it).
        if (owner === null && !f.detached) {
          owner = c;
          kind = f.kind;
          dropIfEmpty = f.dropIfEmpty === true;
        }
      }
    }
    if (leaf) continue;
    const children: CompactSymbol[] = owner === null ? siblings : [];
    const ownerIsType = owner !== null && (kind === K.Class || kind === K.Struct);
    visitChildren(cursor, rules, children, kind, ownerIsType ? children : members);
    if (owner !== null && children.length > 0) owner.push(children);
    else if (owner !== null && dropIfEmpty) siblings.splice(siblings.indexOf(owner), 1);
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
}
