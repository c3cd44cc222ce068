/**
 * The import-path edits a move of a Go package folder needs: gopls offers no
 * `workspace/willRenameFiles`, so Sextant rewrites them itself. A package's import path is its
 * module's path (from the nearest `go.mod` above it) and its folder below the module's root;
 * moving the folder changes the path of that package and of every package below it, in every
 * `.go` file of the project that imports them, the moved package's own files and tests included.
 *
 * The package clause stays: the package keeps its name (Go allows a name that differs from the
 * folder), so code that uses it as `doc.X` still compiles. A move that changes which module a
 * package belongs to, or that moves one `.go` file into another folder (its declarations would
 * change package), is refused with the reason; a folder with its own `go.mod` moves whole, and
 * no import path changes.
 * @module
 */
import { posix } from "node:path";
import type { Project } from "../../project/project.ts";
import { goImportSpecs } from "./import_lines.ts";
import {
  filesWithExtensions,
  type ImportEdit,
  type ImportMovePlan,
  type PathMove,
  readOrNull,
} from "./move_edits.ts";

/** A Go module: the folder of its go.mod (project-relative, "" for the root) and its path. */
interface GoModule {
  dir: string;
  path: string;
}

/** The module path a go.mod declares (`module example.com/x`), or null. */
export function goModulePath(goMod: string): string | null {
  const match = /^\s*module\s+"?([^\s"/][^\s"]*)"?/m.exec(goMod.replace(/\/\/[^\n]*/g, ""));
  return match?.[1] ?? null;
}

/** The nearest go.mod at or above project-relative folder `dir` (within the project). */
async function moduleOf(project: Project, dir: string): Promise<GoModule | null> {
  let at = dir === "." ? "" : dir;
  for (;;) {
    const text = await readOrNull(project, at === "" ? "go.mod" : `${at}/go.mod`);
    const path = text === null ? null : goModulePath(text);
    if (path !== null) return { dir: at, path };
    if (at === "") return null;
    const up = posix.dirname(at);
    at = up === "." ? "" : up;
  }
}

function importPathOf(module: GoModule, relDir: string): string {
  return relDir === module.dir
    ? module.path
    : `${module.path}/${module.dir === "" ? relDir : relDir.slice(module.dir.length + 1)}`;
}

/** The import-path edits for moving `move` (a Go file or folder), or why it cannot follow. */
export async function goImportMoves(
  project: Project,
  move: PathMove,
  signal?: AbortSignal,
): Promise<ImportMovePlan> {
  if (!move.folder) {
    if (posix.dirname(move.from) === posix.dirname(move.to)) return { edits: [] };
    return {
      edits: [],
      problem: `'${move.from}' belongs to the Go package of its folder; moving it to another ` +
        "folder moves its declarations into another package, and their uses would not follow " +
        "(Sextant moves whole package folders).",
    };
  }
  // A module moves whole: the paths it declares do not change.
  if ((await readOrNull(project, `${move.from}/go.mod`)) !== null) return { edits: [] };
  const source = await moduleOf(project, posix.dirname(move.from));
  if (source === null) return { edits: [] };
  const target = await moduleOf(project, posix.dirname(move.to));
  if (target === null || target.dir !== source.dir) {
    return {
      edits: [],
      problem: `Moving '${move.from}' to '${move.to}' takes its Go packages out of module ` +
        `'${source.path}'${target ? ` into '${target.path}'` : ""}; Sextant does not rewrite ` +
        "imports across modules.",
    };
  }
  const oldPath = importPathOf(source, move.from);
  const newPath = importPathOf(source, move.to);
  const edits: ImportEdit[] = [];
  const candidates: string[] = [];
  for (const relPath of await filesWithExtensions(project, [".go"], signal)) {
    const text = await readOrNull(project, relPath);
    if (text === null || !text.includes(oldPath)) continue;
    candidates.push(relPath);
    edits.push(...importPathEdits(relPath, text, oldPath, newPath));
  }
  return { edits, candidates };
}

/** The edits turning imports of `oldPath` (and the packages below it) into `newPath`. */
export function importPathEdits(
  relPath: string,
  text: string,
  oldPath: string,
  newPath: string,
): ImportEdit[] {
  const lines = text.split("\n");
  const edits: ImportEdit[] = [];
  for (const { spec, line } of goImportSpecs(text)) {
    if (spec !== oldPath && !spec.startsWith(oldPath + "/")) continue;
    const lineText = lines[line - 1] ?? "";
    const at = lineText.indexOf(`"${spec}"`);
    if (at < 0) continue;
    edits.push({
      relPath,
      line: line - 1,
      character: at + 1,
      oldText: spec,
      newText: newPath + spec.slice(oldPath.length),
    });
  }
  return edits;
}
