/**
 * find_references: every location that refers to the symbol at a position.
 * @module
 */
import { z } from "../../deps.ts";
import { listedPositions, normalizeLocations, positionKey } from "../../symbols/queries.ts";
import { ask, type LocationDict, locationDict, resolvePosition } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { positionParams } from "../shared/targets.ts";
import { symbolName, textDocumentPosition, uniqueLocations } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";
import { indexOf, withBuildHeld } from "../shared/locate_symbol.ts";
import { importsAreDeclarations } from "../../symbols/typescript_native.ts";
import {
  candidateFiles,
  importProof,
  notAnalysedLines,
  proofApplies,
  showCandidates,
  showingOpensFiles,
  unexplainedOccurrences,
} from "../../symbols/completeness.ts";
import type { ToolAnswer, ToolContext } from "../tool.ts";
import {
  changedSinceIndex,
  type IndexedReferences,
  indexProblemNotes,
  referencesFromIndex,
  withoutServerNote,
} from "../shared/scip_references.ts";

type Reference = LocationDict & { is_definition: boolean };
import type { SymbolLookup } from "../../symbols/lookup.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import { LspMethod } from "../../lsp/methods.ts";
import { rangeContainsPosition, walkSymbols } from "../../symbols/model.ts";
import { grepLinesChars } from "../shared/reference_entries.ts";
import type { NormalizedLocation } from "../../symbols/queries.ts";

/** Up to this size the answer keeps its usual shape (seed 003's, which its callers expect). */
const USUAL_SHAPE_CHARS = 8_000;

