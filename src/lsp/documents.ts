/**
 * Document sync (ARCHITECTURE.md §5 rule 2): disk is the truth. Before a query every file it depends on is
 * opened with a version, re-sent (`didChange`, full text) when its content changed since we last
 * sent it, and files we know that changed on disk are announced with
 * `workspace/didChangeWatchedFiles`. One instance per server process.
 *
 * Outside changes are found by comparing size and mtime (a synchronous `stat`, a few µs per
 * file) and, when those changed or the file was written very recently, the content hash:
 * - the files a query names, and every open document (the server answers from our copy of
 *   those, so a stale one would be a wrong answer), are checked on every sync;
 * - closed documents we know (the server reads those from disk itself; we only announce their
 *   changes) are checked at most once per {@linkcode CLOSED_CHECK_MS}.
 *
 * With the project's watcher (noticed_paths.ts), a sync whose barrier vouches for every change
 * made before it checks only what changed: the folders and documents the events name, each
 * such document read and compared by content whatever its stat says. A warm query on an
 * unchanged project then stats nothing, and every file of the server's languages the events name
 * is announced before the request, opened or not (TypeScript 7 answered from the old text of a
 * closed file otherwise). Documents the watcher cannot vouch for (a link on their
 * path, other hard links, an ignored folder) are still checked as above, and without the
 * barrier's word everything is.
 *
 * Documents a query opened only for itself (`transient`) are closed again when the query ends,
 * unless another query still uses them or a non-transient one asked for them; they are then
 * forgotten. Per document we keep a hash, never the text.
 * @module
 */
import { join } from "node:path";
import { sha1Hex, sha1HexAsync } from "../sha.ts";
import { fileUriOf } from "../project/file_uri.ts";
import { ToolError } from "../errors.ts";
import type { FileSet } from "./source_file_set.ts";
import { isNoticed, type NoticedPaths, touches } from "./noticed_paths.ts";

/** The part of the client this module needs. */
export interface Notifier {
  notify(method: string, params: unknown): Promise<void>;
}

interface DocState {
  uri: string;
  relPath: string;
  /** Absolute path (joined once: it is stat'ed before every query). */
  abs: string;
  languageId: string;
  /** Last version sent (0 when never opened). */
  version: number;
  /** SHA-1 of the content last sent; "" while the open's hash is computed ({@linkcode hashing}). */
  hash: string;
  /**
   * The hash of the content an open sent, computed on Deno's blocking threads (sha.ts
   * `sha1HexAsync`) after the `didOpen` went: awaited before the hash is compared. A cold question
   * opens tens of files before its request (hono's `Context`: 37), and their hashes, computed here
   * before each `didOpen`, delayed it by ~0.2 ms a file on an unoptimised sha.ts.
   */
  hashing: Promise<void> | null;
  mtime: number;
  size: number;
  open: boolean;
  lastUsed: number;
  /** Queries in flight that depend on this document (it is not closed under them). */
  pins: number;
  /** Its changes are reported by the watcher (see noticed_paths.ts): checked only on an event. */
  watched: boolean;
  /** Opened for transient queries only: closed and forgotten when the last of them ends. */
  transient: boolean;
}

/** Options of {@linkcode DocumentSync.sync}. */
export interface SyncOptions {
  /** Close the documents this sync opened once the lease is released (if nobody else needs them). */
  transient?: boolean | undefined;
  /**
   * When the query was asked (`performance.now()`): the changes made before it must be seen;
   * the watcher's barrier may then be one made since, shared with another caller.
   */
  since?: number | undefined;
}

/** The documents a query depends on, held open until {@linkcode Lease.release}. */
export interface Lease {
  /** The query is done: unpin its documents and close those opened only for it. */
  release(): Promise<void>;
}

/**
 * New files a query opens for itself at most. Opening is what makes every server count a new
 * file at once (tsserver ignores `didChangeWatchedFiles`); beyond this many (a checkout, a
 * generator) the announcement alone has to do.
 */
