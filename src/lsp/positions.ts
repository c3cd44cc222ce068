/**
 * Positions as agents see them and as language servers see them. Agents give and get 1-based
 * lines and 1-based character columns (Unicode code points: `é`, `字` and `😀` each count as
 * one column; a tab is one column). LSP positions are 0-based lines and UTF-16 code-unit offsets
 * (the only position encoding Sextant announces). Pure logic, plus a small reader of file lines
 * for previews of locations inside or outside the project.
 * @module
 */
import type { Position } from "../deps.ts";
import { fileURLToPath } from "node:url";
import { ToolError } from "../errors.ts";
import { decodeText } from "../edit/text_file.ts";

/** A position as agents see it: 1-based line, 1-based character column. */
export interface AgentPosition {
  line: number;
  column: number;
}

/** The lines of a text with `\n` (or `\r\n`) line endings; the line ending is not included. */
export function splitLines(text: string): string[] {
  return text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Number of code points in a string. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * The 1-based character column of a UTF-16 offset in a line. An offset past the end of the line
 * gives the column just after its last character; an offset inside a surrogate pair gives the
 * column of that character.
 */
export function columnOfUtf16(lineText: string, character: number): number {
  const limit = Math.max(0, Math.min(character, lineText.length));
  return codePointLength(lineText.slice(0, limit)) + 1 -
    (isInsidePair(lineText, limit) ? 1 : 0);
}

function isInsidePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const at = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff;
}

/**
 * The UTF-16 offset of a 1-based character column in a line. Column `length + 1` (just after
 * the last character) is allowed; anything beyond is clamped to it.
 */
export function utf16OfColumn(lineText: string, column: number): number {
  let remaining = Math.max(0, column - 1);
  let i = 0;
  while (remaining > 0 && i < lineText.length) {
    const c = lineText.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < lineText.length &&
        lineText.charCodeAt(i + 1) >= 0xdc00 && lineText.charCodeAt(i + 1) <= 0xdfff
      ? 2
      : 1;
    remaining--;
  }
  return i;
}

/** An LSP position to the agent's 1-based line and column, for a file's lines. */
export function toAgentPosition(lines: readonly string[], pos: Position): AgentPosition {
  const lineText = lines[pos.line] ?? "";
  return { line: pos.line + 1, column: columnOfUtf16(lineText, pos.character) };
}

/**
 * The agent's 1-based line and column to an LSP position, validated against the file: a line
 * or column outside the file is a ToolError naming the valid range. `label` names the file.
 */
export function toLspPosition(
  lines: readonly string[],
  line: number,
  column: number,
  label: string,
): Position {
  // A final newline leaves an empty last "line" that editors do not count; it is still valid.
  const count = lines.length;
  const shown = count > 1 && lines[count - 1] === "" ? count - 1 : count;
  if (!Number.isInteger(line) || line < 1 || line > count) {
    throw new ToolError(
      `Line ${line} is outside '${label}', which has ${shown} line(s) (lines are 1-based). ` +
        "Read the file to find the right line.",
    );
  }
  const lineText = lines[line - 1]!;
  const width = codePointLength(lineText);
  if (!Number.isInteger(column) || column < 1 || column > width + 1) {
    throw new ToolError(
      `Column ${column} is outside line ${line} of '${label}', which has ${width} character(s) ` +
        `(columns are 1-based, 1..${width + 1}): ${JSON.stringify(preview(lineText))}. ` +
        "Or address the symbol with name_path instead of line/column.",
    );
  }
  return { line: line - 1, character: utf16OfColumn(lineText, column) };
}

/** Longest preview line we return. */
const PREVIEW_MAX = 160;

/** One line of code for a result: trimmed, inner runs of whitespace kept, cut at 160 chars. */
export function preview(lineText: string): string {
  const trimmed = lineText.trim();
  if (trimmed.length <= PREVIEW_MAX) return trimmed;
  return trimmed.slice(0, PREVIEW_MAX - 1) + "…";
}

/** The identifier (letters, digits, `_`, `$`) around a UTF-16 offset of a line, or "". */
export function wordAt(lineText: string, character: number): string {
  const isWord = (ch: string) => /[\p{L}\p{N}_$]/u.test(ch);
  let start = Math.min(character, lineText.length);
  let end = start;
  while (start > 0 && isWord(lineText[start - 1]!)) start--;
  while (end < lineText.length && isWord(lineText[end]!)) end++;
  return lineText.slice(start, end);
}

/**
 * Reads the lines of files named by `file://` URIs, once per instance (one tool call). Files
 * that cannot be read (deleted, binary, not a file URI) give no lines.
 */
export class LineReader {
  readonly #cache = new Map<string, Promise<string[] | null>>();
  readonly #encoding: string;

  constructor(encoding = "utf-8") {
    this.#encoding = encoding;
  }

  /** The lines of the file a URI names, or null when it cannot be read. */
  lines(uri: string): Promise<string[] | null> {
    let pending = this.#cache.get(uri);
    if (!pending) {
      pending = this.#read(uri);
      this.#cache.set(uri, pending);
    }
    return pending;
  }

  /** Seed the cache with text already read (e.g. the file a tool call is about). */
  put(uri: string, text: string): void {
    this.#cache.set(uri, Promise.resolve(splitLines(text)));
  }

  async #read(uri: string): Promise<string[] | null> {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return null;
    }
    try {
      const bytes = await Deno.readFile(path);
      return splitLines(decodeText(bytes, this.#encoding, path).text);
    } catch {
      return null;
    }
  }
}