export const findReferences = defineTool({
  name: "find_references",
  description: "Finds every reference to the symbol at a position across the project (as the " +
    "IDE's Find All References). Position: relative_path + 1-based line/column, or name_path. " +
    'Returns {"symbol", "references": [{"file", "line", "column", "is_definition", "preview"}], ' +
    '"totalCount"}; occurrences of the name it could not account for under "not_analysed".',
  params: {
    ...positionParams,
    include_declaration: z.boolean().default(true).describe(
      "Include the declaration itself.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  // Optional: find_referencing_symbols covers the default set; the ide and ada contexts add it.
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  handler(args, ctx) {
    // A cold question's own work comes before the declaration index's build.
    return withBuildHeld(ctx, async () => {
      // A SCIP index built in CI answers for the files unchanged since (tools/shared/scip_references.ts).
      const indexed = await referencesFromIndex(ctx, args);
      if (indexed !== null) return await answerFromIndex(ctx, args, indexed);
      const target = await resolvePosition(ctx, args);
      const index = indexOf(ctx);
      // Declarations: where goto_definition leads (best effort; a failure only loses the flag and
      // the import-graph proof).
      const definitions = new Set<string>();
      const declarations: Array<
        { relPath: string; position: { line: number; character: number } }
      > = [];
      try {
        const defs = await target.server.request<unknown>(
          LspMethod.definition,
          textDocumentPosition(target),
          { ...target.options, sync: [target.relPath] },
        );
        for (const d of normalizeLocations(defs)) {
          definitions.add(`${d.uri}:${d.range.start.line}:${d.range.start.character}`);
          const rel = target.server.relPathOf(d.uri);
          if (rel !== null) declarations.push({ relPath: rel, position: d.range.start });
        }
      } catch (error) {
        if (target.options.signal?.aborted) throw error;
      }
      // The files that may hold the name, shown to the server first (symbols/completeness.ts),
      // but for those with no import path to the declaring module.
      const candidates = target.word === ""
        ? []
        : await candidateFiles(index, target.server, target.word, target.options);
      // The proof runs now where showing would open files, else when occurrences need the
      // server; the declaration's outline is asked only where it applies (one more request).
      const prove = async () =>
        await importProof(
          index,
          target.server,
          await topLevelDeclaration(index, declarations, target.word, target.options),
          candidates,
          target.options,
        );
      const proof = proofApplies(target.server) &&
          showingOpensFiles(index, target.server, candidates, [target.relPath])
        ? await prove()
        : null;
      await showCandidates(index, target.server, proof?.shown ?? candidates, target.options);
      const result = await ask<unknown>(
        target,
        LspMethod.references,
        {
          ...textDocumentPosition(target),
          // TypeScript 7 and ty count an import as a declaration of its local name and leave it
          // out without the declaration: they are asked with it, and the target's own
          // declarations are left out below.
          context: {
            includeDeclaration: args.include_declaration || importsAreDeclarations(target.server),
          },
        },
        "referencesProvider",
        "finding references",
      );
      let locations = uniqueLocations(normalizeLocations(result));
      if (!args.include_declaration && importsAreDeclarations(target.server)) {
        locations = locations.filter((l) =>
          !definitions.has(`${l.uri}:${l.range.start.line}:${l.range.start.character}`)
        );
      }
      const references: Reference[] = [];
      for (const l of locations) {
        const key = `${l.uri}:${l.range.start.line}:${l.range.start.character}`;
        references.push({
          ...(await locationDict(target, l.uri, l.range)),
          is_definition: definitions.has(key),
        });
      }
      sortByPlace(references);
      const listed = listedPositions(locations, (uri) => target.server.relPathOf(uri));
      const notAnalysed = candidates.length === 0 ? [] : await unexplainedOccurrences(
        index,
        target.server,
        {
          name: target.word,
          declarations,
          unreachable: proof?.unreachable ??
            (proofApplies(target.server) ? async () => (await prove()).unreachable : new Set()),
        },
        candidates,
        (rel, p) => listed.get(rel)?.has(positionKey(p)) ?? false,
        target.options,
      );
      const symbol = symbolName(target);
      const unexplained = notAnalysed.length === 0 ? {} : {
        not_analysed: notAnalysedLines(notAnalysed),
      };
      const full = { symbol, references, totalCount: references.length, ...unexplained };
      // A SCIP index the global config names that could not be had is told beside the answer.
      const problems = indexProblemNotes(ctx);
      return {
        text: await withinGrep(target, locations, full, args.include_declaration),
        shorter: [byPositions(symbol, references, unexplained)],
        ...(problems.length > 0 ? { notes: problems } : {}),
      };
    });
  },
});

/** The shortest form: each file's references as `line:column`. */
function byPositions(
  symbol: string,
  references: readonly Reference[],
  extra: Record<string, unknown>,
): { note: string; text: () => string } {
  return {
    note: "Too long with previews; references as file → [line:column]:",
    text: () => {
      const byFile: Record<string, string[]> = {};
      for (const r of references) (byFile[r.file] ??= []).push(`${r.line}:${r.column}`);
      return toJson({ symbol, references: byFile, totalCount: references.length, ...extra });
    },
  };
}

/**
 * The one declaration of the name and whether it is a top-level symbol of its file (what the
 * import-graph proof needs); not top-level when there are several or its outline fails.
 */
async function topLevelDeclaration(
  index: SymbolLookup,
  declarations: ReadonlyArray<{ relPath: string; position: { line: number; character: number } }>,
  name: string,
  options: RequestOptions,
): Promise<{ relPath: string; topLevel: boolean; name: string }> {
  const [only] = declarations;
  if (declarations.length !== 1 || only === undefined) {
    return { relPath: "", topLevel: false, name };
  }
  try {
    // Kept open (not transient): a file closed again may leave the server's inferred program.
    const file = index.memoizedSymbols(only.relPath) ??
      await index.fileSymbols(only.relPath, options);
    for (const node of walkSymbols(file.roots)) {
      if (node.name === name && rangeContainsPosition(node.selectionRange, only.position)) {
        return { relPath: only.relPath, topLevel: node.parent === null, name };
      }
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
  }
  return { relPath: only.relPath, topLevel: false, name };
}

/** The live answer's text ({@linkcode compactPastGrep}), grep's cost read from its files. */
async function withinGrep(
  target: Awaited<ReturnType<typeof resolvePosition>>,
  locations: readonly NormalizedLocation[],
  full: FullAnswer,
  includeDeclaration: boolean,
): Promise<string> {
  return await compactPastGrep(full, target.word, includeDeclaration, async () => {
    let budget = 0;
    for (const uri of new Set(locations.map((l) => l.uri))) {
      const lines = await target.reader.lines(uri);
      if (lines) {
        budget += grepLinesChars(target.server.relPathOf(uri) ?? uri, lines, target.word);
      }
    }
    return budget;
  });
}

interface FullAnswer {
  symbol: string;
  references: Array<LocationDict & { is_definition: boolean }>;
  totalCount: number;
  not_analysed?: string[];
  note?: string;
}

/**
 * The answer's JSON, or, when it is over 8,000 characters and costs more than `grep -nw <word>`
 * over the files it lists (`grepChars`, asked only then), the references as
 * `"line:column preview"` strings per file (the declarations named apart): grep's lines without
 * the path on each. The live answer and the index's take the same form.
 */
async function compactPastGrep(
  full: FullAnswer,
  word: string,
  includeDeclaration: boolean,
  grepChars: () => Promise<number>,
): Promise<string> {
  const text = toJson(full);
  if (text.length <= USUAL_SHAPE_CHARS || word === "") return text;
  if (text.length <= await grepChars()) return text;
  const byFile: Record<string, string[]> = {};
  for (const r of full.references) {
    (byFile[r.file] ??= []).push(`${r.line}:${r.column} ${r.preview}`);
  }
  const definitions = full.references.filter((r) => r.is_definition)
    .map((r) => `${r.file}:${r.line}:${r.column}`);
  return toJson({
    symbol: full.symbol,
    references: byFile,
    ...(includeDeclaration && definitions.length > 0 ? { definitions } : {}),
    totalCount: full.totalCount,
    ...(full.not_analysed ? { not_analysed: full.not_analysed } : {}),
    ...(full.note ? { note: full.note } : {}),
  });
}

/** References in file order, then by line and column. */
function sortByPlace(references: Reference[]): void {
  references.sort((a, b) =>
    a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.line - b.line || a.column - b.column
  );
}

/**
 * The index's answer: references sorted by file and position, compacted past grep's cost as the
 * live answer is, and a shorter form for the limit.
 */
async function render(
  ctx: ToolContext,
  indexed: IndexedReferences,
  references: Reference[],
  notAnalysed: string[],
  includeDeclaration: boolean,
): Promise<ToolAnswer> {
  sortByPlace(references);
  const unexplained = notAnalysed.length === 0 ? {} : { not_analysed: notAnalysed };
  const source = { note: indexed.note };
  const symbol = indexed.symbol;
  const full = { symbol, references, totalCount: references.length, ...unexplained, ...source };
  const scip = ctx.session.services(ctx.project()).scip;
  const text = await compactPastGrep(full, indexed.word, includeDeclaration, async () => {
    let budget = 0;
    for (const file of new Set(references.map((r) => r.file))) {
      const lines = await scip.linesOf(file);
      if (lines) budget += grepLinesChars(file, lines, indexed.word);
    }
    return budget;
  });
  return { text, shorter: [byPositions(symbol, references, { ...unexplained, ...source })] };
}

/**
 * The index's answer, completed for the files changed since it was built: the live server is
 * shown them and asked, and only its locations in those files are taken. When no server can
 * run, their occurrences of the name are named as not analysed.
 */
async function answerFromIndex(
  ctx: ToolContext,
  args: Parameters<typeof referencesFromIndex>[1],
  indexed: IndexedReferences,
): Promise<ToolAnswer> {
  const references: Reference[] = [...indexed.references];
  let notAnalysed: string[] = [];
  if (indexed.live.length > 0) {
    try {
      const target = await resolvePosition(ctx, args);
      const index = indexOf(ctx);
      await showCandidates(index, target.server, indexed.live, target.options);
      const result = await ask<unknown>(
        target,
        LspMethod.references,
        { ...textDocumentPosition(target), context: { includeDeclaration: true } },
        "referencesProvider",
        "finding references",
      );
      const live = new Set(indexed.live);
      for (const l of uniqueLocations(normalizeLocations(result))) {
        const rel = target.server.relPathOf(l.uri);
        if (rel === null || !live.has(rel)) continue;
        references.push({ ...(await locationDict(target, l.uri, l.range)), is_definition: false });
      }
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      notAnalysed = await changedSinceIndex(ctx.project().root, indexed.live, indexed.word);
      indexed = { ...indexed, note: withoutServerNote(indexed.note) };
    }
  }
  return await render(ctx, indexed, references, notAnalysed, args.include_declaration);
}
