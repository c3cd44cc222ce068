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
import { filesToShow } from "../lsp/project_scope.ts";
import type { LanguageServer, RequestOptions } from "../lsp/language_server.ts";
import { contentHashSync } from "./cache.ts";
import type { SymbolLookup } from "./lookup.ts";
import { mapLimit } from "../map_limit.ts";
import { type Position, type Range, rangeContainsPosition, walkSymbols } from "./model.ts";
import { containsWord, type Occurrence, wordOccurrences } from "./occurrences.ts";

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
}

/** Occurrences asked about one by one, at most, per question; the rest are named as such. */
const MAX_DEFINITION_CHECKS = 64;
const READ_CONCURRENCY = 32;

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
  occurrences: Map<string, { hash: string; text: string; list: Occurrence[] }>;
  verdicts: Map<string, Verdict>;
}

const memories = new WeakMap<SymbolLookup, Memory>();
const MAX_REMEMBERED = 2000;

function memoryOf(index: SymbolLookup): Memory {
  let memory = memories.get(index);
  if (!memory) {
    memory = {
      fileLists: new Map(),
      scans: new Map(),
      occurrences: new Map(),
      verdicts: new Map(),
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
    await declarations.ready({ signal: options.signal });
    const generation = declarations.generation;
    const key = `${server.id}\0${name}`;
    const known = memory.scans.get(key);
    if (known && known.generation === generation) return known.candidates;
    const files = serverFiles(index, server.id, memory);
    const scan: NameScan = { generation, candidates: [], files: new Map() };
    await mapLimit(files, READ_CONCURRENCY, async (rel) => {
      const hash = declarations.hashOf(rel);
      const before = hash === undefined ? undefined : known?.files.get(rel);
      let words = before && before.stamp === hash ? before : undefined;
      if (!words) {
        const text = await readText(index, rel);
        words = { stamp: hash ?? "", has: text !== null && containsWord(text, name) };
      }
      if (hash !== undefined) scan.files.set(rel, words);
      if (words.has) scan.candidates.push(rel);
    });
    scan.candidates.sort();
    remember(memory.scans, key, scan);
    return scan.candidates;
  }
  // No index yet: walk and read everything (the first question of a cold project).
  const found: string[] = [];
  const files: string[] = [];
  for await (const entry of index.project.walk(".", { signal: options.signal })) {
    if (!entry.isDirectory && index.pool.serverIdFor(entry.path) === server.id) {
      files.push(entry.path);
    }
  }
  await mapLimit(files, READ_CONCURRENCY, async (rel) => {
    const text = await readText(index, rel);
    if (text !== null && containsWord(text, name)) found.push(rel);
  });
  return found.sort();
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

/**
 * Show the server the candidates it would not see on its own: a file of each other project
 * configuration, and each file no configuration it loads owns. They are opened and stay open
 * (the document sync closes the least recently used beyond its limit), so a repeated question
 * finds the server's projects already built; they are returned, for the request's own `sync`.
 * `open`: files the question opens anyway (the target's).
 */
export async function showCandidates(
  index: SymbolLookup,
  server: LanguageServer,
  candidates: readonly string[],
  options: RequestOptions & { open?: readonly string[] } = {},
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
  if (
    known && known.server === server && unchanged(known.configs) &&
    allOpen(known.shown, open) && known.shown.every(exists)
  ) {
    shown = known.shown;
  } else {
    const configs = new Map<string, number>();
    const root = index.project.root;
    const { keepOpen, openNow } = filesToShow(
      server.command,
      {
        read(rel) {
          try {
            const abs = `${root}/${rel}`;
            const text = Deno.readTextFileSync(abs);
            configs.set(abs, Deno.statSync(abs).mtime?.getTime() ?? 0);
            return text;
          } catch {
            return null;
          }
        },
      },
      candidates,
      open,
    );
    // A file deleted since the scan (the watcher may not have reported it yet) is not shown.
    shown = [...keepOpen, ...openNow].filter(exists);
    if (shown.some((rel) => !open.has(rel))) await server.syncFiles(shown, options);
    shownFor.set(candidates, { server, configs, shown });
  }
  return shown;
}

/** What showCandidates decided for a candidate list, and the configurations it read. */
const shownFor = new WeakMap<
  readonly string[],
  { server: LanguageServer; configs: Map<string, number>; shown: string[] }
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
): Promise<NotAnalysed[]> {
  const memory = memoryOf(index);
  const declared = (rel: string, p: Position) =>
    target.declarations.some((d) =>
      d.relPath === rel && d.position.line === p.line && d.position.character === p.character
    );
  const pending: Array<{ relPath: string; occurrence: Occurrence; text: string; key: string }> = [];
  let targetKey: string | null = null;
  const out: NotAnalysed[] = [];
  for (const rel of candidates) {
    const file = occurrencesOf(index, rel, target.name, memory);
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

/** A file's occurrences of a name, by its content hash. */
function occurrencesOf(
  index: SymbolLookup,
  rel: string,
  name: string,
  memory: Memory,
): { hash: string; text: string; list: Occurrence[] } | null {
  const indexed = index.declarations?.built && !index.declarations.pendingChanges
    ? index.declarations.hashOf(rel)
    : undefined;
  const key = `${rel}\0${name}`;
  const known = memory.occurrences.get(key);
  if (known && indexed !== undefined && known.hash === indexed) return known;
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(index.project.absolute(rel));
  } catch {
    return null;
  }
  const hash = indexed ?? contentHashSync(bytes);
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
    result = await server.request<unknown>("textDocument/definition", {
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
  return null;
}

/** Text of a "not analysed" section for an answer; empty when there is nothing to say. */
export function notAnalysedText(name: string, items: readonly NotAnalysed[]): string {
  if (items.length === 0) return "";
  const lines = items.map((i) => `- ${i.relPath}:${i.line + 1}: ${i.text} (${i.reason})`);
  return `Not analysed: ${items.length} occurrence(s) of '${name}' the language server ` +
    `neither listed nor explained:\n${lines.join("\n")}`;
}
