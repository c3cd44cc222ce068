/**
 * The parts of a declaration, in a file or in a new body, the same for every language: its lead
 * (doc comments, attributes, decorators and annotations before it), its head (the modifiers and
 * keywords before its name) and the rest. Language servers cut a symbol's range differently:
 * rust-analyzer's starts at the doc comment and the attributes, pyright's and tsserver's at the
 * decorators (tsserver's JSDoc stays above it), gopls's and clangd's after the doc comment,
 * tsserver's `export const x` and gopls's `type T` at the name. Reading the parts from the text
 * around the range makes every server's symbol the same declaration.
 * @module
 */
import { extname } from "node:path";

/**
 * What a lead item is: a doc comment (`/**`, `///`, `//!`), another comment (Go's doc comments,
 * Python's comments, `// eslint-disable-next-line`), or an attribute, decorator or annotation.
 */
export type LeadKind = "doc" | "comment" | "attribute";

const DOC_COMMENT = /^(\/\*\*(?!\/)|\/\*!|\/\/\/|\/\/!)/;

function commentItem(text: string, from: number, to: number): LeadItem {
  return { kind: DOC_COMMENT.test(text.slice(from, from + 3)) ? "doc" : "comment", from, to };
}

/** One comment or attribute of a lead, as offsets in its text. */
export interface LeadItem {
  kind: LeadKind;
  from: number;
  to: number;
}

/** How a language writes its lead. */
export interface LeadSyntax {
  /** `#` starts a line comment (Python, shell, Ruby); else `//` and block comments do. */
  hashComments: boolean;
}

const HASH_COMMENTS = new Set([".py", ".pyi", ".sh", ".bash", ".rb", ".pl", ".r", ".yaml", ".yml"]);

/** The lead syntax of a file's language. */
export function leadSyntaxFor(relPath: string): LeadSyntax {
  return { hashComments: HASH_COMMENTS.has(extname(relPath).toLowerCase()) };
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;
const CLOSING: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

/** The end of the bracketed group opening at `at` (strings skipped), or -1 when unclosed. */
function closeOf(text: string, at: number): number {
  const stack: string[] = [];
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (CLOSING[c]) {
      stack.push(CLOSING[c]);
    } else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl;
}

/** The lead item starting at `at`, or null when the text there is not one. */
function itemAt(text: string, at: number, syntax: LeadSyntax): LeadItem | null {
  const two = text.slice(at, at + 2);
  if (syntax.hashComments) {
    if (text[at] === "#") return { kind: "comment", from: at, to: lineEnd(text, at) };
  } else {
    if (two === "//") return commentItem(text, at, lineEnd(text, at));
    if (two === "/*") {
      const close = text.indexOf("*/", at + 2);
      return close < 0 ? null : commentItem(text, at, close + 2);
    }
    // Rust's `#[attr]` and `#![attr]`, C++'s `[[attr]]`.
    const open = two === "#[" ? at + 1 : text.startsWith("#![", at) ? at + 2 : -1;
    const bracket = open >= 0 ? open : two === "[[" ? at : -1;
    if (bracket >= 0) {
      const close = closeOf(text, bracket);
      return close < 0 ? null : { kind: "attribute", from: at, to: close };
    }
  }
  // Decorators and annotations: `@name`, `@a.b.c`, with arguments; Java's `@interface` declares.
  if (text[at] === "@" && !/^@interface\b/.test(text.slice(at, at + 11))) {
    let i = at + 1;
    while (i < text.length && (WORD_CHAR.test(text[i]!) || text[i] === ".")) i++;
    if (i === at + 1) return null;
    if (text[i] === "(") {
      const close = closeOf(text, i);
      if (close < 0) return null;
      i = close;
    }
    return { kind: "attribute", from: at, to: i };
  }
  return null;
}

/** The lead items from `at` on, and where the declaration after them starts. */
export interface LeadScan {
  items: LeadItem[];
  /** The first character after the lead (and the whitespace after it). */
  declAt: number;
  /** A blank line stood between two items or after the last (with `attachedOnly`). */
  detached: boolean;
}

/**
 * Read the lead items from `at` (at most up to `limit`). With `attachedOnly`, a blank line ends
 * the lead: the items above a declaration belong to it only when nothing separates them.
 */
export function scanLead(
  text: string,
  at: number,
  syntax: LeadSyntax,
  options: { limit?: number; attachedOnly?: boolean } = {},
): LeadScan {
  const limit = options.limit ?? text.length;
  const items: LeadItem[] = [];
  let pos = at;
  for (;;) {
    let next = pos;
    let newlines = 0;
    while (next < limit && /\s/.test(text[next]!)) {
      if (text[next] === "\n") newlines++;
      next++;
    }
    const detached = newlines > 1 && items.length > 0;
    if (detached && options.attachedOnly) return { items, declAt: next, detached: true };
    const item = next < limit ? itemAt(text, next, syntax) : null;
    if (item === null || item.to > limit) return { items, declAt: next, detached: false };
    items.push(item);
    pos = item.to;
  }
}

/** A word of a declaration's head and where it starts. */
export interface HeadWord {
  word: string;
  at: number;
}

/** The whitespace-separated words of `text[from, to)`, with their offsets. */
export function headWords(text: string, from: number, to: number): HeadWord[] {
  const words: HeadWord[] = [];
  const re = /\S+/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m !== null && m.index < to; m = re.exec(text)) {
    words.push({ word: text.slice(m.index, Math.min(to, m.index + m[0].length)), at: m.index });
  }
  return words;
}

