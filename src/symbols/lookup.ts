/**
 * Symbol retrieval for a project: symbol trees per file (from the persistent cache when the
 * content hash matches, else from the language server), name-path search over a file, a folder
 * or the whole project, and the symbol-anchored queries the tools need (references,
 * implementations, rename edits, diagnostics: see queries.ts). Tools ask these
 * modules; they ask the servers.
 *
 * A search over many files does not walk the servers file by file: each file is read once; a
 * file whose text does not contain the searched name cannot declare it and is skipped (see
 * {@linkcode prefilterNeedle}); the rest come from the cache, and only uncached candidates are
 * sent to the server, several requests in flight at once.
 * @module
 */
import { LspMethod } from "../lsp/methods.ts";
import { ToolError } from "../errors.ts";
import { log } from "../log.ts";
import { mapLimit } from "../map_limit.ts";
import { basename } from "node:path";
import { type DeclarationIndex, grammarFor, PROVEN_SERVERS } from "./index/mod.ts";
import { decodeText, looksBinary } from "../edit/text_file.ts";
import type { Project } from "../project/project.ts";
import type { ChangeFeed, Settled } from "../project/change_feed.ts";
import {
  findInTree,
  type FindOptions,
  type NamePathPattern,
  parseNamePath,
  pickUnique,
} from "./name_path.ts";
import { resolveCommand, specForFile } from "../lsp/registry.ts";
import { contentHash, contentHashSync, SymbolCache } from "./cache.ts";
import {
  buildSymbolTreeSliced,
  fromCompact,
  SymbolKind,
  type SymbolNode,
  toCompact,
} from "./model.ts";
import {
  isNativeTypeScript,
  NATIVE_NORMALISATION,
  normalizeNativeTypeScript,
} from "./typescript_native.ts";
import type { LanguageServer, LanguageServerPool, RequestOptions } from "../lsp/language_server.ts";

/** The symbols of one file, with the text they were computed for. */
export interface FileSymbols {
  relPath: string;
  /** Content with `\n` line endings (what positions refer to). */
  text: string;
  roots: SymbolNode[];
  /** Whether the tree came from the persistent cache. */
  cached: boolean;
}

/** A symbol together with its file. */
export interface SymbolMatch {
  node: SymbolNode;
  file: FileSymbols;
}

/**
 * A cold query's target located from the declaration index's parse of a file the index does not
 * model exactly (see {@linkcode SymbolLookup.resolveUniqueCold}): good for where to ask the
 * server, asked before the server's outline of the file comes. `confirmed` is the server's own
 * match (that outline, asked at the same time); the query checks that the two agree before it
 * uses the target for anything more, and rejects as the server's lookup does.
 */
export interface ProvisionalMatch extends SymbolMatch {
  confirmed: Promise<SymbolMatch>;
}

/** Whether a match is provisional ({@linkcode ProvisionalMatch}). */
export function isProvisional(match: SymbolMatch): match is ProvisionalMatch {
  return "confirmed" in match;
}

/**
 * The grammars whose cold queries may go to the server at a position from the index's parse of
 * a file it does not model exactly. Python: pyright's outline of a file comes only after its
 * project load and the file's own analysis (flask's `app.py`: ~400 ms of its CPU), which its
 * references request then reuses; the candidate scan and showing the candidates waited for that
 * outline and now run during the load. Other servers are not measured yet.
 */
const PROVISIONAL_GRAMMARS: ReadonlySet<string> = new Set(["python"]);

/**
 * The grammars whose cold queries, beside a server that loads on every core (no parse worker is
 * started for them: see {@linkcode SymbolLookup.indexHelpsCold}), may go to the server at the
 * position of a top-level declaration read from the file's text ({@linkcode declaredMatch}).
 * TypeScript 7's outline of a file waits for its project load (hono's `context.d.ts`: ~190 ms),
 * and the references request, asked only after it, then waited for the program to take in the
 * candidates shown meanwhile (another ~100 ms).
 */
const DECLARED_GRAMMARS: ReadonlySet<string> = new Set(["typescript", "tsx", "javascript"]);

/**
 * A top-level declaration whose kind every TypeScript server's outline gives alike, at the start
 * of a line: the keyword (1) and the name (2). Type aliases, variables and namespaces are left
 * out (servers differ on their kinds), and so are default exports (outlines name them
 * differently).
 */
const DECLARATION_LINE =
  /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(class|interface|(?:const\s+)?enum|function\*?)\s*([\p{L}\p{N}_$]+)/u;
