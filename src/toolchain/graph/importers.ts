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

/** A project's import lines per file, and when its files were last listed. */
interface ImportIndex {
  files: Map<string, Scanned>;
  /** `performance.now()` of the last full walk; -Infinity: never. */
  walkedAt: number;
  walking: Promise<void> | null;
}

const indexes = new Map<string, ImportIndex>();

/** How old the file list may get before a walk refreshes it (in the background). */
const REWALK_MS = 10_000;

function indexOf(project: Project): ImportIndex {
  let index = indexes.get(project.root);
  if (!index) {
    indexes.set(project.root, index = { files: new Map(), walkedAt: -Infinity, walking: null });
  }
  return index;
}

/** Files read at once by a walk. */
const WALK_CONCURRENCY = 16;

/** Whether a file's import lines must be read again (new, or its size or mtime changed). */
function stale(index: ImportIndex, relPath: string, info: Deno.FileInfo): boolean {
  const known = index.files.get(relPath);
  return !known || known.mtime !== (info.mtime?.getTime() ?? 0) || known.size !== info.size;
}

function scanBytes(relPath: string, bytes: Uint8Array | null, info: Deno.FileInfo): Scanned {
  const text = bytes !== null && IMPORTING_EXTENSIONS.has(extname(relPath).toLowerCase())
    ? new TextDecoder().decode(bytes)
    : null;
  return scan(relPath, text, info.mtime?.getTime() ?? 0, info.size);
}

/**
 * Read a file's import lines again when its size or mtime changed (or drop a missing file).
 * Synchronous: for the few files our own writes just changed.
 */
function rescan(project: Project, index: ImportIndex, relPath: string): void {
  const abs = project.absolute(relPath);
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(abs);
  } catch {
    index.files.delete(relPath);
    return;
  }
  if (!stale(index, relPath, info)) return;
  let bytes: Uint8Array | null = null;
  if (IMPORTING_EXTENSIONS.has(extname(relPath).toLowerCase())) {
    try {
      bytes = Deno.readFileSync(abs);
    } catch { /* unreadable: no imports */ }
  }
  index.files.set(relPath, scanBytes(relPath, bytes, info));
}

/** {@linkcode rescan} without blocking: a walk of a large tree must not stall other calls. */
async function rescanAsync(project: Project, index: ImportIndex, relPath: string): Promise<void> {
  const abs = project.absolute(relPath);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(abs);
  } catch {
    index.files.delete(relPath);
    return;
  }
  if (!stale(index, relPath, info)) return;
  let bytes: Uint8Array | null = null;
  if (IMPORTING_EXTENSIONS.has(extname(relPath).toLowerCase())) {
    try {
      bytes = await Deno.readFile(abs);
    } catch { /* unreadable: no imports */ }
  }
  index.files.set(relPath, scanBytes(relPath, bytes, info));
}

/** List every file below the root again, scanning new and changed ones. */
async function walk(project: Project, index: ImportIndex, signal?: AbortSignal): Promise<void> {
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  for await (const entry of project.walk(".", signal ? { signal } : {})) {
    if (entry.isDirectory) continue;
    seen.add(entry.path);
    const p: Promise<void> = rescanAsync(project, index, entry.path).finally(() =>
      inFlight.delete(p)
    );
    inFlight.add(p);
    if (inFlight.size >= WALK_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  for (const relPath of [...index.files.keys()]) {
    if (!seen.has(relPath)) index.files.delete(relPath);
  }
  index.walkedAt = performance.now();
}

/**
 * Our own tools wrote or moved these project-relative paths: their import lines are current at
 * once (outside changes are found by the next walk, at most {@linkcode REWALK_MS} later).
 */
export function importsChanged(project: Project, relPaths: readonly string[], moved = false): void {
  const index = indexes.get(project.root);
  if (!index) return;
  if (moved) index.walkedAt = -Infinity;
  for (const relPath of relPaths) rescan(project, index, relPath);
}

/**
 * The import lines of project source files (those `include` accepts) that may name one of
 * `targets` (project-relative files or folders), excluding the targets themselves. The files
 * are listed once and kept (refreshed in the background when older than a few seconds, and at
 * once for our own writes); at most `limit` sites.
 */
export async function findImporters(
  project: Project,
  targets: ReadonlyArray<{ relPath: string; folder: boolean }>,
  include: (relPath: string) => boolean,
  options: { limit?: number; fresh?: boolean; signal?: AbortSignal } = {},
): Promise<ImportSite[]> {
  const limit = options.limit ?? 200;
  const index = indexOf(project);
  const age = performance.now() - index.walkedAt;
  if (options.fresh || index.walkedAt === -Infinity) {
    await walk(project, index, options.signal);
  } else if (age > REWALK_MS && !index.walking) {
    index.walking = walk(project, index).catch(() => {}).finally(() => {
      index.walking = null;
    });
  }
  const names = targets.map((t) => t.folder ? basename(t.relPath) : moduleName(t.relPath));
  const out: ImportSite[] = [];
  for (const [relPath, scanned] of index.files) {
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

function sortSites(sites: ImportSite[]): ImportSite[] {
  return sites.sort((a, b) =>
    a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : a.line - b.line
  );
}
