/**
 * Which source files import a file or folder, read from their import lines (import_lines.ts:
 * `import ... from`, `require`, Python's `import`/`from`, Rust's `mod`/`use`, C's `#include`,
 * Go's and Java's `import`). Other files (data, source maps, binaries) are listed but never read. Used
 * where no language server says it: what a move without server support breaks, and which
 * callers to re-check after an edit. A file's import lines are kept per size and mtime, so a
 * warm project is re-read only where files changed, and the list of files is kept between calls.
 *
 * It reads project files and knows no tool or session, so it lives below tools/, beside the
 * dependency graph (graph.ts), which reads the same import lines.
 * @module
 */
import { basename, dirname, extname, join, normalize } from "node:path";
import type { Project } from "../../project/project.ts";
import { IMPORTING_EXTENSIONS, importSpecs } from "./import_lines.ts";

/** One import of the target. */
export interface ImportSite {
  relPath: string;
  /** 1-based line. */
  line: number;
  text: string;
}

interface Scanned {
  mtime: number;
  size: number;
  imports: Array<{ spec: string; line: number; text: string }>;
}

const INDEX_STEMS = new Set(["index", "mod", "__init__", "lib", "main"]);

function withoutExtension(path: string): string {
  const ext = extname(path);
  return ext ? path.slice(0, -ext.length) : path;
}

/** The name an importer uses for a target: its stem, or its folder's name for index files. */
function moduleName(relPath: string): string {
  const stem = withoutExtension(basename(relPath));
  return INDEX_STEMS.has(stem) ? basename(dirname(relPath)) : stem;
}

function scan(relPath: string, text: string | null, mtime: number, size: number): Scanned {
  const imports: Scanned["imports"] = [];
  if (text !== null) {
    const lines = text.split("\n");
    for (const { spec, line } of importSpecs(relPath, text)) {
      if (spec.trim()) imports.push({ spec: spec.trim(), line, text: lines[line - 1]!.trim() });
    }
  }
  return { mtime, size, imports };
}

/** Whether import specifier `spec` in `importer` may name `target` (a file or folder). */
function refersTo(importer: string, spec: string, target: string, folder: boolean): boolean {
  if (spec.startsWith(".") && (spec.startsWith("./") || spec.startsWith("../"))) {
    const resolved = normalize(join(dirname(importer), spec)).split("\\").join("/");
    const bare = withoutExtension(target);
    if (folder) return resolved === target || resolved.startsWith(target + "/");
    return resolved === target || resolved === bare ||
      (INDEX_STEMS.has(basename(bare)) && resolved === dirname(target));
  }
  const segments = spec.split(/[/.:]+/).filter((s) => s !== "" && s !== "*");
  const name = folder ? basename(target) : moduleName(target);
  if (segments.includes(name)) return true;
  return segments.includes(withoutExtension(basename(target)));
}

/** How old the file list may get before a walk refreshes it (in the background). */
const REWALK_MS = 10_000;

/** Files read at once by a walk. */
const WALK_CONCURRENCY = 16;

/**
 * A project's import lines per file, and when its files were last listed: one per project, held
 * by its services (project_host.ts), so every session of the service shares it and nothing
 * outlives the project.
 */
export class ImportIndex {
  readonly #project: Project;
  readonly #files = new Map<string, Scanned>();
  /** `performance.now()` of the last full walk; -Infinity: never. */
  #walkedAt = -Infinity;
  #walking: Promise<void> | null = null;
  /** Nobody asked yet: nothing is kept, so a write has nothing to bring up to date. */
  #asked = false;

  constructor(project: Project) {
    this.#project = project;
  }

