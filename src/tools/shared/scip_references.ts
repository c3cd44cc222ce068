/**
 * References answered from the project's SCIP index (symbols/scip/), when it has one and the
 * asked file is unchanged since the index was built. Occurrences in unchanged files come from the
 * index; files changed since then that mention the name are asked of the live language server,
 * or, when none can run, named as not analysed ("changed since the index"). The answer has the
 * live answer's shape, with a one-line note saying where it came from.
 * @module
 */
import { pathToFileURL } from "node:url";
import { LineReader, splitLines, toAgentPosition, toLspPosition } from "../../lsp/positions.ts";
import { preview } from "../../lsp/positions.ts";
import { containsWord, wordOccurrences } from "../../symbols/occurrences.ts";
import { matchesNamePath, namePathOfSymbol } from "../../symbols/scip/descriptors.ts";
import { SymbolRole } from "../../symbols/scip/decode.ts";
import type { ScipState } from "../../symbols/scip/project_scip.ts";
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

/**
 * The index's answer, or null when the index cannot answer this question (no index, the file
 * changed since it was built, or no symbol at the position): the caller asks the live server.
 */
export async function referencesFromIndex(
  ctx: ToolContext,
  args: PositionArgs & { include_declaration: boolean },
): Promise<IndexedReferences | null> {
  const project = ctx.project();
  const services = ctx.session.services(project);
  if ((await services.scip.locate()) === null) return null;
  const resolved = project.resolveFile(args.relative_path);
  const rel = resolved.relative.replaceAll("\\", "/");
  const state = await services.scip.state((p) => {
    void ctx.progress(p.read, p.total, `loading the SCIP index (${p.documents} documents)`);
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
  const occurrences = referenceSymbols(state, symbol).flatMap((id) =>
    state.index.occurrencesOf(id).filter((o) =>
      id === symbol || (o.roles & SymbolRole.Definition) === 0
    )
  ).filter((o) => !state.stale.has(o.relPath));
  const definition = occurrences.find((o) => o.relPath === rel) ?? occurrences[0];
  const word = definition
    ? wordAt(
      (await linesOf(project.root, definition.relPath, rel, lines))[definition.range[0]] ?? "",
      definition.range[1],
    )
    : shownName;
  if (word === "") return null;
  const reader = new LineReader(project.settings.encoding);
  const references: IndexedReference[] = [];
  for (const o of occurrences) {
    const isDefinition = (o.roles & SymbolRole.Definition) !== 0;
    if (isDefinition && !args.include_declaration) continue;
    const fileLines = await reader.lines(pathToFileURL(project.absolute(o.relPath)).href);
    const at = fileLines
      ? toAgentPosition(fileLines, { line: o.range[0], character: o.range[1] })
      : { line: o.range[0] + 1, column: o.range[1] + 1 };
    references.push({
      file: o.relPath,
      line: at.line,
      column: at.column,
      preview: preview(fileLines?.[o.range[0]] ?? ""),
      is_definition: isDefinition,
    });
  }
  const live = await changedMentioning(project.root, state, word);
  const tool = [...state.index.tools].join(", ") || "an indexer";
  const note = `Answered from the SCIP index (${tool}) for the files unchanged since it was ` +
    `built; ${state.stale.size} changed since` +
    (live.length > 0 ? `, ${live.length} of them mentioning '${word}' asked of the server.` : ".");
  return { symbol: namePath || shownName, word, references, live, note };
}

/**
 * The symbols whose occurrences refer to `symbol`: itself, and for a class its constructor
 * (scip-typescript files `new Circle(…)` under ``Circle#`<constructor>`().``, where the
 * language server counts it as a reference to the class; the constructor's own declaration is
 * not one).
 */
function referenceSymbols(state: ScipState, symbol: number): number[] {
  const name = state.index.symbolName(symbol);
  if (!name.endsWith("#")) return [symbol];
  const constructor = state.index.idOf(`${name}\`<constructor>\`().`);
  return constructor === null ? [symbol] : [symbol, constructor];
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
