/**
 * Python rules: pyright's document symbols (classes, functions, their parameters, and the
 * variables of every scope, each variable ranging over its name only).
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { type Found, K, named, type Rule, unmodelled } from "./core.ts";

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

export const PYTHON_RULES: Readonly<Record<string, Rule>> = {
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
