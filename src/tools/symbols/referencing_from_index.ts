/**
 * find_referencing_symbols answered from the project's SCIP index (symbols/scip/), when it has one
 * and the target's file is unchanged since the index was built. The references in unchanged files
 * are the index's (read as the live server counts them: tools/shared/scip_references.ts); each is
 * named by its containing symbol as the live answer names it, from the same symbol trees
 * (containing_symbol.ts over the declaration index's exact trees, the cache, or the server's
 * outline). Files changed since the index that mention the name are asked of the live server, and
 * its occurrences there it neither lists nor explains are named as not analysed, as the live
 * answer names them; when no server can run, their occurrences are named "changed since the
 * index".
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import { mapLimit } from "../../map_limit.ts";
import { preview } from "../../lsp/positions.ts";
import { toAgentPosition } from "../../lsp/positions.ts";
import {
  type NotAnalysed,
  showCandidates,
  unexplainedOccurrences,
} from "../../symbols/completeness.ts";
import type { FileSymbols, SymbolLookup, SymbolMatch } from "../../symbols/lookup.ts";
import { comparePositions, type Position } from "../../symbols/model.ts";
import { wordOccurrences } from "../../symbols/occurrences.ts";
import {
  type CheckedReferences,
  listedPositions,
  namedReferences,
  namePosition,
  normalizeLocations,
  positionKey,
  projectPaths,
  type ReferenceHit,
} from "../../symbols/queries.ts";
import { importsAreDeclarations } from "../../symbols/typescript_native.ts";
import { indexOf, requestOptions, resolveSourceFile } from "../shared/locate_symbol.ts";
import { referencesFromIndex, withoutServerNote } from "../shared/scip_references.ts";
import { scipProgressMessage } from "../../symbols/scip/scip_index.ts";
import type { ToolContext } from "../tool.ts";

/** Referencing files whose trees are made ready at once (each a parse or an outline request). */
const FILE_CONCURRENCY = 16;

/**
 * Up to this many referencing files are each parsed ahead of the declaration index's build; past
 * it, one pass over the project does them all (each pass walks the build's whole queue).
 */
const FILES_PREPARED_ONE_BY_ONE = 64;

/** The reason given for a changed file's occurrence when no server can answer for it. */
export const CHANGED_SINCE_INDEX = "changed since the index";

/** The index's answer: the target, its references with their containing symbols, the note. */
export interface IndexedReferencing {
  target: SymbolMatch;
  checked: CheckedReferences;
  /** One line: where the answer came from. */
  note: string;
}

/**
 * The references of the symbol `args` names, from the index; null when the index cannot answer
 * (no index, no file given, the file changed since it was built, no symbol of the index at the
 * target's name): the caller asks the live server. `locateTarget` finds the target in a file the
 * way the live query does, without starting a server where the file's tree is known.
 */
export async function referencingFromIndex(
  ctx: ToolContext,
  args: { name_path: string; relative_path: string },
  locateTarget: (relPath: string) => Promise<SymbolMatch>,
): Promise<IndexedReferencing | null> {
  if (args.relative_path.trim() === "") return null;
  const project = ctx.project();
  const scip = ctx.session.services(project).scip;
  if ((await scip.locate()) === null) return null;
  const relPath = resolveSourceFile(project, args.relative_path, "find_referencing_symbols");
  const state = await scip.state((p) => {
    void ctx.progress(p.read, p.total, scipProgressMessage(p));
  });
  if (state === null || !state.index.has(relPath) || state.stale.has(relPath)) return null;
  const target = await locateTarget(relPath);
  const at = namePosition(target);
  if (at === null) return null;
  const agent = toAgentPosition(target.file.text.split("\n"), at);
  // Declarations included, but for the target's own: those of the methods its references include
  // (the interface method it implements) are listed by the live server too, and those of its
  // own name (an implementation of the same method) are left out with the live answer's rule.
  const indexed = await referencesFromIndex(ctx, {
    relative_path: relPath,
    line: agent.line,
    column: agent.column,
    include_declaration: true,
  });
  if (indexed === null) return null;
  const index = indexOf(ctx);
  const options = requestOptions(ctx);
  const symbol = state.index.symbolAt(relPath, at.line, at.character);
  const ownDefinitions = new Set(
    (symbol === null ? [] : state.index.definitionsOf(symbol)).map((o) =>
      `${o.relPath}:${o.range[0]}:${o.range[1]}`
    ),
  );
  const byFile = new Map<string, Position[]>();
  for (const o of indexed.locations) {
    const position = { line: o.range[0], character: o.range[1] };
    if (o.relPath === relPath && comparePositions(position, at) === 0) continue;
    if (ownDefinitions.has(`${o.relPath}:${o.range[0]}:${o.range[1]}`)) continue;
    const list = byFile.get(o.relPath);
    if (list) list.push(position);
    else byFile.set(o.relPath, [position]);
  }
  const hits = await namedHits(index, target, byFile, options, indexed.word);
  let notAnalysed: NotAnalysed[] = [];
  let note = indexed.note;
  if (indexed.live.length > 0) {
    try {
      const live = await liveReferences(index, target, at, indexed.live, options);
      hits.push(...live.hits);
      notAnalysed = live.notAnalysed;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      notAnalysed = await changedOccurrences(index, indexed.live, indexed.word);
      note = withoutServerNote(note);
    }
  }
  return { target, checked: { hits, notAnalysed }, note };
}

