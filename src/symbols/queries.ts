/**
 * Symbol-anchored language-server queries: references (each with the symbol that contains it),
 * implementations, rename edits and diagnostics. A query is sent at the symbol's selection
 * range; answers are mapped back onto the symbol model of the files they name.
 * @module
 */
import { LspMethod } from "../lsp/methods.ts";
import type { Diagnostic, TextEdit, WorkspaceEdit } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { importsAreDeclarations, isNativeTypeScript } from "./typescript_native.ts";
import {
  comparePositions,
  fileSymbol,
  type Position,
  type Range,
  rangeContains,
  rangeContainsPosition,
  type SymbolNode,
  symbolsAt,
  walkSymbols,
} from "./model.ts";
import { lineStarts, offsetAt } from "../edit/line_index.ts";
import { containerFinder } from "./containing_symbol.ts";
import { keepsReferencingFilesOpen, listsFilesAsLearned } from "../lsp/project_scope.ts";
import { MAX_OPEN } from "../lsp/documents.ts";
import { type FileSymbols, isProvisional, type SymbolLookup, type SymbolMatch } from "./lookup.ts";
import { mapLimit } from "../map_limit.ts";
import { parseNamePath } from "./name_path.ts";
import type { Settled } from "../project/change_feed.ts";
import type { LanguageServer, RequestOptions } from "../lsp/language_server.ts";
import {
  candidateFiles,
  candidateOccurrences,
  importProof,
  type NameTarget,
  type NotAnalysed,
  proofApplies,
  showCandidates,
  showingOpensFiles,
  unexplainedOccurrences,
} from "./completeness.ts";

/**
 * How many referencing files are read and named at once (each is a file read and, for a file
 * neither the index nor the cache holds, a documentSymbol request, which the index gates).
 */
const FILE_CONCURRENCY = 32;

/** One reference: where it is, and the symbol that contains it (a File symbol at top level). */
export interface ReferenceHit {
  relPath: string;
  position: Position;
  file: FileSymbols;
  symbol: SymbolNode;
}

/**
 * Marks the end of one stage of a query, named (profiling: scripts/profiles/refs.ts prints the
 * time between marks). Optional everywhere; tools pass none.
 */
export type StageMark = (stage: string) => void;

/** A location as servers send it (Location or LocationLink), normalized. */
export interface NormalizedLocation {
  uri: string;
  range: Range;
}

/** Location | LocationLink | arrays of them | null → a flat list of {uri, range}. */
export function normalizeLocations(result: unknown): NormalizedLocation[] {
  const items = Array.isArray(result) ? result : result ? [result] : [];
  const out: NormalizedLocation[] = [];
  for (const item of items) {
    const l = item as Record<string, unknown>;
    if (typeof l.uri === "string" && l.range) {
      out.push({ uri: l.uri, range: l.range as Range });
    } else if (typeof l.targetUri === "string") {
      const range = (l.targetSelectionRange ?? l.targetRange) as Range | undefined;
      if (range) out.push({ uri: l.targetUri, range });
    }
  }
  return out;
}

