/**
 * A careful, minimal TOML editor for the tables `sextant setup` owns in a client's config
 * (Codex's `[mcp_servers.sextant]` and its hook tables). It replaces whole tables by their line
 * ranges and leaves every other line of the file as it was: comments, order, spacing. Reading
 * values is smol-toml's job; this module only finds and rewrites tables.
 * @module
 */

/** A table header line: `[a.b]` or `[[a.b]]`, keys bare or quoted, maybe a trailing comment. */
const HEADER =
  /^[ \t]*(\[\[?)[ \t]*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)[ \t]*\]\]?[ \t]*(?:#.*)?$/;

/** One table of a TOML text: its header's dotted key path, and its line range. */
export interface TomlTable {
  /** The key path, unquoted (`["mcp_servers", "sextant"]`). */
  path: string[];
  /** Whether it is an array-of-tables element (`[[...]]`). */
  array: boolean;
  /** Index of its header line. */
  start: number;
  /** Index one past its last line (the next header, or the end). */
  end: number;
}

function unquote(key: string): string {
  const trimmed = key.trim();
  if (trimmed.startsWith('"')) return JSON.parse(trimmed) as string;
  if (trimmed.startsWith("'")) return trimmed.slice(1, -1);
  return trimmed;
}

function splitKeys(dotted: string): string[] {
  const keys = dotted.match(/[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'/g) ?? [];
  return keys.map(unquote);
}

/**
 * The tables of `lines`, in order. Lines inside a multi-line string are never headers; a line
 * inside a multi-line array could only look like one if it held a bare dotted key in brackets,
 * which a value cannot.
 */
export function tomlTables(lines: readonly string[]): TomlTable[] {
  const tables: TomlTable[] = [];
  let inString: string | null = null;
  lines.forEach((line, index) => {
    if (inString) {
      if (line.includes(inString)) inString = null;
      return;
    }
    const opens = line.match(/"""|'''/g) ?? [];
    if (opens.length % 2 === 1) {
      inString = opens[0]!;
      return;
    }
    const match = line.match(HEADER);
    if (!match) return;
    const previous = tables.at(-1);
    if (previous) previous.end = index;
    tables.push({
      path: splitKeys(match[2]!),
      array: match[1] === "[[",
      start: index,
      end: lines.length,
    });
  });
  return tables;
}

/** Whether `path` starts with `prefix`. */
export function hasPrefix(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((key, i) => path[i] === key);
}

/** A TOML basic string (JSON's escapes are all valid TOML escapes). */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** A TOML value for a string, number, boolean or array of those. */
export function tomlValue(value: unknown): string {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  throw new TypeError(`Cannot write ${typeof value} as a TOML value.`);
}

/** A key as TOML writes it: bare when it can be. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** `[a.b]` (or `[[a.b]]`) followed by `key = value` lines. */
export function renderTable(
  path: readonly string[],
  values: Record<string, unknown>,
  array = false,
): string {
  const header = path.map(tomlKey).join(".");
  const lines = [array ? `[[${header}]]` : `[${header}]`];
  for (const [key, value] of Object.entries(values)) {
    lines.push(`${tomlKey(key)} = ${tomlValue(value)}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * Replace the line ranges `ranges` (sorted, not overlapping) of `text` with nothing, and put
 * `block` where the first range was, or at the end when there was none. Blank lines and comments
 * that end a removed range stay (they lead into the next table), so the tables around keep their
 * spacing and notes.
 */
export function replaceRanges(
  text: string,
  ranges: ReadonlyArray<{ start: number; end: number }>,
  block: string,
): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  const blockLines = block === "" ? [] : block.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let placed = false;
  let next = 0;
  for (const range of ranges) {
    out.push(...lines.slice(next, range.start));
    // Keep the blank lines and comments that lead into the next table: they belong to it.
    let end = range.end;
    while (end > range.start + 1 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end--;
    if (!placed) {
      out.push(...blockLines);
      placed = true;
      out.push(...lines.slice(end, range.end));
    } else {
      const kept = lines.slice(end, range.end);
      // Two tables removed in a row must not leave two blank lines.
      while (kept[0]?.trim() === "" && (out.length === 0 || out.at(-1)!.trim() === "")) {
        kept.shift();
      }
      out.push(...kept);
    }
    next = range.end;
  }
  out.push(...lines.slice(next));
  if (!placed && blockLines.length > 0) {
    while (out.length > 0 && out.at(-1)!.trim() === "") out.pop();
    if (out.length > 0) out.push("");
    out.push(...blockLines);
  }
  return out.length === 0 ? "" : out.join(eol) + eol;
}
