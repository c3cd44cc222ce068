/**
 * Where the words every import form begins with occur in a file's text, found in one pass, and
 * the matches of the import facts' patterns at them (import_reach.ts `moduleFacts`). Each of
 * those patterns begins with one of these words (or at the start of the line holding one as its
 * first word), so trying a pattern only there finds exactly the matches a scan of the whole text
 * finds, in the same order. A dozen scans of every character of every JavaScript and TypeScript
 * file were most of the facts' CPU on a cold tree (typeorm's npm package, 8 MB in 1,997 files:
 * 100–135 ms); with one scan for the words, 57–100 ms, ~20 ms of it that scan.
 * @module
 */

/** The words, as bits of a mask: a pattern is tried where any word of its mask occurs. */
export const IMPORT = 1;
export const EXPORT = 2;
export const REQUIRE = 4;
export const FROM = 8;
export const MODULE = 16;
export const NAMESPACE = 32;
export const DECLARE = 64;
/** `///`, a triple-slash directive's start. */
export const TRIPLE_SLASH = 128;
/** `@jsx`, a JSX pragma's start. */
export const JSX_PRAGMA = 256;

/** Every occurrence of each word (`exports` is an `export`); overlapping ones too, see below. */
const WORDS = /import|export|require|from|module|namespace|declare|\/\/\/|@jsx/g;

/** The word beginning at an occurrence, by its first character (each word's is its own). */
const WORD_BY_FIRST: Readonly<Record<string, number>> = {
  i: IMPORT,
  e: EXPORT,
  r: REQUIRE,
  f: FROM,
  m: MODULE,
  n: NAMESPACE,
  d: DECLARE,
  "/": TRIPLE_SLASH,
  "@": JSX_PRAGMA,
};

/** The occurrences of the import words in one text. */
export class ImportWords {
  readonly #text: string;
  /** Offsets of the occurrences, ascending. */
  readonly #at: number[] = [];
  /** The word of each occurrence (one bit). */
  readonly #word: number[] = [];
  /** Every word that occurs. */
  readonly #present: number = 0;

  constructor(text: string) {
    this.#text = text;
    let present = 0;
    // The next search starts one character on, not after the word: one word may end where
    // another begins (`requirexport`, `fromodule`, `////`), and every occurrence must count.
    WORDS.lastIndex = 0;
    for (let m = WORDS.exec(text); m !== null; m = WORDS.exec(text)) {
      const word = WORD_BY_FIRST[m[0][0]!]!;
      this.#at.push(m.index);
      this.#word.push(word);
      present |= word;
      WORDS.lastIndex = m.index + 1;
    }
    this.#present = present;
  }

  /** Whether any word of `words` occurs (as `text.includes(word)` says). */
  has(words: number): boolean {
    return (this.#present & words) !== 0;
  }

  /** Whether some occurrence of a word of `words` is followed by a character `next` matches. */
  hasFollowedBy(words: number, next: RegExp): boolean {
    if (!this.has(words)) return false;
    const text = this.#text;
    for (let i = 0; i < this.#at.length; i++) {
      if ((this.#word[i]! & words) === 0) continue;
      const at = this.#at[i]!;
      if (next.test(text[at + WORD_LENGTH[this.#word[i]!]!] ?? "")) return true;
    }
    return false;
  }

  /**
   * The matches `text.matchAll` finds of a pattern that begins with one of `words`, each tried
   * where such a word occurs. `pattern` is sticky (`y`): it matches where it is tried or not at
   * all. As matchAll, a match does not begin inside the one before it.
   */
  *matches(pattern: RegExp, words: number): Generator<RegExpExecArray> {
    yield* this.#tried(pattern, words, (at) => at);
  }

  /**
   * The matches `text.matchAll` finds of a multiline pattern that begins at the start of a line
   * (`^`), then blanks (`[ \t]*`) where `indented`, then one of `words`: each tried at the start
   * of the blanks before an occurrence (the regular expression checks that it is a line's
   * start). `pattern` is sticky (`y`) and multiline (`m`).
   */
  *lineMatches(pattern: RegExp, words: number, indented: boolean): Generator<RegExpExecArray> {
    const text = this.#text;
    yield* this.#tried(pattern, words, (at) => {
      let start = at;
      if (indented) {
        while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
      }
      return start;
    });
  }

  *#tried(
    pattern: RegExp,
    words: number,
    startOf: (at: number) => number,
  ): Generator<RegExpExecArray> {
    if (!this.has(words)) return;
    let end = 0;
    for (let i = 0; i < this.#at.length; i++) {
      if ((this.#word[i]! & words) === 0) continue;
      const start = startOf(this.#at[i]!);
      if (start < end) continue;
      pattern.lastIndex = start;
      const m = pattern.exec(this.#text);
      if (m === null) continue;
      end = start + Math.max(1, m[0].length);
      yield m;
    }
  }
}

/** Each word's length, by its bit. */
const WORD_LENGTH: Readonly<Record<number, number>> = {
  [IMPORT]: 6,
  [EXPORT]: 6,
  [REQUIRE]: 7,
  [FROM]: 4,
  [MODULE]: 6,
  [NAMESPACE]: 9,
  [DECLARE]: 7,
  [TRIPLE_SLASH]: 3,
  [JSX_PRAGMA]: 4,
};
