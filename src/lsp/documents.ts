/**
 * Document sync (engine rule 2): disk is the truth. Before a query every file it depends on is
 * opened with a version, re-sent (`didChange`, full text) when its content changed since we last
 * sent it, and files we know that changed on disk are announced with
 * `workspace/didChangeWatchedFiles`. One instance per server process.
 * @module
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolError } from "../errors.ts";

/** The part of the client this module needs. */
export interface Notifier {
  notify(method: string, params: unknown): Promise<void>;
}

interface DocState {
  uri: string;
  relPath: string;
  languageId: string;
  /** Last version sent (0 when never opened). */
  version: number;
  hash: string;
  mtime: number;
  size: number;
  open: boolean;
  lastUsed: number;
}

/** Open documents kept at most; the least recently used are closed beyond this. */
const MAX_OPEN = 100;
/** Closed documents we still watch for outside changes. */
const MAX_KNOWN_CLOSED = 300;
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

export class DocumentSync {
  readonly #docs = new Map<string, DocState>();
  readonly #root: string;
  readonly #server: Notifier;
  readonly #languageId: (relPath: string) => string;
  readonly #decoder: TextDecoder;
  #queue: Promise<unknown> = Promise.resolve();
  #clock = 0;

  constructor(options: {
    root: string;
    server: Notifier;
    languageId: (relPath: string) => string;
    encoding?: string;
  }) {
    this.#root = options.root;
    this.#server = options.server;
    this.#languageId = options.languageId;
    this.#decoder = makeDecoder(options.encoding);
  }

  /** `file://` URI of a project-relative path. */
  uriOf(relPath: string): string {
    return pathToFileURL(join(this.#root, relPath)).href;
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

  /**
   * Make the server's view of `relPaths` match disk (opening them), and re-check every other
   * document we know for changes made outside Sextant.
   */
  sync(relPaths: readonly string[]): Promise<void> {
    return this.#serialized(async () => {
      const wanted = new Set(relPaths);
      const watched: Array<{ uri: string; type: FileChangeType }> = [];
      for (const doc of [...this.#docs.values()]) {
        if (!wanted.has(doc.relPath)) await this.#refresh(doc, watched);
      }
      for (const relPath of wanted) await this.#open(relPath, watched);
      await this.#announce(watched);
      await this.#trim();
    });
  }

  /** Our own tools wrote these files: send the new content (or the deletion) now. */
  changed(relPaths: readonly string[]): Promise<void> {
    return this.#serialized(async () => {
      const watched: Array<{ uri: string; type: FileChangeType }> = [];
      for (const relPath of relPaths) {
        const doc = this.#docs.get(relPath);
        if (doc) await this.#refresh(doc, watched, true);
        else if (await exists(join(this.#root, relPath))) {
          watched.push({ uri: this.uriOf(relPath), type: FileChangeType.Created });
        } else {
          watched.push({ uri: this.uriOf(relPath), type: FileChangeType.Deleted });
        }
      }
      await this.#announce(watched);
    });
  }

  /** Close every document (before a server is stopped, or to drop state). */
  closeAll(): Promise<void> {
    return this.#serialized(async () => {
      for (const doc of this.#docs.values()) {
        if (doc.open) await this.#close(doc);
      }
      this.#docs.clear();
    });
  }

  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => {});
    return next;
  }

  async #open(relPath: string, watched: Array<{ uri: string; type: FileChangeType }>) {
    const existing = this.#docs.get(relPath);
    if (existing?.open) {
      existing.lastUsed = ++this.#clock;
      await this.#refresh(existing, watched);
      if (!this.#docs.has(relPath)) {
        throw new ToolError(`File '${relPath}' does not exist (it was deleted).`);
      }
      return;
    }
    const abs = join(this.#root, relPath);
    const read = await readState(abs);
    if (!read) throw new ToolError(`File '${relPath}' does not exist.`);
    const doc: DocState = existing ?? {
      uri: this.uriOf(relPath),
      relPath,
      languageId: this.#languageId(relPath),
      version: 0,
      hash: "",
      mtime: 0,
      size: 0,
      open: false,
      lastUsed: 0,
    };
    doc.version++;
    doc.hash = read.hash;
    doc.mtime = read.mtime;
    doc.size = read.size;
    doc.open = true;
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
  }

  /** Compare a known document with disk and tell the server what changed. */
  async #refresh(
    doc: DocState,
    watched: Array<{ uri: string; type: FileChangeType }>,
    force = false,
  ): Promise<void> {
    const abs = join(this.#root, doc.relPath);
    let stat: Deno.FileInfo;
    try {
      stat = await Deno.stat(abs);
    } catch {
      if (doc.open) await this.#close(doc);
      this.#docs.delete(doc.relPath);
      watched.push({ uri: doc.uri, type: FileChangeType.Deleted });
      return;
    }
    const mtime = stat.mtime?.getTime() ?? 0;
    const racy = Date.now() - mtime < RACY_MS;
    if (!force && !racy && mtime === doc.mtime && stat.size === doc.size) return;
    const read = await readState(abs);
    if (!read) return;
    doc.mtime = read.mtime;
    doc.size = read.size;
    if (read.hash === doc.hash) return;
    doc.hash = read.hash;
    if (!doc.open) {
      watched.push({ uri: doc.uri, type: FileChangeType.Changed });
      return;
    }
    doc.version++;
    await this.#server.notify("textDocument/didChange", {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text: this.#decoder.decode(read.bytes) }],
    });
    watched.push({ uri: doc.uri, type: FileChangeType.Changed });
  }

  async #close(doc: DocState): Promise<void> {
    doc.open = false;
    await this.#server.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
  }

  async #announce(changes: Array<{ uri: string; type: FileChangeType }>): Promise<void> {
    if (changes.length === 0) return;
    await this.#server.notify("workspace/didChangeWatchedFiles", { changes });
  }

  /** Close the least recently used documents and forget the oldest closed ones. */
  async #trim(): Promise<void> {
    const docs = [...this.#docs.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    let open = docs.filter((d) => d.open).length;
    for (const doc of docs) {
      if (open <= MAX_OPEN) break;
      if (doc.open) {
        await this.#close(doc);
        open--;
      }
    }
    let closed = docs.filter((d) => !d.open).length;
    for (const doc of docs) {
      if (closed <= MAX_KNOWN_CLOSED) break;
      if (!doc.open) {
        this.#docs.delete(doc.relPath);
        closed--;
      }
    }
  }
}

async function readState(
  abs: string,
): Promise<{ bytes: Uint8Array; hash: string; mtime: number; size: number } | null> {
  try {
    const stat = await Deno.stat(abs);
    if (!stat.isFile) return null;
    const bytes = await Deno.readFile(abs);
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(
      "",
    );
    return { bytes, hash, mtime: stat.mtime?.getTime() ?? 0, size: bytes.length };
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
