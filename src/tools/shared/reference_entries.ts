/**
 * find_referencing_symbols' entries in Serena's shape, `{relative_path: {kind: [{name_path,
 * body_location, content_around_reference}]}}`, at the cost the agent's context can bear.
 *
 * An answer costs no more than `grep -rnw <name>` over the files it lists (which prints every line
 * holding the name with its path), whatever its size. It is Serena's own text (one entry per
 * reference with one line either side) when that fits, which it seldom does: its context lines and
 * repeated names are what costs. Otherwise the references of one containing symbol become one
 * entry whose lines are merged (a line shared by two windows is printed once, every reference line
 * marked `>`); when that is still more than grep's, the entries keep the reference lines only,
 * and then drop `body_location` (find_symbol gives it by name path). The keys stay Serena's. Only
 * when even that costs more than grep does a large answer take a smaller shape, `{relative_path:
 * {kind: {name_path: "line:text"}}}`; a small one keeps the keys ({@linkcode SERENA_SHAPE_CHARS}).
 * Past that, JSON's quotes and braces are what costs: the answer becomes a plain listing (a legend
 * line, then per file its path and its lines, each containing symbol named once before its lines,
 * `Kind name_path`, or a kind they all share named once in its legend), and when even that costs
 * more than grep, the listing names the symbols without their kinds (the one thing find_symbol
 * tells from the name path).
 * @module
 */
import {
  fileSymbol,
  namePathOf,
  segmentOf,
  SymbolKind,
  symbolKindName,
  type SymbolNode,
} from "../../symbols/model.ts";
import type { ReferenceHit } from "../../symbols/queries.ts";
import { containsWord } from "../../symbols/occurrences.ts";
import { LineIndex } from "../../edit/line_index.ts";
import { toJson } from "./json.ts";

/**
 * Up to this size an answer keeps Serena's keys (`name_path`, `content_around_reference`) even
 * when no form of them costs as little as grep's lines: the answers of Serena's own examples and
 * of the Serena oracle's fixtures (2,063 characters for `Circle` in fixtures/typescript, where
 * grep prints 1,231 and Serena 5,668) are this small, and a prompt written for Serena reads them.
 */
export const SERENA_SHAPE_CHARS = 8_000;

/** One entry of the answer. */
interface Entry {
  name_path: string;
  /** Left out of the smallest form. */
  body_location?: { start_line: number; end_line: number };
  content_around_reference: string;
}

/**
 * The answer's JSON for `hits` (in answer order) of the symbol `name`: Serena's when it is small
 * or no longer than grep's output over the same files, else the merged entries, with context
 * lines only when they fit. `owner` (a project's symbol lookup) keeps the last answer, so that a
 * repeated question over unchanged texts is not rendered again.
 */
export function referenceEntriesJson(
  hits: readonly ReferenceHit[],
  name: string,
  owner?: object,
): string {
  // A repeated question (the same references in the same texts) gets the text it got before.
  const known = owner === undefined ? undefined : rendered.get(owner);
  // The same hits, object for object (the containing symbols of unchanged files are named once,
  // queries.ts): the same answer, without a key of every reference.
  if (known && known.name === name && sameHits(known.hits, hits)) return known.json;
  const key = `${name}\0${
    hits.map((h) =>
      `${h.relPath}:${h.position.line}:${h.position.character}:${h.symbol.kind}:` +
      `${h.symbol.name}:${h.symbol.range.start.line}-${h.symbol.range.end.line}`
    ).join("|")
  }`;
  const texts = [...new Set(hits.map((h) => h.file.text))];
  if (
    known && known.key === key && known.texts.length === texts.length &&
    known.texts.every((t, i) => t === texts[i])
  ) {
    if (owner !== undefined) rendered.set(owner, { ...known, hits });
    return known.json;
  }
  const json = renderEntries(hits, name);
  if (owner !== undefined) rendered.set(owner, { name, hits, key, texts, json });
  return json;
}

/** The last answer rendered per owner (a project's symbol lookup), for a repeated question. */
const rendered = new WeakMap<
  object,
  { name: string; hits: readonly ReferenceHit[]; key: string; texts: string[]; json: string }
>();

