/**
 * Rust rules: rust-analyzer's document symbols. An item's range starts at the comments and
 * attributes before it, as rust-analyzer attaches them: comments not separated by a blank
 * line (an outer doc comment may be), up to an inner doc comment.
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { K, named, type Rule, SKIP, unmodelled } from "./core.ts";

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

export const RUST_RULES: Readonly<Record<string, Rule>> = Object.fromEntries(
  Object.entries(RUST_ITEM_RULES).map(([type, rule]) => [type, rustItem(rule)]),
);
