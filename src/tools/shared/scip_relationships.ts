/**
 * find_implementations and type_hierarchy answered from the project's SCIP index: the
 * `is_implementation` relationships the indexers record for `implements` and `extends` (and a
 * method's for the method it implements or overrides). The asked file must be unchanged since
 * the index was built and no changed file may mention the name (it may implement it now): else
 * the live server answers the whole question, as without an index. Each symbol of the answer is
 * the index's where it vouches for it (symbols/scip/symbol_table.ts), else the file's outline
 * from the live path (the declaration index where it is exact, or the server).
 * @module
 */
import { containsWord } from "../../symbols/occurrences.ts";
import type { FileSymbols, SymbolMatch } from "../../symbols/lookup.ts";
import { parseNamePath } from "../../symbols/name_path.ts";
import { implementingSymbol } from "../../symbols/queries.ts";
import type { ScipState } from "../../symbols/scip/project_scip.ts";
import { indexedOutline } from "../../symbols/scip/symbol_table.ts";
import { symbolKindName, type SymbolNode } from "../../symbols/model.ts";
import { toLspPosition } from "../../lsp/positions.ts";
import type { ToolContext } from "../tool.ts";
import { indexOf, requestOptions } from "./locate_symbol.ts";
import { fileMatchesFromIndex, scipState } from "./scip_symbols.ts";

/** The symbol a question is about, in the index and in its file's outline. */
interface IndexedTarget {
  state: ScipState;
  symbol: number;
  match: SymbolMatch;
  /** Changed files that mention the name (only when they are to be named, see `Changed`). */
  changed: string[];
}

/**
 * What to do when a file changed since the index mentions the name (it may implement it now):
 * `live`, leave the whole question to the live server; `name`, answer for the unchanged files and
 * name the changed ones as not analysed (when the live server cannot answer).
 */
export type Changed = "live" | "name";

/** The note beside an answer from the index, naming the changed files left out. */
function sourceNote(state: ScipState, changed: readonly string[]): string {
  const tool = [...state.index.tools].join(", ") || "an indexer";
  const files = `${state.stale.size} file${state.stale.size === 1 ? "" : "s"}`;
  if (changed.length === 0) {
    return `Answered from the SCIP index (${tool}); ${files} changed since it was built, none ` +
      "mentioning the name.";
  }
  return `Answered from the SCIP index (${tool}) for the files unchanged since it was built; not ` +
    `analysed, changed since the index and mentioning the name (no language server could answer): ` +
    changed.join(", ");
}

/** The changed files (still on disk) that mention `word`. */
async function changedMentioning(
  ctx: ToolContext,
  state: ScipState,
  word: string,
): Promise<string[]> {
  const out: string[] = [];
  for (const rel of state.stale) {
    try {
      if (containsWord(await Deno.readTextFile(ctx.project().absolute(rel)), word)) out.push(rel);
    } catch {
      // Deleted since the index: it implements nothing now.
    }
  }
  return out.sort();
}

/** The text of an unchanged indexed file, `\n`-separated; null when it cannot be read. */
async function textOf(ctx: ToolContext, relPath: string): Promise<string | null> {
  const lines = await ctx.session.services(ctx.project()).scip.linesOf(relPath);
  return lines === null ? null : lines.join("\n");
}

/**
 * The symbol named by `name_path` (or at `line`/`column`) in `relative_path`, from the index;
 * null when the index cannot say what the live path would: the file changed, the name is not
 * exactly one symbol the index vouches for, or a changed file mentions it.
 */
async function indexedTarget(
  ctx: ToolContext,
  args: {
    relative_path: string;
    name_path?: string | undefined;
    line?: number | undefined;
    column?: number | undefined;
  },
  changedFiles: Changed,
): Promise<IndexedTarget | null> {
  const state = await scipState(ctx);
  if (state === null) return null;
  const relPath = ctx.project().resolveFile(args.relative_path).relative.replaceAll("\\", "/");
  if (!state.index.has(relPath) || state.stale.has(relPath)) return null;
  const text = await textOf(ctx, relPath);
  if (text === null) return null;
  let node: SymbolNode | null = null;
  let file: FileSymbols | null = null;
  const namePath = args.name_path?.trim() ?? "";
  if (namePath !== "") {
    const pattern = parseNamePath(namePath);
    const last = pattern.segments[pattern.segments.length - 1]!.name;
    const query = { pattern, findOptions: {} };
    const found = fileMatchesFromIndex(state, relPath, text, query, last, true);
    if (found === null || found.length !== 1) return null;
    node = found[0]!.node;
    file = found[0]!.file;
  } else {
    if (args.line === undefined || args.column === undefined) return null;
    const lines = text.split("\n");
    const position = toLspPosition(lines, args.line, args.column, relPath);
    const symbol = state.index.symbolAt(relPath, position.line, position.character);
    if (symbol === null) return null;
    const [definition, ...more] = state.index.definitionsOf(symbol);
    if (definition === undefined || more.length > 0) return null;
    const located = await indexedSymbol(ctx, state, definition.relPath, definition.range, false);
    if (located === null) return null;
    node = located.node;
    file = located.file;
  }
  const definition = state.index.definitionsIn(node.relPath).find((d) =>
    d.range[0] === node.selectionRange.start.line &&
    d.range[1] === node.selectionRange.start.character
  );
  if (definition === undefined) return null;
  const changed = await changedMentioning(ctx, state, node.name);
  if (changed.length > 0 && changedFiles === "live") return null;
  return { state, symbol: definition.symbol, match: { node, file }, changed };
}

/**
 * The symbol defined at `range` in `relPath`: the index's where it vouches for it, else (when
 * `live`) the file's outline from the live path; null when neither can say.
 */
