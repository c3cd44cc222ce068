/**
 * Go rules: gopls (package-level declarations, struct fields and interface methods; methods
 * named after their receiver, `(*T).M`).
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { type Found, K, named, type Rule, SKIP, unmodelled } from "./core.ts";

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

export const GO_RULES: Readonly<Record<string, Rule>> = {
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
