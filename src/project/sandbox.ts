/**
 * The sandbox: every path from a tool argument goes through {@linkcode resolveInProject} before
 * any file is touched. It rejects NUL bytes, `..` escapes, absolute paths outside the root,
 * prefix siblings (`/root-evil` is not inside `/root`), and symlinks (of the file or of any
 * parent) that lead out of the root.
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "../errors.ts";

/** True when `child` is `parent` or lies below it (both absolute and normalized). */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export interface ResolveOptions {
  /** The path must exist (default true). When false, its nearest existing parent must resolve inside. */
  mustExist?: boolean;
}

export interface ResolvedPath {
  /** Absolute path as given (symlinks not resolved), inside the root. */
  absolute: string;
  /** Path relative to the root, with `/` separators; `.` for the root itself. */
  relative: string;
  /** The real path (symlinks resolved) of the file, or of the nearest existing parent joined with the rest. */
  real: string;
  exists: boolean;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

function isSymlink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false; // does not exist at all
  }
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realOfNearest(path: string): string | null {
  let current = path;
  const tail: string[] = [];
  while (true) {
    const real = realOrNull(current);
    if (real !== null) return join(real, ...tail);
    const up = dirname(current);
    if (up === current) return null;
    tail.unshift(basename(current));
    current = up;
  }
}

function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    if (error instanceof Deno.errors.FilesystemLoop) {
      throw new ToolError(`Cannot resolve '${path}': it is part of a symbolic link loop.`);
    }
    throw error;
  }
}

/**
 * Resolve a user-supplied path against the project root (`realRoot` must already be a real path).
 * Throws a {@linkcode ToolError} naming the problem.
 */
export function resolveInProject(
  realRoot: string,
  userPath: string,
  options: ResolveOptions = {},
): ResolvedPath {
  const mustExist = options.mustExist ?? true;
  if (userPath.includes("\0")) {
    throw new ToolError("Invalid path: it contains a NUL byte.");
  }
  const given = userPath.trim() === "" ? "." : userPath;
  const absolute = resolve(realRoot, given);
  if (!isWithin(realRoot, absolute)) {
    // An absolute path may reach the root through a symlinked alias (/tmp vs /private/tmp):
    // accept it when its real location is inside, and go on with that location.
    let mapped: string | null = null;
    try {
      if (isAbsolute(given)) mapped = realOfNearest(absolute);
    } catch { /* unreadable: treat as outside */ }
    if (mapped !== null && isWithin(realRoot, mapped)) {
      return resolveInProject(realRoot, mapped, options);
    }
    throw new ToolError(
      `Path '${userPath}' is outside the project root ${realRoot}. ` +
        "Give a path relative to the project root.",
    );
  }
  const rel = toPosix(relative(realRoot, absolute)) || ".";
  const real = realOrNull(absolute);
  if (real !== null) {
    if (!isWithin(realRoot, real)) {
      throw new ToolError(
        `Path '${userPath}' resolves through a symbolic link to ${real}, outside the project root.`,
      );
    }
    return { absolute, relative: rel, real, exists: true };
  }
  // A dangling symlink must not become a way to create a file outside the root.
  if (isSymlink(absolute)) {
    throw new ToolError(`Path '${userPath}' is a symbolic link whose target does not exist.`);
  }
  if (mustExist) {
    throw new ToolError(`No file or directory '${rel}' in the project.`);
  }
  // A new file: its nearest existing ancestor must resolve inside the root.
  let parent = dirname(absolute);
  let tail = [absolute.slice(parent.length + 1)];
  let realParent = realOrNull(parent);
  while (realParent === null && parent !== realRoot && isWithin(realRoot, parent)) {
    if (isSymlink(parent)) {
      throw new ToolError(
        `Cannot create '${rel}': '${toPosix(relative(realRoot, parent))}' is a symbolic link ` +
          "whose target does not exist.",
      );
    }
    const up = dirname(parent);
    tail = [parent.slice(up.length + 1), ...tail];
    parent = up;
    realParent = realOrNull(parent);
  }
  if (realParent === null || !isWithin(realRoot, realParent)) {
    throw new ToolError(
      `Path '${userPath}' would be created outside the project root (a parent folder links out).`,
    );
  }
  try {
    if (!Deno.statSync(realParent).isDirectory) {
      throw new ToolError(
        `Cannot create '${rel}': '${toPosix(relative(realRoot, parent))}' is a file.`,
      );
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Cannot create '${rel}': ${String(error)}`);
  }
  return { absolute, relative: rel, real: join(realParent, ...tail), exists: false };
}