  /**
   * Our own tools wrote or moved these project-relative paths: their import lines are current at
   * once (outside changes are found by the next walk, at most {@linkcode REWALK_MS} later).
   */
  changed(relPaths: readonly string[], moved = false): void {
    if (!this.#asked) return;
    if (moved) this.#walkedAt = -Infinity;
    for (const relPath of relPaths) this.#rescan(relPath);
  }

  /**
   * The import lines of project source files (those `include` accepts) that may name one of
   * `targets` (project-relative files or folders), excluding the targets themselves. The files
   * are listed once and kept (refreshed in the background when older than a few seconds, and at
   * once for our own writes); at most `limit` sites.
   */
  async importersOf(
    targets: ReadonlyArray<{ relPath: string; folder: boolean }>,
    include: (relPath: string) => boolean,
    options: { limit?: number; fresh?: boolean; signal?: AbortSignal } = {},
  ): Promise<ImportSite[]> {
    this.#asked = true;
    const limit = options.limit ?? 200;
    const age = performance.now() - this.#walkedAt;
    if (options.fresh || this.#walkedAt === -Infinity) {
      await this.#walk(options.signal);
    } else if (age > REWALK_MS && !this.#walking) {
      this.#walking = this.#walk().catch(() => {}).finally(() => {
        this.#walking = null;
      });
    }
    const names = targets.map((t) => t.folder ? basename(t.relPath) : moduleName(t.relPath));
    const out: ImportSite[] = [];
    for (const [relPath, scanned] of this.#files) {
      if (!include(relPath)) continue;
      if (targets.some((t) => t.relPath === relPath || relPath.startsWith(t.relPath + "/"))) {
        continue;
      }
      for (const imp of scanned.imports) {
        if (!names.some((n) => imp.spec.includes(n))) continue;
        if (!targets.some((t) => refersTo(relPath, imp.spec, t.relPath, t.folder))) continue;
        out.push({ relPath, line: imp.line, text: imp.text });
        if (out.length >= limit) return sortSites(out);
      }
    }
    return sortSites(out);
  }

  /** Whether a file's import lines must be read again (new, or its size or mtime changed). */
  #stale(relPath: string, info: Deno.FileInfo): boolean {
    const known = this.#files.get(relPath);
    return !known || known.mtime !== (info.mtime?.getTime() ?? 0) || known.size !== info.size;
  }

  /**
   * Read a file's import lines again when its size or mtime changed (or drop a missing file).
   * Synchronous: for the few files our own writes just changed.
   */
  #rescan(relPath: string): void {
    const abs = this.#project.absolute(relPath);
    const info = orNull(() => Deno.statSync(abs));
    if (this.#keep(relPath, info)) return;
    const bytes = importing(relPath) ? orNull(() => Deno.readFileSync(abs)) : null;
    this.#files.set(relPath, scanBytes(relPath, bytes, info!));
  }

  /** {@linkcode #rescan} without blocking: a walk of a large tree must not stall other calls. */
  async #rescanAsync(relPath: string): Promise<void> {
    const abs = this.#project.absolute(relPath);
    const info = await Deno.stat(abs).catch(() => null);
    if (this.#keep(relPath, info)) return;
    const bytes = importing(relPath) ? await Deno.readFile(abs).catch(() => null) : null;
    this.#files.set(relPath, scanBytes(relPath, bytes, info!));
  }

  /** Whether what is known of a file stands (true also when it is gone: then it is dropped). */
  #keep(relPath: string, info: Deno.FileInfo | null): boolean {
    if (info === null) {
      this.#files.delete(relPath);
      return true;
    }
    return !this.#stale(relPath, info);
  }

  /** List every file below the root again, scanning new and changed ones. */
  async #walk(signal?: AbortSignal): Promise<void> {
    const seen = new Set<string>();
    const inFlight = new Set<Promise<void>>();
    for await (const entry of this.#project.walk(".", signal ? { signal } : {})) {
      if (entry.isDirectory) continue;
      seen.add(entry.path);
      const p: Promise<void> = this.#rescanAsync(entry.path).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= WALK_CONCURRENCY) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    for (const relPath of [...this.#files.keys()]) {
      if (!seen.has(relPath)) this.#files.delete(relPath);
    }
    this.#walkedAt = performance.now();
  }
}

/** `read()`, or null when it throws (a file gone or unreadable has no import lines). */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** Whether Sextant reads a file's import lines (by its extension). */
function importing(relPath: string): boolean {
  return IMPORTING_EXTENSIONS.has(extname(relPath).toLowerCase());
}

function scanBytes(relPath: string, bytes: Uint8Array | null, info: Deno.FileInfo): Scanned {
  const text = bytes !== null && importing(relPath) ? new TextDecoder().decode(bytes) : null;
  return scan(relPath, text, info.mtime?.getTime() ?? 0, info.size);
}

function sortSites(sites: ImportSite[]): ImportSite[] {
  return sites.sort((a, b) =>
    a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : a.line - b.line
  );
}
