/**
 * References answered from the project's SCIP index (symbols/scip/), when it has one and the
 * asked file is unchanged since the index was built. Occurrences in unchanged files come from the
 * index; files changed since then that mention the name are asked of the live language server,
 * or, when none can run, named as not analysed ("changed since the index"). The answer has the
 * live answer's shape, with a one-line note saying where it came from.
 * @module
 */
import { splitLines, toAgentPosition, toLspPosition } from "../../lsp/positions.ts";
import { preview } from "../../lsp/positions.ts";
import { containsWord, wordOccurrences } from "../../symbols/occurrences.ts";
import { matchesNamePath, namePathOfSymbol } from "../../symbols/scip/descriptors.ts";
import { SymbolRole } from "../../symbols/scip/decode.ts";
import { serverLocations } from "../../symbols/scip/occurrence_names.ts";
import type { ScipState } from "../../symbols/scip/project_scip.ts";
import { type ScipLocation, scipProgressMessage } from "../../symbols/scip/scip_index.ts";
import type { ToolContext } from "../tool.ts";
import { wordAt } from "../../lsp/positions.ts";

/** One reference in find_references' shape. */
export interface IndexedReference {
  file: string;
  line: number;
  column: number;
  preview: string;
  is_definition: boolean;
}

/** What the index could answer; `live` lists changed files the live server must be asked about. */
export interface IndexedReferences {
  /** The name asked about (the name path when one was given). */
  symbol: string;
  /** The identifier, for the live server's part and the text scan. */
  word: string;
  references: IndexedReference[];
  /** The same references as zero-based positions of the index (LSP positions). */
  locations: ScipLocation[];
  /** Changed files that mention the name: the live server answers for them. */
  live: string[];
  note: string;
}

interface PositionArgs {
  relative_path: string;
  line?: number | undefined;
  column?: number | undefined;
  name_path?: string | undefined;
}

/** The symbol a question is about, found in the index, and what the index knows now. */
interface IndexTarget {
  state: ScipState;
  symbol: number;
  /** The name path asked, or the identifier at the position. */
  shownName: string;
  /** The identifier of the symbol (for text scans of changed files). */
  word: string;
}

/**
 * The symbol at the position (or of the name path) from the index, or null when the index
 * cannot say: no index, the file changed since it was built, no symbol there, or a name path
 * that is not exactly one definition in the file. The caller then asks the live server.
 */
async function indexTarget(ctx: ToolContext, args: PositionArgs): Promise<IndexTarget | null> {
  const project = ctx.project();
  const services = ctx.session.services(project);
  if ((await services.scip.locate()) === null) return null;
  const resolved = project.resolveFile(args.relative_path);
  const rel = resolved.relative.replaceAll("\\", "/");
  const state = await services.scip.state((p) => {
    void ctx.progress(p.read, p.total, scipProgressMessage(p));
  });
  if (state === null || !state.index.has(rel) || state.stale.has(rel)) return null;
  const lines = splitLines((await project.readText(resolved)).text);
  const namePath = args.name_path?.trim() ?? "";
  let symbol: number | null;
  let shownName: string;
  if (namePath !== "") {
    const matches = state.index.definitionsIn(rel).filter((d) => {
      const segments = namePathOfSymbol(state.index.symbolName(d.symbol));
      return segments !== null && matchesNamePath(segments, namePath);
    });
    const distinct = [...new Set(matches.map((m) => m.symbol))];
    // Ambiguous or unknown here: the live path names the choices or the error.
    if (distinct.length !== 1) return null;
    symbol = distinct[0]!;
    shownName = namePath;
  } else {
    if (args.line === undefined || args.column === undefined) return null;
    const position = toLspPosition(lines, args.line, args.column, rel);
    symbol = state.index.symbolAt(rel, position.line, position.character);
    shownName = wordAt(lines[position.line] ?? "", position.character);
  }
  if (symbol === null) return null;
  // The identifier as written where the symbol is defined (a name path may be Outer/name).
  const definition = state.index.definitionsOf(symbol).find((o) => !state.stale.has(o.relPath)) ??
    state.index.occurrencesOf(symbol).find((o) => o.relPath === rel);
  const word = definition
    ? wordAt(
      (await linesOf(project.root, definition.relPath, rel, lines))[definition.range[0]] ?? "",
      definition.range[1],
    )
    : shownName;
  if (word === "") return null;
  return { state, symbol, shownName, word };
}

