/**
 * Between a project's paths and the `file:` URIs language servers speak: the one converter each
 * way, so every caller agrees on what lies in the project.
 * @module
 */
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The `file:` URI of a path relative to `root` ("." for the root itself). */
export function fileUriOf(root: string, relPath: string): string {
  return pathToFileURL(join(root, relPath)).href;
}

/**
 * The path relative to `root` (separated by `/`) of a `file:` URI; null for another scheme, a
 * malformed URI, the root itself, or a file outside the root (another drive on Windows included).
 */
export function relPathOfUri(root: string, uri: string): string | null {
  let abs: string;
  try {
    abs = fileURLToPath(uri);
  } catch {
    return null;
  }
  const rel = relative(root, abs);
  if (rel === "" || /^\.\.(?:[\\/]|$)/.test(rel) || isAbsolute(rel)) return null;
  return rel.split("\\").join("/");
}