/** Any top-level declaration of a name at the start of a line, of whatever kind (2: the name). */
const ANY_DECLARATION_LINE =
  /^(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(class|interface|(?:const\s+)?enum|function\*?|type|const|let|var|namespace|module)\s*([\p{L}\p{N}_$]+)/u;

/**
 * The one top-level class, interface, enum or function a single-name pattern names in a
 * TypeScript or JavaScript file's text, as a match good for where to ask the server
 * ({@linkcode ProvisionalMatch}); null where the name is declared at the start of no line or of
 * several (overloads, merged declarations), or by another kind of declaration too.
 */
export function declaredMatch(
  pattern: NamePathPattern,
  relPath: string,
  text: string,
): SymbolMatch | null {
  if (pattern.segments.length !== 1 || pattern.segments[0]!.overloadIndex !== null) return null;
  const name = pattern.segments[0]!.name;
  let found: SymbolNode | null = null;
  // Only the lines holding the name are read: each occurrence's line, once.
  let line = 0;
  let counted = 0;
  for (let at = text.indexOf(name); at !== -1;) {
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd === -1) lineEnd = text.length;
    for (
      let i = text.indexOf("\n", counted);
      i !== -1 && i < lineStart;
      i = text.indexOf("\n", i + 1)
    ) {
      line++;
    }
    counted = lineStart;
    const lineText = text.slice(lineStart, lineEnd);
    if (ANY_DECLARATION_LINE.exec(lineText)?.[2] === name) {
      const declared = DECLARATION_LINE.exec(lineText);
      if (found !== null || declared?.[2] !== name) return null;
      const column = declared.index + declared[0].length - name.length;
      const kind = declared[1] === "class"
        ? SymbolKind.Class
        : declared[1] === "interface"
        ? SymbolKind.Interface
        : declared[1]!.endsWith("enum")
        ? SymbolKind.Enum
        : SymbolKind.Function;
      found = {
        name,
        kind,
        overloadIndex: null,
        range: { start: { line, character: 0 }, end: { line, character: lineText.length } },
        selectionRange: {
          start: { line, character: column },
          end: { line, character: column + name.length },
        },
        relPath,
        parent: null,
        children: [],
      };
    }
    at = text.indexOf(name, lineEnd);
  }
  if (found === null || findInTree([found], pattern).length !== 1) return null;
  return { node: found, file: { relPath, text, roots: [found], cached: true } };
}

/**
 * Up to how many files a cold question asks a server that loads on every core for their
 * outlines rather than start the index's parse worker (SymbolLookup.indexHelpsCold). The worker's
 * start costs ~250 ms of a core, an outline from TypeScript 7 ~1 ms of its CPU and ~1 ms of ours;
 * and the worker parses beside the server's load of the project, which takes both cores. Measured
 * cold with TypeScript 7 (scripts/profiles/refs.ts, 2 runs each): hono's sources, `Context` named
 * in 73 files, 1.68-1.71 s with the worker (its parse done 660 ms after the server's answer; this
 * process's CPU 1.84 s) against 1.03-1.08 s with 73 outlines (0.78-0.83 s); the generated 3,001
 * files, 300 files named, 0.93-1.06 s against 1.01-1.03 s: even.
 */
const FEW_OUTLINES = 200;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** How many documentSymbol requests may be in flight at once. */
const SERVER_CONCURRENCY = 8;
/** How many files are read at once. */
const READ_CONCURRENCY = 32;
/** Decoded symbol trees kept in memory (the persistent cache holds every file). */
const TREE_MEMO = 2000;
/**
 * Texts kept for {@linkcode SymbolLookup.memoizedSymbols} at most, by count and by characters:
 * the files of a few recent reference answers (a name used in a thousand files is answered
 * warm without reading them again), not the project.
 */
const SEEN_MEMO = 2000;
const SEEN_CHARS = 16_000_000;
/**
 * Files modified this recently are read and hashed even when size and mtime look unchanged:
 * mtime has a coarse resolution on some file systems.
 */
const RACY_MS = 3_000;
/** Idle time before a changed cache is written. */
const SAVE_DELAY_MS = 1500;

/** Names servers invent (tsserver: "<function>", "describe() callback", ...), never prefiltered. */
const SYNTHETIC_WORDS: ReadonlySet<string> = new Set([
  "callback",
  "function",
  "class",
  "new",
  "export",
  "default",
  "anonymous",
  "lambda",
]);

/**
 * The text a file must contain to possibly declare a symbol matching the pattern: the longest
 * identifier run of the last segment. A symbol's name comes from its declaration in the source,
 * so a file without it has no match. Null (no prefilter) when the segment has no identifier
 * characters or is a word servers use in invented names.
 */
export function prefilterNeedle(pattern: NamePathPattern): string | null {
  const last = pattern.segments[pattern.segments.length - 1]!.name;
  const runs = last.match(/[\p{L}\p{N}_$]+/gu) ?? [];
  let best = "";
  for (const run of runs) if (run.length > best.length) best = run;
  if (best === "" || SYNTHETIC_WORDS.has(best.toLowerCase())) return null;
  return best;
}