export const MAX_CREATED_OPEN = 20;
/** Open documents kept at most; the least recently used (and unpinned) are closed beyond this. */
export const MAX_OPEN = 100;
/** Closed documents we still watch for outside changes. */
const MAX_KNOWN_CLOSED = 300;
/** Closed documents are re-checked for outside changes at most this often. */
export const CLOSED_CHECK_MS = 1_000;
/**
 * Folders and open documents a full check stats at most before a sync prefers it to a barrier
 * of its own (a touch of the watcher's marker and a wait for its event: ~0.1–0.3 ms, and more on
 * a busy machine, where a stat costs a few µs). A barrier already under way is always shared.
 * Off (0) by default: a full check does not see a closed file edited in place (its folder keeps
 * its mtime), which only the barrier's events name, and TypeScript 7, which reads closed files
 * from disk itself, answered from such a file's old text when the project's own event reached it
 * after the question (tests/symbols/fresh_files_test.ts, intermittently on a small fixture).
 */
export const SMALL_CHECK = 0;
/** The bound a caller may choose instead (noticed_paths_test.ts): a few stats against a touch. */
export const SMALL_CHECK_STATS = 64;
/**
 * Files modified this recently are compared by content even when size and mtime look unchanged:
 * mtime has a coarse resolution, and a second write within it would otherwise go unseen.
 */
const RACY_MS = 3_000;

const enum FileChangeType {
  Created = 1,
  Changed = 2,
  Deleted = 3,
}

type Changes = Array<{ uri: string; type: FileChangeType }>;

export class DocumentSync {
  readonly #docs = new Map<string, DocState>();
  readonly #root: string;
  readonly #server: Notifier;
  readonly #languageId: (relPath: string) => string;
  readonly #decoder: TextDecoder;
  readonly #onClose: (uri: string) => void;
  readonly #fileSet: FileSet | null;
  #queue: Promise<unknown> = Promise.resolve();
  #clock = 0;
  /**
   * Versions come from one counter for all documents, so a document closed, forgotten and
   * opened again never reuses a version a late diagnostics report could still carry.
   */
  #versions = 0;
  readonly #openUris = new Set<string>();
  #closedCheckedAt = -Infinity;
  readonly #noticed: NoticedPaths | null;
  #fullChecks = 0;
  #rootUri: string | undefined;
  readonly #smallCheck: number;

  constructor(options: {
    root: string;
    server: Notifier;
    languageId: (relPath: string) => string;
    encoding?: string;
    /** Called after a document was closed (drop per-document state kept elsewhere). */
    onClose?: (uri: string) => void;
    /** The project's files of this server's languages, scanned before every sync. */
    fileSet?: FileSet;
    /** What changed below `root`, from the project's watcher; this sync disposes of it. */
    noticed?: NoticedPaths;
    /** {@linkcode SMALL_CHECK}, for tests. */
    smallCheck?: number;
  }) {
    this.#root = options.root;
    this.#server = options.server;
    this.#languageId = options.languageId;
    this.#decoder = makeDecoder(options.encoding);
    this.#onClose = options.onClose ?? (() => {});
    this.#fileSet = options.fileSet ?? null;
    this.#noticed = options.noticed ?? null;
    this.#smallCheck = options.smallCheck ?? SMALL_CHECK;
  }

  /** How many syncs compared every document and folder with disk (the others, only changes). */
  get fullChecks(): number {
    return this.#fullChecks;
  }

  /** Stop hearing the watcher (the server process is gone). */
  dispose(): void {
    this.#noticed?.dispose();
  }

