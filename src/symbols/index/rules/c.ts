/**
 * C and C++ rules: clangd. C++ is listed liberally (`C_RULES`); C exactly
 * (`C_EXACT_RULES`).
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { type Found, K, named, type Rule, unmodelled } from "./core.ts";

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

export const C_RULES: Readonly<Record<string, Rule>> = {
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

export const C_EXACT_RULES: Readonly<Record<string, Rule>> = {
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
