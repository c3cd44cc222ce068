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
import type { CompactSymbol } from "../lsp/symbols.ts";
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
}

/** A rule sees a node of its type and the kind of the enclosing declaration (0: top level). */
type Rule = (node: Node, parentKind: number) => Found[] | Found | null;

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

/** Identifiers bound by a destructuring pattern (or the identifier itself). */
function boundIdentifiers(pattern: Node, out: Node[] = []): Node[] {
  switch (pattern.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      out.push(pattern);
      break;
    case "pair_pattern": {
      const value = pattern.childForFieldName("value");
      if (value) boundIdentifiers(value, out);
      break;
    }
    default:
      for (const child of pattern.namedChildren) if (child) boundIdentifiers(child, out);
  }
  return out;
}

const CONTAINERS: ReadonlySet<number> = new Set([K.Class, K.Interface, K.Struct, K.Object]);

// TypeScript, TSX and JavaScript (tsserver's navigation tree).
const variableDeclarator: Rule = (node) => {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return null;
  const isConst = node.parent?.firstChild?.type === "const";
  const kind = isConst ? K.Constant : K.Variable;
  if (nameNode.type === "identifier") return { name: nameNode.text, kind, node, nameNode };
  // Destructuring: each bound name is a declaration of its own, without children.
  return boundIdentifiers(nameNode).map((id) => ({ name: id.text, kind, node: id, nameNode: id }));
};

const methodDefinition: Rule = (node, parentKind) => {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return null;
  const name = nameNode.text;
  if (name === "constructor" && CONTAINERS.has(parentKind)) {
    const found: Found[] = [{ name, kind: K.Constructor, node, nameNode }];
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
      }
    }
    return found;
  }
  const accessor = node.children.some((c) => c?.type === "get" || c?.type === "set");
  return { name, kind: accessor ? K.Property : K.Method, node, nameNode };
};

const enumDeclaration: Rule = (node) => named(node, K.Enum);

const TS_RULES: Readonly<Record<string, Rule>> = {
  class_declaration: (n) => named(n, K.Class),
  abstract_class_declaration: (n) => named(n, K.Class),
  class: (n) => named(n, K.Class),
  interface_declaration: (n) => named(n, K.Interface),
  enum_declaration: enumDeclaration,
  enum_assignment: (n) => named(n, K.EnumMember),
  property_identifier: (n) => {
    if (n.parent?.type !== "enum_body") return null;
    return { name: n.text, kind: K.EnumMember, node: n, nameNode: n };
  },
  type_alias_declaration: (n) => named(n, K.Class),
  function_declaration: (n) => named(n, K.Function),
  generator_function_declaration: (n) => named(n, K.Function),
  function_signature: (n) => named(n, K.Function),
  method_definition: methodDefinition,
  method_signature: (n) => named(n, K.Method),
  abstract_method_signature: (n) => named(n, K.Method),
  public_field_definition: (n) => named(n, K.Property),
  field_definition: (n) => named(n, K.Property, "property"),
  property_signature: (n) => named(n, K.Property),
  variable_declarator: variableDeclarator,
  internal_module: (n) => named(n, K.Module),
  module: (n) => named(n, K.Module),
  pair: (n, parentKind) => {
    if (parentKind !== K.Variable && parentKind !== K.Constant && parentKind !== K.Property) {
      return null;
    }
    const key = n.childForFieldName("key");
    if (!key || key.type === "computed_property_name") return null;
    const name = key.type === "string" ? key.text.slice(1, -1) : key.text;
    return { name, kind: K.Property, node: n, nameNode: key };
  },
};

// Python (pyright's document symbols: classes, functions, and the variables of every scope).
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
  }
  return out;
}

const PYTHON_RULES: Readonly<Record<string, Rule>> = {
  class_definition: (n) => named(n, K.Class),
  function_definition: (n, parentKind) => {
    const found = named(n, parentKind === K.Class ? K.Method : K.Function);
    // A decorated definition's body starts at its first decorator.
    if (found && n.parent?.type === "decorated_definition") found.node = n.parent;
    return found;
  },
  assignment: (n, parentKind) => {
    const left = n.childForFieldName("left");
    if (!left) return null;
    if (left.type === "attribute") {
      const object = left.childForFieldName("object");
      const attribute = left.childForFieldName("attribute");
      if (parentKind !== K.Method || object?.text !== "self" || !attribute) return null;
      return { name: attribute.text, kind: K.Variable, node: n, nameNode: attribute, member: true };
    }
    return pythonTargets(left).map((id) => ({
      name: id.text,
      kind: /^[A-Z][A-Z0-9_]*$/.test(id.text) ? K.Constant : K.Variable,
      node: n,
      nameNode: id,
    }));
  },
};

