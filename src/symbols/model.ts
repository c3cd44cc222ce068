/**
 * The symbol model: what a language server answers to `textDocument/documentSymbol`
 * (hierarchical `DocumentSymbol[]` or flat `SymbolInformation[]`) becomes one tree of
 * {@linkcode SymbolNode}s with Serena name paths (`Outer/inner`, overloads `name[i]`), kinds,
 * body ranges and selection ranges. Pure logic: no I/O, no server.
 * @module
 */

import type { DocumentSymbol, Position, Range, SymbolInformation } from "../deps.ts";
import { lineStarts, offsetAt, positionAt } from "../edit/line_index.ts";

// The model speaks LSP's positions (0-based line, UTF-16 character; a range's end exclusive).
export type { Position, Range };

/** One symbol of one file, in a tree. */
export interface SymbolNode {
  name: string;
  /** LSP `SymbolKind` number. */
  kind: number;
  /** 0-based index among siblings of the same name, when there are several; else null. */
  overloadIndex: number | null;
  /** The whole definition (Serena's body). */
  range: Range;
  /** The identifier. */
  selectionRange: Range;
  /** Project-relative path of the file. */
  relPath: string;
  parent: SymbolNode | null;
  children: SymbolNode[];
}

/** LSP SymbolKind numbers by name, in number order (the one table of kinds). */
export const SymbolKind = {
  File: 1,
  Module: 2,
  Namespace: 3,
  Package: 4,
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
  String: 15,
  Number: 16,
  Boolean: 17,
  Array: 18,
  Object: 19,
  Key: 20,
  Null: 21,
  EnumMember: 22,
  Struct: 23,
  Event: 24,
  Operator: 25,
  TypeParameter: 26,
} as const;

/** LSP SymbolKind names as Serena prints them (`SymbolKind(k).name`), indexed by number. */
export const SYMBOL_KIND_NAMES: readonly string[] = ["", ...Object.keys(SymbolKind)];

/** The name of a kind, e.g. 5 → "Class"; unknown kinds → "Kind<n>". */
export function symbolKindName(kind: number): string {
  return SYMBOL_KIND_NAMES[kind] || `Kind${kind}`;
}

/** Whether `kind` is a valid LSP SymbolKind (1..26). */
export function isSymbolKind(kind: number): boolean {
  return Number.isInteger(kind) && kind >= 1 && kind < SYMBOL_KIND_NAMES.length;
}

/** One name-path segment: `name`, or `name[i]` for an overload. */
export function segmentOf(node: SymbolNode): string {
  return node.overloadIndex === null ? node.name : `${node.name}[${node.overloadIndex}]`;
}

/** The Serena name path of a symbol within its file, e.g. `Outer/inner` or `A/f[1]`. */
export function namePathOf(node: SymbolNode): string {
  const parts: string[] = [];
  for (let n: SymbolNode | null = node; n !== null; n = n.parent) parts.push(segmentOf(n));
  return parts.reverse().join("/");
}

