/**
 * The lines of manifests, configs and build files that name a moved path: `package.json`
 * `exports`/`main`/`types`, `tsconfig` `paths`/`files`/`include`, `jsr.json`/`deno.json` exports,
 * `pyproject.toml`, `Cargo.toml`, `go.mod` `replace`, Makefiles and other build files. No language
 * server checks them, so a move cannot prove them: rename_file lists them as not updated rather than
 * rewrite what it cannot check (a glob, a published entry point, a path that means something else
 * to the tool that reads it), leaving out lines a server's own edits change (tsserver's of a
 * tsconfig).
 *
 * A path is looked for as the file reads it: relative to the file's folder (`./src/a.ts`), or, in
 * CI workflows, to the project root; a Python module also by its dotted name in Python's own
 * project files.
 * @module
 */
import { posix } from "node:path";
import type { Project } from "../../project/project.ts";
import { type PathMove, readOrNull } from "./move_edits.ts";

/** One line that names the moved path. */
export interface PathMention {
  relPath: string;
  /** 1-based. */
  line: number;
  text: string;
}

const NAMED = new Set([
  "package.json",
  "jsr.json",
  "jsr.jsonc",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "setup.cfg",
  "setup.py",
  "tox.ini",
  "MANIFEST.in",
  "Cargo.toml",
  "go.mod",
  "go.work",
  "Makefile",
  "makefile",
  "GNUmakefile",
  "CMakeLists.txt",
  "meson.build",
  "BUILD",
  "BUILD.bazel",
  "WORKSPACE",
  "Dockerfile",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "pom.xml",
  "justfile",
  "Justfile",
  "alire.toml",
]);

/** Build and tool configs named by pattern (`tsconfig.build.json`, `vite.config.ts`, ...). */
const PATTERNS = [
  /^[tj]sconfig(\..+)?\.jsonc?$/,
  /^(vite|vitest|webpack|rollup|jest|tsup|esbuild|babel)\.config\.[cm]?[jt]s$/,
  /\.(mk|cmake|bzl|gpr)$/,
];

const PYTHON_PROJECT_FILES = new Set(["pyproject.toml", "setup.cfg", "setup.py", "tox.ini"]);

/** Whether a file is a manifest, config or build file whose paths are looked at. */
export function namesPaths(relPath: string): boolean {
  const name = posix.basename(relPath);
  if (NAMED.has(name) || PATTERNS.some((p) => p.test(name))) return true;
  return /^\.github\/workflows\/[^/]+\.ya?ml$/.test(relPath);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The patterns that find the moved path (or one of `modules`) in `relPath`'s text. */
function patternsFor(relPath: string, move: PathMove, modules: readonly string[]): RegExp[] {
  const base = relPath.startsWith(".github/") ? "" : posix.dirname(relPath);
  const path = base === "." || base === "" ? move.from : posix.relative(base, move.from);
  // A path inside a longer one (`dist/src/a.ts`, `src/a.tsx`) is another path.
  const after = move.folder ? String.raw`(?![\w.-])` : String.raw`(?![\w./-])`;
  const out = [new RegExp(String.raw`(?<![\w.@/-])(?:\./)?${escape(path)}${after}`)];
  if (PYTHON_PROJECT_FILES.has(posix.basename(relPath))) {
    for (const module of modules.filter((m) => m.includes("."))) {
      out.push(new RegExp(String.raw`(?<![\w.])${escape(module)}(?![\w])`));
    }
  }
  return out;
}

/**
 * Every line of the project's manifests, configs and build files that names `move.from`, or, in
 * Python's project files, one of `modules` (the moved module's dotted names).
 */
export async function pathMentions(
  project: Project,
  move: PathMove,
  modules: readonly string[] = [],
  signal?: AbortSignal,
): Promise<PathMention[]> {
  const out: PathMention[] = [];
  for await (const entry of project.walk(".", signal ? { signal } : {})) {
    if (entry.isDirectory || !namesPaths(entry.path)) continue;
    if (entry.path === move.from || entry.path.startsWith(move.from + "/")) continue;
    const text = await readOrNull(project, entry.path);
    if (text === null) continue;
    const patterns = patternsFor(entry.path, move, modules);
    const lines = text.split("\n");
    for (const [i, line] of lines.entries()) {
      if (!patterns.some((p) => p.test(line))) continue;
      const trimmed = line.trim();
      out.push({
        relPath: entry.path,
        line: i + 1,
        text: trimmed.length > 120 ? trimmed.slice(0, 117) + "..." : trimmed,
      });
    }
  }
  return out;
}