/** A counting semaphore. */
class Gate {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(size: number) {
    this.#free = size;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const wake = this.#waiting.shift();
      if (wake) wake();
      else this.#free++;
    }
  }
}

/** A server's identity for cache keys: id, command and (when known) version. */
function identityOf(server: LanguageServer): string {
  const s = server as LanguageServer & {
    version?: string;
    serverInfo?: { name?: string; version?: string };
  };
  const version = s.version ?? s.serverInfo?.version ?? "";
  const identity = [server.id, server.command, version];
  // Cached outlines are normalised ones: a change of the normalisation makes them stale.
  if (isNativeTypeScript(server)) identity.push(`normalised@${NATIVE_NORMALISATION}`);
  return identity.join("|");
}

/** A server's outline in the shape the tools answer with (see typescript_native.ts). */
function outlineOf(
  server: LanguageServer,
  roots: SymbolNode[],
  text: string,
  relPath: string,
): SymbolNode[] {
  return isNativeTypeScript(server) ? normalizeNativeTypeScript(roots, text, relPath) : roots;
}

/** See the module documentation. */
export class SymbolLookup {
  readonly project: Project;
  readonly pool: LanguageServerPool;
  /** The syntactic index that picks the files a folder-wide search asks the server about. */
  readonly declarations: DeclarationIndex | null;
  readonly #caches = new Map<string, SymbolCache>();
  readonly #inflight = new Map<string, Promise<FileSymbols>>();
  /** Recently used decoded trees (by path, valid for one content hash), most recent last. */
  readonly #trees = new Map<string, { hash: string; roots: SymbolNode[] }>();
  /**
   * Size, mtime and text of files {@linkcode memoizedSymbols} read, by path, most recent last: a
   * file whose stat is unchanged is not read and hashed again.
   */
  #seenChars = 0;
  readonly #seen = new Map<
    string,
    {
      hash: string;
      mtime: number;
      size: number;
      text: string;
      /** The change feed's stamp taken before the read (-1: none, or not watchable). */
      stamp: number;
    }
  >();
  readonly #serverGate = new Gate(SERVER_CONCURRENCY);
  #saveTimer: ReturnType<typeof setTimeout> | null = null;
  /** Per server spec id, the name of the command the project runs. */
  readonly #specCommands = new Map<string, string>();
  /** Per server spec: whether its command loads on every core (ServerCommand.loadsOnEveryCore). */
  readonly #everyCore = new Map<string, boolean>();
  /** The declaration index failed to build once (said once in the log). */
  #declarationsFailed = false;

  /**
   * What changed on disk, from a watcher: a file read earlier and vouched for by it since needs
   * no stat ({@linkcode memoizedSymbols}).
   */
  readonly changes: ChangeFeed | null;

  constructor(
    project: Project,
    pool: LanguageServerPool,
    declarations: DeclarationIndex | null = null,
    changes: ChangeFeed | null = null,
  ) {
    this.project = project;
    this.pool = pool;
    this.declarations = declarations;
    this.changes = changes;
  }

