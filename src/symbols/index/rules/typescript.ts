/**
 * TypeScript and TSX rules: tsserver's navigation tree, as typescript-language-server sends it
 * (checked against it by tests/symbols/index/agreement_test.ts). JavaScript adds to them
 * (`javascript.ts`).
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import {
  type Found,
  K,
  lastToken,
  memberNames,
  named,
  type Rule,
  SKIP,
  unmodelled,
  unmodelledPart,
} from "./core.ts";

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
// sends it: checked against it by tests/symbols/index/agreement_test.ts).

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

export const FUNCTION_EXPRESSIONS: ReadonlySet<string> = new Set([
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

/** The parts of a function's signature that hold anything tsserver lists (parameters, types). */
function listingSignatureParts(fn: Node): Node[] {
  const parts: Node[] = [];
  for (const field of ["parameters", "parameter", "return_type", "type_parameters"]) {
    const part = fn.childForFieldName(field);
    if (!part) continue;
    const params = part.descendantsOfType(["required_parameter", "optional_parameter"]);
    if (
      part.descendantsOfType(SIGNATURE_LISTED).length > 0 ||
      params.some((p) => p?.childForFieldName("value"))
    ) parts.push(part);
  }
  return parts;
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
    for (const part of listingSignatureParts(node)) {
      unmodelledPart("listed parts in a function value's signature", part);
    }
    return null;
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
    a !== null && (a.type === "string" || a.type === "template_string")
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

/** A member whose `;` or `,` is part of its range. */
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

/**
 * A rule whose declarations end at their last token, not at a comment tree-sitter put inside
 * the node (see {@linkcode lastToken}), unless the rule chose the end itself.
 */
export function endingAtTokens(rules: Readonly<Record<string, Rule>>): Record<string, Rule> {
  return Object.fromEntries(
    Object.entries(rules).map(([type, rule]) => [type, (n, parentKind) => {
      const result = rule(n, parentKind);
      if (result === null || result === SKIP) return result;
      for (const f of Array.isArray(result) ? result : [result]) f.to ??= lastToken(f.node);
      return result;
    }]),
  );
}

const TS_RULES_AS_WRITTEN: Readonly<Record<string, Rule>> = {
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

export const TS_RULES: Readonly<Record<string, Rule>> = endingAtTokens(TS_RULES_AS_WRITTEN);