/**
 * Where `name` stands as a whole word in a declaration that starts at `from`: before the first
 * `{`, `=`, `;` or `:` but `::` (where a value, a body or a type begins), or -1.
 */
export function nameIn(text: string, name: string, from: number): number {
  const stop = text.slice(from).search(/[{=;]|(?<!:):(?!:)/);
  const end = stop < 0 ? text.length : from + stop;
  for (let at = text.indexOf(name, from); at >= 0 && at < end; at = text.indexOf(name, at + 1)) {
    const before = at > 0 ? text[at - 1]! : " ";
    const after = text[at + name.length] ?? " ";
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return at;
  }
  return -1;
}

/** A symbol's declaration in its file, as offsets in the file's text. */
export interface Declaration {
  /** Its doc comments and attributes: attached above the range, then inside it, in order. */
  lead: LeadItem[];
  /**
   * Where its head starts: the first word of the declaration's line, or the range's start when
   * other code stands before it on that line (`let a = 1, b = 2` for `b`).
   */
  headFrom: number;
  /** Whether the head starts its line (after indentation): a lead can stand above it. */
  headStartsLine: boolean;
  /** The words before the name (modifiers, keywords, a return type, a receiver). */
  head: HeadWord[];
  /** Where the name stands, or -1 when the server's name is not in the text (`<function>`). */
  nameAt: number;
  /** The name as written. */
  name: string;
  /** The end of the server's range. */
  end: number;
  /** The indentation of the head's line. */
  indent: string;
}

/** What {@linkcode declarationIn} needs of a symbol: offsets of its range and its name. */
export interface SymbolSpan {
  /** The range's start and end offsets. */
  start: number;
  end: number;
  /** The selection range's start and end offsets (the name). */
  nameStart: number;
  nameEnd: number;
  /** The first offset a lead above the range may take (after the previous sibling). */
  floor: number;
}

/** Whether code before the range on its line is only a head (no value, statement or block). */
function headOnly(prefix: string): boolean {
  let depth = 0;
  for (const c of prefix) {
    if (c === "(" || c === "[" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === ">") depth--;
    else if (depth === 0 && /[=;{},]/.test(c)) return false;
  }
  return depth === 0;
}

function lineStartOf(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** The parts of a symbol's declaration in `text` (see the module documentation). */
export function declarationIn(text: string, span: SymbolSpan, syntax: LeadSyntax): Declaration {
  const selected = text.slice(span.nameStart, span.nameEnd);
  const name = /^[\p{L}\p{N}_$#~]+$/u.test(selected) ? selected : "";
  const nameAt = name === "" ? -1 : span.nameStart;
  const limit = nameAt >= 0 ? nameAt : span.start;
  const inner = scanLead(text, span.start, syntax, { limit: Math.max(limit, span.start) });
  const declAt = inner.items.length > 0 ? inner.declAt : span.start;
  const lineStart = lineStartOf(text, declAt);
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const indentEnd = lineStart + indent.length;
  const lastItem = inner.items[inner.items.length - 1];
  const itemOnLine = lastItem !== undefined && lastItem.to > lineStart;
  const headStartsLine = !itemOnLine &&
    (declAt <= indentEnd || headOnly(text.slice(indentEnd, declAt)));
  const headFrom = headStartsLine ? Math.min(indentEnd, declAt) : declAt;
  const head = nameAt >= headFrom ? headWords(text, headFrom, nameAt) : [];
  const lead = [...leadAbove(text, span, syntax, inner.items[0]?.from ?? headFrom), ...inner.items];
  return { lead, headFrom, headStartsLine, head, nameAt, name, end: span.end, indent };
}

/**
 * The comments and attributes directly above `target` (the start of a line's text): the longest
 * run of them that reaches it with no blank line, not above `span.floor`.
 */
function leadAbove(text: string, span: SymbolSpan, syntax: LeadSyntax, target: number): LeadItem[] {
  const line = lineStartOf(text, target);
  if (text.slice(line, target).trim() !== "" || line === 0) return [];
  let top = line;
  while (top > span.floor) {
    const above = lineStartOf(text, top - 1);
    if (above < span.floor || text.slice(above, top - 1).trim() === "") break;
    top = above;
  }
  for (let from = top; from < line; from = text.indexOf("\n", from) + 1) {
    const scan = scanLead(text, from, syntax, { limit: target, attachedOnly: true });
    if (!scan.detached && scan.declAt === target && scan.items.length > 0) return scan.items;
  }
  return [];
}
