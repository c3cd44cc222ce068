/**
 * Complete or honest answers for questions about a name (references, renames, safe deletes;
 * ARCHITECTURE.md §5 rule 10).
 *
 * Before the question, the candidate files are taken by text: the files of the server's
 * languages that hold the name as a whole word, outside ignored paths. The server is shown the
 * candidates it would not see on its own (lsp/project_scope.ts). After the answer, each
 * candidate's occurrences of the name are checked: one the answer lists is fine; one in a
 * comment or a string literal is explained; for the rest the server is asked where the name
 * leads (`textDocument/definition`): elsewhere means another symbol of that name. What remains
 * is "not analysed", with the reason.
 *
 * Kept cheap for a repeated question: the candidate files of a name are remembered with the
 * declaration index's generation (its file list and content hashes), a file's occurrences with
 * its content hash, and the server's verdict on an occurrence with both files' hashes.
 * @module
 */
import { log } from "../log.ts";
import { filesToShow } from "../lsp/project_scope.ts";
import type { LanguageServer, RequestOptions } from "../lsp/language_server.ts";
import { LspMethod } from "../lsp/methods.ts";
import { contentHash, contentHashSync } from "./cache.ts";
import { prefilterNeedle, type SymbolLookup } from "./lookup.ts";
import { parseNamePath } from "./name_path.ts";
import { mapLimit } from "../map_limit.ts";
import { inTurns } from "../turns.ts";
import { type Position, type Range, rangeContainsPosition, walkSymbols } from "./model.ts";
import { containsWord, type Occurrence, wordOccurrences } from "./occurrences.ts";
import {
  type ImportGraph,
  importGraph,
  isJsOrTs,
  type ModuleFacts,
  moduleFacts,
  reachOf,
} from "./import_reach.ts";
import { type ProjectResolution, projectResolution, resolutionUnchanged } from "./import_proof.ts";
import type { Settled } from "../project/change_feed.ts";

/** An occurrence of the name that the answer neither lists nor explains. */
export interface NotAnalysed {
  relPath: string;
  /** 0-based. */
  line: number;
  character: number;
  /** The line's text, trimmed. */
  text: string;
  reason: string;
  /**
   * `missed`: the server, asked where it leads, names the target (its answer left it out);
   * `unresolved`: it leads nowhere; `failed`: the server failed on it; `unchecked`: over the
   * limit of occurrences asked about one by one.
   */
  kind: "missed" | "unresolved" | "failed" | "unchecked";
}

/** A verdict on one occurrence: null when explained. */
type Verdict = { reason: string; kind: NotAnalysed["kind"] } | null;

/** What a question about a name is about. */
export interface NameTarget {
  name: string;
  /** Where the symbol is declared: the start of its name (project-relative). */
  declarations: ReadonlyArray<{ relPath: string; position: Position }>;
  /**
   * Candidates no import path hands the symbol to (importProof): their occurrences are other
   * symbols', explained without the server. A function computes them when first needed
   * (only occurrences the server would be asked about need them).
   */
  unreachable?: ReadonlySet<string> | (() => Promise<ReadonlySet<string>>);
}

/** Occurrences asked about one by one, at most, per question; the rest are named as such. */
const MAX_DEFINITION_CHECKS = 64;
const READ_CONCURRENCY = 32;
/**
 * How long after the cold candidate scan a server counts as slow to answer, and the candidates
 * are parsed ahead meanwhile. Measured (2 cores, loaded): TypeScript 7 answers hono's `Context`
 * within 60–480 ms of the scan, and parsing its 98 candidates on the one worker cost ~150 ms of
 * CPU it needs; pyright takes 0.8–2.2 s on flask's `Flask`, whose candidates then parse in time.
 */
const SLOW_SERVER_MS = 300;

interface FileWords {
  stamp: string;
  has: boolean;
}

interface NameScan {
  generation: number;
  candidates: string[];
  files: Map<string, FileWords>;
}

/** Per project (its SymbolLookup): what earlier questions computed. */
interface Memory {
  /** The server's source files, by server id, for one index generation. */
  fileLists: Map<string, { generation: number; files: string[] }>;
  scans: Map<string, NameScan>;
  /**
   * Per server and name, the last walk of a project whose index is not built yet: the files of
   * the server's languages it read, those holding the name, and the change feed's stamp taken
   * before it began. The first scan after the build takes what it found over (once).
   */
  walks: Map<string, { stamp: number; files: string[]; found: string[] }>;
  occurrences: Map<string, { hash: string; text: string; list: Occurrence[] }>;
  verdicts: Map<string, Verdict>;
  /** Import facts of JavaScript and TypeScript files, by content hash (one entry per file). */
  facts: Map<string, { hash: string; facts: ModuleFacts }>;
  /** Per candidate list: every project file listed with it, and the index generation. */
  scanned: WeakMap<readonly string[], Scanned>;
  /** Set by {@linkcode withoutImportProof}: every candidate is shown, as before the proof. */
  proofOff: boolean;
  /** The import graph of the index's generation it was built at (any name, any target). */
  graph: { generation: number; resolution: ProjectResolution; graph: ImportGraph } | null;
  /** Per candidate list, per declaring file and name: the proof's verdict and its sources. */
  proofs: WeakMap<readonly string[], Map<string, { resolution: ProjectResolution; proof: Proof }>>;
  /** Per cold candidate list: what it is parsed ahead for, since when, and which files. */
  ahead: WeakMap<readonly string[], ParsedAhead>;
}

