/**
 * Paths reported by tools, turned into project paths.
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A tool's file reference (absolute, relative to `base`, or a `file://` URL) as a path relative
 * to `root` with posix separators; absolute when the file is outside the root.
 *
 * @example
 * ```ts
 * toProjectPath("/p", "/p/src/a.rs"); // "src/a.rs"
 * toProjectPath("/p", "./b.go", "/p/cmd"); // "cmd/b.go"
 * ```
 */
export function toProjectPath(root: string, file: string, base: string = root): string {
  const absolute = file.startsWith("file://")
    ? fileURLToPath(file)
    : isAbsolute(file)
    ? file
    : resolve(base, file);
  const rel = relative(root, absolute);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return absolute;
  return rel.split(sep).join("/");
}

/** Whether a path exists (file or folder). */
export function pathExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