  /** `file://` URI of a project-relative path (a known document's, or the root's, kept). */
  uriOf(relPath: string): string {
    const known = this.#docs.get(relPath)?.uri;
    if (known !== undefined) return known;
    if (relPath === ".") return this.#rootUri ??= fileUriOf(this.#root, ".");
    return fileUriOf(this.#root, relPath);
  }

  /** The version last sent for a document, or null when it is not open. */
  versionOf(relPath: string): number | null {
    const doc = this.#docs.get(relPath);
    return doc?.open ? doc.version : null;
  }

  /** Project-relative paths of the open documents. */
  openDocuments(): string[] {
    return [...this.#docs.values()].filter((d) => d.open).map((d) => d.relPath);
  }

  /** Whether the document with this URI is open. */
  isOpen(uri: string): boolean {
    return this.#openUris.has(uri);
  }

  /** How many documents we track (open and closed), for tests and memory checks. */
  get size(): number {
    return this.#docs.size;
  }

  /**
   * Make the server's view of `relPaths` match disk (opening them), and re-check the other
   * documents we know for changes made outside Sextant (open ones always, closed ones at most
   * once per {@linkcode CLOSED_CHECK_MS}). The documents stay pinned until the lease is released.
   */
  sync(relPaths: readonly string[], options: SyncOptions = {}): Promise<Lease> {
    return this.#serialized(async () => {
      const wanted = new Set(relPaths);
      const changes: Changes = [];
      // Every change made before the query, if the watcher can say so (else null: check all).
      const since = options.since ?? performance.now();
      const small = (this.#fileSet?.folders ?? 0) + this.#openUris.size <= this.#smallCheck;
      const noticed = this.#noticed && (!small || this.#noticed.underway(since))
        ? await this.#noticed.take(since)
        : null;
      if (noticed === null) {
        this.#noticed?.fullCheckBegins();
        this.#fullChecks++;
      }
      // The file set's first scan records what is there and reports nothing: walked after the
      // documents are opened, so that the server starts loading the project (on the target's
      // `didOpen`) without waiting for a walk of the whole tree (~20 ms on hono).
      const baseline = this.#fileSet !== null && !this.#fileSet.scanned;
      const created = baseline ? [] : await this.#scanFileSet(changes, noticed);
      const now = performance.now();
      const checkClosed = now - this.#closedCheckedAt >= CLOSED_CHECK_MS;
      if (checkClosed) this.#closedCheckedAt = now;
      const wallNow = Date.now();
      for (const doc of [...this.#docs.values()]) {
        if (wanted.has(doc.relPath)) continue;
        if (noticed !== null && doc.watched) {
          // Read and compared by content: an event may come with an unchanged size and mtime.
          if (touches(noticed, doc.relPath)) await this.#refresh(doc, changes, true);
          continue;
        }
        if (!(doc.open || checkClosed)) continue;
        // Most documents are unchanged: decided without an await per document.
        if (this.#unchanged(doc, wallNow)) continue;
        await this.#refresh(doc, changes);
      }
      const pinned: DocState[] = [];
      try {
        for (const relPath of wanted) {
          const transient = options.transient === true;
          const doc = this.#openAndUnchanged(relPath, transient, noticed) ??
            await this.#open(relPath, changes, transient, noticed);
          doc.pins++;
          pinned.push(doc);
        }
        for (const relPath of created) {
          if (wanted.has(relPath) || this.#docs.get(relPath)?.open) continue;
          // Open for this query only: the server now counts the file in its answer.
          const doc = await this.#open(relPath, changes, true).catch(() => null);
          if (!doc) continue;
          doc.pins++;
          pinned.push(doc);
        }
      } catch (error) {
        await this.#unpin(pinned);
        throw error;
      } finally {
        if (baseline) await this.#scanFileSet(changes, noticed);
        await this.#announce(changes);
      }
      await this.#trim();
      return this.#lease(pinned);
    });
  }

  /**
   * Files created or deleted on disk since the last sync: announced (deletions of known documents
   * through their refresh). Returns the files this query should open, at most
   * {@linkcode MAX_CREATED_OPEN}: the new ones, and the closed ones the events say were edited.
   */
  async #scanFileSet(changes: Changes, noticed: ReadonlySet<string> | null): Promise<string[]> {
    if (!this.#fileSet) return [];
    const { created, deleted } = noticed === null
      ? this.#fileSet.scan()
      : this.#fileSet.rescan(noticed);
    const edited: string[] = [];
    if (noticed !== null) {
      // Files the server reads from disk itself, changed since the last query: announced now,
      // before the request, and opened for this query (an announcement is taken in later by
      // some servers: TypeScript 7 answered from the old text after it).
      const fresh = new Set(created);
      for (const relPath of noticed) {
        if (this.#docs.has(relPath) || fresh.has(relPath) || !this.#fileSet.has(relPath)) continue;
        changes.push({ uri: this.uriOf(relPath), type: FileChangeType.Changed });
        edited.push(relPath);
      }
    }
    for (const relPath of deleted) {
      const doc = this.#docs.get(relPath);
      if (doc) await this.#refresh(doc, changes);
      else changes.push({ uri: this.uriOf(relPath), type: FileChangeType.Deleted });
    }
    for (const relPath of created) {
      changes.push({ uri: this.uriOf(relPath), type: FileChangeType.Created });
    }
    const opening = [...created, ...edited];
    return opening.length <= MAX_CREATED_OPEN ? opening : [];
  }

  /** Our own tools wrote these files: send the new content (or the deletion) now. */
  changed(relPaths: readonly string[]): Promise<void> {
    return this.#serialized(async () => {
      const changes: Changes = [];
      for (const relPath of relPaths) {
        const doc = this.#docs.get(relPath);
        if (doc) await this.#refresh(doc, changes, true);
        else if (await exists(join(this.#root, relPath))) {
          changes.push({ uri: this.uriOf(relPath), type: FileChangeType.Created });
        } else {
          changes.push({ uri: this.uriOf(relPath), type: FileChangeType.Deleted });
        }
      }
      await this.#announce(changes);
    });
  }

  /**
   * Files or folders moved (by our own tools): a document at an old path is closed and, if it
   * was open, opened again at its new path; the server hears of the deletions and creations.
   */
  moved(moves: ReadonlyArray<{ from: string; to: string }>): Promise<void> {
    return this.#serialized(async () => {
      const changes: Changes = [];
      const reopen: string[] = [];
      for (const doc of [...this.#docs.values()]) {
        const to = moves.map((m) => movedRel(doc.relPath, m.from, m.to)).find((p) => p !== null);
        if (to === undefined || to === null) continue;
        const wasOpen = doc.open;
        if (doc.open) await this.#close(doc);
        this.#docs.delete(doc.relPath);
        changes.push({ uri: doc.uri, type: FileChangeType.Deleted });
        changes.push({ uri: this.uriOf(to), type: FileChangeType.Created });
        if (wasOpen && doc.pins === 0) reopen.push(to);
      }
      for (const move of moves) {
        if (changes.some((c) => c.uri === this.uriOf(move.to))) continue;
        changes.push({ uri: this.uriOf(move.from), type: FileChangeType.Deleted });
        changes.push({ uri: this.uriOf(move.to), type: FileChangeType.Created });
      }
      await this.#announce(changes);
      for (const relPath of reopen) {
        try {
          await this.#open(relPath, [], false);
        } catch { /* gone again meanwhile: nothing to reopen */ }
      }
    });
  }

  /** Close every document (before a server is stopped, or to drop state). */
  closeAll(): Promise<void> {
    return this.#serialized(async () => {
      for (const doc of this.#docs.values()) {
        if (doc.open) await this.#close(doc);
      }
      this.#docs.clear();
      this.#openUris.clear();
    });
  }

  #lease(docs: DocState[]): Lease {
    let released = false;
    return {
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        return this.#serialized(() => this.#unpin(docs));
      },
    };
  }

