/**
 * What a move of a file or folder is, and the import edits Sextant plans for it itself where no
 * language server computes them (go_package_moves.ts, python_import_moves.ts). Positions are
 * those of the files before the move, as a WorkspaceEdit's text edits are.
 * @module
 */
import { posix } from "node:path";
import type { Project } from "../../project/project.ts";

/** A move of a project-relative file or folder. */
export interface PathMove {
  from: string;
  to: string;
  folder: boolean;
}

/** One replacement in a file, at its place before the move (0-based line, UTF-16 character). */
export interface ImportEdit {
  relPath: string;
  line: number;
  character: number;
  oldText: string;
  newText: string;
}

/** What a planner decided: its edits, or why the move cannot be made complete. */
export interface ImportMovePlan {
  edits: ImportEdit[];
  /**
   * The files that mention the moved module at all (its name in their text), edited or not: the
   * ones a proof of the edits must look at, since a lexical reader may miss a form of import.
   */
  candidates?: string[];
  /**
   * Places in code that name the moved module but are not imports (a string such as
   * `mock.patch("a.b.f")`): no server checks them, so they are listed, not edited.
   */
  notUpdated?: Array<{ relPath: string; line: number; text: string }>;
  /** Set when the planner cannot make every import follow (the move then waits for force). */
  problem?: string;
}

/** Where a project-relative path ends up after `move` (itself when the move leaves it). */
export function movedPath(move: PathMove, relPath: string): string {
  if (relPath === move.from) return move.to;
  if (move.folder && relPath.startsWith(move.from + "/")) {
    return move.to + relPath.slice(move.from.length);
  }
  return relPath;
}

/** Whether `relPath` is the moved file or folder, or inside the moved folder. */
export function isMoved(move: PathMove, relPath: string): boolean {
  return movedPath(move, relPath) !== relPath;
}

/** The project's files with one of `extensions` (lower case, with the dot), in walk order. */
export async function filesWithExtensions(
  project: Project,
  extensions: readonly string[],
  signal?: AbortSignal,
): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of project.walk(".", signal ? { signal } : {})) {
    if (!entry.isDirectory && extensions.includes(posix.extname(entry.path).toLowerCase())) {
      out.push(entry.path);
    }
  }
  return out;
}

/** A file's text, or null when it cannot be read as UTF-8 text. */
export async function readOrNull(project: Project, relPath: string): Promise<string | null> {
  try {
    // Without the BOM: edit positions count from the first character, as the write path's do.
    return (await Deno.readTextFile(project.absolute(relPath))).replace(/^\uFEFF/, "");
  } catch {
    return null;
  }
}
