/**
 * Indentation of the bodies the symbol edit tools write: a body comes flush left, written either
 * relative to column 0 or copied from a symbol body as find_symbol shows it (first line flush,
 * later lines where they stand in the file); either way it lands indented like its symbol.
 * @module
 */

/** Languages whose indentation is syntax (a copied body's later lines lie deeper than it). */
const INDENTATION_SYNTAX = new Set([".py", ".pyi"]);

/** The spaces and tabs a line starts with. */
export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === "";
}

/**
 * Whether a body whose first line is flush left was copied from a symbol indented by `anchor`
 * (its later lines already stand at their place in the file).
 */
function copied(lines: readonly string[], anchor: string, ext: string): boolean {
  const rest = lines.slice(1).filter((l) => !isBlank(l));
  if (rest.length === 0) return false;
  const restMin = Math.min(...rest.map((l) => indentOf(l).length));
  return INDENTATION_SYNTAX.has(ext) ? restMin > anchor.length : restMin >= anchor.length;
}

/**
 * Fit a body's indentation to a symbol indented by `anchor`. A body whose first line is flush
 * left is either written relative to column 0 (then every line is indented by `anchor`) or copied
 * from a symbol body (later lines already absolute, as find_symbol shows them). `firstAlready`:
 * the first line lands after existing indentation (replace), so it never gets `anchor`.
 */
export function reindent(body: string, anchor: string, ext: string, firstAlready: boolean): string {
  const lines = body.split("\n");
  if (anchor === "" || indentOf(lines[0]!) !== "") return body;
  const absolute = copied(lines, anchor, ext);
  return lines.map((line, i) => {
    if (isBlank(line)) return line;
    if (i === 0) return firstAlready ? line : anchor + line;
    return absolute ? line : anchor + line;
  }).join("\n");
}

/**
 * A flush-left body written relative to column 0, whichever way it came: a copied body's later
 * lines lose `anchor`.
 */
export function relativeBody(body: string, anchor: string, ext: string): string {
  const lines = body.split("\n");
  if (anchor === "" || indentOf(lines[0]!) !== "" || !copied(lines, anchor, ext)) return body;
  return lines.map((line, i) => i > 0 && line.startsWith(anchor) ? line.slice(anchor.length) : line)
    .join("\n");
}

/** Text relative to column 0 placed after `anchor`: every line after the first gets it. */
export function indentLater(text: string, anchor: string): string {
  return text.split("\n").map((line, i) => i === 0 || isBlank(line) ? line : anchor + line)
    .join("\n");
}
