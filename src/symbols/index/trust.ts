/**
 * Whether a file's extracted declarations can stand for it in the index at all. tree-sitter
 * recovers from syntax it does not know (a grammar older than the language, a file mid-edit) by
 * guessing, and the guesses become declarations named `const` or `if` while the real ones (a
 * class around the broken spot) are lost. Such a file is listed with the files the index does
 * not parse, so every search reads it and its symbols come from the language server.
 * @module
 */
import type { CompactSymbol } from "../model.ts";
import type { GrammarId } from "./grammars.ts";

const JS_KEYWORDS = [
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "delete",
  "do",
  "else",
  "export",
  "extends",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "let",
  "new",
  "return",
  "switch",
  "this",
  "throw",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
];

/** Words that are never a declaration's name in each grammar (`default` is a name in JS). */
const KEYWORDS: Readonly<Record<GrammarId, ReadonlySet<string>>> = {
  typescript: new Set([...JS_KEYWORDS, "enum", "interface", "implements", "type", "namespace"]),
  tsx: new Set([...JS_KEYWORDS, "enum", "interface", "implements", "namespace"]),
  javascript: new Set(JS_KEYWORDS),
  python: new Set([
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
  ]),
  rust: new Set([
    "as",
    "break",
    "const",
    "continue",
    "crate",
    "else",
    "enum",
    "extern",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "static",
    "struct",
    "trait",
    "unsafe",
    "use",
    "where",
    "while",
  ]),
  go: new Set([
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
  ]),
  c: new Set(["break", "case", "do", "else", "for", "goto", "if", "return", "switch", "while"]),
  cpp: new Set(["break", "case", "do", "else", "for", "goto", "if", "return", "switch", "while"]),
  bash: new Set(["if", "then", "fi", "do", "done", "case", "esac", "while", "for", "in"]),
  java: new Set(["break", "case", "do", "else", "for", "if", "new", "return", "switch", "while"]),
};

/** Member kinds (Method, Property, Field, Constructor): JavaScript allows keywords as their names. */
const MEMBER_KINDS: ReadonlySet<number> = new Set([6, 7, 8, 9]);
const KEYWORD_MEMBERS: ReadonlySet<GrammarId> = new Set(["typescript", "tsx", "javascript"]);

/**
 * Why a parsed file's declarations must not stand for it (a syntax error, a keyword among the
 * names), or null when they may.
 */
export function untrustedReason(
  symbols: readonly CompactSymbol[],
  grammar: GrammarId,
  hasError: boolean,
): string | null {
  if (hasError) return "syntax error";
  const keywords = KEYWORDS[grammar];
  let found: string | null = null;
  const visit = (forest: readonly CompactSymbol[]) => {
    for (const s of forest) {
      if (found !== null) return;
      const member = MEMBER_KINDS.has(s[1]) && KEYWORD_MEMBERS.has(grammar);
      if (!member && keywords.has(s[0])) found = s[0];
      else if (s[10]) visit(s[10]);
    }
  };
  visit(symbols);
  return found === null ? null : `a keyword ('${found}') read as a name`;
}
