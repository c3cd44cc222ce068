/**
 * Turns one `repl` cell (the agent's TypeScript) into a module the worker can import, with REPL
 * semantics:
 *
 * - top-level `const`/`let`/`var` declarations become assignments to globals of the session's
 *   worker, so they persist to the next cell (and functions of earlier cells see the same
 *   binding); a line-1 prelude creates each new global first;
 * - top-level functions stay hoisted declarations and the prelude publishes them; top-level
 *   classes are published right after their declaration;
 * - the last statement, when it is an expression, becomes the module's default export: the value
 *   of the cell.
 *
 * Deno transpiles the TypeScript when the worker imports the module from a `data:` URL; this
 * scanner only needs to find top-level statements, declarations and type annotations. It keeps
 * every line of the agent's code on its own line (one line down, after the prelude), and
 * {@linkcode Rewritten.position} maps a position in the module back to the agent's code.
 * Type-only declarations (`type`, `interface`) are left as they are: Deno does not type-check the
 * cell, so a later cell may name them freely. `enum` and `namespace` do not persist.
 *
 * @module
 */
import { LineIndex, lineStarts, positionAt } from "../edit/line_index.ts";

interface Token {
  text: string;
  start: number;
  end: number;
  /** A line break precedes the token. */
  newline: boolean;
  /** Bracket depth outside the token (an opener and its closer share it). */
  depth: number;
  kind: "name" | "punct" | "literal";
}

const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

const PUNCTUATORS = [
  ">>>=",
  "...",
  "===",
  "!==",
  "**=",
  "<<=",
  ">>=",
  ">>>",
  "&&=",
  "||=",
  "??=",
  "=>",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "??",
  "?.",
  "++",
  "--",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "**",
  "<<",
  ">>",
];

/** A cell the scanner cannot split (an unterminated string or comment). */
export class CellSyntaxError extends Error {
  override name = "SyntaxError";
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  // Open brackets; "${" marks a template substitution, whose "}" resumes the template.
  const stack: string[] = [];
  let i = 0;
  let newline = false;
  const push = (kind: Token["kind"], start: number, end: number, depth = stack.length) => {
    tokens.push({ text: code.slice(start, end), start, end, newline, depth, kind });
    newline = false;
  };
  const regexAllowed = () => {
    const prev = tokens.at(-1);
    if (!prev) return true;
    if (prev.kind === "name") return REGEX_AFTER_WORDS.has(prev.text);
    if (prev.kind === "literal") return false;
    return ![")", "]", "}"].includes(prev.text);
  };
  // Scan template text from `from` (just after "`" or "}"); returns the index after it.
  const template = (from: number, tokenStart: number): number => {
    let j = from;
    while (j < code.length) {
      const c = code[j];
      if (c === "\\") j += 2;
      else if (c === "`") {
        push("literal", tokenStart, j + 1);
        return j + 1;
      } else if (c === "$" && code[j + 1] === "{") {
        push("literal", tokenStart, j + 2);
        stack.push("${");
        return j + 2;
      } else j++;
    }
    throw new CellSyntaxError("Unterminated template literal", tokenStart);
  };
  while (i < code.length) {
    const c = code[i]!;
    if (c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") {
      newline = true;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === "/" && code[i + 1] === "/") {
      while (i < code.length && code[i] !== "\n") i++;
    } else if (c === "/" && code[i + 1] === "*") {
      const end = code.indexOf("*/", i + 2);
      if (end < 0) throw new CellSyntaxError("Unterminated comment", i);
      if (/[\n\r]/.test(code.slice(i, end))) newline = true;
      i = end + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== c && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
      if (code[j] !== c) throw new CellSyntaxError("Unterminated string literal", i);
      push("literal", i, j + 1);
      i = j + 1;
    } else if (c === "`") i = template(i + 1, i);
    else if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < code.length && code[j] !== "\n") {
        if (code[j] === "\\") j++;
        else if (code[j] === "[") inClass = true;
        else if (code[j] === "]") inClass = false;
        else if (code[j] === "/" && !inClass) break;
        j++;
      }
      if (code[j] !== "/") throw new CellSyntaxError("Unterminated regular expression", i);
      j++;
      while (j < code.length && /[\w$]/.test(code[j]!)) j++;
      push("literal", i, j);
      i = j;
    } else if (/[\p{ID_Start}$_\\#@]/u.test(c)) {
      let j = i + 1;
      while (j < code.length && /[\p{ID_Continue}$\u200c\u200d]/u.test(code[j]!)) j++;
      push("name", i, j);
      i = j;
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(code[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < code.length && /[\w.]/.test(code[j]!)) j++;
      push("literal", i, j);
      i = j;
    } else if (c === "(" || c === "[" || c === "{") {
      push("punct", i, i + 1);
      stack.push(c);
      i++;
    } else if (c === ")" || c === "]" || c === "}") {
      const open = stack.pop();
      if (open === "${" && c === "}") i = template(i + 1, i);
      else {
        push("punct", i, i + 1);
        i++;
      }
    } else {
      const op = PUNCTUATORS.find((p) => code.startsWith(p, i)) ?? c;
      push("punct", i, i + op.length);
      i += op.length;
    }
  }
  return tokens;
}