/** Occurrences as find_references' location entries (1-based, code-point columns). */
async function locationEntries(
  ctx: ToolContext,
  occurrences: readonly ScipLocation[],
): Promise<IndexedReference[]> {
  const scip = ctx.session.services(ctx.project()).scip;
  const out: IndexedReference[] = [];
  for (const o of occurrences) {
    const fileLines = await scip.linesOf(o.relPath);
    const at = fileLines
      ? toAgentPosition(fileLines, { line: o.range[0], character: o.range[1] })
      : { line: o.range[0] + 1, column: o.range[1] + 1 };
    out.push({
      file: o.relPath,
      line: at.line,
      column: at.column,
      preview: preview(fileLines?.[o.range[0]] ?? ""),
      is_definition: (o.roles & SymbolRole.Definition) !== 0,
    });
  }
  return out;
}

/**
 * Where the symbol is defined (`definitions`) or implemented (`implementations`), from the
 * index; null when the index cannot vouch for the whole answer: a file changed since it was built
 * mentions the name (it may define or implement it now), or the index knows no definition (a
 * library's symbol: the server reads the library).
 */
export async function locationsFromIndex(
  ctx: ToolContext,
  args: PositionArgs,
  what: "definitions" | "implementations",
): Promise<IndexedReference[] | null> {
  const target = await indexTarget(ctx, args);
  if (target === null) return null;
  const { state, symbol, word } = target;
  if ((await changedMentioning(ctx.project().root, state, word)).length > 0) return null;
  const symbols = what === "definitions" ? [symbol] : state.index.implementationsOf(symbol);
  const found = symbols.flatMap((id) => state.index.definitionsOf(id));
  if (found.length === 0 && what === "definitions") return null;
  return await locationEntries(ctx, found);
}

/**
 * find_references' answer from the index, or null when the index cannot answer this question
 * (see {@linkcode indexTarget}): the caller asks the live server.
 */
export async function referencesFromIndex(
  ctx: ToolContext,
  args: PositionArgs & { include_declaration: boolean },
): Promise<IndexedReferences | null> {
  const target = await indexTarget(ctx, args);
  if (target === null) return null;
  const { state, symbol, shownName, word } = target;
  const occurrences = referenceSymbols(state, symbol).flatMap(({ id, definitions }) =>
    state.index.occurrencesOf(id).filter((o) =>
      definitions || (o.roles & SymbolRole.Definition) === 0
    )
  ).filter((o) => !state.stale.has(o.relPath)).filter((o) =>
    args.include_declaration || (o.roles & SymbolRole.Definition) === 0
  );
  const locations = await asServerCounts(ctx, occurrences, word, valueTwinAt(state, symbol));
  const references = await locationEntries(ctx, locations);
  const live = await changedMentioning(ctx.project().root, state, word);
  const tool = [...state.index.tools].join(", ") || "an indexer";
  const note = `Answered from the SCIP index (${tool}) for the files unchanged since it was ` +
    `built; ${state.stale.size} changed since` +
    (live.length > 0 ? `, ${live.length} of them mentioning '${word}' asked of the server.` : ".");
  return { symbol: args.name_path?.trim() || shownName, word, references, locations, live, note };
}

/**
 * The occurrences where the language server counts a reference to `word`
 * (symbols/scip/occurrence_names.ts): an import `word as word` is two; an alias's uses, CommonJS's
 * `exports.word =` and a type's `typeof word` (its value twin's) none. Duplicates are dropped.
 */
