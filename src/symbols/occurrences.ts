/**
 * Where a name occurs in a file's text as a whole word, and whether each occurrence is code, a
 * comment or a string literal. A language server's references and renames cover the code; the
 * rest is explained without asking it. The scan is lexical, per family of languages (C-like
 * comments and quotes, Python's `#` and triple quotes, `#` for shells and YAML); text in a
 * template literal's `${...}` or an f-string's `{...}` is code.
 * @module
 */
import { extname } from "node:path";
import { LineIndex } from "../edit/line_index.ts";
import type { Position } from "./model.ts";

/** Where an occurrence stands. */
export type OccurrenceSite = "code" | "comment" | "string";

/** One whole-word occurrence of a name (0-based line and UTF-16 column). */
export interface Occurrence extends Position {
  site: OccurrenceSite;
}

type Family = "c" | "js" | "rust" | "go" | "python" | "hash" | "plain";

const FAMILIES: Record<string, Family> = {
  ".ts": "js",
  ".tsx": "js",
  ".mts": "js",
  ".cts": "js",
  ".js": "js",
  ".jsx": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".rs": "rust",
  ".go": "go",
  ".py": "python",
  ".pyi": "python",
  ".c": "c",
  ".h": "c",
  ".cc": "c",
  ".cpp": "c",
  ".cxx": "c",
  ".hpp": "c",
  ".hh": "c",
  ".java": "c",
  ".cs": "c",
  ".kt": "c",
  ".swift": "c",
  ".sh": "hash",
  ".bash": "hash",
  ".yaml": "hash",
  ".yml": "hash",
};

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/** Whether `text` holds `name` as a whole word (not inside a longer identifier). */
export function containsWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (isWordAt(text, at, name)) return true;
  }
  return false;
}

function isWordAt(text: string, at: number, name: string): boolean {
  const before = text[at - 1];
  const after = text[at + name.length];
  return !(before && IDENTIFIER_CHAR.test(before)) && !(after && IDENTIFIER_CHAR.test(after));
}

/** Every whole-word occurrence of `name` in `text` (`\n` line ends), classified. */
export function wordOccurrences(text: string, name: string, relPath: string): Occurrence[] {
  const offsets: number[] = [];
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (isWordAt(text, at, name)) offsets.push(at);
  }
  if (offsets.length === 0) return [];
  const family = FAMILIES[extname(relPath).toLowerCase()] ?? "plain";
  const sites = family === "plain" ? null : siteMap(text, family);
  const lines = new LineIndex(text);
  return offsets.map((offset) => ({
    ...lines.positionAt(offset),
    site: sites ? siteAt(sites, offset) : "code",
  }));
}

/** Non-code spans of a text: [start, end, site] triples, in order. */
type Spans = Array<[number, number, OccurrenceSite]>;

function siteAt(spans: Spans, offset: number): OccurrenceSite {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end, site] = spans[mid]!;
    if (offset < start) hi = mid - 1;
    else if (offset >= end) lo = mid + 1;
    else return site;
  }
  return "code";
}

/** The comment and string spans of a text, by a small lexer of its language family. */
function siteMap(text: string, family: Family): Spans {
  const spans: Spans = [];
  const n = text.length;
  // Open template literals / f-strings: the brace depth at which each one's code part began.
  const codeDepths: number[] = [];
  let depth = 0;
  let i = 0;
  const slashComments = family !== "python" && family !== "hash";
  const hashComments = family === "python" || family === "hash";
  while (i < n) {
    const c = text[i]!;
    if (slashComments && c === "/" && text[i + 1] === "/") {
      const end = lineEnd(text, i);
      spans.push([i, end, "comment"]);
      i = end;
    } else if (slashComments && c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close === -1 ? n : close + 2;
      spans.push([i, end, "comment"]);
      i = end;
    } else if (hashComments && c === "#") {
      const end = lineEnd(text, i);
      spans.push([i, end, "comment"]);
      i = end;
    } else if (c === '"' || (c === "'" && family !== "rust") || (c === "`" && family !== "c")) {
      if (family === "python") {
        i = pythonString(text, i, spans);
      } else if (c === "`" && family === "js") {
        i = templatePart(text, i + 1, i, spans, codeDepths, depth);
      } else {
        const end = quoted(text, i, c, c === "`" || family === "hash");
        spans.push([i, end, "string"]);
        i = end;
      }
    } else if (c === "'" && family === "rust") {
      // A char literal ('a', '\n', '\u{1F600}'), else a lifetime or label ('a).
      const m = /^'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'/.exec(text.slice(i, i + 12));
      if (m) spans.push([i, i + m[0].length, "string"]);
      i += m ? m[0].length : 1;
    } else if (c === "/" && family === "js" && regexMayStart(text, i)) {
      const end = regexEnd(text, i);
      if (end === -1) i++; // a division after all (no closing slash on the line)
      else {
        spans.push([i, end, "string"]);
        i = end;
      }
    } else if (c === "{") {
      depth++;
      i++;
    } else if (c === "}") {
      if (codeDepths.length > 0 && codeDepths[codeDepths.length - 1] === depth) {
        codeDepths.pop();
        // Back in the template literal or f-string whose `${`/`{` this closes.
        i = templatePart(text, i + 1, i, spans, codeDepths, depth);
      } else {
        depth = Math.max(0, depth - 1);
        i++;
      }
    } else {
      i++;
    }
  }
  return spans;
}