/** Tokens after which a line break cannot end a statement. */
const CANNOT_END = new Set([
  "new",
  "typeof",
  "instanceof",
  "in",
  "of",
  "as",
  "satisfies",
  "extends",
  "delete",
  "void",
  "await",
  "yield",
  "else",
  "do",
]);
/** Tokens that continue the previous line's statement. */
const CONTINUES = new Set([
  ".",
  "?.",
  "(",
  "[",
  ",",
  "?",
  ":",
  "=>",
  "as",
  "satisfies",
  "instanceof",
  "in",
  "+",
  "-",
  "*",
  "/",
  "%",
  "**",
  "<",
  ">",
  "<=",
  ">=",
  "==",
  "!=",
  "===",
  "!==",
  "&&",
  "||",
  "??",
  "&",
  "|",
  "^",
  "<<",
  ">>",
  ">>>",
  "=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "**=",
  "&&=",
  "||=",
  "??=",
  "&=",
  "|=",
  "^=",
  "<<=",
  ">>=",
  ">>>=",
]);
/** Statements that end at their closing brace rather than at a line break. */
const BLOCK_STARTERS = new Set([
  "if",
  "for",
  "while",
  "do",
  "try",
  "switch",
  "function",
  "class",
  "abstract",
  "interface",
  "enum",
  "namespace",
  "module",
  "declare",
  "with",
  "{",
]);
const CONTINUES_BLOCK = new Set(["else", "catch", "finally"]);

function canEnd(token: Token): boolean {
  if (token.kind === "literal") return true;
  if (token.kind === "name") return !CANNOT_END.has(token.text);
  return [")", "]", "}", "++", "--", "!"].includes(token.text);
}

function firstWord(tokens: Token[], from: number): string {
  const first = tokens[from]!;
  if (first.text === "async" && tokens[from + 1]?.text === "function") return "function";
  if (first.text === "export" || first.text === "default") return first.text;
  return first.text;
}

/** Top-level statements as [first, last] token indexes (inclusive). */
function statements(tokens: Token[]): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  let start = 0;
  let headerClosed = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const word = firstWord(tokens, start);
    const block = BLOCK_STARTERS.has(word);
    let ends = false;
    if (token.depth === 0 && token.text === ";") ends = true;
    else if (token.depth === 0 && token.text === "}" && block) {
      ends =
        !(next && (CONTINUES_BLOCK.has(next.text) || (word === "do" && next.text === "while")));
    } else if (token.depth === 0 && next?.newline) {
      const headerPending = ["if", "for", "while", "with"].includes(word) && !headerClosed;
      const declaration = ["function", "class", "abstract", "interface", "enum", "namespace"]
        .includes(word);
      ends = !headerPending && !declaration && canEnd(token) && !CONTINUES.has(next.text) &&
        !CONTINUES_BLOCK.has(next.text);
    }
    if (token.depth === 0 && token.text === ")" && i > start) headerClosed = true;
    if (ends || i === tokens.length - 1) {
      result.push([start, i]);
      start = i + 1;
      headerClosed = false;
    }
  }
  return result;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The index of the token closing the bracket opened at `open`. */
function closing(tokens: Token[], open: number): number {
  const depth = tokens[open]!.depth;
  for (let i = open + 1; i < tokens.length; i++) {
    if (tokens[i]!.depth === depth && [")", "]", "}"].includes(tokens[i]!.text)) return i;
  }
  return tokens.length - 1;
}

/** Split `[from, to]` at commas on `depth`, skipping type arguments when `angles`. */
function splitCommas(tokens: Token[], from: number, to: number, depth: number) {
  const parts: Array<[number, number]> = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    if (tokens[i]!.depth === depth && tokens[i]!.text === ",") {
      parts.push([start, i - 1]);
      start = i + 1;
    }
  }
  if (start <= to) parts.push([start, to]);
  return parts;
}

