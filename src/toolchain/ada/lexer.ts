/**
 * An Ada tokenizer: identifiers, numbers, string and character literals, delimiters; comments
 * dropped. Each token keeps its offsets so callers can cut the original text (with its layout
 * and comments) out of the source.
 * @module
 */

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

/** Maps offsets to 1-based line and column. */
export class LineIndex {
  readonly #starts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = 0; i < source.length; i++) if (source[i] === "\n") this.#starts.push(i + 1);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.#starts[lo]! + 1 };
  }

  /** Offset of the start of a 1-based line (the text's end past the last line). */
  lineStart(line: number): number {
    return this.#starts[line - 1] ?? this.source.length;
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const start = this.lineStart(line);
    const end = this.source.indexOf("\n", start);
    return this.source.slice(start, end < 0 ? undefined : end).replace(/\r$/, "");
  }
}