/** Words after which a slash starts a regular expression, not a division. */
const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "case",
  "in",
  "of",
  "delete",
  "void",
  "throw",
  "new",
  "else",
  "do",
  "yield",
  "await",
]);

/**
 * Whether a slash at `at` (not a comment) may open a regular expression literal: it follows an
 * operator, an opening bracket, a separator, the start of the text or a keyword such as
 * `return`. After a name, a number or a closing bracket it is a division.
 */
function regexMayStart(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) {
    i--;
  }
  if (i < 0) return true;
  const c = text[i]!;
  if ("(,=:[!&|?{};+-*%<>~^".includes(c)) return true;
  if (!/[A-Za-z_$]/.test(c)) return false;
  let start = i;
  while (start > 0 && /[A-Za-z0-9_$]/.test(text[start - 1]!)) start--;
  return REGEX_AFTER_WORDS.has(text.slice(start, i + 1)) && text[start - 1] !== ".";
}

/** End (exclusive, flags included) of a regular expression literal at `start`; -1 if none. */
function regexEnd(text: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "\n") return -1;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) {
      let end = i + 1;
      while (end < text.length && /[a-z]/.test(text[end]!)) end++;
      return end;
    }
  }
  return -1;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

/** End (exclusive) of a quoted literal starting at `start`; single-line unless `multiline`. */
function quoted(text: string, start: number, quote: string, multiline: boolean): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === quote) return i + 1;
    else if (c === "\n" && !multiline) return i;
  }
  return text.length;
}

/**
 * A JavaScript template literal's text from `from` up to its end or its next `${` (which opens
 * code); the string part is recorded from `spanStart`. Returns where scanning goes on.
 */
function templatePart(
  text: string,
  from: number,
  spanStart: number,
  spans: Spans,
  codeDepths: number[],
  depth: number,
): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "`") {
      spans.push([spanStart, i + 1, "string"]);
      return i + 1;
    } else if (c === "$" && text[i + 1] === "{") {
      spans.push([spanStart, i + 2, "string"]);
      codeDepths.push(depth);
      return i + 2;
    }
  }
  spans.push([spanStart, text.length, "string"]);
  return text.length;
}

/** A Python string literal at `start` (prefixes are letters before it: code, harmless). */
function pythonString(text: string, start: number, spans: Spans): number {
  const quote = text[start]!;
  const triple = text.startsWith(quote.repeat(3), start);
  const closing = triple ? quote.repeat(3) : quote;
  const prefix = /[A-Za-z]*$/.exec(text.slice(Math.max(0, start - 3), start))?.[0] ?? "";
  const raw = /r/i.test(prefix);
  const formatted = /f/i.test(prefix);
  let i = start + closing.length;
  let spanStart = start;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && !raw) {
      i += 2;
      continue;
    }
    if (!triple && c === "\n") break;
    if (text.startsWith(closing, i)) {
      spans.push([spanStart, i + closing.length, "string"]);
      return i + closing.length;
    }
    if (formatted && c === "{") {
      if (text[i + 1] === "{") {
        i += 2;
        continue;
      }
      // The expression inside braces is code: find its closing brace on the same literal.
      spans.push([spanStart, i + 1, "string"]);
      let inner = 1;
      let j = i + 1;
      for (; j < text.length && inner > 0; j++) {
        if (text[j] === "{") inner++;
        else if (text[j] === "}") inner--;
        else if (!triple && text[j] === "\n") break;
      }
      spanStart = j - 1;
      i = j;
      continue;
    }
    i++;
  }
  spans.push([spanStart, i, "string"]);
  return i;
}