async function asServerCounts(
  ctx: ToolContext,
  occurrences: readonly ScipLocation[],
  word: string,
  valueTwin: ReadonlySet<string>,
): Promise<ScipLocation[]> {
  const scip = ctx.session.services(ctx.project()).scip;
  const seen = new Set<string>();
  const out: ScipLocation[] = [];
  for (const o of occurrences) {
    const line = (await scip.linesOf(o.relPath))?.[o.range[0]] ?? "";
    const context = {
      python: /\.pyi?$/.test(o.relPath),
      javascript: /\.[cm]?jsx?$/.test(o.relPath),
      valueTwin: valueTwin.has(`${o.relPath}:${o.range[0]}:${o.range[1]}`),
    };
    for (const at of serverLocations(o.range, line, word, context)) {
      const key = `${o.relPath}:${at.line}:${at.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const length = at.line === o.range[0] && at.character === o.range[1]
        ? o.range[3] - o.range[1]
        : word.length;
      out.push({
        relPath: o.relPath,
        range: [at.line, at.character, at.line, at.character + length],
        roles: o.roles,
      });
    }
  }
  return out;
}

/**
 * For a type `X#` beside a value `X.` of the same name (scip-typescript's two symbols of one
 * merged declaration), where the value occurs (`file:line:character`); empty otherwise.
 */
function valueTwinAt(state: ScipState, symbol: number): Set<string> {
  const name = state.index.symbolName(symbol);
  const twin = name.endsWith("#") ? state.index.idOf(`${name.slice(0, -1)}.`) : null;
  if (twin === null) return new Set();
  return new Set(
    state.index.occurrencesOf(twin).map((o) => `${o.relPath}:${o.range[0]}:${o.range[1]}`),
  );
}

/**
 * The symbols whose occurrences refer to `symbol`, and whether their definitions count too:
 *
 * - itself, definitions included;
 * - for a class, its constructor (scip-typescript files `new Circle(…)` under
 *   ``Circle#`<constructor>`().``, where the language server counts it as a reference to the
 *   class; the constructor's own declaration is not one);
 * - for a method, the methods linked to it by `is_reference` relationships (the interface or base
 *   method it implements or overrides, and every other implementation of that), definitions
 *   included: tsserver lists them all among the method's references.
 */
function referenceSymbols(
  state: ScipState,
  symbol: number,
): Array<{ id: number; definitions: boolean }> {
  const out = state.index.referenceFamilyOf(symbol).map((id) => ({ id, definitions: true }));
  const name = state.index.symbolName(symbol);
  if (!name.endsWith("#")) return out;
  const constructor = state.index.idOf(`${name}\`<constructor>\`().`);
  if (constructor !== null) out.push({ id: constructor, definitions: false });
  return out;
}

async function linesOf(
  root: string,
  relPath: string,
  known: string,
  knownLines: string[],
): Promise<string[]> {
  if (relPath === known) return knownLines;
  try {
    return splitLines(await Deno.readTextFile(`${root}/${relPath}`));
  } catch {
    return [];
  }
}

/** The changed files (still on disk) that contain `word` as a whole word. */
async function changedMentioning(root: string, state: ScipState, word: string): Promise<string[]> {
  const out: string[] = [];
  for (const rel of state.stale) {
    try {
      if (containsWord(await Deno.readTextFile(`${root}/${rel}`), word)) out.push(rel);
    } catch {
      // Deleted since the index: nothing of it is in the answer.
    }
  }
  return out.sort();
}

/**
 * The note of an index's answer whose changed files no server could answer for: they are named
 * as not analysed instead of "asked of the server".
 */
export function withoutServerNote(note: string): string {
  return note.replace(/ asked of the server\.$/, " named as not analysed (no server answered).");
}

/**
 * What went wrong with the SCIP index the global config names (a failed download, a missing
 * file), as the notes of an answer given without it; none when nothing did.
 */
export function indexProblemNotes(ctx: ToolContext): string[] {
  const problem = ctx.session.services(ctx.project()).scip.takeProblem();
  return problem === null ? [] : [problem];
}

/**
 * When the live server cannot run, the changed files' occurrences of the name, as not-analysed
 * lines with the reason.
 */
export async function changedSinceIndex(
  root: string,
  files: readonly string[],
  word: string,
): Promise<string[]> {
  const out: string[] = [];
  for (const rel of files) {
    let text: string;
    try {
      text = await Deno.readTextFile(`${root}/${rel}`);
    } catch {
      continue;
    }
    const lines = splitLines(text);
    for (const o of wordOccurrences(text, word, rel)) {
      if (o.site !== "code") continue;
      out.push(`${rel}:${o.line + 1}: ${preview(lines[o.line] ?? "")} (changed since the index)`);
    }
  }
  return out;
}