  /** Unpin documents; close and forget transient ones nobody uses any more. */
  async #unpin(docs: readonly DocState[]): Promise<void> {
    for (const doc of docs) {
      doc.pins--;
      if (doc.pins > 0 || !doc.transient || this.#docs.get(doc.relPath) !== doc) continue;
      if (doc.open) await this.#close(doc);
      this.#docs.delete(doc.relPath);
    }
  }

  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * {@linkcode #open}'s answer for an open watched document the watcher did not name, decided
   * without an await (a warm question's documents are these: no promise each); else null.
   */
  #openAndUnchanged(
    relPath: string,
    transient: boolean,
    noticed: ReadonlySet<string> | null,
  ): DocState | null {
    const existing = this.#docs.get(relPath);
    if (!existing?.open || noticed === null || !existing.watched || touches(noticed, relPath)) {
      return null;
    }
    existing.lastUsed = ++this.#clock;
    if (!transient) existing.transient = false;
    return existing;
  }

  /**
   * Open a document, or check an open one with disk; `noticed`: the paths changed since the
   * last sync, when the watcher vouches for them (a watched document is checked only if named).
   */
  async #open(
    relPath: string,
    changes: Changes,
    transient: boolean,
    noticed: ReadonlySet<string> | null = null,
  ): Promise<DocState> {
    const existing = this.#docs.get(relPath);
    if (existing?.open) {
      existing.lastUsed = ++this.#clock;
      // Asked for by a lasting query: it stays open like any other document.
      if (!transient) existing.transient = false;
      if (noticed === null || !existing.watched) await this.#refresh(existing, changes);
      else if (touches(noticed, relPath)) await this.#refresh(existing, changes, true);
      if (!this.#docs.has(relPath)) {
        throw new ToolError(`File '${relPath}' does not exist (it was deleted).`);
      }
      return existing;
    }
    const abs = join(this.#root, relPath);
    const read = readState(abs, false);
    if (!read) throw new ToolError(`File '${relPath}' does not exist.`);
    const doc: DocState = existing ?? {
      uri: this.uriOf(relPath),
      relPath,
      abs,
      languageId: this.#languageId(relPath),
      version: 0,
      hash: "",
      hashing: null,
      mtime: 0,
      size: 0,
      open: false,
      lastUsed: 0,
      pins: 0,
      transient,
      watched: false,
    };
    // A closed document we knew is opened by this query: it is the query's to close if transient.
    if (existing) existing.transient = transient;
    doc.version = ++this.#versions;
    doc.hash = "";
    const hashing: Promise<void> = sha1HexAsync(read.bytes).then((hash) => {
      if (doc.hashing === hashing) doc.hash = hash;
    }).catch(() => {/* left "": the next check with disk sends the content again */}).finally(
      () => {
        if (doc.hashing === hashing) doc.hashing = null;
      },
    );
    doc.hashing = hashing;
    doc.mtime = read.mtime;
    doc.size = read.size;
    doc.watched = this.#watchable(doc, read.nlink);
    doc.open = true;
    this.#openUris.add(doc.uri);
    doc.lastUsed = ++this.#clock;
    this.#docs.set(relPath, doc);
    await this.#server.notify("textDocument/didOpen", {
      textDocument: {
        uri: doc.uri,
        languageId: doc.languageId,
        version: doc.version,
        text: this.#decoder.decode(read.bytes),
      },
    });
    return doc;
  }

  /**
   * Whether a document's size and mtime are those we last read, and old enough to be trusted
   * (see {@linkcode RACY_MS}); false when it changed or is gone ({@linkcode #refresh} tells).
   * Synchronous on purpose: ~4 µs against ~30 µs for an async stat, and it runs per document.
   */
  #unchanged(doc: DocState, now: number): boolean {
    let stat: Deno.FileInfo;
    try {
      stat = Deno.statSync(doc.abs);
    } catch {
      return false;
    }
    const mtime = stat.mtime?.getTime() ?? 0;
    return now - mtime >= RACY_MS && mtime === doc.mtime && stat.size === doc.size;
  }

  /**
   * Whether the watcher reports every change of this document: its path is its real path (no
   * link on the way out of the watched tree), it has no other name (a hard link written through
   * one reports no event of the other), and it is in no folder whose events are dropped.
   */
  #watchable(doc: DocState, nlink: number | null): boolean {
    if (this.#noticed === null || nlink !== 1 || !isNoticed(doc.relPath)) return false;
    try {
      return Deno.realPathSync(doc.abs) === doc.abs;
    } catch {
      return false;
    }
  }

  /** Compare a known document with disk and tell the server what changed. */
  async #refresh(doc: DocState, changes: Changes, force = false): Promise<void> {
    const abs = doc.abs;
    let stat: Deno.FileInfo;
    try {
      stat = Deno.statSync(abs);
    } catch {
      if (doc.open) await this.#close(doc);
      this.#docs.delete(doc.relPath);
      changes.push({ uri: doc.uri, type: FileChangeType.Deleted });
      return;
    }
    const mtime = stat.mtime?.getTime() ?? 0;
    const racy = Date.now() - mtime < RACY_MS;
    if (!force && !racy && mtime === doc.mtime && stat.size === doc.size) return;
    const read = readState(abs, true);
    if (!read) return;
    doc.mtime = read.mtime;
    doc.size = read.size;
    doc.watched = this.#watchable(doc, read.nlink);
    if (doc.hashing) await doc.hashing;
    if (read.hash === doc.hash) return;
    doc.hash = read.hash;
    doc.hashing = null;
    if (!doc.open) {
      changes.push({ uri: doc.uri, type: FileChangeType.Changed });
      return;
    }
    doc.version = ++this.#versions;
    await this.#server.notify("textDocument/didChange", {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text: this.#decoder.decode(read.bytes) }],
    });
    changes.push({ uri: doc.uri, type: FileChangeType.Changed });
  }

  async #close(doc: DocState): Promise<void> {
    doc.open = false;
    this.#openUris.delete(doc.uri);
    await this.#server.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
    this.#onClose(doc.uri);
  }

  async #announce(changes: Changes): Promise<void> {
    if (changes.length === 0) return;
    await this.#server.notify("workspace/didChangeWatchedFiles", { changes });
  }

  /** Close the least recently used unpinned documents and forget the oldest closed ones. */
  async #trim(): Promise<void> {
    const closed = this.#docs.size - this.#openUris.size;
    if (this.#openUris.size <= MAX_OPEN && closed <= MAX_KNOWN_CLOSED) return;
    const docs = [...this.#docs.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const doc of docs) {
      if (this.#openUris.size <= MAX_OPEN) break;
      if (!doc.open || doc.pins > 0) continue;
      await this.#close(doc);
      // Closed for room, not for a query: a transient one is simply forgotten now.
      if (doc.transient) this.#docs.delete(doc.relPath);
    }
    let excess = this.#docs.size - this.#openUris.size - MAX_KNOWN_CLOSED;
    for (const doc of docs) {
      if (excess <= 0) break;
      if (!doc.open && this.#docs.get(doc.relPath) === doc) {
        this.#docs.delete(doc.relPath);
        excess--;
      }
    }
  }
}

