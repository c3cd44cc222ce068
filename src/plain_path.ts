/**
 * The few path operations a front needs, without `node:path`: importing any `node:` module starts
 * Deno's Node compatibility layer, about 8 ms of CPU at every start of a front (an empty deno
 * process takes 5.5 ms; docs/performance.md). For folders and names Sextant puts together
 * itself; everything else uses `node:path`.
 * @module
 */

const WINDOWS = Deno.build.os === "windows";
/** The separator of this system's paths. */
export const SEPARATOR = WINDOWS ? "\\" : "/";
/** The separator of this system's PATH list (node:path's `delimiter`). */
export const DELIMITER = WINDOWS ? ";" : ":";

function isSeparator(char: string | undefined): boolean {
  return char === "/" || (WINDOWS && char === "\\");
}

/** Whether `path` is absolute: `/...`; on Windows `C:\...`, `C:/...` or `\\server\...`. */
export function isAbsolutePath(path: string): boolean {
  if (!WINDOWS) return path.startsWith("/");
  return /^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}/.test(path);
}

/** `folder` with `names` below it, as node:path's `join` puts them (`names` plain names). */
export function inFolder(folder: string, ...names: string[]): string {
  let end = folder.length;
  while (end > 1 && isSeparator(folder[end - 1])) end--;
  const base = end === 1 && isSeparator(folder[0]) ? "" : folder.slice(0, end);
  return [base, ...names].join(SEPARATOR);
}

/** The folder holding `path` (an absolute path with a name at its end). */
export function parentFolder(path: string): string {
  let at = path.length - 1;
  while (at > 0 && !isSeparator(path[at])) at--;
  return at <= 0 ? path.slice(0, 1) : path.slice(0, at);
}

/**
 * `path` made absolute against the working folder, with `.`, `..`, repeated and trailing
 * separators resolved, as node:path's `resolve(path)` gives it.
 */
export function absolutePath(path: string): string {
  const full = isAbsolutePath(path) ? path : `${Deno.cwd()}${SEPARATOR}${path}`;
  const parts = full.split(WINDOWS ? /[\\/]/ : "/");
  // The root: "" for "/", "C:" for "C:\", "" "" for "\\server".
  const unc = WINDOWS && parts[0] === "" && parts[1] === "";
  const root = unc ? `${SEPARATOR}${SEPARATOR}` : WINDOWS ? `${parts[0]}${SEPARATOR}` : SEPARATOR;
  const names: string[] = [];
  for (const part of parts.slice(unc ? 2 : 1)) {
    if (part === "" || part === ".") continue;
    if (part === "..") names.pop();
    else names.push(part);
  }
  return root + names.join(SEPARATOR);
}