/** A cold scan's candidates parsed ahead of a slow server's answer (candidateFiles). */
interface ParsedAhead {
  needle: string;
  /** When the scan ended (performance.now()): the parse starts SLOW_SERVER_MS after. */
  at: number;
  /** The candidates the proofs of the list left; null before any proof set some aside. */
  files: Set<string> | null;
}

/** What a candidate scan leaves for the import-graph proof of its candidates. */
interface Scanned {
  /** Every project file the scan listed. */
  files: string[];
  /** The index generation it scanned (none for the cold scan, which walked the project). */
  generation?: number;
  /**
   * The cold scan's reads of JavaScript and TypeScript files (their bytes), for the proof's
   * facts. Taken, and dropped, by the proof's first graph; the proof reads the files left out.
   */
  reads?: Map<string, Uint8Array>;
}

/**
 * Bytes a cold scan keeps for the proof, at most (the rest is read again). Bytes, not facts nor
 * hashes: a question whose proof does not run would pay for those, and the facts cost more CPU
 * than the reads they save (typeorm's 1,997 files: 100–126 ms against ~50 ms; hashes 8–13 ms).
 */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

const memories = new WeakMap<SymbolLookup, Memory>();
/** Walks kept for the names asked before the index is built (see Memory's `walks`). */
const MAX_WALKS = 16;
const MAX_REMEMBERED = 2000;

