/**
 * The session's project from the client's MCP roots (`roots/list`: `file://` URIs). With
 * several roots, the one holding the file the agent names (the deepest, when roots nest), else
 * the first. Roots that are not `file://` URIs are ignored. Pure: the caller asks the client
 * for its roots and re-asks on `notifications/roots/list_changed`.
 * @module
 */

/** A root as MCP's `roots/list` returns it. */
export interface McpRoot {
  uri: string;
  name?: string;
}

/** Options of {@linkcode chooseProjectRoot} and {@linkcode fileUriToPath}. */
export interface RootOptions {
  /** Treat paths as Windows paths (default: whether Sextant runs on Windows). */
  windows?: boolean;
}

/**
 * The local path of a `file://` URI, or null for other schemes, remote hosts (POSIX) and
 * malformed URIs. On Windows, `file:///C:/x` is `C:\x` and `file://server/share/x` is the UNC
 * path `\\server\share\x`.
 *
 * @example
 * ```ts
 * import { fileUriToPath } from "./roots.ts";
 * console.log(fileUriToPath("file:///home/me/my%20app", { windows: false })); // "/home/me/my app"
 * console.log(fileUriToPath("file:///C:/src/app", { windows: true })); // "C:\\src\\app"
 * ```
 */
export function fileUriToPath(uri: string, options: RootOptions = {}): string | null {
  const windows = options.windows ?? Deno.build.os === "windows";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== "file:") return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path.includes("\0")) return null;
  const host = url.hostname === "localhost" ? "" : url.hostname;
  if (!windows) {
    if (host !== "") return null;
    return path.length > 1 ? path.replace(/\/+$/, "") : path;
  }
  let local = path.replace(/\//g, "\\");
  if (host !== "") return `\\\\${host}${local}`.replace(/\\+$/, "");
  if (/^\\[A-Za-z]:/.test(local)) local = local.slice(1);
  if (/^[A-Za-z]:$/.test(local)) return `${local}\\`;
  return /^[A-Za-z]:\\$/.test(local) ? local : local.replace(/\\+$/, "");
}

/** Whether `path` is `root` or inside it (case-insensitive on Windows). */
export function isWithin(path: string, root: string, options: RootOptions = {}): boolean {
  const windows = options.windows ?? Deno.build.os === "windows";
  const sep = windows ? "\\" : "/";
  const norm = (p: string) => {
    const s = windows ? p.replace(/\//g, "\\").toLowerCase() : p;
    return s.length > 1 && s.endsWith(sep) && !/^[a-z]:\\$/.test(s) ? s.slice(0, -1) : s;
  };
  const p = norm(path);
  const r = norm(root);
  return p === r || p.startsWith(r.endsWith(sep) ? r : r + sep);
}

/** The local paths of the `file://` roots, in the client's order. */
export function rootPaths(roots: readonly McpRoot[], options: RootOptions = {}): string[] {
  const paths: string[] = [];
  for (const root of roots) {
    const path = typeof root?.uri === "string" ? fileUriToPath(root.uri, options) : null;
    if (path !== null && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/**
 * The project root for a session: of the `file://` roots, the one holding `file` (an absolute
 * path; the deepest when roots nest), else the first; null when there is no file root.
 *
 * @example
 * ```ts
 * import { chooseProjectRoot } from "./roots.ts";
 * const roots = [{ uri: "file:///src/app" }, { uri: "file:///src/lib" }];
 * console.log(chooseProjectRoot(roots, "/src/lib/a.ts", { windows: false })); // "/src/lib"
 * console.log(chooseProjectRoot(roots, undefined, { windows: false })); // "/src/app"
 * ```
 */
export function chooseProjectRoot(
  roots: readonly McpRoot[],
  file?: string,
  options: RootOptions = {},
): string | null {
  const paths = rootPaths(roots, options);
  if (file) {
    const holding = paths.filter((root) => isWithin(file, root, options));
    if (holding.length > 0) return holding.reduce((a, b) => (b.length > a.length ? b : a));
  }
  return paths[0] ?? null;
}
