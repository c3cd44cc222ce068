/**
 * find_referencing_symbols: the symbols that refer to a symbol, named by their containing
 * symbol. Its target resolution ({@linkcode resolveQueryTarget}) serves find_implementations too.
 * @module
 */
import { z } from "../../deps.ts";
import { namePathOf, type SymbolNode } from "../../symbols/model.ts";
import {
  type CheckedReferences,
  findReferencesChecked,
  nameQueryAhead,
  type ReferenceHit,
  type StageMark,
} from "../../symbols/queries.ts";
import { describe, kindFilter, kindList } from "../shared/symbol_params.ts";
import { indexOf, requestOptions, withBuildHeld } from "../shared/locate_symbol.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { groupByFileAndKind, referenceEntriesJson } from "../shared/reference_entries.ts";
import { locate, locateInProject, resolveSourceFile } from "../shared/locate_symbol.ts";
import { toJson } from "../shared/json.ts";
import { prefilterNeedle, type SymbolLookup, type SymbolMatch } from "../../symbols/lookup.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import { findInTree, parseNamePath, pickUnique } from "../../symbols/name_path.ts";
import { notAnalysedText } from "../../symbols/completeness.ts";
import { nextTask } from "../../turns.ts";
import { referencingFromIndex } from "./referencing_from_index.ts";
import { indexProblemNotes } from "../shared/scip_references.ts";

/**
 * The one symbol a reference or implementation query is about, with the kind filter for its
 * results and what the query needs to ask the server.
 */
export async function resolveQueryTarget(
  ctx: ToolContext,
  args: {
    name_path: string;
    relative_path: string;
    include_kinds: number[];
    exclude_kinds: number[];
  },
  toolName: string,
  /**
   * A cold target may be provisional (SymbolLookup.resolveUniqueCold): the caller confirms it
   * (findReferencesChecked does).
   */
  provisional = false,
  /**
   * Start the question's work that needs only the name and the file beside locating a cold
   * target (queries.ts's nameQueryAhead), for the caller to hand to the query.
   */
  ahead = false,
) {
  const wanted = kindFilter(args.include_kinds, args.exclude_kinds);
  const index = indexOf(ctx);
  const options = requestOptions(ctx);
  if (args.relative_path.trim() === "" && toolName === "find_referencing_symbols") {
    index.startDeclarations();
    // No file given: the one symbol of this name path in the whole project.
    const target = await locateInProject(ctx, args.name_path, options);
    return { index, options, target, wanted, ahead: null };
  }
  const relPath = resolveSourceFile(ctx.project(), args.relative_path, toolName);
  const warm = inMemory(index, args.name_path, relPath);
  if (warm !== null) {
    index.startDeclarations();
    return { index, options, target: warm, wanted, ahead: null };
  }
  const early = ahead ? nameQueryAhead(index, relPath, args.name_path, options) : null;
  // Its server opens the target's file first, so that the server's project load begins now: a
  // turn of the event loop lets that run before the index's start and the target's parse (the
  // `didOpen` went 50 ms after the call on hono, 75 ms before).
  if (early !== null) await nextTask();
  // The containing symbols of the results come from the declaration index where it is exact:
  // it builds while the server starts and loads the project.
  index.startDeclarations();
  // Cold: the target's file outline from the index's parse or the server, whichever is first.
  try {
    const target = await index.resolveUniqueCold(
      parseNamePath(args.name_path),
      relPath,
      options,
      provisional,
    );
    return { index, options, target, wanted, ahead: early };
  } catch (error) {
    early?.cancel(); // no target: the work for its name stops where it is
    throw error;
  }
}

/**
 * {@linkcode locate} when the file's tree is in memory for its content on disk (a warm query:
 * no await), else null. The same rules (SymbolLookup.resolveUnique's).
 */
function inMemory(index: SymbolLookup, namePath: string, relPath: string): SymbolMatch | null {
  const file = index.memoizedSymbols(relPath);
  if (file === null) return null;
  let picked = pickedIn.get(file.roots);
  const known = picked?.get(namePath);
  if (known !== undefined && known.relPath === relPath) return { node: known, file };
  const pattern = parseNamePath(namePath);
  const node = pickUnique(findInTree(file.roots, pattern), pattern, { relPath, roots: file.roots });
  if (picked === undefined) pickedIn.set(file.roots, picked = new Map());
  picked.set(namePath, node);
  return { node, file };
}

/**
 * The symbol each name path picked in a tree (trees are immutable and shared by the lookup's
 * memo, so a tree stands for its file's content): a warm question asked again does not walk its
 * target's file. Only a unique match is kept; a name that is not is looked for again.
 */
const pickedIn = new WeakMap<readonly SymbolNode[], Map<string, SymbolNode>>();

/**
 * Before the declaration index is built, index the target's file now (ahead of the build, in
 * the parse workers), so that where the index models the file exactly the target is located
 * without the server's documentSymbol (the SCIP path then starts no server at all). Any failure
 * leaves it to the server.
 */
async function parseEarly(
  index: SymbolLookup,
  relPath: string,
  namePath: string,
  options: RequestOptions,
): Promise<void> {
  const declarations = index.declarations;
  if (declarations === null || declarations.built) return;
  const needle = prefilterNeedle(parseNamePath(namePath));
  if (needle === null) return;
  const signal = options.signal;
  await declarations.prepareFor(needle, { scope: relPath, ...(signal ? { signal } : {}) })
    .catch(() => {});
}