/** Compare positions: negative when a is before b. */
export function comparePositions(a: Position, b: Position): number {
  return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

/** Whether `outer` contains `inner` (inclusive at both ends). */
export function rangeContains(outer: Range, inner: Range): boolean {
  return comparePositions(outer.start, inner.start) <= 0 &&
    comparePositions(inner.end, outer.end) <= 0;
}

/** Whether a position lies in a range (start inclusive, end inclusive: a cursor at the end counts). */
export function rangeContainsPosition(range: Range, pos: Position): boolean {
  return comparePositions(range.start, pos) <= 0 && comparePositions(pos, range.end) <= 0;
}

function isDocumentSymbol(value: unknown): value is DocumentSymbol {
  return typeof value === "object" && value !== null && "selectionRange" in value &&
    "range" in value;
}

function isSymbolInformation(value: unknown): value is SymbolInformation {
  return typeof value === "object" && value !== null && "location" in value;
}

function cloneRange(r: Range): Range {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

function byPosition(a: SymbolNode, b: SymbolNode): number {
  return comparePositions(a.range.start, b.range.start) ||
    comparePositions(b.range.end, a.range.end) ||
    comparePositions(a.selectionRange.start, b.selectionRange.start);
}

/** Sort siblings by position and number same-named siblings (overloads), recursively. */
export function finishSiblings(nodes: SymbolNode[]): SymbolNode[] {
  nodes.sort(byPosition);
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.name, (counts.get(n.name) ?? 0) + 1);
  const next = new Map<string, number>();
  for (const n of nodes) {
    if ((counts.get(n.name) ?? 0) > 1) {
      const i = next.get(n.name) ?? 0;
      n.overloadIndex = i;
      next.set(n.name, i + 1);
    } else {
      n.overloadIndex = null;
    }
    finishSiblings(n.children);
  }
  return nodes;
}

function fromDocumentSymbols(
  symbols: readonly DocumentSymbol[],
  relPath: string,
  parent: SymbolNode | null,
): SymbolNode[] {
  const out: SymbolNode[] = [];
  for (const s of symbols) {
    if (!isDocumentSymbol(s)) continue;
    const node: SymbolNode = {
      name: s.name,
      kind: s.kind,
      overloadIndex: null,
      range: cloneRange(s.range),
      selectionRange: cloneRange(s.selectionRange),
      relPath,
      parent,
      children: [],
    };
    node.children = fromDocumentSymbols(s.children ?? [], relPath, node);
    out.push(node);
  }
  return out;
}

/**
 * Nest flat `SymbolInformation`s: a symbol's parent is the innermost earlier symbol whose range
 * contains it, preferring one named like its `containerName`; when ranges say nothing (some
 * servers give only the name's range), the latest earlier symbol named `containerName`.
 * Selection ranges are found in `text` (the name inside the range) when the text is given.
 */
function fromSymbolInformation(
  symbols: readonly SymbolInformation[],
  relPath: string,
  text: string | undefined,
): SymbolNode[] {
  const starts = text === undefined ? null : lineStarts(text);
  const items = symbols.filter(isSymbolInformation).map((s) => ({
    info: s,
    node: {
      name: s.name,
      kind: s.kind,
      overloadIndex: null,
      range: cloneRange(s.location.range),
      selectionRange: cloneRange(s.location.range),
      relPath,
      parent: null,
      children: [],
    } as SymbolNode,
  }));
  if (text !== undefined && starts !== null) {
    for (const { node } of items) {
      const from = offsetAt(text, starts, node.range.start);
      const to = offsetAt(text, starts, node.range.end);
      const at = text.slice(from, to).indexOf(node.name);
      if (at >= 0) {
        node.selectionRange = {
          start: positionAt(starts, from + at),
          end: positionAt(starts, from + at + node.name.length),
        };
      } else {
        node.selectionRange = { start: { ...node.range.start }, end: { ...node.range.start } };
      }
    }
  }
  items.sort((a, b) => byPosition(a.node, b.node));
  const roots: SymbolNode[] = [];
  const stack: SymbolNode[] = [];
  const seen: SymbolNode[] = [];
  for (const { info, node } of items) {
    while (stack.length > 0 && !rangeContains(stack[stack.length - 1]!.range, node.range)) {
      stack.pop();
    }
    let parent: SymbolNode | null = null;
    const container = info.containerName;
    if (container) {
      for (let i = stack.length - 1; i >= 0 && parent === null; i--) {
        if (stack[i]!.name === container) parent = stack[i]!;
      }
      if (parent === null && stack.length === 0) {
        for (let i = seen.length - 1; i >= 0 && parent === null; i--) {
          if (seen[i]!.name === container) parent = seen[i]!;
        }
      }
    }
    if (parent === null && stack.length > 0) parent = stack[stack.length - 1]!;
    node.parent = parent;
    (parent ? parent.children : roots).push(node);
    stack.push(node);
    seen.push(node);
  }
  return roots;
}

/**
 * Build the symbol tree of one file from a `textDocument/documentSymbol` result (either form,
 * or null). `text` (the file content the server saw) refines selection ranges of the flat form.
 */
export function buildSymbolTree(
  result: unknown,
  relPath: string,
  text?: string,
): SymbolNode[] {
  if (!Array.isArray(result) || result.length === 0) return [];
  const roots = result.some(isDocumentSymbol)
    ? fromDocumentSymbols(result as DocumentSymbol[], relPath, null)
    : fromSymbolInformation(result as SymbolInformation[], relPath, text);
  return finishSiblings(roots);
}

/** Top-level symbols built between two turns of the event loop in {@linkcode buildSymbolTreeSliced}. */
const SLICE = 2000;

/** A turn of the event loop: other sessions' work runs between two slices. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * {@linkcode buildSymbolTree}, for the service's main thread: a file with thousands of top-level
 * symbols (generated code) is built a slice at a time, with a turn of the event loop between
 * slices, so that other sessions are not held up (330,000 functions took 3.2 s in one piece). The
 * same tree; a small file is built at once.
 */
export async function buildSymbolTreeSliced(
  result: unknown,
  relPath: string,
  text?: string,
): Promise<SymbolNode[]> {
  if (!Array.isArray(result) || result.length <= SLICE || !result.some(isDocumentSymbol)) {
    return buildSymbolTree(result, relPath, text);
  }
  const symbols = result as DocumentSymbol[];
  const roots: SymbolNode[] = [];
  for (let from = 0; from < symbols.length; from += SLICE) {
    for (const node of fromDocumentSymbols(symbols.slice(from, from + SLICE), relPath, null)) {
      roots.push(node);
    }
    await nextTurn();
  }
  // finishSiblings on the roots alone (their children are done below, a slice at a time).
  const children = new Map(roots.map((root) => [root, root.children]));
  for (const root of roots) root.children = [];
  finishSiblings(roots);
  for (const root of roots) root.children = children.get(root)!;
  for (let from = 0; from < roots.length; from += SLICE) {
    for (const root of roots.slice(from, from + SLICE)) finishSiblings(root.children);
    await nextTurn();
  }
  return roots;
}

/** Every symbol of a forest, depth first in document order. */
export function* walkSymbols(roots: readonly SymbolNode[]): Generator<SymbolNode> {
  for (const root of roots) {
    yield root;
    yield* walkSymbols(root.children);
  }
}

/** The body text of a symbol (its full range) within the file text. */
export function bodyOf(node: SymbolNode, text: string, starts = lineStarts(text)): string {
  return text.slice(
    offsetAt(text, starts, node.range.start),
    offsetAt(text, starts, node.range.end),
  );
}

/**
 * Kinds that hold code (Serena's `SymbolKind.is_container`): an overview keeps them as
 * children, and a reference inside one spanning several lines belongs to it. The other kinds
 * (fields, properties, variables, constants, ...) are data.
 */
export const STRUCTURAL_KINDS: ReadonlySet<number> = new Set([
  SymbolKind.File,
  SymbolKind.Module,
  SymbolKind.Namespace,
  SymbolKind.Package,
  SymbolKind.Class,
  SymbolKind.Method,
  SymbolKind.Constructor,
  SymbolKind.Enum,
  SymbolKind.Interface,
  SymbolKind.Function,
  SymbolKind.Object,
  SymbolKind.Struct,
]);

/**
 * Kinds that enclose code worth naming as the place of a reference, or that declare something:
 * the structural kinds but a file and an object literal.
 */
export const CONTAINER_KINDS: ReadonlySet<number> = new Set(
  [...STRUCTURAL_KINDS].filter((k) => k !== SymbolKind.File && k !== SymbolKind.Object),
);

/** Innermost symbols first: the chain of symbols whose range contains `pos`. */
export function symbolsAt(roots: readonly SymbolNode[], pos: Position): SymbolNode[] {
  const chain: SymbolNode[] = [];
  let level = roots;
  for (;;) {
    const hit = level.find((n) => rangeContainsPosition(n.range, pos));
    if (!hit) break;
    chain.push(hit);
    level = hit.children;
  }
  return chain.reverse();
}

/**
 * The symbol a reference at `pos` belongs to: the innermost enclosing definition (class,
 * function, method, ...); outside any, the outermost enclosing symbol (e.g. a top-level
 * variable); null at file level.
 */
export function containingSymbol(roots: readonly SymbolNode[], pos: Position): SymbolNode | null {
  const chain = symbolsAt(roots, pos);
  return chain.find((n) => CONTAINER_KINDS.has(n.kind)) ?? chain[chain.length - 1] ?? null;
}

/**
 * A File-kind pseudo symbol standing for a whole file (for references at file level). Its range
 * is Serena's: it ends on line `n` (the number of `\n`-separated lines, one past the last line
 * index), at the length of the last line.
 */
export function fileSymbol(relPath: string, text: string): SymbolNode {
  const base = relPath.slice(relPath.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  // Counted, not split: a reference answer makes one per importing file.
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  const end = { line: lines, character: text.length - text.lastIndexOf("\n") - 1 };
  return {
    name: dot > 0 ? base.slice(0, dot) : base,
    kind: SymbolKind.File,
    overloadIndex: null,
    range: { start: { line: 0, character: 0 }, end },
    selectionRange: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    relPath,
    parent: null,
    children: [],
  };
}

/**
 * Compact, JSON-friendly form of a forest for the persistent cache:
 * `[name, kind, r0, r1, r2, r3, s0, s1, s2, s3, children?]`.
 */
export type CompactSymbol = [
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  CompactSymbol[]?,
];

/** Encode a forest compactly (see {@linkcode CompactSymbol}). */
export function toCompact(nodes: readonly SymbolNode[]): CompactSymbol[] {
  return nodes.map((n) => {
    const c: CompactSymbol = [
      n.name,
      n.kind,
      n.range.start.line,
      n.range.start.character,
      n.range.end.line,
      n.range.end.character,
      n.selectionRange.start.line,
      n.selectionRange.start.character,
      n.selectionRange.end.line,
      n.selectionRange.end.character,
    ];
    if (n.children.length > 0) c.push(toCompact(n.children));
    return c;
  });
}

/** Decode a compact forest; throws on malformed data (a corrupt cache entry). */
export function fromCompact(
  data: readonly CompactSymbol[],
  relPath: string,
  parent: SymbolNode | null = null,
): SymbolNode[] {
  const out: SymbolNode[] = [];
  for (const c of data) {
    if (!Array.isArray(c) || typeof c[0] !== "string" || c.length < 10) {
      throw new Error("malformed symbol cache entry");
    }
    const node: SymbolNode = {
      name: c[0],
      kind: c[1],
      overloadIndex: null,
      range: { start: { line: c[2], character: c[3] }, end: { line: c[4], character: c[5] } },
      selectionRange: {
        start: { line: c[6], character: c[7] },
        end: { line: c[8], character: c[9] },
      },
      relPath,
      parent,
      children: [],
    };
    node.children = fromCompact(c[10] ?? [], relPath, node);
    out.push(node);
  }
  if (parent === null) finishSiblings(out);
  return out;
}