/**
 * References by file, each named by its containing symbol (the live query's rule,
 * symbols/queries.ts): the target's own name is left out, a reference outside every candidate
 * belongs to its file. Files whose tree cannot be had are left out, as the live query leaves them.
 */
async function namedHits(
  index: SymbolLookup,
  target: SymbolMatch,
  byFile: ReadonlyMap<string, Position[]>,
  options: RequestOptions,
  word: string,
): Promise<ReferenceHit[]> {
  const files = [...byFile.keys()];
  const declarations = index.declarations;
  if (declarations !== null && !declarations.built) {
    // The referencing files are parsed ahead of the declaration index's build, so that their trees
    // come from the index where it is exact, without a server: one by one when they are few, else
    // in one pass over the project for the files that hold the name.
    index.startDeclarations();
    const signal = options.signal ? { signal: options.signal } : {};
    const scopes = files.length <= FILES_PREPARED_ONE_BY_ONE ? files : ["."];
    await mapLimit(scopes, FILE_CONCURRENCY, async (scope) => {
      await declarations.prepareFor(word, { scope, ...signal }).catch(() => false);
    });
  }
  const hits: ReferenceHit[][] = new Array(files.length);
  await mapLimit([...files.keys()], FILE_CONCURRENCY, async (i) => {
    const rel = files[i]!;
    let file: FileSymbols | null = rel === target.node.relPath ? target.file : null;
    try {
      file ??= index.memoizedSymbols(rel) ??
        await index.fileSymbols(rel, { ...options, transient: true });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      hits[i] = [];
      return;
    }
    hits[i] = namedReferences(target, rel, file, byFile.get(rel)!);
  });
  return hits.flat();
}

/**
 * The live server's references in the changed files (shown to it first), and the occurrences of
 * the name there it neither lists nor explains. Throws when the server cannot run.
 */
async function liveReferences(
  index: SymbolLookup,
  target: SymbolMatch,
  at: Position,
  changed: readonly string[],
  options: RequestOptions,
): Promise<CheckedReferences> {
  const relPath = target.node.relPath;
  const server = await index.pool.serverFor(relPath, options);
  const shown = await showCandidates(index, server, changed, { ...options, open: [relPath] });
  const result = await server.request<unknown>(
    LspMethod.references,
    {
      textDocument: { uri: server.uriOf(relPath) },
      position: at,
      context: { includeDeclaration: importsAreDeclarations(server) },
    },
    { ...options, sync: [relPath, ...shown.filter((f) => f !== relPath)] },
  );
  const locations = normalizeLocations(result);
  const pathOf = projectPaths(index, server);
  const wanted = new Set(changed);
  const byFile = new Map<string, Position[]>();
  const seen = new Set<string>();
  for (const l of locations) {
    const rel = pathOf(l.uri);
    if (rel === null || !wanted.has(rel)) continue;
    const key = `${rel}\0${l.range.start.line}:${l.range.start.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byFile.get(rel);
    if (list) list.push(l.range.start);
    else byFile.set(rel, [l.range.start]);
  }
  const hits = await namedHits(index, target, byFile, options, target.node.name);
  const listed = listedPositions(locations, pathOf);
  const notAnalysed = await unexplainedOccurrences(
    index,
    server,
    { name: target.node.name, declarations: [{ relPath, position: at }] },
    changed,
    (rel, p) => listed.get(rel)?.has(positionKey(p)) ?? false,
    options,
  );
  return { hits, notAnalysed };
}

/** The changed files' occurrences of the name in code, as not analysed: no server answered. */
async function changedOccurrences(
  index: SymbolLookup,
  files: readonly string[],
  word: string,
): Promise<NotAnalysed[]> {
  const out: NotAnalysed[] = [];
  for (const rel of files) {
    let text: string;
    try {
      text = (await Deno.readTextFile(index.project.absolute(rel))).replaceAll("\r\n", "\n");
    } catch {
      continue; // deleted since: nothing of it is in the answer
    }
    const lines = text.split("\n");
    for (const o of wordOccurrences(text, word, rel)) {
      if (o.site !== "code") continue;
      out.push({
        relPath: rel,
        line: o.line,
        character: o.character,
        text: preview(lines[o.line] ?? ""),
        reason: CHANGED_SINCE_INDEX,
        kind: "unchecked",
      });
    }
  }
  return out;
}
