/**
 * TypeScript 7's outline in tsserver's shape. TypeScript 7's own server (`tsc --lsp`,
 * "typescript-go") answers documentSymbol with the same tree as tsserver under
 * typescript-language-server, but lists imports and re-exports as variables, `const`s as
 * variables, and gives some kinds, names and selection ranges of its own. The tools answer the
 * same whichever generation runs, and the declaration index's rules, proven against tsserver's
 * outline, hold for both; so this rewrites TypeScript 7's tree into tsserver's:
 *
 * - import and re-export specifiers (`import { a }`, `import * as ns`, `import x = require()`,
 *   `export { a } from`) are dropped: tsserver lists none;
 * - a variable declared by `const` is a Constant; an enum member is a Constant; a namespace or
 *   ambient module is a Module; a type alias is a Variable;
 * - accessors, and object-literal properties whose value is a function, are Methods; call,
 *   construct and index signatures are Variables;
 * - a quoted or computed property keeps its name as written (`'quoted'`, `["computed"]`);
 * - `export default <expression>` is the Constant `default`, as tsserver lists it;
 * - an empty selection range (constructors, callbacks, signatures) is the whole range, and so is
 *   the selection of a function's second and later overloads.
 *
 * CommonJS exports in JavaScript files (`module.exports = {...}`, `exports.a = ...`) are listed
 * differently by the two servers and are left as TypeScript 7 gives them.
 * @module
 */
import {
  finishSiblings,
  lineStarts,
  offsetAt,
  positionAt,
  type Range,
  SymbolKind as K,
  type SymbolNode,
} from "./model.ts";

/** The name TypeScript 7's server gives itself in `serverInfo`. */
export const TYPESCRIPT_NATIVE_SERVER = "typescript-go";

/** Whether a running server is TypeScript 7's own (by its `serverInfo`). */
export function isNativeTypeScript(server: object): boolean {
  return serverName(server) === TYPESCRIPT_NATIVE_SERVER;
}

/**
 * Whether a server counts an import as a declaration (of the local name) and so leaves imports
 * out of references asked without the declaration: TypeScript 7 and ty do, tsserver and pyright
 * do not. Such servers are asked with the declaration, which the caller leaves out itself.
 */
export function importsAreDeclarations(server: object): boolean {
  const name = serverName(server);
  return name === TYPESCRIPT_NATIVE_SERVER || name === "ty";
}

function serverName(server: object): string | undefined {
  return (server as { serverInfo?: { name?: string } }).serverInfo?.name;
}

const IMPORT_PREFIX = /\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[\s\w$,]*|\*\s*as\s+)?$/;
const EXPORT_PREFIX = /\bexport\s+(?:type\s+)?\{[\s\w$,]*$/;
const DECLARATION_KEYWORD = /\b(const|let|var|using)\b([^;}()]*)$/;
const MODIFIERS = String
  .raw`(?:(?:public|private|protected|static|override|abstract|readonly|declare|accessor)\s+)*`;
const ACCESSOR = new RegExp(String.raw`^${MODIFIERS}(?:get|set)\s`);
const TYPE_ALIAS = /^(?:export\s+)?(?:declare\s+)?type\s/;
const FUNCTION_VALUE =
  /^\s*\??\s*:\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[\w$]+)\s*(?::[^=]*)?=>)/;

/** Rewrite TypeScript 7's symbol tree of one file (`text`) into tsserver's shape, in place. */
export function normalizeNativeTypeScript(
  roots: SymbolNode[],
  text: string,
  relPath = roots[0]?.relPath ?? "",
): SymbolNode[] {
  const starts = lineStarts(text);
  const at = (pos: Range["start"]) => offsetAt(text, starts, pos);
  const rewrite = (nodes: SymbolNode[], parent: SymbolNode | null): SymbolNode[] => {
    const kept: SymbolNode[] = [];
    for (const node of nodes) {
      const start = at(node.range.start);
      const end = at(node.range.end);
      const before = text.slice(Math.max(0, start - 400), start);
      const source = text.slice(start, end);
      if (node.kind === K.Variable && isImportOrReExport(before, source)) continue;
      const selStart = at(node.selectionRange.start);
      const selEnd = at(node.selectionRange.end);
      if (selStart === selEnd) node.selectionRange = cloneRange(node.range);
      if (/^["[]/.test(node.name) && selEnd > selStart) {
        node.name = text.slice(selStart, selEnd);
      }
      node.kind = tsserverKind(node, parent, before, source, text.slice(selEnd, end));
      node.children = rewrite(node.children, node);
      kept.push(node);
    }
    return kept;
  };
  const rewritten = rewrite(roots, null);
  const exported = defaultExport(text, starts, relPath);
  if (exported && !rewritten.some((n) => n.name === "default")) rewritten.push(exported);
  const result = finishSiblings(rewritten);
  markOverloads(result);
  return result;
}

const DEFAULT_EXPRESSION =
  /^export\s+default\s+(?!(?:async\s+)?function\b|(?:abstract\s+)?class\b|interface\b|enum\b)/m;

/**
 * `export default <expression>;`, which tsserver lists as the Constant `default` (the statement)
 * and TypeScript 7 does not list. Its members (of an object literal) are not reproduced.
 */
function defaultExport(
  text: string,
  starts: readonly number[],
  relPath: string,
): SymbolNode | null {
  const match = DEFAULT_EXPRESSION.exec(text);
  if (!match) return null;
  let depth = 0;
  let end = match.index + match[0].length;
  for (; end < text.length; end++) {
    const c = text[end]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth <= 0 && (c === ";" || c === "\n")) break;
  }
  if (text[end] === ";") end++;
  const range = { start: positionAt(starts, match.index), end: positionAt(starts, end) };
  return {
    name: "default",
    kind: K.Constant,
    overloadIndex: null,
    range,
    selectionRange: cloneRange(range),
    relPath,
    parent: null,
    children: [],
  };
}

/** tsserver selects the whole declaration of a function's second and later overloads. */
function markOverloads(nodes: SymbolNode[]): void {
  for (const node of nodes) {
    if (node.kind === K.Function && (node.overloadIndex ?? 0) > 0) {
      node.selectionRange = cloneRange(node.range);
    }
    markOverloads(node.children);
  }
}

function isImportOrReExport(before: string, source: string): boolean {
  return /^import\s/.test(source) || IMPORT_PREFIX.test(before) || EXPORT_PREFIX.test(before);
}

function tsserverKind(
  node: SymbolNode,
  parent: SymbolNode | null,
  before: string,
  source: string,
  afterName: string,
): number {
  switch (node.kind) {
    case K.Variable: {
      const keyword = DECLARATION_KEYWORD.exec(before);
      return keyword?.[1] === "const" ? K.Constant : K.Variable;
    }
    case K.EnumMember:
      return K.Constant;
    case K.Namespace:
      return K.Module;
    case K.Class:
      return TYPE_ALIAS.test(source) ? K.Variable : K.Class;
    case K.Property: {
      if (node.name === "[]") return K.Variable;
      if (ACCESSOR.test(source)) return K.Method;
      const inObjectLiteral = parent !== null && parent.kind !== K.Class &&
        parent.kind !== K.Interface;
      return inObjectLiteral && FUNCTION_VALUE.test(afterName) ? K.Method : K.Property;
    }
    case K.Method:
    case K.Constructor:
      return node.name === "()" || node.name === "new()" ? K.Variable : node.kind;
    default:
      return node.kind;
  }
}

function cloneRange(r: Range): Range {
  return { start: { ...r.start }, end: { ...r.end } };
}