const IMPORT_START = /^(import\b|from\s+\S+\s+import\b|export\s+(type\s+)?(\{|\*))/;

/**
 * Whether a file-level reference on `line` is part of an import (or re-export) statement:
 * `import {A} from`, `from m import A`, `export {A} from`, also when spread over several lines.
 * find_symbol_usages marks such usages as imports (find_referencing_symbols lists them under
 * their file, as Serena does).
 */
export function isImportLine(lines: readonly string[], line: number): boolean {
  const here = (lines[line] ?? "").trim();
  if (IMPORT_START.test(here)) return true;
  for (let i = line - 1; i >= 0 && i >= line - 200; i--) {
    const text = (lines[i] ?? "").trim();
    if (text === "") return false;
    if (IMPORT_START.test(text)) {
      // Inside the braces/parentheses this statement opened and has not closed yet.
      const opened = /[{(]\s*$/.test(text) || (/[{(]/.test(text) && !/[})]/.test(text));
      return opened;
    }
    if (/[;})]\s*$/.test(text) && i < line) return false;
  }
  return false;
}

/** Project-relative path of a URI when it is a project file that is not ignored; else null. */
export function projectPathOf(
  index: SymbolLookup,
  server: LanguageServer,
  uri: string,
): string | null {
  const rel = server.relPathOf(uri);
  if (rel === null || rel === "" || rel.startsWith("..")) return null;
  if (index.project.ignore.isIgnoredDeep(rel, false)) return null;
  return rel;
}

/** URI text that a plain path below the root never has (escapes, queries, `.` and `..`, `//`). */
const UNPLAIN_URI = /[%?#\\]|\/\/|(^|\/)\.\.?(\/|$)/;

/**
 * {@linkcode projectPathOf} for the many locations of one answer: each URI asked once; a plain
 * URI below the root's is cut to its path without decoding it; each folder's ignore verdict is
 * decided once (a file is ignored when a folder above it is, or itself: isIgnoredDeep's rule).
 */
export function projectPaths(
  index: SymbolLookup,
  server: LanguageServer,
): (uri: string) => string | null {
  const ignore = index.project.ignore;
  const rootUri = `${server.uriOf(".").replace(/\/+$/, "")}/`;
  const byUri = new Map<string, string | null>();
  const folderIgnored = new Map<string, boolean>();
  const ignoredFolder = (dir: string): boolean => {
    if (dir === "") return false;
    let verdict = folderIgnored.get(dir);
    if (verdict === undefined) {
      const slash = dir.lastIndexOf("/");
      verdict = ignoredFolder(slash === -1 ? "" : dir.slice(0, slash)) ||
        ignore.isIgnored(dir, true);
      folderIgnored.set(dir, verdict);
    }
    return verdict;
  };
  return (uri) => {
    let rel = byUri.get(uri);
    if (rel !== undefined) return rel;
    const rest = uri.startsWith(rootUri) ? uri.slice(rootUri.length) : null;
    rel = rest !== null && rest !== "" && !UNPLAIN_URI.test(rest) ? rest : server.relPathOf(uri);
    if (rel === null || rel === "" || rel.startsWith("..")) rel = null;
    else {
      const slash = rel.lastIndexOf("/");
      if (ignoredFolder(slash === -1 ? "" : rel.slice(0, slash)) || ignore.isIgnored(rel, false)) {
        rel = null;
      }
    }
    byUri.set(uri, rel);
    return rel;
  };
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

function isWordAt(line: string, at: number, name: string): boolean {
  if (!line.startsWith(name, at)) return false;
  const before = line[at - 1];
  const after = line[at + name.length];
  return !(before && IDENTIFIER_CHAR.test(before)) && !(after && IDENTIFIER_CHAR.test(after));
}

/**
 * Where to ask the server about a symbol: the start of its name. Servers do not always put the
 * selection range there (tsserver starts a function assigned to a property, `a.parse = (x) =>
 * ...`, at the parenthesis, where references and hover find nothing), so the name is looked for
 * in the selection range's line, then in the symbol's range. Null when the name is not in the
 * text (a synthetic name such as `describe() callback`): no query can be trusted then.
 */
export function namePosition(match: SymbolMatch): Position | null {
  const { node, file } = match;
  // A tree stands for its file's content (see lastAnswers): a warm question asks again.
  const known = namePositions.get(node);
  if (known !== undefined && known.text === file.text) return known.position;
  const position = findNamePosition(match);
  namePositions.set(node, { text: file.text, position });
  return position;
}

/**
 * The last {@linkcode namePosition} of each symbol node, with the text it was found in: a warm
 * question about the same target (twice: the candidates' proof and the request) reads no line
 * of its file again.
 */
const namePositions = new WeakMap<SymbolNode, { text: string; position: Position | null }>();

function findNamePosition(match: SymbolMatch): Position | null {
  const { node, file } = match;
  const lineAt = lineReader(file.text);
  const sel = node.selectionRange.start;
  if (isWordAt(lineAt(sel.line) ?? "", sel.character, node.name)) return sel;
  const search = (from: number, to: number, firstColumn: number): Position | null => {
    for (let line = from; line <= to; line++) {
      const text = lineAt(line) ?? "";
      for (let at = text.indexOf(node.name, line === from ? firstColumn : 0); at !== -1;) {
        if (isWordAt(text, at, node.name)) return { line, character: at };
        at = text.indexOf(node.name, at + 1);
      }
    }
    return null;
  };
  return search(sel.line, sel.line, 0) ??
    search(node.range.start.line, node.range.end.line, node.range.start.character);
}

/**
 * Line `n` (0-based, as `text.split("\n")[n]`) of a text, found without splitting all of it:
 * asked for a warm query's target, whose file may be long, before every references request.
 */
function lineReader(text: string): (line: number) => string | undefined {
  /** Where each line starts, as far as asked; -1 past the last line. */
  const starts = [0];
  return (line) => {
    while (starts.length <= line) {
      const previous = starts[starts.length - 1]!;
      if (previous === -1) return undefined;
      const newline = text.indexOf("\n", previous);
      starts.push(newline === -1 ? -1 : newline + 1);
    }
    const start = starts[line]!;
    if (start === -1) return undefined;
    const end = text.indexOf("\n", start);
    return text.slice(start, end === -1 ? undefined : end);
  };
}

/** {@linkcode namePosition}, falling back to the selection range when the name is not found. */
function queryPosition(match: SymbolMatch): Position {
  return namePosition(match) ?? match.node.selectionRange.start;
}

/** References with what the answer could not account for (see completeness.ts). */
export interface CheckedReferences {
  hits: ReferenceHit[];
  /** Occurrences of the name neither listed nor explained; empty when the answer is whole. */
  notAnalysed: NotAnalysed[];
  /**
   * The target as the server's outline has it, where the query was given a provisional one
   * (lookup.ts's ProvisionalMatch): the answer is about this one.
   */
  confirmed?: SymbolMatch;
}

/**
 * The work of a cold question that needs only the name and its file, started beside locating
 * the target ({@linkcode nameQueryAhead}): the candidate scan, the import-graph proof for a
 * top-level symbol of that name, and the candidates shown to the server.
 */
export interface NameQueryAhead {
  relPath: string;
  name: string;
  prepared: Promise<Shown | null>;
  /** Stop it: the target was not found, and the question ends. */
  cancel(): void;
}

/** The candidates of a name, what the proof set aside, and the files shown for them. */
interface Shown {
  server: LanguageServer;
  candidates: string[];
  /** The proof for a top-level target; null where it did not run (nothing to open). */
  proof: Awaited<ReturnType<typeof importProof>> | null;
  /** The proof's target, as it ran. */
  topLevel: boolean;
  openNow: string[];
  /** The watcher's word the scan had (a built index's question), for a later proof. */
  settled: Settled | null;
}

/**
 * Start, while the target is still being located (a cold question: its file's outline waits
 * for the server's project load, 0.2-0.3 s on hono with TypeScript 7), what a references or
 * rename question needs of the name alone: the candidate scan, and for TypeScript's servers the
 * proof and the candidates shown, as for a top-level symbol of that name. prepareNameQuery takes
 * it where the located target has this name in this file; a nested target shows the candidates
 * the proof set aside then (a superset: nothing shown is taken back). Null once the declaration
 * index is built (a warm question's scan is milliseconds) or for a name the scan cannot use.
 */
export function nameQueryAhead(
  index: SymbolLookup,
  relPath: string,
  namePath: string,
  options: RequestOptions = {},
): NameQueryAhead | null {
  if (index.declarations === null || index.declarations.built) return null;
  let name: string;
  try {
    const pattern = parseNamePath(namePath);
    name = pattern.segments[pattern.segments.length - 1]!.name;
  } catch {
    return null;
  }
  if (!/^[\p{L}\p{N}_$]+$/u.test(name)) return null;
  const cancelled = new AbortController();
  const own = {
    ...options,
    signal: options.signal ? AbortSignal.any([options.signal, cancelled.signal]) : cancelled.signal,
  };
  const prepared = (async (): Promise<Shown | null> => {
    const server = await index.pool.serverFor(relPath, own);
    if (!proofApplies(server)) {
      // Shown later (pyright's answer lists files in the order it learned of them: shown during
      // its load they would come in another order); the scan alone goes ahead.
      const candidates = await candidateFiles(index, server, name, own);
      return { server, candidates, proof: null, topLevel: true, openNow: [], settled: null };
    }
    startLoad(server, relPath, { line: 0, character: 0 }, own);
    return await scanAndShow(index, server, { relPath, topLevel: true, name }, own);
  })();
  prepared.catch(() => {}); // prepareNameQuery does the work itself where this failed
  return { relPath, name, prepared, cancel: () => cancelled.abort() };
}

/**
 * Open the target's file, so that a cold server starts loading its project: tsserver loads a
 * file's project when it is opened; TypeScript 7's server only at the next question about it, so
 * a question that needs the program, not awaited, starts that load now.
 */
function startLoad(
  server: LanguageServer,
  relPath: string,
  at: Position,
  options: RequestOptions,
): void {
  if (server.openDocuments?.().includes(relPath) ?? false) return;
  const opened = server.syncFiles([relPath], options);
  if (!isNativeTypeScript(server)) return;
  opened.then(() =>
    server.request(LspMethod.definition, {
      textDocument: { uri: server.uriOf(relPath) },
      position: at,
    }, { ...options, transient: true })
  ).catch(() => {});
}

/** The candidate scan, the proof where showing would open files, and the candidates shown. */
async function scanAndShow(
  index: SymbolLookup,
  server: LanguageServer,
  declared: { relPath: string; topLevel: boolean; name: string },
  options: RequestOptions,
  mark: StageMark = () => {},
  before: () => Promise<unknown> = () => Promise.resolve(),
  scanned: string[] | null = null,
): Promise<Shown> {
  const { relPath, topLevel, name } = declared;
  const candidates = scanned ?? await candidateFiles(index, server, name, options);
  mark("candidate scan");
  await before();
  // The scan of a built index waited for the watcher's barrier after the question began: the
  // feed's word is then at hand, and what earlier questions checked on disk stands while the
  // project is quiet (completeness.ts).
  const settled = options.since !== undefined && index.declarations?.built
    ? await index.changes?.settle(options.since) ?? null
    : null;
  const scan = { ...options, settled };
  // The candidates no import path hands the target to cannot refer to it: not shown.
  // The proof runs now where showing would open files, else when occurrences need the server.
  const proof = showingOpensFiles(index, server, candidates, [relPath], settled)
    ? await importProof(index, server, declared, candidates, scan)
    : null;
  const openNow = await showCandidates(index, server, proof?.shown ?? candidates, {
    ...scan,
    open: [relPath],
  });
  return { server, candidates, proof, topLevel, openNow, settled };
}

/**
 * Make the server see every file that may hold the target's name before asking about it: the
 * target's file is opened first (a cold server starts loading its project meanwhile), then the
 * candidates are taken by text and those the server would not see are shown to it. Returns the
 * candidates and the files shown, for the request's `sync`. `ahead`: that work as started
 * beside locating the target ({@linkcode nameQueryAhead}), taken where it fits the target.
 */
export async function prepareNameQuery(
  index: SymbolLookup,
  server: LanguageServer,
  target: SymbolMatch,
  options: RequestOptions = {},
  mark: StageMark = () => {},
  ahead: NameQueryAhead | null = null,
): Promise<{ candidates: string[]; openNow: string[]; target: NameTarget | null }> {
  const relPath = target.node.relPath;
  const at = namePosition(target);
  if (at === null) return { candidates: [], openNow: [], target: null };
  // Opened first, so that a cold server starts loading its project during the scan.
  if (!(server.openDocuments?.().includes(relPath) ?? false)) {
    startLoad(server, relPath, at, options);
  }
  mark("target opened");
  const declared = { relPath, topLevel: target.node.parent === null, name: target.node.name };
  const early = ahead !== null && ahead.relPath === relPath && ahead.name === declared.name
    ? await ahead.prepared.catch(() => null)
    : null;
  let shown: Shown;
  if (early !== null && early.server === server && proofApplies(server)) {
    mark("candidate scan");
    shown = early;
    if (early.topLevel !== declared.topLevel && early.proof !== null) {
      // A nested target: no proof applies, so the candidates it set aside are shown too.
      const openNow = await showCandidates(index, server, early.candidates, {
        ...options,
        open: [relPath],
      });
      shown = { ...early, proof: null, topLevel: declared.topLevel, openNow };
    }
  } else {
    // A cold question's target may come before the server's project load: provisional
    // (lookup.ts's ProvisionalMatch), or from the index's exact parse. pyright lists a
    // references answer's files in the order it learned of them: shown during the load, the
    // candidates would come before its own files in some runs and after them in others. Shown
    // once it is loaded, they come after them, as when its outline of the target came first.
    const loaded = async () => {
      if (isProvisional(target) || listsFilesAsLearned(server.command)) {
        await server.loaded?.(options);
      }
    };
    // The scan alone went ahead for a server the proof does not apply to.
    const scanned = early !== null && early.server === server && !proofApplies(server)
      ? early.candidates
      : null;
    shown = await scanAndShow(index, server, declared, options, mark, loaded, scanned);
  }
  const { candidates, proof, settled } = shown;
  const prove = () => importProof(index, server, declared, candidates, { ...options, settled });
  return {
    candidates,
    openNow: shown.openNow.filter((f) => f !== relPath),
    target: {
      name: target.node.name,
      declarations: [{ relPath, position: at }],
      unreachable: proof?.unreachable ?? (async () => (await prove()).unreachable),
    },
  };
}

/**
 * References to a symbol, each with the symbol containing it (Serena's rule, see
 * containing_symbol.ts; the file at file level, as for import and re-export lines), files in
 * the order the server named them, positions in order. Left out: the declaration itself and references outside the project (libraries)
 * or in ignored files.
 */
export async function findReferences(
  index: SymbolLookup,
  target: SymbolMatch,
  options: RequestOptions = {},
  mark: StageMark = () => {},
): Promise<ReferenceHit[]> {
  return (await referencesOf(index, target, options, mark, false)).hits;
}

/**
 * {@linkcode findReferences}, and the occurrences of the name in the candidate files that the
 * answer neither lists nor explains.
 */
export async function findReferencesChecked(
  index: SymbolLookup,
  target: SymbolMatch,
  options: RequestOptions = {},
  mark: StageMark = () => {},
  ahead: NameQueryAhead | null = null,
): Promise<CheckedReferences> {
  return await referencesOf(index, target, options, mark, true, ahead);
}

async function referencesOf(
  index: SymbolLookup,
  target: SymbolMatch,
  given: RequestOptions,
  mark: StageMark,
  check: boolean,
  ahead: NameQueryAhead | null = null,
): Promise<CheckedReferences> {
  // The question's moment: the watcher's barrier made by the candidate scan after it serves the
  // document sync before the request and the change feed below (one touch per question).
  const options = { ...given, since: given.since ?? performance.now() };
  // Noted before anything is read: an event after it means the last answer may not stand.
  const stamp = index.changes?.stamp() ?? -1;
  const relPath = target.node.relPath;
  const at = queryPosition(target);
  const server = await index.pool.serverFor(relPath, options);
  mark("server ready");
  const prepared = await prepareNameQuery(index, server, target, options, mark, ahead);
  mark("candidates shown");
  const request = server.request<unknown>(
    LspMethod.references,
    {
      textDocument: { uri: server.uriOf(relPath) },
      position: at,
      // TypeScript 7 and ty count an import as a declaration (of the local name) and leave
      // it out with the declaration; tsserver and pyright list it. All list it when asked with
      // the declaration, which is left out below.
      context: { includeDeclaration: importsAreDeclarations(server) },
    },
    { ...options, sync: [relPath, ...prepared.openNow] },
  );
  // The change feed's barrier runs while the server answers: the referencing files read by
  // earlier queries and unchanged since are then named without a stat each.
  const settling = index.changes?.settle(options.since) ?? null;
  outlinesAhead(index, relPath, prepared.openNow, options);
  // A cold question's completeness check reads its candidates while the server answers (a warm
  // one finds their occurrences remembered under the hashes the index vouches for).
  const occurrencesAhead = check && prepared.target !== null && !index.declarations?.built
    ? candidateOccurrences(index, prepared.target, prepared.candidates)
    : null;
  // Awaited below; an answer that fails first leaves it unheard.
  occurrencesAhead?.catch(() => {});
  let result: unknown;
  /** The target the answer is about: the server's own where the query was given a provisional. */
  let about = target;
  if (isProvisional(target)) {
    // Asked where the index's parse puts the name; the server's outline of the file, asked at
    // the same time, must agree before the answer names anything.
    const [answered, confirmed] = await Promise.allSettled([request, target.confirmed]);
    if (confirmed.status === "rejected") throw confirmed.reason;
    if (!sameTarget(target, confirmed.value)) {
      // Another symbol, or the file changed meanwhile: asked again, as the server has it.
      await settling?.catch(() => null);
      const again = await referencesOf(index, confirmed.value, given, mark, check);
      return { ...again, confirmed: again.confirmed ?? confirmed.value };
    }
    if (answered.status === "rejected") throw answered.reason;
    result = answered.value;
    about = confirmed.value;
  } else {
    result = await request;
  }
  mark("references request");
  const barrier = await settling?.catch(() => null) ?? null;
  // Nothing changed since the last answer about this target, and the server lists the same
  // locations: the same answer, without naming its files or checking the candidates again.
  const last = lastAnswers.get(target.node);
  if (
    last !== undefined && barrier !== null && barrier.quietSince(last.stamp) &&
    last.server === server && last.candidates === prepared.candidates && last.check === check &&
    sameLocations(last.result, result)
  ) {
    mark("project paths");
    return {
      hits: [...last.checked.hits],
      notAnalysed: [...last.checked.notAnalysed],
      ...(about === target ? {} : { confirmed: about }),
    };
  }
  const locations = normalizeLocations(result);
  const byFile = new Map<string, Position[]>();
  const seen = new Set<string>();
  const pathOf = projectPaths(index, server);
  for (const loc of locations) {
    const rel = pathOf(loc.uri);
    if (rel === null) continue;
    const start = loc.range.start;
    if (rel === relPath && comparePositions(start, at) === 0) {
      continue; // the declaration itself
    }
    const key = `${rel}\0${start.line}:${start.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byFile.get(rel);
    if (list) list.push(start);
    else byFile.set(rel, [start]);
  }
  mark("project paths");
  // Files in the server's order, as Serena lists them.
  const files = [...byFile.keys()];
  const named = (rel: string, file: FileSymbols): ReferenceHit[] =>
    namedAgain(about, rel, file, byFile.get(rel)!);
  // The files whose trees are in memory are named in one synchronous pass (a warm query: no
  // promise per file); the others are read and asked for, a few at once.
  const hits: ReferenceHit[][] = new Array(files.length);
  const missing: number[] = [];
  for (const [i, rel] of files.entries()) {
    let file: FileSymbols | null = null;
    try {
      file = rel === relPath ? about.file : index.memoizedSymbols(rel, barrier);
    } catch { /* fileSymbols below tells */ }
    if (file) hits[i] = named(rel, file);
    else missing.push(i);
  }
  // A cold query: the index parses these files now, ahead of its build (where that helps).
  const indexed = missing.length === 0 || !index.indexHelpsCold(relPath, missing.length)
    ? null
    : index.indexAhead(target.node.name, missing.map((i) => files[i]!), options.signal);
  // Opened for its outline only (transient): a referencing file left open would be one more
  // document for the server to hold and for every later query to check against disk; but
  // pyright answers the next question faster with them open (keepsReferencingFilesOpen).
  const keepOpen = keepsReferencingFilesOpen(server.command) && fitsOpen(server, files);
  await mapLimit(missing, FILE_CONCURRENCY, async (i) => {
    const rel = files[i]!;
    let file: FileSymbols;
    await indexed?.(rel);
    try {
      file = await index.fileSymbols(rel, { ...options, transient: !keepOpen });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      hits[i] = [];
      return;
    }
    hits[i] = named(rel, file);
  });
  if (keepOpen) await keepFilesOpen(server, files, options);
  mark("containing symbols");
  let notAnalysed: NotAnalysed[] = [];
  if (check && prepared.target !== null) {
    const listed = listedPositions(locations, pathOf);
    notAnalysed = await unexplainedOccurrences(
      index,
      server,
      prepared.target,
      prepared.candidates,
      (rel, p) => listed.get(rel)?.has(positionKey(p)) ?? false,
      options,
      occurrencesAhead,
    );
    mark("completeness check");
  }
  const checked: CheckedReferences = {
    hits: hits.flat(),
    notAnalysed,
    ...(about === target ? {} : { confirmed: about }),
  };
  if (stamp >= 0) {
    lastAnswers.set(target.node, {
      stamp,
      server,
      candidates: prepared.candidates,
      check,
      result,
      checked: { hits: [...checked.hits], notAnalysed: [...notAnalysed] },
    });
  }
  return checked;
}

/**
 * Ask, while the server answers a cold references question, for the outlines of the files shown
 * to it for that question, where the answer's containing symbols will come from the server's
 * outlines (SymbolLookup.indexHelpsCold: TypeScript 7, few files): its answer lists those files,
 * which are then named from memory (SymbolLookup.memoizedSymbols) rather than asked one by one
 * after it (hono's `Context`: 36 outlines, ~30 ms of the call after the server's answer). The
 * server answers them beside the references request or right after it; they are its cheapest
 * question (TypeScript 7: ~0.1 ms each). A file the answer does not list costs one outline.
 * Files whose trees are in memory are left to the naming (a warm question asks nothing here).
 * Nothing waits for them: a failure is asked again, or explained, by the naming.
 */
function outlinesAhead(
  index: SymbolLookup,
  relPath: string,
  shown: readonly string[],
  options: RequestOptions,
): void {
  const missing = shown.filter((rel) => !index.hasTree(rel));
  if (missing.length === 0 || index.indexHelpsCold(relPath, missing.length)) return;
  void mapLimit(missing, FILE_CONCURRENCY, async (rel) => {
    await index.fileSymbols(rel, options).catch(() => {});
  }).catch(() => {});
}

/**
 * Whether the referencing files can all stay open beside the documents open already, within the
 * document sync's limit (documents.ts's MAX_OPEN): beyond it every question would open some and
 * close others, and a file pyright closes is analysed again with every file importing it.
 */
function fitsOpen(server: LanguageServer, files: readonly string[]): boolean {
  const open = new Set(server.openDocuments?.() ?? []);
  return open.size + files.filter((f) => !open.has(f)).length <= MAX_OPEN;
}

/**
 * Open in the server the referencing files it does not have open (those named from the index,
 * the cache or memory rather than by its outline): where it answers the next question faster for
 * them (keepsReferencingFilesOpen).
 */
async function keepFilesOpen(
  server: LanguageServer,
  files: readonly string[],
  options: RequestOptions,
): Promise<void> {
  const open = new Set(server.openDocuments?.() ?? []);
  const closed = files.filter((f) => !open.has(f));
  if (closed.length > 0) await server.syncFiles(closed, options).catch(() => {});
}

/**
 * Whether the server's outline has a provisional target where the index's parse put it: the same
 * file content, name, kind and name position, at the same level (the import proof asks whether
 * it is top-level).
 */
function sameTarget(provisional: SymbolMatch, confirmed: SymbolMatch): boolean {
  const a = provisional.node;
  const b = confirmed.node;
  const at = namePosition(provisional);
  const bt = namePosition(confirmed);
  return provisional.file.text === confirmed.file.text && a.name === b.name &&
    a.kind === b.kind && a.relPath === b.relPath && (a.parent === null) === (b.parent === null) &&
    at !== null && bt !== null && comparePositions(at, bt) === 0;
}

/**
 * The last answer about each target (its symbol node: a tree stands for its file's content),
 * with what it was made from: the change feed's stamp taken before it read anything, the server,
 * the candidate files (one list per index generation) and the server's answer as it came.
 */
const lastAnswers = new WeakMap<SymbolNode, {
  stamp: number;
  server: LanguageServer;
  candidates: readonly string[];
  check: boolean;
  result: unknown;
  checked: CheckedReferences;
}>();

/**
 * Whether two answers of a server list the same locations in the same order (as
 * {@linkcode normalizeLocations} reads them), compared as they came: a repeated question's
 * answer is not copied into new objects only to be found the same.
 */
export function sameLocations(a: unknown, b: unknown): boolean {
  const xs = Array.isArray(a) ? a : a ? [a] : [];
  const ys = Array.isArray(b) ? b : b ? [b] : [];
  if (xs.length !== ys.length) return false;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i] as LocationLike | null;
    const y = ys[i] as LocationLike | null;
    const rx = rangeOf(x);
    const ry = rangeOf(y);
    if (
      rx === null || ry === null || uriOf(x!) !== uriOf(y!) ||
      rx.start.line !== ry.start.line || rx.start.character !== ry.start.character ||
      rx.end.line !== ry.end.line || rx.end.character !== ry.end.character
    ) {
      return false;
    }
  }
  return true;
}

/** A Location or a LocationLink, unchecked, as a server sends it. */
type LocationLike = {
  uri?: unknown;
  range?: Range;
  targetUri?: unknown;
  targetSelectionRange?: Range;
  targetRange?: Range;
};

/** The range {@linkcode normalizeLocations} takes of a location; null when it has none. */
function rangeOf(l: LocationLike | null): Range | null {
  if (l === null || typeof l !== "object") return null;
  const range = typeof l.uri === "string" ? l.range : l.targetSelectionRange ?? l.targetRange;
  return range?.start && range.end ? range : null;
}

function uriOf(l: LocationLike): unknown {
  return typeof l.uri === "string" ? l.uri : l.targetUri;
}

/**
 * The last {@linkcode namedReferences} of each tree (trees are immutable and shared by the
 * lookup's memo, so a tree stands for its file's content): a warm question asked again names
 * the references of its unchanged files without finding their containers again.
 */
const lastNamed = new WeakMap<
  readonly SymbolNode[],
  { text: string; target: SymbolNode; positions: readonly Position[]; hits: ReferenceHit[] }
>();

/**
 * {@linkcode namedReferences}, or the same hits as last time when the file's tree and text,
 * the target and the server's positions are those of the last call for this tree.
 */
function namedAgain(
  target: SymbolMatch,
  rel: string,
  file: FileSymbols,
  positions: readonly Position[],
): ReferenceHit[] {
  const last = lastNamed.get(file.roots);
  if (
    last !== undefined && last.text === file.text && last.target === target.node &&
    samePositions(last.positions, positions) && last.hits.every((h) => h.relPath === rel)
  ) {
    return last.hits;
  }
  const hits = namedReferences(target, rel, file, positions);
  lastNamed.set(file.roots, { text: file.text, target: target.node, positions, hits });
  return hits;
}

function samePositions(a: readonly Position[], b: readonly Position[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.line !== b[i]!.line || a[i]!.character !== b[i]!.character) return false;
  }
  return true;
}

/**
 * A file's references to `target`, each with the symbol containing it (the file itself outside
 * every symbol), in position order. The reference that is the target's own name (its
 * declaration) is left out, as Serena does; everything else is listed: imports, re-exports,
 * implementations of the same name.
 */
export function namedReferences(
  target: SymbolMatch,
  rel: string,
  file: FileSymbols,
  positions: readonly Position[],
): ReferenceHit[] {
  const containerOf = containerFinder(file.roots);
  let whole: SymbolNode | null = null;
  const out: ReferenceHit[] = [];
  for (const position of [...positions].sort(comparePositions)) {
    const symbol = containerOf(position);
    if (symbol === target.node && rangeContainsPosition(symbol.selectionRange, position)) continue;
    out.push({
      relPath: rel,
      position,
      file,
      symbol: symbol ?? (whole ??= fileSymbol(rel, file.text)),
    });
  }
  return out;
}

/** A position as one number, for sets of positions. */
export function positionKey(p: Position): number {
  return p.line * 0x100000 + p.character;
}

/** The start positions of an answer's locations, by project-relative path. */
export function listedPositions(
  locations: readonly NormalizedLocation[],
  pathOf: (uri: string) => string | null,
): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const l of locations) {
    const rel = pathOf(l.uri);
    if (rel === null) continue;
    let set = out.get(rel);
    if (!set) out.set(rel, set = new Set());
    set.add(positionKey(l.range.start));
  }
  return out;
}

/** The symbols implementing a symbol (`textDocument/implementation`), in path order. */
export async function findImplementations(
  index: SymbolLookup,
  target: SymbolMatch,
  options: RequestOptions = {},
): Promise<SymbolMatch[]> {
  const relPath = target.node.relPath;
  const server = await index.pool.serverFor(relPath, options);
  if (!(server.capabilities as { implementationProvider?: unknown }).implementationProvider) {
    throw new ToolError(
      `The ${server.id} language server (${server.command}) does not support finding ` +
        "implementations.",
    );
  }
  const result = await server.request<unknown>(
    LspMethod.implementation,
    { textDocument: { uri: server.uriOf(relPath) }, position: queryPosition(target) },
    { ...options, sync: [relPath] },
  );
  const out: SymbolMatch[] = [];
  const seen = new Set<SymbolNode>();
  for (const loc of normalizeLocations(result)) {
    const rel = projectPathOf(index, server, loc.uri);
    if (rel === null) continue;
    let file: FileSymbols;
    try {
      file = rel === relPath ? target.file : await index.fileSymbols(rel, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      continue;
    }
    const node = implementingSymbol(file, loc.range);
    if (!node || seen.has(node) || node === target.node) continue;
    seen.add(node);
    out.push({ node, file });
  }
  return out.sort((a, b) =>
    a.node.relPath !== b.node.relPath
      ? (a.node.relPath < b.node.relPath ? -1 : 1)
      : comparePositions(a.node.range.start, b.node.range.start)
  );
}

/**
 * The symbol an implementation location stands for. A location is the implementing symbol's
 * name (gopls, jdtls, a class declaration for tsserver), or the range of a value: a class
 * expression, a function or an object literal, whose symbol is the variable or property it
 * initialises (the innermost symbol whose range ends with the value's), not a method or local
 * declared inside it, whose names also lie in the range. tsserver also reports array literals
 * typed by an interface: those stand for no symbol. A range around several symbols: the first
 * symbol named within it.
 */
export function implementingSymbol(file: FileSymbols, range: Range): SymbolNode | null {
  const chain = symbolsAt(file.roots, range.start);
  const named = chain.find((n) => rangeContainsPosition(n.selectionRange, range.start));
  if (named) return named;
  const starts = lineStarts(file.text);
  if (file.text[offsetAt(file.text, starts, range.start)] === "[") return null;
  return chain.find((n) =>
    rangeContains(n.range, range) && comparePositions(n.range.end, range.end) === 0
  ) ?? [...walkSymbols(file.roots)].find((n) => rangeContains(range, n.selectionRange)) ?? null;
}

/**
 * Ask the server to rename a symbol: its WorkspaceEdit, the server (for URI mapping), and the
 * occurrences of the old name in the candidate files that the edit neither changes nor
 * explains (see completeness.ts). The server is shown the candidates first.
 */
export async function requestRename(
  index: SymbolLookup,
  target: SymbolMatch,
  newName: string,
  options: RequestOptions = {},
): Promise<{ edit: WorkspaceEdit | null; server: LanguageServer; notAnalysed: NotAnalysed[] }> {
  const relPath = target.node.relPath;
  const server = await index.pool.serverFor(relPath, options);
  if (!(server.capabilities as { renameProvider?: unknown }).renameProvider) {
    throw new ToolError(
      `The ${server.id} language server (${server.command}) does not support renaming.`,
    );
  }
  const prepared = await prepareNameQuery(index, server, target, options);
  const edit = await server.request<WorkspaceEdit | null>(
    LspMethod.rename,
    {
      textDocument: { uri: server.uriOf(relPath) },
      position: queryPosition(target),
      newName,
    },
    { ...options, sync: [relPath, ...prepared.openNow] },
  );
  if (prepared.target === null) return { edit, server, notAnalysed: [] };
  const edited = editedRanges(edit, (uri) => server.relPathOf(uri));
  const unexplained = await unexplainedOccurrences(
    index,
    server,
    prepared.target,
    prepared.candidates,
    (rel, p) => edited.get(rel)?.some((r) => rangeContainsPosition(r, p)) ?? false,
    options,
  );
  // pyright renames only in the files it checks, though it resolves the others it has open:
  // an occurrence the server itself leads to the target is renamed with the rest.
  const missed = unexplained.filter((n) => n.kind === "missed");
  const notAnalysed = unexplained.filter((n) => n.kind !== "missed");
  const completed = missed.length === 0 || edit === null ? edit : withEdits(
    edit,
    missed.map((n) => ({
      uri: server.uriOf(n.relPath),
      edit: {
        range: {
          start: { line: n.line, character: n.character },
          end: { line: n.line, character: n.character + target.node.name.length },
        },
        newText: newName,
      },
    })),
  );
  return { edit: completed, server, notAnalysed };
}

/** A WorkspaceEdit with more text edits, each joining its document's edits (or a new one). */
function withEdits(
  edit: WorkspaceEdit,
  extra: ReadonlyArray<{ uri: string; edit: TextEdit }>,
): WorkspaceEdit {
  if (edit.documentChanges !== undefined) {
    const changes = [...edit.documentChanges];
    for (const { uri, edit: e } of extra) {
      // A server's answer is checked, not trusted: a document change without its edits is skipped.
      const i = changes.findIndex((c) =>
        "textDocument" in c && c.textDocument?.uri === uri && Array.isArray(c.edits)
      );
      const found = changes[i];
      if (found && "textDocument" in found) changes[i] = { ...found, edits: [...found.edits, e] };
      else changes.push({ textDocument: { uri, version: null }, edits: [e] });
    }
    return { ...edit, documentChanges: changes };
  }
  const changes: Record<string, TextEdit[]> = { ...edit.changes };
  for (const { uri, edit: e } of extra) changes[uri] = [...(changes[uri] ?? []), e];
  return { ...edit, changes };
}

/** The ranges a WorkspaceEdit's text edits replace, by project-relative path. */
function editedRanges(
  edit: WorkspaceEdit | null,
  relPathOf: (uri: string) => string | null,
): Map<string, Range[]> {
  const out = new Map<string, Range[]>();
  const add = (uri: string, edits: unknown) => {
    const rel = relPathOf(uri);
    if (rel === null || !Array.isArray(edits)) return;
    const list = out.get(rel) ?? [];
    for (const e of edits as Array<{ range?: Range }>) if (e?.range) list.push(e.range);
    out.set(rel, list);
  };
  for (const [uri, edits] of Object.entries(edit?.changes ?? {})) add(uri, edits);
  for (const change of edit?.documentChanges ?? []) {
    const c = change as { textDocument?: { uri?: string }; edits?: unknown };
    if (typeof c.textDocument?.uri === "string") add(c.textDocument.uri, c.edits);
  }
  return out;
}

/** Diagnostics of a file for its current disk content (the engine's version-matched ones). */
export async function fileDiagnostics(
  index: SymbolLookup,
  relPath: string,
  options: RequestOptions = {},
): Promise<Diagnostic[]> {
  const server = await index.pool.serverFor(relPath, options);
  return await server.diagnostics(relPath, options);
}