function memoryOf(index: SymbolLookup): Memory {
  let memory = memories.get(index);
  if (!memory) {
    memory = {
      fileLists: new Map(),
      scans: new Map(),
      walks: new Map(),
      occurrences: new Map(),
      verdicts: new Map(),
      facts: new Map(),
      scanned: new WeakMap(),
      proofs: new WeakMap(),
      ahead: new WeakMap(),
      graph: null,
      proofOff: false,
    };
    memories.set(index, memory);
  }
  return memory;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/**
 * The files of `server`'s languages that hold `name` as a whole word, outside ignored paths,
 * sorted. Reads only files whose content changed since the last question about the name.
 */
export async function candidateFiles(
  index: SymbolLookup,
  server: LanguageServer,
  name: string,
  options: RequestOptions = {},
): Promise<string[]> {
  const declarations = index.declarations;
  const memory = memoryOf(index);
  if (declarations !== null && declarations.built) {
    // Always through the watcher's barrier (a marker's timestamp touched, ~0.1 ms): a change
    // made before the question may not have been reported yet, and the file hashes the index
    // vouches for below (occurrencesOf) must include it: a file written just before a rename
    // was missed, and the rename left it behind.
    await declarations.ready({ signal: options.signal, since: options.since });
    const generation = declarations.generation;
    const key = `${server.id}\0${name}`;
    const known = memory.scans.get(key);
    if (known && known.generation === generation) return known.candidates;
    const files = serverFiles(index, server.id, memory);
    const scan: NameScan = { generation, candidates: [], files: new Map() };
    const graph = proofApplies(server);
    // The name's first scan since the build: a walk of a question asked before it read these
    // files, and what it found stands while the project is quiet since (each file read again
    // cost the first question after typeorm's build ~0.1-0.3 s).
    const walked = known ? undefined : memory.walks.get(key);
    if (walked) memory.walks.delete(key);
    const settled = walked && options.since !== undefined
      ? await index.changes?.settle(options.since) ?? null
      : null;
    const seed = walked && settled?.quietSince(walked.stamp)
      ? { files: new Set(walked.files), found: new Set(walked.found) }
      : null;
    await mapLimit(files, READ_CONCURRENCY, async (rel) => {
      const hash = declarations.hashOf(rel);
      const before = hash === undefined ? undefined : known?.files.get(rel);
      let words = before && before.stamp === hash ? before : undefined;
      if (!words && seed?.files.has(rel)) words = { stamp: hash ?? "", has: seed.found.has(rel) };
      if (!words) {
        const text = await readText(index, rel);
        words = { stamp: hash ?? "", has: text !== null && containsWord(text, name) };
      }
      if (hash !== undefined) scan.files.set(rel, words);
      if (words.has) scan.candidates.push(rel);
    });
    scan.candidates.sort();
    remember(memory.scans, key, scan);
    if (graph) {
      memory.scanned.set(scan.candidates, { files: declarations.allFiles(), generation });
    }
    return scan.candidates;
  }
  // No index yet: walk and read everything (the first question of a cold project). Asked again
  // before the index is built (a build held back by questions coming one after another), the
  // last walk's candidates stand while the project is quiet: a walk of typeorm's 3,000 files
  // cost 0.3-1.1 s a question on a loaded machine.
  const walkKey = `${server.id}\0${name}`;
  const walked = memory.walks.get(walkKey);
  if (walked !== undefined && options.since !== undefined) {
    const settled = await index.changes?.settle(options.since) ?? null;
    if (settled?.quietSince(walked.stamp)) return walked.found;
  }
  // Noted before the walk: an event after it means the walk may have missed a change.
  const stamp = index.changes?.stamp() ?? -1;
  const found: string[] = [];
  const files: string[] = [];
  const all: string[] = [];
  for await (const entry of index.project.walk(".", { signal: options.signal })) {
    if (entry.isDirectory) continue;
    all.push(entry.path);
    if (index.pool.serverIdFor(entry.path) === server.id) files.push(entry.path);
  }
  // The proof reads every JavaScript and TypeScript file for its import facts: what this
  // scan read is kept for it (typeorm's npm package: reading again cost the proof ~80 ms of CPU).
  const reads = proofApplies(server) ? new Map<string, Uint8Array>() : null;
  let keep = MAX_KEPT_BYTES;
  // Read synchronously, in turns (turns.ts): half the CPU of asynchronous reads.
  await inTurns(files, (rel) => {
    if (reads === null) {
      const text = readTextSync(index, rel);
      if (text !== null && containsWord(text, name)) found.push(rel);
      return;
    }
    const bytes = readFileSync(index, rel);
    if (bytes === null) return;
    if (containsWord(decoded(bytes), name)) found.push(rel);
    if (isJsOrTs(rel) && bytes.length <= keep) {
      keep -= bytes.length;
      reads.set(rel, bytes);
    }
  }, options.signal);
  found.sort();
  if (reads !== null) memory.scanned.set(found, { files: all, reads });
  if (stamp >= 0) {
    // A few names at most: questions before the build ends are few.
    if (memory.walks.size >= MAX_WALKS) memory.walks.delete(memory.walks.keys().next().value!);
    memory.walks.set(walkKey, { stamp, files, found });
  }
  // The files that will name the references are among these: parsed while a slow server
  // computes its answer, they are named from the index where it is exact, without waiting then.
  // A server that answers within the delay has them parsed as the answer names them instead.
  let needle: string | null = null;
  try {
    needle = prefilterNeedle(parseNamePath(name));
  } catch { /* not a name path: nothing to parse ahead for */ }
  if (needle !== null && index.declarations && index.indexHelpsCold(found[0] ?? "", found.length)) {
    index.declarations.parseAhead(needle, found, SLOW_SERVER_MS);
    memory.ahead.set(found, { needle, at: performance.now(), files: null });
  }
  return found;
}

/** Whether the import-graph proof applies to a server's questions: TypeScript's servers. */
export function proofApplies(server: LanguageServer): boolean {
  return server.id === "typescript";
}

/** A file's import facts for its content hash (computed from `text` when not known). */
function factsOf(
  memory: Memory,
  rel: string,
  hash: string | undefined,
  text: string,
): ModuleFacts {
  const known = hash === undefined ? undefined : memory.facts.get(rel);
  if (known && known.hash === hash) return known.facts;
  const facts = moduleFacts(rel, text);
  if (hash !== undefined) memory.facts.set(rel, { hash, facts });
  return facts;
}

/** {@linkcode factsOf} a file's bytes, decoded only when its facts are not known. */
function factsOfBytes(memory: Memory, rel: string, hash: string, bytes: Uint8Array): ModuleFacts {
  const known = memory.facts.get(rel);
  return known && known.hash === hash ? known.facts : factsOf(memory, rel, hash, decoded(bytes));
}

/** The import graph over the files a candidate scan listed, with their facts read as needed. */
async function buildGraph(
  index: SymbolLookup,
  memory: Memory,
  scanned: Scanned,
  options: RequestOptions,
): Promise<{ resolution: ProjectResolution; graph: ImportGraph }> {
  const hashOf = (rel: string) =>
    index.declarations?.built ? index.declarations.hashOf(rel) : undefined;
  const facts = new Map<string, ModuleFacts | null>();
  const missing: string[] = [];
  for (const rel of scanned.files) {
    if (!isJsOrTs(rel)) continue;
    const hash = hashOf(rel);
    const remembered = hash === undefined ? undefined : memory.facts.get(rel);
    if (remembered && remembered.hash === hash) facts.set(rel, remembered.facts);
    else missing.push(rel);
  }
  const reads = scanned.reads;
  // Taken once: a later graph over the same scan reads its files (or knows their facts).
  delete scanned.reads;
  const unread: string[] = [];
  // The content hashes of the scan's reads (the facts' key, shared with the index), all at once
  // by Web Crypto, which hashes on Deno's blocking threads beside this one: typeorm's npm package
  // is 8.5 MB of its JavaScript and declarations, 40-55 ms of this thread hashed here one by one
  // (sha.ts), 17-34 ms of wall time this way.
  const hashes = new Map<string, string>();
  if (reads) {
    await Promise.all(missing.map(async (rel) => {
      const bytes = reads.get(rel);
      if (bytes) hashes.set(rel, await contentHash(bytes));
    }));
    options.signal?.throwIfAborted();
  }
  // In turns (turns.ts): a cold tree's facts are 60-180 ms of CPU (typeorm's npm package),
  // while the server's messages wait for the event loop (a cold question's scan and proof run
  // beside the server's project load).
  await inTurns(missing, (rel) => {
    const bytes = reads?.get(rel);
    const hash = hashes.get(rel);
    const indexed = hashOf(rel);
    // The cold scan's read holds unless the index, built since, knows another content.
    if (bytes && hash && (indexed === undefined || indexed === hash)) {
      facts.set(rel, factsOfBytes(memory, rel, hash, bytes));
    } else unread.push(rel);
  }, options.signal);
  await inTurns(unread, (rel) => {
    const bytes = readFileSync(index, rel);
    if (bytes === null) {
      facts.set(rel, null);
      return;
    }
    // Kept under the content hash the index gives the file (or will, once built).
    facts.set(rel, factsOfBytes(memory, rel, hashOf(rel) ?? contentHashSync(bytes), bytes));
  }, options.signal);
  options.signal?.throwIfAborted();
  const resolution = projectResolution(index.project.root, scanned.files);
  const graph = importGraph({
    files: scanned.files,
    facts: (rel) => facts.get(rel) ?? null,
    bare: resolution.bare,
    jsxRuntimes: resolution.jsxRuntimes,
    folderEntries: resolution.folderEntries,
  });
  return { resolution, graph };
}

/**
 * Turn the import-graph proof off for a project's questions (every candidate is shown again):
 * for scripts/checks/import_proof_check.ts, which compares answers with and without it.
 */
export function withoutImportProof(index: SymbolLookup): void {
  memoryOf(index).proofOff = true;
}

/**
 * A plan made from files, folders and absent paths checked on disk, kept without checking them
 * again while the project is quiet (project/change_feed.ts): `vouchedAt` is the change feed's
 * stamp taken before the last check that found them unchanged (-1: none yet).
 */
interface Vouched {
  vouchedAt: number;
  /** Whether every path the plan depends on may be vouched for (decided on its first reuse). */
  vouchable?: boolean;
}

/** The question's barrier (`settled`) vouches for a plan: nothing changed since its check. */
function stillVouched(settled: Settled | null | undefined, plan: Vouched): boolean {
  return settled != null && plan.vouchedAt >= 0 && settled.quietSince(plan.vouchedAt);
}

/** The change feed's stamp, to note before a check on disk that may vouch for a plan. */
function stampBefore(index: SymbolLookup, settled: Settled | null | undefined): number {
  return settled != null && index.changes !== null ? index.changes.stamp() : -1;
}

/** A check on disk from `stamp` on found the plan's `paths` (absolute) unchanged. */
function vouch(
  index: SymbolLookup,
  plan: Vouched,
  stamp: number,
  paths: () => Iterable<string>,
): void {
  const feed = index.changes;
  if (feed === null || stamp < 0) return;
  plan.vouchable ??= [...paths()].every((abs) => feed.vouchable(abs));
  if (plan.vouchable) plan.vouchedAt = stamp;
}

/** Per resolution of bare specifiers: when the files it was read from were last found unchanged. */
const resolutionChecks = new WeakMap<ProjectResolution, Vouched>();

/** {@linkcode resolutionUnchanged}, without a stat while the project is quiet. */
function resolutionHolds(
  index: SymbolLookup,
  resolution: ProjectResolution,
  settled: Settled | null | undefined,
): boolean {
  let plan = resolutionChecks.get(resolution);
  if (plan === undefined) resolutionChecks.set(resolution, plan = { vouchedAt: -1 });
  if (stillVouched(settled, plan)) return true;
  const stamp = stampBefore(index, settled);
  if (!resolutionUnchanged(resolution)) return false;
  vouch(index, plan, stamp, () => resolution.read.keys());
  return true;
}

/**
 * Options of the questions that follow a candidate scan: `settled`, the change feed's barrier
 * taken after the question began, lets what earlier questions checked on disk stand unchecked
 * while the project is quiet.
 */
export type ScanOptions = RequestOptions & { settled?: Settled | null };

/** What the import-graph proof found for one question. */
export interface Proof {
  /** Candidates that cannot refer to the symbol: no import path hands it to them. */
  unreachable: ReadonlySet<string>;
  /** The candidates to show the server: the others (one array per proof, for showCandidates). */
  shown: readonly string[];
  /** Why the graph could not decide (then nothing is unreachable); null when it decided. */
  undecided: string | null;
}

function noProof(candidates: readonly string[], undecided: string | null = null): Proof {
  return { unreachable: new Set(), shown: candidates, undecided };
}

/**
 * Which of `candidates` (as candidateFiles returned them) cannot refer to a top-level symbol of
 * `target` (import_reach.ts): no import path leads them to its module, or none hands them the
 * symbol (they take only other names from the modules exporting it). They need not be shown
 * to the server. Nothing for a symbol that is not top-level (a member is reached through its
 * type, which a base type in another module may carry), for a server the proof does not know,
 * or where the graph cannot decide. Without `name` (the symbol's), any name taken counts.
 */
export async function importProof(
  index: SymbolLookup,
  server: LanguageServer,
  target: { relPath: string; topLevel: boolean; name?: string },
  candidates: readonly string[],
  options: ScanOptions = {},
): Promise<Proof> {
  if (!target.topLevel || !proofApplies(server) || !isJsOrTs(target.relPath)) {
    return noProof(candidates);
  }
  const memory = memoryOf(index);
  const scanned = memory.scanned.get(candidates);
  if (!scanned || memory.proofOff) return noProof(candidates);
  if (!candidates.some((c) => c !== target.relPath && isJsOrTs(c))) return noProof(candidates);
  let byTarget = memory.proofs.get(candidates);
  const targetKey = `${target.relPath}\0${target.name ?? ""}`;
  const known = byTarget?.get(targetKey);
  if (known && resolutionHolds(index, known.resolution, options.settled)) return known.proof;
  const remembered = memory.graph;
  let built: { resolution: ProjectResolution; graph: ImportGraph };
  if (
    remembered && scanned.generation === remembered.generation &&
    resolutionHolds(index, remembered.resolution, options.settled)
  ) {
    built = remembered;
  } else {
    built = await buildGraph(index, memory, scanned, options);
    if (scanned.generation !== undefined) {
      memory.graph = { generation: scanned.generation, ...built };
    }
  }
  const { resolution } = built;
  const reach: ReturnType<typeof reachOf> = resolution.undecidable === null
    ? reachOf(built.graph, target.relPath, target.name)
    : { decided: false, reason: resolution.undecidable };
  let proof: Proof;
  if (reach.decided) {
    const unreachable = new Set(candidates.filter((c) => isJsOrTs(c) && !reach.reaching.has(c)));
    proof = { unreachable, shown: candidates.filter((c) => !unreachable.has(c)), undecided: null };
  } else proof = noProof(candidates, reach.reason);
  log.debug(
    `import-graph proof for ${target.relPath}: ` +
      (reach.decided
        ? `${proof.unreachable.size} of ${candidates.length} candidates cannot refer to it`
        : `undecided (${reach.reason})`),
  );
  if (!byTarget) memory.proofs.set(candidates, byTarget = new Map());
  byTarget.set(targetKey, { resolution, proof });
  parseAheadOnly(index, memory, candidates, proof.shown);
  return proof;
}

/**
 * The candidates parsed ahead of a slow server's answer (candidateFiles) narrowed to those a
 * proof shows: the answer cannot name the others. On typeorm's npm package the parse of the
 * ~50 files the proof sets aside (of 62) held back the files the answer named, whose symbols
 * name the references. The parse keeps its moment; where it has begun, the shown files are
 * already among those sent. Another target's proof over the same list adds what it shows.
 */
function parseAheadOnly(
  index: SymbolLookup,
  memory: Memory,
  candidates: readonly string[],
  shown: readonly string[],
): void {
  const ahead = memory.ahead.get(candidates);
  if (!ahead || !index.declarations) return;
  // Nothing set aside yet: the parse stays as the scan scheduled it.
  if (ahead.files === null && shown.length === candidates.length) return;
  ahead.files ??= new Set();
  for (const file of shown) ahead.files.add(file);
  if (!index.indexHelpsCold(shown[0] ?? candidates[0] ?? "", ahead.files.size)) {
    // Few enough for the server's outlines, from a server that loads on every core: a parse
    // worker started now would take a core from the server's own load (hono's `Context` with
    // TypeScript 7: 98 candidates, 37 shown).
    index.declarations.cancelParseAhead(ahead.needle);
    return;
  }
  const delay = Math.max(0, ahead.at + SLOW_SERVER_MS - performance.now());
  index.declarations.parseAhead(ahead.needle, [...ahead.files], delay);
}

/** The index's files handled by a server, for the index's current generation. */
function serverFiles(index: SymbolLookup, serverId: string, memory: Memory): string[] {
  const declarations = index.declarations!;
  const generation = declarations.generation;
  const known = memory.fileLists.get(serverId);
  if (known && known.generation === generation) return known.files;
  const files = declarations.allFiles().filter((f) => index.pool.serverIdFor(f) === serverId);
  memory.fileLists.set(serverId, { generation, files });
  return files;
}

async function readText(index: SymbolLookup, rel: string): Promise<string | null> {
  try {
    const text = await Deno.readTextFile(index.project.absolute(rel));
    return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
  } catch {
    return null;
  }
}

/** A file's bytes, read synchronously (a scan of many files, in turns: turns.ts). */
function readFileSync(index: SymbolLookup, rel: string): Uint8Array | null {
  try {
    return Deno.readFileSync(index.project.absolute(rel));
  } catch {
    return null;
  }
}

/** {@linkcode readText}, synchronously (in turns). */
function readTextSync(index: SymbolLookup, rel: string): string | null {
  const bytes = readFileSync(index, rel);
  return bytes === null ? null : decoded(bytes);
}

/** A file's text as the import facts read it: UTF-8 without a BOM, lines ending in `\n`. */
function decoded(bytes: Uint8Array): string {
  const raw = new TextDecoder().decode(bytes);
  return raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
}

/**
 * Show the server the candidates it would not see on its own: a file of each other project
 * configuration, and each file no configuration it loads owns. They are opened and stay open
 * (the document sync closes the least recently used beyond its limit), so a repeated question
 * finds the server's projects already built; they are returned, for the request's own `sync`,
 * with the candidates no configuration owns that are open already (the request needs them too).
 * `open`: files the question opens anyway (the target's).
 */
export async function showCandidates(
  index: SymbolLookup,
  server: LanguageServer,
  candidates: readonly string[],
  options: ScanOptions & { open?: readonly string[] } = {},
): Promise<string[]> {
  const open = new Set([...(server.openDocuments?.() ?? []), ...(options.open ?? [])]);
  const known = shownFor.get(candidates);
  let shown: string[];
  const exists = (rel: string) => {
    try {
      return Deno.statSync(index.project.absolute(rel)).isFile;
    } catch {
      return false;
    }
  };
  const holds = (plan: NonNullable<typeof known>) => {
    if (stillVouched(options.settled, plan)) return true;
    const stamp = stampBefore(index, options.settled);
    if (!unchanged(plan.configs) || !plan.shown.every(exists)) return false;
    vouch(index, plan, stamp, () => [
      ...plan.configs.keys(),
      ...plan.shown.map((rel) => index.project.absolute(rel)),
    ]);
    return true;
  };
  if (known && known.server === server && allOpen(known.shown, open) && holds(known)) {
    shown = known.shown;
  } else {
    const configs = new Map<string, number>();
    const reader = configReader(index.project.root, configs);
    const { keepOpen, openNow } = filesToShow(server.command, reader, candidates, open);
    // The candidates no configuration owns that an earlier question left open: this one needs
    // them open too. Named with the others, the document sync keeps them (it closes the least
    // recently used beyond its limit) and the request pins them.
    const stillOpen = filesToShow(server.command, reader, candidates).openNow
      .filter((rel) => open.has(rel));
    // A file deleted since the scan (the watcher may not have reported it yet) is not shown.
    shown = [...keepOpen, ...openNow, ...stillOpen].filter(exists);
    if (shown.some((rel) => !open.has(rel))) await server.syncFiles(shown, options);
    shownFor.set(candidates, { server, configs, shown, vouchedAt: -1 });
  }
  return shown;
}

/**
 * Reads the project's configuration files for {@linkcode filesToShow}, noting each one's time in
 * `configs` so that a later question knows whether the plan still holds.
 */
function configReader(root: string, configs: Map<string, number>) {
  return {
    read(rel: string): string | null {
      try {
        const abs = `${root}/${rel}`;
        const text = Deno.readTextFileSync(abs);
        configs.set(abs, Deno.statSync(abs).mtime?.getTime() ?? 0);
        return text;
      } catch {
        return null;
      }
    },
  };
}

/**
 * Whether showing `candidates` would open files in the server beyond those open already and
 * `open`: where it would not (every candidate's project is loaded), the import-graph proof has
 * nothing to save there and runs only if occurrences need the server (unexplainedOccurrences).
 * Kept per candidate list while the configurations it read are unchanged.
 */
export function showingOpensFiles(
  index: SymbolLookup,
  server: LanguageServer,
  candidates: readonly string[],
  open: readonly string[],
  settled: Settled | null = null,
): boolean {
  const opened = new Set([...(server.openDocuments?.() ?? []), ...open]);
  const known = planFor.get(candidates);
  if (known && known.server === server) {
    let holds = stillVouched(settled, known);
    if (!holds) {
      const stamp = stampBefore(index, settled);
      holds = unchanged(known.configs);
      if (holds) vouch(index, known, stamp, () => known.configs.keys());
    }
    if (holds) return known.files.some((f) => !opened.has(f));
  }
  const configs = new Map<string, number>();
  const { keepOpen, openNow } = filesToShow(
    server.command,
    configReader(index.project.root, configs),
    candidates,
    opened,
  );
  const files = [...keepOpen, ...openNow];
  planFor.set(candidates, { server, configs, files, vouchedAt: -1 });
  return files.some((f) => !opened.has(f));
}

const planFor = new WeakMap<
  readonly string[],
  Vouched & { server: LanguageServer; configs: Map<string, number>; files: string[] }
>();

/** What showCandidates decided for a candidate list, and the configurations it read. */
const shownFor = new WeakMap<
  readonly string[],
  Vouched & { server: LanguageServer; configs: Map<string, number>; shown: string[] }
>();

function unchanged(configs: ReadonlyMap<string, number>): boolean {
  for (const [abs, mtime] of configs) {
    try {
      if ((Deno.statSync(abs).mtime?.getTime() ?? 0) !== mtime) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function allOpen(files: readonly string[], open: ReadonlySet<string>): boolean {
  return files.every((f) => open.has(f));
}

/**
 * The occurrences of the target's name in `candidates` that the answer does not list
 * (`listed`) and that are not explained: code that the server, asked where it leads, sends to
 * the target (the answer missed it) or nowhere.
 */
export async function unexplainedOccurrences(
  index: SymbolLookup,
  server: LanguageServer,
  target: NameTarget,
  candidates: readonly string[],
  listed: (relPath: string, position: Position) => boolean,
  options: RequestOptions = {},
  ahead: Promise<CandidateOccurrences> | null = null,
): Promise<NotAnalysed[]> {
  const memory = memoryOf(index);
  const declared = (rel: string, p: Position) =>
    target.declarations.some((d) =>
      d.relPath === rel && d.position.line === p.line && d.position.character === p.character
    );
  let pending: Array<{ relPath: string; occurrence: Occurrence; text: string; key: string }> = [];
  let targetKey: string | null = null;
  let out: NotAnalysed[] = [];
  const read = await (ahead ?? candidateOccurrences(index, target, candidates));
  for (const [rel, file] of read) {
    if (file === null) continue;
    for (const occurrence of file.list) {
      if (occurrence.site !== "code") continue;
      if (declared(rel, occurrence) || listed(rel, occurrence)) continue;
      targetKey ??= targetIdentity(index, target, memory);
      const key = `${targetKey}\0${rel}\0${file.hash}\0${occurrence.line}:${occurrence.character}`;
      const verdict = memory.verdicts.get(key);
      const text = lineOf(file.text, occurrence.line);
      if (verdict === null) continue;
      if (verdict !== undefined) {
        out.push({ relPath: rel, ...position(occurrence), text, ...verdict });
        continue;
      }
      pending.push({ relPath: rel, occurrence, text, key });
    }
  }
  if (pending.length > 0 && typeof target.unreachable === "function") {
    // Occurrences the server would be asked about: the import graph may explain their files.
    const unreachable = await target.unreachable();
    if (unreachable.size > 0) {
      pending = pending.filter((p) => !unreachable.has(p.relPath));
      out = out.filter((n) => !unreachable.has(n.relPath));
    }
  }
  const checked = pending.slice(0, MAX_DEFINITION_CHECKS);
  const verdicts = await mapLimit(checked, 8, (p) => verdictOf(index, server, target, p, options));
  for (const [i, p] of checked.entries()) {
    const verdict = verdicts[i]!;
    remember(memory.verdicts, p.key, verdict);
    if (verdict !== null) {
      out.push({ relPath: p.relPath, ...position(p.occurrence), text: p.text, ...verdict });
    }
  }
  for (const p of pending.slice(MAX_DEFINITION_CHECKS)) {
    out.push({
      relPath: p.relPath,
      ...position(p.occurrence),
      text: p.text,
      reason: `not checked: more than ${MAX_DEFINITION_CHECKS} occurrences needed the server`,
      kind: "unchecked",
    });
  }
  return out.sort((a, b) =>
    a.relPath !== b.relPath ? (a.relPath < b.relPath ? -1 : 1) : a.line - b.line
  );
}

function position(p: Position): Position {
  return { line: p.line, character: p.character };
}

function lineOf(text: string, line: number): string {
  let start = 0;
  for (let i = 0; i < line; i++) {
    const next = text.indexOf("\n", start);
    if (next === -1) return "";
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? undefined : end).trim();
}

/** The content hash the built index vouches for (no change pending), if any. */
function indexedHash(index: SymbolLookup, rel: string): string | undefined {
  return index.declarations?.built && !index.declarations.pendingChanges
    ? index.declarations.hashOf(rel)
    : undefined;
}

/** The candidates' occurrences of a target's name, by file (null: gone), in candidate order. */
export type CandidateOccurrences = ReadonlyMap<string, OccurrenceFile | null>;

/** A file's occurrences of a name, with the content hash and text they were found in. */
interface OccurrenceFile {
  hash: string;
  text: string;
  list: Occurrence[];
}

/**
 * The occurrences {@linkcode unexplainedOccurrences} compares with a server's answer: of every
 * candidate but those known to have no import path to the declaring module (their occurrences
 * are other symbols'). They do not depend on the answer: a cold question reads and hashes them
 * while the server computes it (queries.ts), where they took 10-15 ms after it on hono.
 */
export async function candidateOccurrences(
  index: SymbolLookup,
  target: NameTarget,
  candidates: readonly string[],
): Promise<CandidateOccurrences> {
  const memory = memoryOf(index);
  const known = typeof target.unreachable === "function" ? undefined : target.unreachable;
  const looked = known === undefined ? candidates : candidates.filter((rel) => !known.has(rel));
  const hashed = await hashedReads(index, looked);
  const out = new Map<string, OccurrenceFile | null>();
  for (const rel of looked) {
    out.set(rel, occurrencesOf(index, rel, target.name, memory, hashed.get(rel)));
  }
  return out;
}

/**
 * The files {@linkcode occurrencesOf} will read and hash (no hash from the index, nothing
 * remembered under it), read now and hashed all at once by Web Crypto beside this thread: a cold
 * question's check reads every shown candidate (hono's `Context`: 37 files, ~0.35 MB), which
 * sha.ts, not yet optimised by V8, hashed on this thread after the server's answer.
 */
async function hashedReads(
  index: SymbolLookup,
  files: readonly string[],
): Promise<Map<string, { bytes: Uint8Array; hash: string }>> {
  const reads = new Map<string, Uint8Array>();
  for (const rel of files) {
    // Hashed by the index: read by occurrencesOf only where nothing is remembered under it.
    if (indexedHash(index, rel) !== undefined) continue;
    try {
      reads.set(rel, Deno.readFileSync(index.project.absolute(rel)));
    } catch { /* gone: occurrencesOf finds it so */ }
  }
  const out = new Map<string, { bytes: Uint8Array; hash: string }>();
  await Promise.all(
    [...reads].map(async ([rel, bytes]) => out.set(rel, { bytes, hash: await contentHash(bytes) })),
  );
  return out;
}

/**
 * A file's occurrences of a name, by its content hash; `read`: its bytes and their hash, read
 * and hashed for this call ({@linkcode hashedReads}).
 */
function occurrencesOf(
  index: SymbolLookup,
  rel: string,
  name: string,
  memory: Memory,
  read?: { bytes: Uint8Array; hash: string },
): OccurrenceFile | null {
  const indexed = indexedHash(index, rel);
  const key = `${rel}\0${name}`;
  const known = memory.occurrences.get(key);
  if (known && indexed !== undefined && known.hash === indexed) return known;
  let bytes: Uint8Array;
  try {
    bytes = read?.bytes ?? Deno.readFileSync(index.project.absolute(rel));
  } catch {
    return null;
  }
  const hash = indexed ?? read?.hash ?? contentHashSync(bytes);
  if (known && known.hash === hash) return known;
  const raw = new TextDecoder().decode(bytes);
  const text = raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
  const file = { hash, text, list: wordOccurrences(text, name, rel) };
  remember(memory.occurrences, key, file);
  return file;
}

/** The target's files and positions, for verdict keys (its file's content counts). */
function targetIdentity(index: SymbolLookup, target: NameTarget, memory: Memory): string {
  return target.declarations.map((d) => {
    const hash = occurrencesOf(index, d.relPath, target.name, memory)?.hash ?? "";
    return `${d.relPath}@${hash}:${d.position.line}:${d.position.character}`;
  }).join("|");
}

/** Whether the occurrence is the name of a symbol its file declares (from the file's outline). */
async function declaresName(
  index: SymbolLookup,
  p: { relPath: string; occurrence: Occurrence },
  name: string,
  options: RequestOptions,
): Promise<boolean> {
  try {
    const file = await index.fileSymbols(p.relPath, options);
    for (const node of walkSymbols(file.roots)) {
      if (node.name === name && rangeContainsPosition(node.selectionRange, p.occurrence)) {
        return true;
      }
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
  }
  return false;
}

/** Ask the server where an occurrence leads: null when to another symbol (explained). */
async function verdictOf(
  index: SymbolLookup,
  server: LanguageServer,
  target: NameTarget,
  p: { relPath: string; occurrence: Occurrence },
  options: RequestOptions,
): Promise<Verdict> {
  let result: unknown;
  try {
    result = await server.request<unknown>(LspMethod.definition, {
      textDocument: { uri: server.uriOf(p.relPath) },
      position: position(p.occurrence),
    }, { ...options, sync: [p.relPath], transient: true });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { reason: `the ${server.id} language server failed on it (${message})`, kind: "failed" };
  }
  const locations = (Array.isArray(result) ? result : result ? [result] : []).flatMap((l) => {
    const loc = l as {
      uri?: string;
      range?: Range;
      targetUri?: string;
      targetSelectionRange?: Range;
    };
    const uri = loc.uri ?? loc.targetUri;
    const range = loc.range ?? loc.targetSelectionRange;
    if (typeof uri !== "string" || !range) return [];
    return [{ relPath: server.relPathOf(uri), range }];
  });
  if (locations.length === 0) {
    return {
      reason: `the ${server.id} language server resolves this '${target.name}' to nothing ` +
        "(the file may be outside what it analyses)",
      kind: "unresolved",
    };
  }
  // The occurrence is a declaration itself (an overload, a merged declaration): not a use.
  if (
    locations.some((l) => l.relPath === p.relPath && rangeContainsPosition(l.range, p.occurrence))
  ) {
    return null;
  }
  const isTarget = locations.some((l) =>
    target.declarations.some((d) =>
      d.relPath === l.relPath && rangeContainsPosition(l.range, d.position)
    )
  );
  // Another declaration of the target (a C prototype in a header, a forward declaration): the
  // server leads it to the definition, and a references answer leaves declarations out.
  if (isTarget && await declaresName(index, p, target.name, options)) return null;
  if (isTarget) {
    return {
      reason: `the ${server.id} language server resolves it to this symbol but left it out`,
      kind: "missed",
    };
  }
  // Led to nothing but an import of the file's own: the server did not follow the import to a
  // module (TypeScript goes on to the declaration where it can), so it cannot tell.
  if (locations.every((l) => l.relPath === p.relPath && insideImport(index, p.relPath, l.range))) {
    return {
      reason: `the ${server.id} language server leads this '${target.name}' only to its ` +
        "import, which it does not resolve",
      kind: "unresolved",
    };
  }
  return null;
}

/**
 * Whether `range` of a file lies in an import statement (`import { A } from "x"`, `import A =
 * require("x")`, over several lines too): after a line beginning with `import`, before the
 * statement's specifier or `;`.
 */
function insideImport(index: SymbolLookup, relPath: string, range: Range): boolean {
  const text = readTextSync(index, relPath);
  if (text === null) return false;
  let offset = 0;
  for (let line = 0; line < range.start.line; line++) {
    offset = text.indexOf("\n", offset) + 1;
    if (offset === 0) return false;
  }
  offset += range.start.character;
  const before = text.slice(Math.max(0, offset - 4000), offset);
  const last = [...before.matchAll(/(?:^|\n)[ \t]*import\b(?![ \t]*\()/g)].at(-1);
  if (last === undefined) return false;
  const between = before.slice(last.index + last[0].length);
  return !/\bfrom\s*["'][^"'\n]*["']|\brequire\s*\(\s*["'][^"'\n]*["']\s*\)|;/.test(between);
}

/** Files a "not analysed" section lists, lines it quotes per file, characters per quoted line. */
const NOTE_FILES = 12;
const NOTE_LINES_PER_FILE = 3;
const NOTE_LINE_CHARS = 120;

/**
 * Text of a "not analysed" section for an answer; empty when there is nothing to say. Bounded:
 * the reason once when all share it, per file the first few occurrences as `path:line: text`
 * and the count and lines of the rest, the first files only (and how many more).
 */
export function notAnalysedText(name: string, items: readonly NotAnalysed[]): string {
  if (items.length === 0) return "";
  const reasons = new Set(items.map((i) => i.reason));
  const shared = reasons.size === 1 ? items[0]!.reason : null;
  return `Not analysed: ${items.length} occurrence(s) of '${name}' the language server ` +
    `neither listed nor explained${shared ? ` (${shared})` : ""}:\n` +
    notAnalysedLines(items, shared !== null).map((l) => `- ${l}`).join("\n");
}

/**
 * The lines of a "not analysed" list, bounded as {@linkcode notAnalysedText} says: `path:line:
 * text (reason)` (without the reason when `sharedReason` says it is told once elsewhere).
 */
export function notAnalysedLines(items: readonly NotAnalysed[], sharedReason = false): string[] {
  const byFile = new Map<string, NotAnalysed[]>();
  for (const i of items) {
    const list = byFile.get(i.relPath);
    if (list) list.push(i);
    else byFile.set(i.relPath, [i]);
  }
  const lines: string[] = [];
  for (const [relPath, list] of [...byFile].slice(0, NOTE_FILES)) {
    for (const i of list.slice(0, NOTE_LINES_PER_FILE)) {
      const text = i.text.length > NOTE_LINE_CHARS
        ? `${i.text.slice(0, NOTE_LINE_CHARS)}…`
        : i.text;
      lines.push(`${relPath}:${i.line + 1}: ${text}${sharedReason ? "" : ` (${i.reason})`}`);
    }
    const rest = list.slice(NOTE_LINES_PER_FILE);
    if (rest.length > 0) {
      const numbers = rest.slice(0, 20).map((i) => i.line + 1).join(", ");
      lines.push(
        `${relPath}: ${rest.length} more, lines ${numbers}${rest.length > 20 ? ", …" : ""}`,
      );
    }
  }
  const more = [...byFile].slice(NOTE_FILES);
  if (more.length > 0) {
    const count = more.reduce((n, [, list]) => n + list.length, 0);
    const names = more.slice(0, 20).map(([f]) => f).join(", ");
    lines.push(
      `${more.length} more files, ${count} occurrences: ${names}${more.length > 20 ? ", …" : ""}`,
    );
  }
  return lines;
}