  /** The registry id of the server for a file without starting it; null if none handles it. */
  #serverIdFor(relPath: string): string | null {
    return this.pool.serverIdFor(relPath);
  }

  #cacheFor(serverId: string): SymbolCache {
    let cache = this.#caches.get(serverId);
    if (!cache) {
      cache = new SymbolCache(this.project.root, serverId);
      this.#caches.set(serverId, cache);
    }
    return cache;
  }

  /**
   * Whether a file belongs in folder-wide symbol work: its server is a primary one (a
   * programming language, not JSON or YAML data files).
   */
  #isPrimary(relPath: string): boolean {
    const pool = this.pool as LanguageServerPool & { specs?: Parameters<typeof specForFile>[0] };
    if (!Array.isArray(pool.specs)) return true;
    return specForFile(pool.specs, relPath)?.primary ?? false;
  }

  /** Whether a file belongs in folder-wide symbol work (see {@linkcode sourceFiles}). */
  isSourceFile(relPath: string): boolean {
    return this.pool.handles(relPath) && this.#isPrimary(relPath);
  }

  /**
   * Project-relative paths of the source files below a folder: handled by a primary language
   * server, not ignored; sorted.
   */
  async sourceFiles(scope: string, signal?: AbortSignal): Promise<string[]> {
    const files: string[] = [];
    for await (const entry of this.project.walk(scope, { signal })) {
      if (entry.isDirectory || !this.pool.handles(entry.path)) continue;
      if (this.#isPrimary(entry.path)) files.push(entry.path);
    }
    return files.sort();
  }

  /** Read and decode a file (project encoding, `\n` line endings). */
  async #read(relPath: string): Promise<{ bytes: Uint8Array; text: string }> {
    const bytes = await Deno.readFile(this.project.absolute(relPath));
    const encoding = this.project.settings.encoding;
    if (/^utf-?8$/i.test(encoding) && !looksBinary(bytes)) {
      // The common case, without decodeText's line-ending statistics (this runs per file of a
      // project-wide search).
      try {
        const raw = utf8.decode(bytes);
        return { bytes, text: raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw };
      } catch { /* not valid UTF-8: decodeText explains */ }
    }
    return { bytes, text: decodeText(bytes, encoding, relPath).text };
  }

  /** Whether a symbol tree of the file is in memory (of whatever content it had then). */
  hasTree(relPath: string): boolean {
    return this.#trees.has(relPath);
  }

  /** The symbol tree of one file (a project-relative path the caller validated). */
  async fileSymbols(relPath: string, options: RequestOptions = {}): Promise<FileSymbols> {
    if (!this.pool.handles(relPath)) {
      throw new ToolError(
        `No language server handles '${relPath}', so it has no symbols. Symbol tools work on ` +
          "source files of a configured language.",
      );
    }
    const { bytes, text } = await this.#read(relPath);
    return await this.#symbolsOf(relPath, bytes, text, options);
  }

  /**
   * A file's symbols when the tree of its current content is in memory: read and hashed without
   * awaiting (a query naming the containing symbols of many files does them in one pass, with
   * no round trip per file through the I/O threads); null when it is not in memory, or not
   * UTF-8 (then {@linkcode fileSymbols}). Added for find_referencing_symbols.
   *
   * `barrier`: the change feed's word, taken by the caller after its query began. A file it
   * vouches for (no event since it was read) is answered without a stat; one it says changed is
   * read again, whatever its stat says.
   */
  memoizedSymbols(relPath: string, barrier: Settled | null = null): FileSymbols | null {
    const memo = this.#trees.get(relPath);
    if (!memo || !this.pool.handles(relPath)) return null;
    if (!/^utf-?8$/i.test(this.project.settings.encoding)) return null;
    const known = this.#seen.get(relPath);
    let vouched: boolean | null = null;
    if (barrier !== null && known !== undefined && known.stamp >= 0) {
      vouched = barrier.unchanged(relPath, known.stamp);
      if (vouched && known.hash === memo.hash) {
        this.#remember(relPath, memo.hash, memo.roots);
        return { relPath, text: known.text, roots: memo.roots, cached: true };
      }
    }
    const abs = this.project.absolute(relPath);
    const feed = this.changes;
    // Noted before the stat and the read: an event after it voids what they find.
    const stamp = barrier !== null && feed !== null ? feed.stamp() : -1;
    let stat: Deno.FileInfo;
    try {
      // Synchronous: a few µs, where the read and hash below cost several times more.
      stat = Deno.statSync(abs);
    } catch {
      return null; // gone: fileSymbols explains
    }
    const mtime = stat.mtime?.getTime() ?? 0;
    const settled = Date.now() - mtime >= RACY_MS;
    const seen = known;
    if (
      vouched !== false && settled && seen !== undefined && seen.hash === memo.hash &&
      seen.mtime === mtime && seen.size === stat.size
    ) {
      // Unchanged on disk since it was read: the same content, without reading it again.
      if (seen.stamp < 0 && stamp >= 0 && feed!.watchable(abs)) seen.stamp = stamp;
      this.#remember(relPath, memo.hash, memo.roots);
      return { relPath, text: seen.text, roots: memo.roots, cached: true };
    }
    let bytes: Uint8Array;
    let raw: string;
    try {
      bytes = Deno.readFileSync(abs);
      if (looksBinary(bytes)) return null;
      raw = utf8.decode(bytes);
    } catch {
      return null; // gone, or not UTF-8: fileSymbols explains
    }
    if (contentHashSync(bytes) !== memo.hash) return null;
    this.#remember(relPath, memo.hash, memo.roots);
    const text = raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
    // Only a file last modified before the coarsest mtime resolution may be trusted by its stat
    // later: a second write within the same tick would leave size and mtime as they are. The
    // stat was taken before the read, so a write between them shows as a changed mtime.
    if (settled && bytes.length === stat.size) {
      this.#forgetSeen(relPath);
      const trusted = stamp >= 0 && feed!.watchable(abs) ? stamp : -1;
      this.#seen.set(relPath, { hash: memo.hash, mtime, size: stat.size, text, stamp: trusted });
      this.#seenChars += text.length;
      while (this.#seen.size > SEEN_MEMO || this.#seenChars > SEEN_CHARS) {
        this.#forgetSeen(this.#seen.keys().next().value!);
      }
    }
    return { relPath, text, roots: memo.roots, cached: true };
  }

  async #symbolsOf(
    relPath: string,
    bytes: Uint8Array,
    text: string,
    options: RequestOptions,
  ): Promise<FileSymbols> {
    const hash = await contentHash(bytes);
    const key = `${relPath}\0${hash}`;
    const running = this.#inflight.get(key);
    if (running) return await running;
    const work = this.#computeSymbols(relPath, hash, text, options);
    this.#inflight.set(key, work);
    try {
      return await work;
    } finally {
      this.#inflight.delete(key);
    }
  }

  async #computeSymbols(
    relPath: string,
    hash: string,
    text: string,
    options: RequestOptions,
  ): Promise<FileSymbols> {
    const memo = this.#trees.get(relPath);
    if (memo?.hash === hash) {
      this.#remember(relPath, hash, memo.roots);
      return { relPath, text, roots: memo.roots, cached: true };
    }
    const exact = this.#exactFromIndex(relPath, hash);
    if (exact) {
      this.#remember(relPath, hash, exact);
      return { relPath, text, roots: exact, cached: true };
    }
    let serverId = this.#serverIdFor(relPath);
    if (serverId !== null) {
      const cache = this.#cacheFor(serverId);
      await cache.load();
      try {
        const stored = cache.get(relPath, hash);
        if (stored) {
          const roots = fromCompact(stored, relPath);
          this.#remember(relPath, hash, roots);
          return { relPath, text, roots, cached: true };
        }
      } catch { /* corrupt entry: ask the server */ }
    }
    return await this.#serverGate.run(async () => {
      options.signal?.throwIfAborted();
      const server = await this.pool.serverFor(relPath, options);
      serverId = server.id;
      const result = await server.request<unknown>(
        LspMethod.documentSymbol,
        { textDocument: { uri: server.uriOf(relPath) } },
        { ...options, sync: [relPath] },
      );
      const tree = await buildSymbolTreeSliced(result, relPath, text);
      const roots = outlineOf(server, tree, text, relPath);
      const cache = this.#cacheFor(serverId);
      await cache.load();
      cache.identify(identityOf(server));
      cache.set(relPath, hash, toCompact(roots));
      this.#remember(relPath, hash, roots);
      this.#scheduleSave();
      return { relPath, text, roots, cached: false };
    });
  }

  /**
   * The file's tree from the declaration index, when the index holds this content and its
   * declarations are proven equal to the server's documentSymbol (extract.ts's `exact`): then
   * no server is asked, nor waited for. The index decodes UTF-8, so other project encodings
   * always go to the server.
   */
  #exactFromIndex(relPath: string, hash: string): SymbolNode[] | undefined {
    if (this.declarations === null || !/^utf-?8$/i.test(this.project.settings.encoding)) {
      return undefined;
    }
    if (!this.#provenServer(relPath)) return undefined;
    const compact = this.declarations.exactDeclarations(relPath, hash);
    if (compact === undefined) return undefined;
    try {
      return fromCompact(compact, relPath);
    } catch {
      return undefined;
    }
  }

  /**
   * Whether the server this project runs for a file is one its grammar's rules were proven
   * against (PROVEN_SERVERS): the first installed command of its spec (none installed: no).
   * Decided once per server spec.
   */
  #provenServer(relPath: string): boolean {
    const grammar = grammarFor(relPath);
    const proven = grammar === null ? undefined : PROVEN_SERVERS[grammar];
    const pool = this.pool as LanguageServerPool & { specs?: Parameters<typeof specForFile>[0] };
    if (proven === undefined || !Array.isArray(pool.specs)) return false;
    const spec = specForFile(pool.specs, relPath);
    if (!spec) return false;
    let command = this.#specCommands.get(spec.id);
    if (command === undefined) {
      const resolved = resolveCommand(spec, this.project.root);
      // Not installed: no answer from the index either, so that the missing server is said.
      command = "command" in resolved ? basename(resolved.command.command) : "";
      this.#specCommands.set(spec.id, command);
    }
    return proven.includes(command);
  }

  /**
   * Whether a cold question (the declaration index not built) should have the index parse
   * `files` of its files (the target's, the candidates, the files naming the references) rather
   * than ask the server for their outlines. Not for a server that loads its project on every core
   * (ServerCommand.loadsOnEveryCore), up to {@linkcode FEW_OUTLINES} files: the parse worker's
   * start and parses take a core from that load. On hono, `Context` (37 files) answered in
   * 327-343 ms without them against 448-492 ms, this process's CPU 290-330 against 520-610 ms
   * (the same answer); on the generated tree's 301 files the index is as fast.
   */
  indexHelpsCold(relPath: string, files: number): boolean {
    if (files > FEW_OUTLINES) return true;
    const pool = this.pool as LanguageServerPool & { specs?: Parameters<typeof specForFile>[0] };
    if (!Array.isArray(pool.specs)) return true;
    const spec = specForFile(pool.specs, relPath);
    if (!spec) return true;
    let everyCore = this.#everyCore.get(spec.id);
    if (everyCore === undefined) {
      const resolved = resolveCommand(spec, this.project.root);
      everyCore = "command" in resolved && resolved.command.loadsOnEveryCore === true;
      this.#everyCore.set(spec.id, everyCore);
    }
    return !everyCore;
  }

  #forgetSeen(relPath: string): void {
    const seen = this.#seen.get(relPath);
    if (seen === undefined) return;
    this.#seen.delete(relPath);
    this.#seenChars -= seen.text.length;
  }

  #remember(relPath: string, hash: string, roots: SymbolNode[]): void {
    this.#trees.delete(relPath);
    this.#trees.set(relPath, { hash, roots });
    if (this.#trees.size > TREE_MEMO) this.#trees.delete(this.#trees.keys().next().value!);
  }

  /**
   * Every symbol matching a pattern in `scope` (a file or folder, project-relative; "." for
   * the whole project), in path order, then document order.
   */
  find(
    pattern: NamePathPattern,
    findOptions: FindOptions,
    scope: { relPath: string; isDirectory: boolean },
    options: RequestOptions = {},
  ): Promise<SymbolMatch[]> {
    return this.findEach(pattern, findOptions, scope, (match) => match, options);
  }

  /**
   * {@linkcode find}, each match turned into what the caller keeps (`keep`) as soon as its file
   * is searched: a search that matches in thousands of files then holds only that, not every
   * file's text and symbol tree until the last file is done (20,000 files: ~125 MB of trees;
   * docs/performance.md, "Memory").
   */
  async findEach<T>(
    pattern: NamePathPattern,
    findOptions: FindOptions,
    scope: { relPath: string; isDirectory: boolean },
    keep: (match: SymbolMatch) => T,
    options: RequestOptions = {},
  ): Promise<T[]> {
    if (!scope.isDirectory) {
      const file = await this.fileSymbols(scope.relPath, options);
      return findInTree(file.roots, pattern, findOptions).map((node) => keep({ node, file }));
    }
    const needle = prefilterNeedle(pattern);
    const candidates = await this.#candidateFiles(
      pattern,
      needle,
      findOptions,
      scope.relPath,
      options,
    );
    const files = candidates ?? await this.sourceFiles(scope.relPath, options.signal);
    let asked = 0;
    let lastReport = Date.now();
    const perFile = await mapLimit(files, READ_CONCURRENCY, async (relPath) => {
      options.signal?.throwIfAborted();
      let read;
      try {
        read = await this.#read(relPath);
      } catch {
        return []; // vanished, binary or undecodable
      }
      if (needle !== null && !read.text.includes(needle)) return [];
      const file = await this.#symbolsOf(relPath, read.bytes, read.text, options);
      if (!file.cached && options.onProgress) {
        asked++;
        if (Date.now() - lastReport > 1000) {
          lastReport = Date.now();
          options.onProgress(`Reading symbols from the language server: ${asked} files so far`);
        }
      }
      return findInTree(file.roots, pattern, findOptions).map((node) => keep({ node, file }));
    });
    if (scope.relPath === "." && candidates === null) {
      // Every file of these servers was listed: entries of files that are gone can go too.
      const present = new Set(files);
      const ids = new Set(files.map((f) => this.#serverIdFor(f)));
      for (const [id, cache] of this.#caches) {
        if (ids.has(id)) cache.prune((p) => present.has(p));
      }
    }
    return perFile.flat();
  }

  /**
   * The files that may declare a match, from the declaration index: those declaring the last
   * segment's name, plus every source file the index does not parse (left to the text
   * prefilter). Null when there is no index or the name is not a plain identifier (servers
   * invent names such as "describe() callback"): then every file is read.
   *
   * Before the index is built, a name the prefilter can narrow (`needle`) does not wait for the
   * whole build: the files not indexed yet whose text contains the needle are indexed first, in
   * the workers, and the answer is as complete as after the build (a file without the needle
   * cannot declare a match; see DeclarationIndex.prepareFor). Otherwise it waits, with
   * progress, until the index is complete and current.
   */
  async #candidateFiles(
    pattern: NamePathPattern,
    needle: string | null,
    findOptions: FindOptions,
    scope: string,
    options: RequestOptions,
  ): Promise<string[] | null> {
    const index = this.declarations;
    const name = pattern.segments[pattern.segments.length - 1]!.name;
    if (index === null) return null;
    // The index leaves out environments and build output; a search asked for inside one reads
    // its files.
    if (scope !== "." && this.project.nonProject.reasonDeep(scope, true) !== null) return null;
    const plain = needle === name;
    const waiting = { signal: options.signal, onProgress: options.onProgress };
    try {
      // Also for a name no parser sees: every file is read then, and those the index models
      // exactly need no server.
      const early = needle !== null && !index.built &&
        await index.prepareFor(needle, { ...waiting, scope });
      if (!early) await index.ready(waiting);
      if (!plain) return null;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // The index could not be built: read every file instead, as without an index.
      if (!this.#declarationsFailed) {
        this.#declarationsFailed = true;
        log.warn(
          `The declaration index could not be built (${String(error)}); find_symbol reads ` +
            "every file instead.",
        );
      }
      return null;
    }
    const substring = findOptions.substring ?? false;
    const files = [
      ...index.candidates(name, { substring, scope }),
      ...index.otherFiles(scope),
    ].filter((f) => this.pool.handles(f) && this.#isPrimary(f));
    return files.sort();
  }

  /**
   * Start building the declaration index, without waiting for it: a query that will need many
   * files' symbols (references) lets it run beside the server's project load, and takes the
   * files' trees from it where they are exact (see {@linkcode fileSymbols}).
   */
  startDeclarations(): void {
    const index = this.declarations;
    if (index === null || index.built || this.#declarationsFailed) return;
    // Not ready(): that waits for the build, which a question holding it back must not do.
    index.start().catch((error) => {
      if (this.#declarationsFailed || index.disposed) return;
      this.#declarationsFailed = true;
      log.warn(`The declaration index could not be built (${String(error)}).`);
    });
  }

  /** The one symbol a name path denotes in a file (see pickUnique for the rules). */
  async resolveUnique(
    pattern: NamePathPattern,
    relPath: string,
    options: RequestOptions = {},
  ): Promise<SymbolMatch> {
    const file = await this.fileSymbols(relPath, options);
    const node = pickUnique(findInTree(file.roots, pattern), pattern, {
      relPath,
      roots: file.roots,
    });
    return { node, file };
  }

  /**
   * {@linkcode resolveUnique} for a query's own file while the declaration index is not built
   * (a cold query). The file's outline comes from whichever answers first: the index's parse of
   * it, sent ahead of the build (used where the index's rules model the file exactly, see
   * {@linkcode fileSymbols}), or the server's documentSymbol, asked as soon as the server is up.
   * Neither waits for the other: a parse worker's start (its isolate, tree-sitter's WebAssembly)
   * can take longer than a fast server's start and first answer, and a slow server's outline
   * waits for its project load, which the parse does not. The side that loses is stopped (the
   * server's request is cancelled) or goes on as the build's own work (the parse).
   */
  async resolveUniqueCold(
    pattern: NamePathPattern,
    relPath: string,
    options: RequestOptions = {},
    /**
     * Where the index parsed the file but does not model it exactly, and its parse finds exactly
     * one symbol for the pattern, answer that at once as a {@linkcode ProvisionalMatch} (for the
     * grammars of PROVISIONAL_GRAMMARS), the server's outline still coming as its confirmation.
     */
    provisional = false,
  ): Promise<SymbolMatch | ProvisionalMatch> {
    const declarations = this.declarations;
    const needle = prefilterNeedle(pattern);
    if (
      declarations === null || declarations.built || needle === null ||
      !this.indexHelpsCold(relPath, 1)
    ) {
      const declared = provisional && declarations !== null && !declarations.built &&
          needle !== null && DECLARED_GRAMMARS.has(grammarFor(relPath) ?? "")
        ? await this.#declaredMatch(pattern, relPath)
        : null;
      if (declared === null) return await this.resolveUnique(pattern, relPath, options);
      const confirmed = this.resolveUnique(pattern, relPath, options);
      confirmed.catch(() => {}); // the query awaits it; a failure is its failure
      return { ...declared, confirmed };
    }
    const serverSide = new AbortController();
    const signal = options.signal
      ? AbortSignal.any([options.signal, serverSide.signal])
      : serverSide.signal;
    const viaServer = this.pool.serverFor(relPath, { ...options, signal })
      .then(() => this.resolveUnique(pattern, relPath, { ...options, signal }));
    viaServer.catch(() => {}); // when the index answers first, its cancellation is expected
    let fromIndex = false;
    const viaIndex = declarations.prepareFor(needle, {
      scope: relPath,
      ...(options.signal ? { signal: options.signal } : {}),
    })
      .then(() => this.#exactSymbols(relPath))
      .catch(() => null)
      .then(async (file): Promise<SymbolMatch | ProvisionalMatch> => {
        if (file === null) {
          const parsed = provisional ? await this.#parsedMatch(pattern, relPath) : null;
          return parsed === null ? viaServer : { ...parsed, confirmed: viaServer };
        }
        fromIndex = true;
        const node = pickUnique(findInTree(file.roots, pattern), pattern, {
          relPath,
          roots: file.roots,
        });
        return { node, file };
      });
    try {
      return await Promise.race([viaIndex, viaServer]);
    } finally {
      if (fromIndex) serverSide.abort();
    }
  }

  /**
   * While the declaration index builds, a cold question holds the build back (see
   * DeclarationIndex.holdBuild) until the returned release is called: the question's own work
   * (the candidate scan, the server's project load, the parses it asks for) comes first.
   */
  holdDeclarations(): () => void {
    const declarations = this.declarations;
    if (declarations === null || declarations.built) return () => {};
    return declarations.holdBuild();
  }

  /**
   * While the declaration index is not built: have it index these files now, ahead of the
   * build (the files a references answer lists, so that they are named from the index where it
   * is exact rather than by the server file by file). Returns when a file's turn is done
   * (indexed, or not indexable: {@linkcode fileSymbols} then asks the server).
   */
  indexAhead(
    name: string,
    relPaths: readonly string[],
    signal?: AbortSignal,
  ): (relPath: string) => Promise<void> {
    const declarations = this.declarations;
    let needle: string | null = null;
    try {
      needle = prefilterNeedle(parseNamePath(name));
    } catch { /* not a name path: no prefilter */ }
    if (declarations === null || declarations.built || needle === null) {
      return () => Promise.resolve();
    }
    const turns = new Map<string, Promise<void>>();
    for (const relPath of relPaths) {
      const turn = declarations.prepareFor(needle, {
        scope: relPath,
        ...(signal ? { signal } : {}),
      })
        .then(() => {}, () => {});
      turns.set(relPath, turn);
    }
    return (relPath) => turns.get(relPath) ?? Promise.resolve();
  }

  /**
   * The one symbol the declaration index's parse of a file finds for a pattern, where the index
   * holds the file's current content (exact or not), for a grammar of PROVISIONAL_GRAMMARS;
   * null otherwise, and where the parse finds none or several. Never asks a server.
   */
  async #parsedMatch(pattern: NamePathPattern, relPath: string): Promise<SymbolMatch | null> {
    const declarations = this.declarations;
    const grammar = grammarFor(relPath);
    if (declarations === null || grammar === null || !PROVISIONAL_GRAMMARS.has(grammar)) {
      return null;
    }
    if (!/^utf-?8$/i.test(this.project.settings.encoding) || !this.pool.handles(relPath)) {
      return null;
    }
    try {
      const { bytes, text } = await this.#read(relPath);
      if (declarations.hashOf(relPath) !== await contentHash(bytes)) return null;
      const compact = declarations.declarations(relPath);
      if (compact === undefined) return null;
      const roots = fromCompact(compact, relPath);
      const found = findInTree(roots, pattern);
      if (found.length !== 1) return null;
      return { node: found[0]!, file: { relPath, text, roots, cached: true } };
    } catch {
      return null;
    }
  }

  /** {@linkcode declaredMatch} over the file as it is on disk; null where it cannot be read. */
  async #declaredMatch(pattern: NamePathPattern, relPath: string): Promise<SymbolMatch | null> {
    if (!this.pool.handles(relPath)) return null;
    try {
      return declaredMatch(pattern, relPath, (await this.#read(relPath)).text);
    } catch {
      return null;
    }
  }

  /**
   * A file's outline from the declaration index when it holds the file's current content and
   * is exact for it (see {@linkcode fileSymbols}), else null. Never asks a server.
   */
  async #exactSymbols(relPath: string): Promise<FileSymbols | null> {
    if (!this.pool.handles(relPath)) return null;
    const { bytes, text } = await this.#read(relPath);
    const hash = await contentHash(bytes);
    const roots = this.#exactFromIndex(relPath, hash);
    if (roots === undefined) return null;
    this.#remember(relPath, hash, roots);
    return { relPath, text, roots, cached: true };
  }

  #scheduleSave(): void {
    if (this.#saveTimer !== null) return;
    const timer = setTimeout(() => {
      this.#saveTimer = null;
      this.flush().catch(() => {});
    }, SAVE_DELAY_MS);
    Deno.unrefTimer(timer);
    this.#saveTimer = timer;
  }

  /** Files or folders moved by our own tools: cached symbols follow them. */
  moved(moves: ReadonlyArray<{ from: string; to: string }>): void {
    if (moves.length === 0) return;
    for (const move of moves) {
      for (const cache of this.#caches.values()) cache.move(move.from, move.to);
      for (const relPath of [...this.#trees.keys()]) {
        if (relPath === move.from || relPath.startsWith(move.from + "/")) {
          this.#trees.delete(relPath);
        }
      }
      for (const relPath of [...this.#seen.keys()]) {
        if (relPath === move.from || relPath.startsWith(move.from + "/")) {
          this.#forgetSeen(relPath);
        }
      }
    }
    this.#scheduleSave();
  }

  /** Write every changed cache now. */
  async flush(): Promise<void> {
    if (this.#saveTimer !== null) {
      clearTimeout(this.#saveTimer);
      this.#saveTimer = null;
    }
    await Promise.all([...this.#caches.values()].map((c) => c.save()));
  }

  /** Save the caches (on session shutdown). */
  async dispose(): Promise<void> {
    await this.flush();
  }
}
