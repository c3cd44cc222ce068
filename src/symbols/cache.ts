/**
 * The persistent symbol cache of a project (ARCHITECTURE.md §5 rule 8): one file per language server in
 * `<root>/.sextant/cache/`, mapping project-relative paths to the content hash they were
 * computed for and the compact symbol tree. An entry is valid only for the same content hash and
 * server identity, so edits (ours or anyone's) invalidate it by themselves. Loaded lazily on
 * first use, saved atomically when something changed; a corrupt file is ignored and rebuilt.
 *
 * Format (JSON lines, small in memory: an entry stays a slice of the loaded text until used):
 * a header line `{"format":2,"server":"<identity>"}`, then one line per file:
 * `<relPath as JSON string>\t<hash>\t<compact symbols as JSON>`.
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "../edit/text_file.ts";
import { log } from "../log.ts";
import { sha1Hex } from "../sha.ts";
import type { CompactSymbol } from "./model.ts";
import { contentHash } from "./content_hash.ts";

/** Bump when the stored format or the meaning of its content changes. */
const FORMAT = 2;

interface CacheEntry {
  hash: string;
  /** The compact symbols as JSON text (parsed on use). */
  json: string;
}

/** The content key (content_hash.ts), here beside the cache it keys. */
export { contentHash };

/** {@linkcode contentHash} without awaiting (sha.ts): the same 40 hex digits. */
export function contentHashSync(bytes: Uint8Array): string {
  return sha1Hex(bytes);
}

/** The cache folder of a project root. */
export function cacheDir(root: string): string {
  return join(root, ".sextant", "cache");
}

/** Symbol trees of one project for one language server, persisted across sessions. */
export class SymbolCache {
  readonly path: string;
  readonly #dir: string;
  #server: string | null = null;
  #files = new Map<string, CacheEntry>();
  #loading: Promise<void> | null = null;
  #dirty = false;
  #saving: Promise<void> = Promise.resolve();

  /** `serverId` names the file (`symbols-<id>.json`); the full identity is set with identify. */
  constructor(root: string, serverId: string) {
    this.#dir = cacheDir(root);
    this.path = join(this.#dir, `symbols-${serverId.replace(/[^\w.-]/g, "_")}.json`);
  }

  /** Load the cache file once; later calls wait for the same load. */
  load(): Promise<void> {
    this.#loading ??= this.#load();
    return this.#loading;
  }

  async #load(): Promise<void> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch {
      return; // none yet
    }
    try {
      const headerEnd = text.indexOf("\n");
      const header = JSON.parse(headerEnd < 0 ? text : text.slice(0, headerEnd)) as {
        format?: number;
        server?: string;
      };
      if (header.format !== FORMAT || typeof header.server !== "string") return;
      const stored = new Map<string, CacheEntry>();
      let at = headerEnd + 1;
      while (headerEnd >= 0 && at < text.length) {
        let end = text.indexOf("\n", at);
        if (end < 0) end = text.length;
        const tab1 = text.indexOf("\t", at);
        const tab2 = tab1 < 0 ? -1 : text.indexOf("\t", tab1 + 1);
        if (tab1 < 0 || tab2 < 0 || tab2 > end) throw new Error(`bad line at offset ${at}`);
        const relPath = JSON.parse(text.slice(at, tab1)) as string;
        stored.set(relPath, { hash: text.slice(tab1 + 1, tab2), json: text.slice(tab2 + 1, end) });
        at = end + 1;
      }
      // Entries added before the load finished (none, normally) win over stored ones.
      for (const [k, v] of this.#files) stored.set(k, v);
      this.#files = stored;
      if (this.#server === null) this.#server = header.server;
      else if (this.#server !== header.server) this.#clear();
    } catch (error) {
      log.warn(`Ignoring unreadable symbol cache ${this.path}: ${(error as Error).message}`);
    }
  }

  /**
   * Declare the identity (server id, command, version) of the server whose answers are stored
   * from now on. Entries from a different identity are dropped.
   */
  identify(identity: string): void {
    if (this.#server !== null && this.#server !== identity) this.#clear();
    if (this.#server !== identity) {
      this.#server = identity;
      this.#dirty = true;
    }
  }

  /** The identity the stored entries belong to (null when empty and unidentified). */
  get identity(): string | null {
    return this.#server;
  }

  /** Number of files with an entry. */
  get size(): number {
    return this.#files.size;
  }

  #clear(): void {
    if (this.#files.size > 0) this.#dirty = true;
    this.#files.clear();
  }

  /**
   * The stored symbols of a file, when they were computed for this content hash. Throws on a
   * corrupt entry.
   */
  get(relPath: string, hash: string): CompactSymbol[] | undefined {
    const entry = this.#files.get(relPath);
    return entry && entry.hash === hash ? JSON.parse(entry.json) as CompactSymbol[] : undefined;
  }

  set(relPath: string, hash: string, symbols: CompactSymbol[]): void {
    this.#files.set(relPath, { hash, json: JSON.stringify(symbols) });
    this.#dirty = true;
  }

  /** A file or folder moved: its entries (same content) move with it. */
  move(from: string, to: string): void {
    for (const [relPath, entry] of [...this.#files]) {
      const moved = relPath === from
        ? to
        : relPath.startsWith(from + "/")
        ? to + relPath.slice(from.length)
        : null;
      if (moved === null) continue;
      this.#files.delete(relPath);
      this.#files.set(moved, entry);
      this.#dirty = true;
    }
  }

  /** Forget files for which `keep` says no (e.g. deleted files). */
  prune(keep: (relPath: string) => boolean): void {
    for (const relPath of [...this.#files.keys()]) {
      if (!keep(relPath)) {
        this.#files.delete(relPath);
        this.#dirty = true;
      }
    }
  }

  /** Write the cache atomically when it changed. Saves are serialized; failures are logged. */
  save(): Promise<void> {
    this.#saving = this.#saving.then(() => this.#save());
    return this.#saving;
  }

  async #save(): Promise<void> {
    if (!this.#dirty || this.#server === null) return;
    this.#dirty = false;
    const lines = [JSON.stringify({ format: FORMAT, server: this.#server })];
    for (const [relPath, entry] of this.#files) {
      lines.push(`${JSON.stringify(relPath)}\t${entry.hash}\t${entry.json}`);
    }
    try {
      await Deno.mkdir(this.#dir, { recursive: true });
      const ignoreFile = join(this.#dir, ".gitignore");
      try {
        await Deno.lstat(ignoreFile);
      } catch {
        await Deno.writeTextFile(ignoreFile, "# Sextant's caches; safe to delete.\n*\n");
      }
      await writeFileAtomic(this.path, new TextEncoder().encode(lines.join("\n") + "\n"));
    } catch (error) {
      this.#dirty = true;
      log.warn(`Could not save the symbol cache ${this.path}: ${(error as Error).message}`);
    }
  }
}