/** Names a binding pattern (or a plain name) binds. */
function boundNames(tokens: Token[], from: number, to: number): string[] {
  const first = tokens[from];
  if (!first || from > to) return [];
  if (first.kind === "name") return [first.text];
  if (first.text !== "{" && first.text !== "[") return [];
  const close = closing(tokens, from);
  const names: string[] = [];
  for (const [a, b] of splitCommas(tokens, from + 1, close - 1, first.depth + 1)) {
    let s = a;
    if (tokens[s]?.text === "...") s++;
    let e = b;
    for (let k = s; k <= b; k++) {
      if (tokens[k]!.depth === first.depth + 1 && tokens[k]!.text === "=") {
        e = k - 1;
        break;
      }
    }
    if (first.text === "{") {
      for (let k = s; k <= e; k++) {
        if (tokens[k]!.depth === first.depth + 1 && tokens[k]!.text === ":") {
          s = k + 1;
          break;
        }
      }
    }
    names.push(...boundNames(tokens, s, e));
  }
  return names;
}

/** End (inclusive) of a type annotation starting after `from`: before `=`, `,` or the end. */
function typeEnd(tokens: Token[], from: number, to: number, depth: number): number {
  let angles = 0;
  for (let i = from; i <= to; i++) {
    const t = tokens[i]!;
    if (t.depth !== depth) continue;
    if (t.text === "<") angles++;
    else if (t.text === ">") angles--;
    else if (t.text === ">>") angles -= 2;
    else if (angles <= 0 && (t.text === "=" || t.text === ",")) return i - 1;
  }
  return to;
}

const TYPE_ARGUMENT_PUNCT = new Set([",", ".", "|", "&", "[", "]", "{", "}", ":", ";", "?", "=>"]);

/**
 * When `tokens[at]` opens type arguments (`new Map<string, number>()`, `f<A, B>(x)`), the index
 * of their closing `>`; else `at`. A `<` counts as one when a name precedes it and the tokens up
 * to a `>` followed by `(` can only be types.
 */
function skipTypeArguments(tokens: Token[], at: number, end: number): number {
  if (tokens[at]!.text !== "<" || tokens[at - 1]?.kind !== "name") return at;
  const depth = tokens[at]!.depth;
  for (let k = at + 1; k < end; k++) {
    const t = tokens[k]!;
    if (t.depth === depth && t.text === ">") return tokens[k + 1]?.text === "(" ? k : at;
    if (t.depth === depth && t.kind === "punct" && !TYPE_ARGUMENT_PUNCT.has(t.text)) return at;
  }
  return at;
}

/** Rewrite `const a: T = 1, {b} = o` into `;(a = 1), ({b} = o)`; returns the bound names. */
function rewriteDeclaration(
  code: string,
  tokens: Token[],
  first: number,
  last: number,
  edits: Edit[],
): string[] {
  const keyword = tokens[first]!;
  edits.push({ start: keyword.start, end: keyword.end, text: ";" });
  const depth = keyword.depth;
  let end = last;
  if (tokens[end]!.text === ";") end--;
  const names: string[] = [];
  let i = first + 1;
  while (i <= end) {
    const target = tokens[i]!;
    const targetEnd = target.kind === "name" ? i : closing(tokens, i);
    names.push(...boundNames(tokens, i, targetEnd));
    edits.push({ start: target.start, end: target.start, text: "(" });
    let j = targetEnd + 1;
    let afterTarget = tokens[targetEnd]!.end;
    if (tokens[j]?.text === "!") j++;
    if (tokens[j]?.text === ":") {
      const stop = typeEnd(tokens, j + 1, end, depth);
      j = stop + 1;
    }
    if (j > targetEnd + 1) {
      // Drop the annotation but keep its line breaks, so lines stay where they were.
      const removed = tokens[j - 1]!.end;
      const breaks = code.slice(afterTarget, removed).replace(/[^\n]/g, "");
      edits.push({ start: afterTarget, end: removed, text: breaks });
      afterTarget = removed;
    }
    let declaratorEnd = j - 1;
    if (tokens[j]?.text === "=") {
      declaratorEnd = end;
      for (let k = j + 1; k <= end; k++) {
        k = skipTypeArguments(tokens, k, end);
        if (tokens[k]!.depth === depth && tokens[k]!.text === ",") {
          declaratorEnd = k - 1;
          break;
        }
      }
      edits.push({ start: tokens[declaratorEnd]!.end, end: tokens[declaratorEnd]!.end, text: ")" });
    } else {
      edits.push({ start: afterTarget, end: afterTarget, text: " = undefined)" });
    }
    i = declaratorEnd + 2;
  }
  return names;
}