async function indexedSymbol(
  ctx: ToolContext,
  state: ScipState,
  relPath: string,
  range: readonly number[],
  live: boolean,
): Promise<SymbolMatch | null> {
  if (!state.stale.has(relPath)) {
    const text = await textOf(ctx, relPath);
    const outline = text === null ? null : indexedOutline(state.index, relPath, text.split("\n"));
    const node = outline?.definitionAt.get(`${range[0]}:${range[1]}`);
    if (text !== null && node && outline!.vouched.has(node)) {
      return { node, file: { relPath, text, roots: outline!.roots, cached: true } };
    }
  }
  if (!live) return null;
  try {
    const file = await indexOf(ctx).fileSymbols(relPath, requestOptions(ctx));
    const at = { line: range[0]!, character: range[1]! };
    const node = implementingSymbol(file, { start: at, end: at });
    return node === null ? null : { node, file };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return null;
  }
}

/**
 * find_implementations' symbols from the index, sorted as the live answer is, or null when the
 * index cannot answer (see {@linkcode indexedTarget}).
 */
export async function implementationsFromIndex(
  ctx: ToolContext,
  args: { name_path: string; relative_path: string },
  changedFiles: Changed = "live",
): Promise<{ matches: SymbolMatch[]; note: string } | null> {
  const target = await indexedTarget(ctx, args, changedFiles);
  if (target === null) return null;
  const { state } = target;
  const matches: SymbolMatch[] = [];
  const seen = new Set<SymbolNode>();
  for (const id of state.index.implementationsOf(target.symbol)) {
    for (const d of state.index.definitionsOf(id)) {
      if (state.stale.has(d.relPath)) continue; // named in the note
      const found = await indexedSymbol(ctx, state, d.relPath, d.range, true);
      if (found === null) return null;
      if (seen.has(found.node) || found.node === target.match.node) continue;
      seen.add(found.node);
      matches.push(found);
    }
  }
  matches.sort((a, b) =>
    a.node.relPath !== b.node.relPath
      ? (a.node.relPath < b.node.relPath ? -1 : 1)
      : a.node.range.start.line - b.node.range.start.line ||
        a.node.range.start.character - b.node.range.start.character
  );
  return { matches, note: sourceNote(state, target.changed) };
}

/** Types listed at most in one answer (as the live type_hierarchy). */
const MAX_NODES = 200;

/**
 * type_hierarchy's answer from the index, in the live answer's form, or null when the index
 * cannot answer: the target is not a type it vouches for (see {@linkcode indexedTarget}), or a
 * type in the hierarchy is defined outside it (a library's: the server reads the library).
 */
export async function typeHierarchyFromIndex(
  ctx: ToolContext,
  args: {
    relative_path: string;
    name_path?: string | undefined;
    line?: number | undefined;
    column?: number | undefined;
    direction: "super" | "sub" | "both";
    depth: number;
  },
  changedFiles: Changed = "live",
): Promise<{ answer: Record<string, unknown>; note: string } | null> {
  const target = await indexedTarget(ctx, args, changedFiles);
  if (target === null) return null;
  const { state } = target;
  // A type whose kind the index vouches for (a name path alone locates a question's target).
  if (!state.index.symbolName(target.symbol).endsWith("#") || target.match.node.kind === 0) {
    return null;
  }
  let nodes = 0;
  let unknown = false;
  const describe = (node: SymbolNode) => ({
    name: node.name,
    kind: symbolKindName(node.kind),
    file: node.relPath,
    line: node.selectionRange.start.line + 1,
  });
  const directSubtypes = (id: number) =>
    state.index.implementationsOf(id).filter((s) => state.index.supertypesOf(s).includes(id));
  const walk = async (
    id: number,
    key: "supertypes" | "subtypes",
    depth: number,
    path: ReadonlySet<number>,
  ): Promise<Array<Record<string, unknown>>> => {
    const next = key === "supertypes" ? state.index.supertypesOf(id) : directSubtypes(id);
    const out: Array<Record<string, unknown>> = [];
    const found: Array<{ id: number; match: SymbolMatch }> = [];
    for (const other of next) {
      const [definition] = state.index.definitionsOf(other);
      if (definition !== undefined && state.stale.has(definition.relPath)) continue;
      const match = definition === undefined
        ? null
        : await indexedSymbol(ctx, state, definition.relPath, definition.range, true);
      if (match === null) {
        unknown = true;
        return [];
      }
      found.push({ id: other, match });
    }
    found.sort((a, b) =>
      a.match.node.relPath !== b.match.node.relPath
        ? (a.match.node.relPath < b.match.node.relPath ? -1 : 1)
        : a.match.node.selectionRange.start.line - b.match.node.selectionRange.start.line
    );
    for (const { id: other, match } of found) {
      if (nodes >= MAX_NODES) break;
      nodes++;
      const node: Record<string, unknown> = describe(match.node);
      if (depth > 1 && !path.has(other)) {
        const below = await walk(other, key, depth - 1, new Set([...path, other]));
        if (below.length > 0) node[key] = below;
      }
      out.push(node);
    }
    return out;
  };
  const { name, ...where } = describe(target.match.node);
  const answer: Record<string, unknown> = { symbol: name, ...where };
  const start = new Set([target.symbol]);
  if (args.direction !== "sub") {
    answer.supertypes = await walk(target.symbol, "supertypes", args.depth, start);
  }
  if (args.direction !== "super") {
    answer.subtypes = await walk(target.symbol, "subtypes", args.depth, start);
  }
  if (unknown) return null;
  if (nodes >= MAX_NODES) answer.truncated = `only the first ${MAX_NODES} types are listed`;
  return { answer, note: sourceNote(state, target.changed) };
}