/** Whether two answers' hits are the same objects in the same order (hits are never changed). */
function sameHits(a: readonly ReferenceHit[], b: readonly ReferenceHit[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function renderEntries(hits: readonly ReferenceHit[], name: string): string {
  const lines = new Map<string, LineIndex>();
  const linesOf = (h: ReferenceHit) => {
    let index = lines.get(h.relPath);
    if (!index) lines.set(h.relPath, index = new LineIndex(h.file.text));
    return index;
  };
  const serena = toJson(groupByFileAndKind(hits, (h): Entry => ({
    name_path: namePathOf(h.symbol),
    body_location: bodyLocation(h.symbol),
    content_around_reference: render(linesOf(h), [h.position.line], 1),
  })));
  const budget = grepChars(hits, name);
  if (serena.length <= budget) return serena;
  let smallest = serena;
  for (const form of FORMS) {
    smallest = mergedJson(hits, linesOf, form);
    if (smallest.length <= budget) return smallest;
  }
  // No form in Serena's keys costs as little as grep (a file or two with a reference or two: the
  // containing symbols' names cost more than grep's paths). A small answer keeps the keys a
  // Serena prompt reads; a large one takes the fewest characters.
  if (smallest.length <= SERENA_SHAPE_CHARS) return smallest;
  const byNamePath = linesJson(hits, linesOf);
  if (byNamePath.length <= budget) return byNamePath;
  // Past JSON's quotes and braces: a reference or two per file, where a containing symbol's name
  // and kind cost as much as grep's second path (the generated tree of scripts/bench).
  const listed = listing(hits, linesOf, true);
  if (listed.length <= budget) return listed;
  // Kinds named symbol by symbol are what is left to drop, then name paths repeated line by line
  // (test files: `describe('...') callback/it('...') callback/x`).
  const plain = listed.startsWith(listingLegend("each")) ? listing(hits, linesOf, false) : listed;
  if (plain.length <= budget) return plain;
  const tree = treeListing(hits, linesOf);
  return tree.length < plain.length ? tree : plain;
}

/**
 * The forms of a large answer, from the fullest: merged entries with one line of context, with
 * the reference lines only, and without `body_location` (find_symbol gives it by name path). The
 * last resort is {@linkcode linesJson}.
 */
const FORMS = [
  { context: 1, body: true },
  { context: 0, body: true },
  { context: 0, body: false },
] as const;

/**
 * What `grep -rnw <name>` prints over the files of `hits`: `path:line:text` for each line that
 * holds the name as a whole word.
 */
export function grepChars(hits: readonly ReferenceHit[], name: string): number {
  let total = 0;
  const seen = new Set<string>();
  for (const h of hits) {
    if (seen.has(h.relPath)) continue;
    seen.add(h.relPath);
    const text = h.file.text;
    let line = 1;
    let counted = 0;
    for (let at = text.indexOf(name); at !== -1;) {
      const start = text.lastIndexOf("\n", at) + 1;
      let end = text.indexOf("\n", at);
      if (end === -1) end = text.length;
      for (
        let i = text.indexOf("\n", counted);
        i !== -1 && i < start;
        i = text.indexOf("\n", i + 1)
      ) {
        line++;
        counted = i + 1;
      }
      const content = text.slice(start, end);
      if (containsWord(content, name)) {
        total += h.relPath.length + String(line).length + content.length + 3;
      }
      at = text.indexOf(name, end);
    }
  }
  return total;
}

/** What `grep -nw <name>` prints for one file given as lines: `path:line:text` per line. */
export function grepLinesChars(path: string, lines: readonly string[], name: string): number {
  let total = 0;
  for (const [i, line] of lines.entries()) {
    if (line.includes(name) && containsWord(line, name)) {
      total += path.length + String(i + 1).length + line.length + 3;
    }
  }
  return total;
}

function bodyLocation(symbol: SymbolNode): NonNullable<Entry["body_location"]> {
  return { start_line: symbol.range.start.line, end_line: symbol.range.end.line };
}

/** The references of each containing symbol as one entry, their lines merged. */
function mergedJson(
  hits: readonly ReferenceHit[],
  linesOf: (h: ReferenceHit) => LineIndex,
  form: typeof FORMS[number],
): string {
  const bySymbol = new Map<SymbolNode, ReferenceHit[]>();
  for (const h of hits) {
    const list = bySymbol.get(h.symbol);
    if (list) list.push(h);
    else bySymbol.set(h.symbol, [h]);
  }
  const firsts = [...bySymbol.values()].map((list) => list[0]!);
  return toJson(groupByFileAndKind(firsts, (h): Entry => ({
    name_path: namePathOf(h.symbol),
    ...(form.body ? { body_location: bodyLocation(h.symbol) } : {}),
    content_around_reference: render(
      linesOf(h),
      bySymbol.get(h.symbol)!.map((r) => r.position.line),
      form.context,
    ),
  })));
}

/**
 * The smallest form: `{relative_path: {kind: {name_path: "12:line\n14:line"}}}`, the reference
 * lines of each containing symbol under its name path (numbered as Serena numbers them).
 */
function linesJson(hits: readonly ReferenceHit[], linesOf: (h: ReferenceHit) => LineIndex): string {
  const marked = new Map<string, { hit: ReferenceHit; lines: Set<number> }>();
  const grouped: Record<string, Record<string, Record<string, string>>> = {};
  for (const h of hits) {
    const kind = symbolKindName(h.symbol.kind);
    const namePath = namePathOf(h.symbol);
    const key = `${h.relPath}\0${kind}\0${namePath}`;
    let entry = marked.get(key);
    if (!entry) {
      marked.set(key, entry = { hit: h, lines: new Set() });
      // Placed now, so that files, kinds and symbols keep the answer's order.
      ((grouped[h.relPath] ??= {})[kind] ??= {})[namePath] = "";
    }
    entry.lines.add(h.position.line);
  }
  for (const { hit, lines } of marked.values()) {
    const text = linesOf(hit);
    grouped[hit.relPath]![symbolKindName(hit.symbol.kind)]![namePathOf(hit.symbol)] = [...lines]
      .sort((a, b) => a - b).map((line) => `${line}:${text.at(line) ?? ""}`).join("\n");
  }
  return toJson(grouped);
}

/**
 * The first line of a {@linkcode listing}: how to read it. `kinds` is `"each"` where each
 * containing symbol is named as `Kind name_path`, else the one kind they all have (named here
 * once), or null where the listing names no kind.
 */
export function listingLegend(kinds: string | null): string {
  const symbols = kinds === "each"
    ? "symbol as `Kind name_path`"
    : `symbol's name path${kinds === null ? "" : `, each a ${kinds}`}`;
  return `References by file as line:text (0-based line, text trimmed), under their containing ${symbols}; lines before the first symbol are the file's own.`;
}

/**
 * The last resort, plain text: a legend line, then one block per file (blocks apart by an empty
 * line): its path, its top-level reference lines, then each containing symbol followed by its
 * reference lines as `line:text`, trimmed. A symbol is named by its name path, as `Kind
 * name_path` with `kinds`; a kind all symbols share is named once, in the legend, instead.
 */
function listing(
  hits: readonly ReferenceHit[],
  linesOf: (h: ReferenceHit) => LineIndex,
  kinds: boolean,
): string {
  const files = new Map<string, Map<SymbolNode, { hit: ReferenceHit; lines: Set<number> }>>();
  const named = new Set<number>();
  for (const h of hits) {
    let symbols = files.get(h.relPath);
    if (!symbols) files.set(h.relPath, symbols = new Map());
    let entry = symbols.get(h.symbol);
    if (!entry) symbols.set(h.symbol, entry = { hit: h, lines: new Set() });
    entry.lines.add(h.position.line);
    if (!isTheFile(h.symbol, h.relPath)) named.add(h.symbol.kind);
  }
  // One kind for every symbol is named once, in the legend.
  const shared = named.size === 1 ? symbolKindName([...named][0]!) : null;
  const each = kinds && shared === null;
  const blocks = [listingLegend(each ? "each" : shared)];
  for (const [relPath, symbols] of files) {
    const out = [relPath];
    const listLines = ({ hit, lines }: { hit: ReferenceHit; lines: Set<number> }) => {
      const text = linesOf(hit);
      for (const line of [...lines].sort((a, b) => a - b)) {
        out.push(`${line}:${(text.at(line) ?? "").trim()}`);
      }
    };
    const entries = [...symbols.values()];
    // The file's own lines come first, under no symbol's heading.
    for (const entry of entries) if (isTheFile(entry.hit.symbol, relPath)) listLines(entry);
    for (const entry of entries) {
      const symbol = entry.hit.symbol;
      if (isTheFile(symbol, relPath)) continue;
      out.push(each ? `${symbolKindName(symbol.kind)} ${namePathOf(symbol)}` : namePathOf(symbol));
      listLines(entry);
    }
    blocks.push(out.join("\n"));
  }
  return blocks.join("\n\n");
}

/** The first line of a {@linkcode treeListing}: how to read it. */
export const TREE_LISTING_LEGEND =
  "References by file as line:text (0-based line, text trimmed), under their containing symbol's name path, as a tree: a name indented below one with fewer spaces continues its name path (`Outer` then ` inner` is `Outer/inner`); lines before the first symbol are the file's own.";

/** A containing symbol of a {@linkcode treeListing}: its reference lines and the symbols in it. */
interface Branch {
  node: SymbolNode | null;
  lines: Set<number>;
  children: Map<SymbolNode, Branch>;
}

/**
 * {@linkcode listing} without kinds, each file's containing symbols as a tree: a symbol's name is
 * printed once, indented by its depth among the lines naming symbols, and a chain of symbols
 * without references of their own is one line (`A/b/c`). Where name paths share long prefixes
 * (test callbacks), the prefix is printed once.
 */
function treeListing(
  hits: readonly ReferenceHit[],
  linesOf: (h: ReferenceHit) => LineIndex,
): string {
  const files = new Map<string, { hit: ReferenceHit; own: Set<number>; root: Branch }>();
  for (const h of hits) {
    let file = files.get(h.relPath);
    if (!file) {
      const root: Branch = { node: null, lines: new Set(), children: new Map() };
      files.set(h.relPath, file = { hit: h, own: new Set(), root });
    }
    if (isTheFile(h.symbol, h.relPath)) {
      file.own.add(h.position.line);
      continue;
    }
    const chain: SymbolNode[] = [];
    for (let n: SymbolNode | null = h.symbol; n !== null; n = n.parent) chain.push(n);
    let branch = file.root;
    for (const node of chain.reverse()) {
      let next = branch.children.get(node);
      if (!next) branch.children.set(node, next = { node, lines: new Set(), children: new Map() });
      branch = next;
    }
    branch.lines.add(h.position.line);
  }
  const blocks = [TREE_LISTING_LEGEND];
  for (const [relPath, { hit, own, root }] of files) {
    const text = linesOf(hit);
    const out = [relPath];
    const listLines = (lines: Set<number>) => {
      for (const line of [...lines].sort((a, b) => a - b)) {
        out.push(`${line}:${(text.at(line) ?? "").trim()}`);
      }
    };
    const print = (branch: Branch, depth: number): void => {
      let label = segmentOf(branch.node!);
      while (branch.lines.size === 0 && branch.children.size === 1) {
        branch = branch.children.values().next().value!;
        label += `/${segmentOf(branch.node!)}`;
      }
      out.push(" ".repeat(depth) + label);
      listLines(branch.lines);
      for (const child of branch.children.values()) print(child, depth + 1);
    };
    listLines(own);
    for (const child of root.children.values()) print(child, 0);
    blocks.push(out.join("\n"));
  }
  return blocks.join("\n\n");
}

/** Whether `symbol` is the file itself (a top-level reference's), as {@linkcode fileSymbol} names it. */
function isTheFile(symbol: SymbolNode, relPath: string): boolean {
  return symbol.kind === SymbolKind.File && symbol.parent === null &&
    symbol.name === fileSymbol(relPath, "").name;
}

/**
 * Lines `marked` (0-based) with `context` lines either side, as Serena prints a match (`  >  12:`
 * for a marked line, `...  11:` for context); a line two windows share is printed once.
 */
function render(lines: LineIndex, marked: readonly number[], context: number): string {
  const targets = new Set(marked);
  const shown = new Set<number>();
  for (const line of marked) {
    for (let i = Math.max(0, line - context); i <= line + context; i++) shown.add(i);
  }
  const out: string[] = [];
  for (const i of [...shown].sort((a, b) => a - b)) {
    const text = lines.at(i);
    if (text === undefined) continue; // past the last line
    out.push(`${targets.has(i) ? "  >" : "..."}${String(i).padStart(4)}:${text}`);
  }
  return out.join("\n");
}

/** Serena's grouping: `{relative_path: {kind: [entry, ...]}}`, in answer order. */
export function groupByFileAndKind<T>(
  hits: readonly ReferenceHit[],
  entry: (hit: ReferenceHit) => T,
): Record<string, Record<string, T[]>> {
  const grouped: Record<string, Record<string, T[]>> = {};
  for (const h of hits) {
    ((grouped[h.relPath] ??= {})[symbolKindName(h.symbol.kind)] ??= []).push(entry(h));
  }
  return grouped;
}