/**
 * Size, mtime, content and, where asked, its hash ("" otherwise). Synchronous: for source files
 * a synchronous stat and read take ~15 µs where the async calls take ~120 µs (three hops to the
 * thread pool), and this runs for every document a query opens.
 */
function readState(
  abs: string,
  hashed: boolean,
): { bytes: Uint8Array; hash: string; mtime: number; size: number; nlink: number | null } | null {
  try {
    const stat = Deno.statSync(abs);
    if (!stat.isFile) return null;
    const bytes = Deno.readFileSync(abs);
    const hash = hashed ? sha1Hex(bytes) : "";
    return {
      bytes,
      hash,
      mtime: stat.mtime?.getTime() ?? 0,
      size: bytes.length,
      nlink: stat.nlink,
    };
  } catch {
    return null;
  }
}

async function exists(abs: string): Promise<boolean> {
  try {
    await Deno.stat(abs);
    return true;
  } catch {
    return false;
  }
}

function makeDecoder(encoding: string | undefined): TextDecoder {
  try {
    return new TextDecoder(encoding ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/** `relPath` after moving `from` to `to` (the path itself or below it), else null. */
function movedRel(relPath: string, from: string, to: string): string | null {
  if (relPath === from) return to;
  return relPath.startsWith(from + "/") ? to + relPath.slice(from.length) : null;
}