export const findReferencingSymbols = defineTool({
  name: "find_referencing_symbols",
  description: "Finds references to a symbol, grouped by file and kind of containing symbol, " +
    "with the line ('>') and one line either side. A larger answer is compacted to cost no " +
    "more than `grep -rnw` over its files: the referencing lines alone, or a plain listing " +
    "whose first line says how to read it.",
  params: {
    name_path: z.string().describe(describe.namePath),
    relative_path: z.string().describe(describe.relativePath + " Empty: the whole project."),
    include_kinds: kindList.describe(describe.includeKinds + " Of the referencing symbols."),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  handler: (args, ctx) => referencingSymbols(ctx, args),
});

/**
 * find_referencing_symbols' answer; `mark` names the end of each stage (profiling:
 * scripts/profiles/refs.ts).
 */
export async function referencingSymbols(
  ctx: ToolContext,
  args: {
    name_path: string;
    relative_path: string;
    include_kinds: number[];
    exclude_kinds: number[];
  },
  mark: StageMark = () => {},
): Promise<ToolAnswer> {
  // A cold question's own work comes before the declaration index's build.
  return await withBuildHeld(ctx, () => referencesAnswer(ctx, args, mark));
}

async function referencesAnswer(
  ctx: ToolContext,
  args: Parameters<typeof referencingSymbols>[1],
  mark: StageMark,
): Promise<ToolAnswer> {
  const wantedKinds = kindFilter(args.include_kinds, args.exclude_kinds);
  // The question's moment. The watcher's barrier every warm question waits for (the changes made
  // before it must be seen) is asked for now, so that its wait overlaps locating the target; the
  // candidate scan, the document sync and the change feed share it (queries.ts). A cold question
  // leaves the watcher's start to them, after its own first work.
  const since = performance.now();
  const lookup = indexOf(ctx);
  if (lookup.declarations?.built) void lookup.changes?.settle(since).catch(() => null);
  // A SCIP index built in CI answers for the files unchanged since (referencing_from_index.ts);
  // the target is located without starting a server where its file's tree is known.
  const fromIndex = await referencingFromIndex(ctx, args, async (relPath) => {
    const index = indexOf(ctx);
    const options = requestOptions(ctx);
    index.startDeclarations();
    await parseEarly(index, relPath, args.name_path, options);
    return inMemory(index, args.name_path, relPath) ??
      await locate(ctx, args.name_path, relPath, options);
  });
  mark("SCIP index looked for");
  if (fromIndex !== null) {
    const { target, checked, note } = fromIndex;
    return referencingAnswer(indexOf(ctx), target, checked, wantedKinds, [note]);
  }
  const { index, options, target, wanted, ahead } = await resolveQueryTarget(
    ctx,
    args,
    "find_referencing_symbols",
    true,
    true,
  );
  mark("locate target");
  const checked = await findReferencesChecked(index, target, { ...options, since }, mark, ahead);
  const about = checked.confirmed ?? target;
  const answer = referencingAnswer(index, about, checked, wanted, indexProblemNotes(ctx));
  mark("JSON");
  return answer;
}

/**
 * The answer for a target's references, whichever source found them (the live server, or the
 * SCIP index: referencing_from_index.ts); `notes` follow the answer in blocks of their own.
 */
export function referencingAnswer(
  index: SymbolLookup,
  target: SymbolMatch,
  checked: CheckedReferences,
  wanted: (kind: number) => boolean,
  notes: readonly string[] = [],
): ToolAnswer {
  // As Serena 2.1 does, a reference that is the name of a symbol with the target's name and kind
  // is left out: it declares that symbol (a method implementing an interface's, an import)
  // rather than using the target.
  const { name, kind } = target.node;
  const namesItself = (h: ReferenceHit) => {
    const { start, end } = h.symbol.selectionRange;
    const at = h.position;
    return h.symbol.name === name && h.symbol.kind === kind &&
      (at.line > start.line || (at.line === start.line && at.character >= start.character)) &&
      (at.line < end.line || (at.line === end.line && at.character <= end.character));
  };
  const hits = checked.hits.filter((h) => wanted(h.symbol.kind) && !namesItself(h));
  // Occurrences the server neither listed nor explained are never dropped: they follow the answer
  // in a content block of their own, so the answer keeps Serena's JSON shape.
  const notAnalysed = notAnalysedText(target.node.name, checked.notAnalysed);
  // Serena's entries, merged where the answer would cost more than grep's (reference_entries.ts).
  const text = referenceEntriesJson(hits, name, index);
  const blocks = [...(notAnalysed ? [notAnalysed] : []), ...notes];
  return {
    text,
    shorter: [
      {
        note: "References without surrounding lines:",
        text: () =>
          toJson(groupByFileAndKind(hits, (h) => ({
            name_path: namePathOf(h.symbol),
            reference_line: h.position.line,
          }))),
      },
      {
        note: "Reference counts per file:",
        text: () => {
          const counts: Record<string, number> = {};
          for (const h of hits) counts[h.relPath] = (counts[h.relPath] ?? 0) + 1;
          return toJson(counts);
        },
      },
      { note: "", text: () => `Found ${hits.length} references.` },
    ],
    ...(blocks.length > 0 ? { notes: blocks } : {}),
  };
}