// Rust (rust-analyzer's document symbols).
const RUST_RULES: Readonly<Record<string, Rule>> = {
  function_item: (n, parentKind) =>
    named(n, parentKind === K.Object || parentKind === K.Interface ? K.Method : K.Function),
  function_signature_item: (n) => named(n, K.Method),
  struct_item: (n) => named(n, K.Struct),
  union_item: (n) => named(n, K.Struct),
  enum_item: (n) => named(n, K.Enum),
  enum_variant: (n) => named(n, K.EnumMember),
  field_declaration: (n) => named(n, K.Field),
  trait_item: (n) => named(n, K.Interface),
  impl_item: (n) => {
    const type = n.childForFieldName("type");
    if (!type) return null;
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
};

// Go (gopls: top-level declarations, struct fields and interface methods).
function goNames(n: Node, kind: number): Found[] {
  return n.childrenForFieldName("name").filter((c): c is Node => c !== null).map((id) => ({
    name: id.text,
    kind,
    node: n,
    nameNode: id,
  }));
}

const GO_RULES: Readonly<Record<string, Rule>> = {
  function_declaration: (n) => named(n, K.Function),
  method_declaration: (n) => named(n, K.Method),
  type_spec: (n) => {
    const t = n.childForFieldName("type")?.type;
    return named(
      n,
      t === "struct_type" ? K.Struct : t === "interface_type" ? K.Interface : K.Class,
    );
  },
  type_alias: (n) => named(n, K.Class),
  field_declaration: (n) => goNames(n, K.Field),
  method_spec: (n) => named(n, K.Method),
  method_elem: (n) => named(n, K.Method),
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

// Bash (bash-language-server: functions and variables).
const BASH_RULES: Readonly<Record<string, Rule>> = {
  function_definition: (n) => named(n, K.Function),
  variable_assignment: (n, parentKind) => parentKind === 0 ? named(n, K.Variable) : null,
};

const RULES: Readonly<Record<GrammarId, Readonly<Record<string, Rule>>>> = {
  typescript: TS_RULES,
  tsx: TS_RULES,
  javascript: TS_RULES,
  python: PYTHON_RULES,
  rust: RUST_RULES,
  go: GO_RULES,
  c: C_RULES,
  cpp: C_RULES,
  bash: BASH_RULES,
};

function compact(found: Found): CompactSymbol {
  const r = found.node;
  const s = found.nameNode;
  return [
    found.name,
    found.kind,
    r.startPosition.row,
    r.startPosition.column,
    r.endPosition.row,
    r.endPosition.column,
    s.startPosition.row,
    s.startPosition.column,
    s.endPosition.row,
    s.endPosition.column,
  ];
}

/**
 * The declarations of a parsed file, as a forest in document order. Syntax errors do not stop
 * it: tree-sitter recovers, and whatever parsed is listed.
 */
export function extractDeclarations(root: Node, grammar: GrammarId): CompactSymbol[] {
  const rules = RULES[grammar];
  const top: CompactSymbol[] = [];
  const cursor = root.walk();
  try {
    visitChildren(cursor, rules, top, 0, null);
  } finally {
    cursor.delete();
  }
  return top;
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
    if (rule) {
      const result = rule(cursor.currentNode, parentKind);
      const found = result === null ? [] : Array.isArray(result) ? result : [result];
      for (const f of found) {
        const c = compact(f);
        if (f.member) {
          if (members !== null && !members.some((m) => m[0] === f.name)) members.push(c);
          continue;
        }
        siblings.push(c);
        // The first declaration owns what is nested in the node (a constructor's body, not
        // the parameter properties listed beside it).
        if (owner === null) {
          owner = c;
          kind = f.kind;
        }
      }
    }
    const children: CompactSymbol[] = owner === null ? siblings : [];
    const ownerIsType = owner !== null && (kind === K.Class || kind === K.Struct);
    visitChildren(cursor, rules, children, kind, ownerIsType ? children : members);
    if (owner !== null && children.length > 0) owner.push(children);
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
}