const NOT_EXPRESSION = new Set([
  "if",
  "for",
  "while",
  "do",
  "try",
  "switch",
  "return",
  "throw",
  "break",
  "continue",
  "const",
  "var",
  "function",
  "class",
  "abstract",
  "export",
  "interface",
  "enum",
  "declare",
  "namespace",
  "debugger",
  "with",
  "{",
  ";",
]);

function isExpressionStatement(tokens: Token[], first: number): boolean {
  const word = firstWord(tokens, first);
  const next = tokens[first + 1]?.text;
  if (NOT_EXPRESSION.has(word)) return false;
  if (word === "let" && (tokens[first + 1]?.kind === "name" || next === "[" || next === "{")) {
    return false;
  }
  if (word === "import") return next === "(" || next === ".";
  if ((word === "type" || word === "module") && tokens[first + 1]?.kind === "name") return false;
  if (tokens[first]!.kind === "name" && next === ":") return false; // a label
  return true;
}

export interface Rewritten {
  /** The module's source: the prelude line, then the agent's lines. */
  source: string;
  /** Top-level names the cell declares (variables, functions, classes). */
  names: string[];
  /** Whether the module's default export is the cell's value. */
  hasValue: boolean;
  /** A 1-based line and column of the module, as a line and column of the agent's code. */
  position(line: number, column: number): { line: number; column: number };
}

const GLOBAL = "globalThis";

/** Rewrite a cell; throws a {@linkcode CellSyntaxError} for code the scanner cannot split. */
export function rewriteCell(code: string): Rewritten {
  const tokens = tokenize(code);
  const edits: Edit[] = [];
  const declared: string[] = [];
  const functions: string[] = [];
  let hasValue = false;
  const all = statements(tokens);
  all.forEach(([first, last], index) => {
    const word = firstWord(tokens, first);
    const second = tokens[first + 1];
    if (
      word === "const" && second?.text !== "enum" ||
      word === "var" ||
      word === "let" && (second?.kind === "name" || second?.text === "[" || second?.text === "{")
    ) {
      declared.push(...rewriteDeclaration(code, tokens, first, last, edits));
    } else if (word === "function") {
      const at = tokens[first]!.text === "async" ? first + 2 : first + 1;
      const name = tokens[tokens[at]?.text === "*" ? at + 1 : at];
      if (name?.kind === "name") functions.push(name.text);
    } else if (word === "class" || (word === "abstract" && second?.text === "class")) {
      const name = tokens[word === "class" ? first + 1 : first + 2];
      if (name?.kind === "name") {
        declared.push(name.text);
        const end = tokens[last]!.end;
        edits.push({ start: end, end, text: `;${GLOBAL}.${name.text} = ${name.text};` });
      }
    } else if (index === all.length - 1 && isExpressionStatement(tokens, first)) {
      hasValue = true;
      let end = last;
      if (tokens[end]!.text === ";" && end > first) end--;
      edits.push({
        start: tokens[first]!.start,
        end: tokens[first]!.start,
        text: "export default (",
      });
      edits.push({ start: tokens[end]!.end, end: tokens[end]!.end, text: ")" });
    }
  });
  const names = [...new Set([...declared, ...functions])];
  const prelude = [
    ...[...new Set(declared)].map((n) => `"${n}" in ${GLOBAL} || (${GLOBAL}.${n} = undefined);`),
    ...[...new Set(functions)].map((n) => `${GLOBAL}.${n} = ${n};`),
  ].join(" ");
  return { ...apply(code, edits, prelude), names, hasValue };
}

/** Apply edits and keep a map from the output back to the agent's code. */
function apply(code: string, edits: Edit[], prelude: string) {
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  // Segments: [output offset, original offset]; inserted text maps to its insertion point.
  const segments: Array<[number, number]> = [];
  let out = prelude + "\n";
  let at = 0;
  for (const edit of edits) {
    segments.push([out.length, at]);
    out += code.slice(at, edit.start);
    segments.push([out.length, -edit.start - 1]);
    out += edit.text;
    at = Math.max(at, edit.end);
  }
  segments.push([out.length, at]);
  out += code.slice(at);
  const outLines = new LineIndex(out);
  const codeLines = lineStarts(code);
  const position = (line: number, column: number) => {
    const offset = outLines.lineStart(line - 1) + column - 1;
    let original = 0;
    for (const [outStart, origStart] of segments) {
      if (outStart > offset) break;
      original = origStart < 0 ? -origStart - 1 : origStart + (offset - outStart);
    }
    const at = positionAt(codeLines, original);
    return { line: at.line + 1, column: at.character + 1 };
  };
  return { source: out, position };
}
