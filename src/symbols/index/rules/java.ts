/**
 * Java rules: Eclipse JDT LS. The server names methods and constructors with their parameter
 * types (`area()`, `Circle(double)`); the index keeps the bare identifier, which is what a
 * search's name is matched against to choose the files the server is asked about. Not proven
 * exact.
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { K, named, type Rule } from "./core.ts";

/** A field's kind: JDT LS lists `static final` fields as constants. */
function javaFieldKind(n: Node): number {
  const modifiers = n.namedChildren.find((c) => c?.type === "modifiers")?.text ?? "";
  return /\bstatic\b/.test(modifiers) && /\bfinal\b/.test(modifiers) ? K.Constant : K.Field;
}

export const JAVA_RULES: Readonly<Record<string, Rule>> = {
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
