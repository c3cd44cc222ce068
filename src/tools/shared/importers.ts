/**
 * Which source files import a file or folder, read from their import lines (`import ... from`,
 * `require`, Python's `import`/`from`, Rust's `mod`/`use`, C's `#include`, Go's `import`). Used
 * where no language server says it: what a move without server support breaks, and which
 * callers to re-check after an edit. A file's import lines are kept per size and mtime, so a
 * warm project is re-read only where files changed.
 * @module
 */
import { basename, dirname, extname, join, normalize } from "node:path";
import type { Project } from "../../project/project.ts";

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

const scans = new Map<string, Map<string, Scanned>>();

const IMPORT_LINE =
  /(?:\bfrom\s*['"]([^'"]+)['"])|(?:\bimport\s*\(?\s*['"]([^'"]+)['"])|(?:\brequire\(\s*['"]([^'"]+)['"])|(?:^\s*from\s+([\w.]+)\s+import\b)|(?:^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*))|(?:^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;)|(?:^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([\w:]+))|(?:^\s*#\s*include\s*["<]([^">]+)[">])/;

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

function scan(text: string | null, mtime: number, size: number): Scanned {
  const imports: Scanned["imports"] = [];
  if (text !== null) {
    const lines = text.split("\n");
    for (const [i, line] of lines.entries()) {
      const m = IMPORT_LINE.exec(line);
      if (!m) continue;
      const spec = m.slice(1).find((g) => g !== undefined);
      if (spec) imports.push({ spec: spec.trim(), line: i + 1, text: line.trim() });
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

/**
 * The import lines of project source files (those `include` accepts) that may name one of
 * `targets` (project-relative files or folders), excluding the targets themselves. At most
 * `limit` sites; stops early past `deadline` (a `performance.now()` value).
 */
export async function findImporters(
  project: Project,
  targets: ReadonlyArray<{ relPath: string; folder: boolean }>,
  include: (relPath: string) => boolean,
  options: { limit?: number; deadline?: number; signal?: AbortSignal } = {},
): Promise<ImportSite[]> {
  const limit = options.limit ?? 200;
  let cache = scans.get(project.root);
  if (!cache) scans.set(project.root, cache = new Map());
  const names = targets.map((t) => t.folder ? basename(t.relPath) : moduleName(t.relPath));
  const out: ImportSite[] = [];
  const seen = new Set<string>();
  for await (const entry of project.walk(".", { signal: options.signal })) {
    if (entry.isDirectory || !include(entry.path)) continue;
    if (targets.some((t) => t.relPath === entry.path || entry.path.startsWith(t.relPath + "/"))) {
      continue;
    }
    if (options.deadline !== undefined && performance.now() > options.deadline) break;
    const abs = project.absolute(entry.path);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(abs);
    } catch {
      continue;
    }
    const mtime = info.mtime?.getTime() ?? 0;
    let scanned = cache.get(entry.path);
    if (!scanned || scanned.mtime !== mtime || scanned.size !== info.size) {
      let text: string | null = null;
      try {
        text = new TextDecoder().decode(Deno.readFileSync(abs));
      } catch { /* unreadable: no imports */ }
      scanned = scan(text, mtime, info.size);
      cache.set(entry.path, scanned);
    }
    for (const imp of scanned.imports) {
      if (!names.some((n) => imp.spec.includes(n))) continue;
      if (!targets.some((t) => refersTo(entry.path, imp.spec, t.relPath, t.folder))) continue;
      const key = `${entry.path}:${imp.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ relPath: entry.path, line: imp.line, text: imp.text });
      if (out.length >= limit) return out;
    }
  }
  return out;
}
