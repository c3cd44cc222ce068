/**
 * An Ada tokenizer: identifiers, numbers, string and character literals, delimiters; comments
 * dropped. Each token keeps its offsets so callers can cut the original text (with its layout
 * and comments) out of the source.
 * @module
 */
import { LineIndex } from "../../edit/line_index.ts";

/** Kinds of Ada tokens. */
export type TokenKind = "id" | "num" | "str" | "char" | "sym";

/** One token with its place in the source. */
export interface Token {
  kind: TokenKind;
  text: string;
  /** Lower-cased text, for keyword and name comparisons. */
  lower: string;
  /** Offset of the first character. */
  start: number;
  /** Offset after the last character. */
  end: number;
}

const TWO_CHAR = new Set(["=>", "..", "**", ":=", "/=", ">=", "<=", "<<", ">>", "<>"]);

/** Ada's reserved words (Ada 2022). */
export const RESERVED: ReadonlySet<string> = new Set(
  ("abort abs abstract accept access aliased all and array at begin body case constant declare " +
    "delay delta digits do else elsif end entry exception exit for function generic goto if in " +
    "interface is limited loop mod new not null of or others out overriding package parallel " +
    "pragma private procedure protected raise range record rem renames requeue return reverse " +
    "select separate some subtype synchronized tagged task terminate then type until use when " +
    "while with xor").split(" "),
);

/**
 * Split Ada source into tokens. A tick is a character literal (`'a'`) unless it follows a name,
 * a closing parenthesis or `all`, where it is an attribute or qualification (`T'Class`, `T'(..)`).
 *
 * @example
 * ```ts
 * tokenize("X : Character := 'a'; -- note").map((t) => t.text); // ["X", ":", "Character", ":=", "'a'", ";"]
 * ```
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, start: number, end: number) => {
    const text = source.slice(start, end);
    tokens.push({ kind, text, lower: text.toLowerCase(), start, end });
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v") {
      i++;
    } else if (c === "-" && source[i + 1] === "-") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === '"') {
      const start = i++;
      while (i < source.length) {
        if (source[i] === '"' && source[i + 1] === '"') i += 2;
        else if (source[i] === '"' || source[i] === "\n") {
          i++;
          break;
        } else i++;
      }
      push("str", start, i);
    } else if (c === "'") {
      const prev = tokens[tokens.length - 1];
      const afterName = prev !== undefined &&
        (prev.kind === "id" && (!RESERVED.has(prev.lower) || prev.lower === "all") ||
          prev.text === ")");
      if (!afterName && source[i + 2] === "'") {
        push("char", i, i + 3);
        i += 3;
      } else {
        push("sym", i, i + 1);
        i++;
      }
    } else if (/[A-Za-z_\u00C0-\uFFFF]/.test(c)) {
      const start = i;
      while (i < source.length && /[\w\u00C0-\uFFFF]/.test(source[i]!)) i++;
      push("id", start, i);
    } else if (/[0-9]/.test(c)) {
      const start = i;
      while (i < source.length && /[\w#.]/.test(source[i]!)) {
        // Stop before a range's "..": 1..10.
        if (source[i] === "." && source[i + 1] === ".") break;
        i++;
      }
      push("num", start, i);
    } else if (TWO_CHAR.has(source.slice(i, i + 2))) {
      push("sym", i, i + 2);
      i += 2;
    } else {
      push("sym", i, i + 1);
      i++;
    }
  }
  return tokens;
}

/** Ada's 1-based lines and columns, over the one table of line starts (edit/line_index.ts). */
export class AdaLines {
  readonly #lines: LineIndex;

  constructor(readonly source: string) {
    this.#lines = new LineIndex(source);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number } {
    const { line, character } = this.#lines.positionAt(offset);
    return { line: line + 1, column: character + 1 };
  }

  /** Offset of the start of a 1-based line (the text's end past the last line). */
  lineStart(line: number): number {
    return this.#lines.lineStart(line - 1);
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    return (this.#lines.at(line - 1) ?? "").replace(/\r$/, "");
  }
}
