/**
 * The words of files read but not parsed yet, while the declaration index builds: a search's scan
 * reads every file it has to (does its text contain the search's needle?) and the worker sends
 * back the file's distinct words beside "deferred". A later search with a new name then decides
 * from them, on the main thread and without reading any file again, which of those files may
 * declare it; only those are parsed ahead of the build (declaration_index.ts, `prepareFor`).
 *
 * The decision is exact, not a guess: a needle made only of word characters occurs in a text
 * exactly when it occurs inside one of the text's maximal runs of word characters, and those runs
 * are what is kept (each once, separated by a space, which is no word character). Non-ASCII
 * characters all count as word characters here: the runs are then longer, never split, so no
 * occurrence is lost.
 * @module
 */

/** ASCII characters that are not word characters (letters, digits, `_`, `$` are). */
// deno-lint-ignore no-control-regex -- control characters separate words too
const SEPARATORS = /[\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]+/;
/** What a needle must be for the words to decide it (prefilterNeedle's runs are). */
const WORD_NEEDLE = /^[\p{L}\p{N}_$]+$/u;

/**
 * A text's distinct words, separated by single spaces: `words.includes(needle)` equals
 * `text.includes(needle)` for every needle of word characters.
 *
 * @example
 * ```ts
 * import { textWords } from "./unparsed_words.ts";
 * console.log(textWords("export class Widget12 { n = Widget12.size; }"));
 * // "export class Widget12 n size"
 * ```
 */
export function textWords(text: string): string {
  const seen = new Set(text.split(SEPARATORS));
  seen.delete("");
  let out = "";
  for (const word of seen) out = out === "" ? word : out + " " + word;
  return out;
}

/** See the module documentation. */
export class UnparsedWords {
  readonly #words = new Map<string, string>();
  /** The last needle asked about, and whether the words can decide it. */
  #needle = "";
  #decides = false;

  /** How many files' words are held. */
  get size(): number {
    return this.#words.size;
  }

  /** Keep a file's words ({@linkcode textWords} of its text as read). */
  set(relPath: string, words: string): void {
    this.#words.set(relPath, words);
  }

  /**
   * Whether the file's text contains the needle, from its words; undefined when its words are
   * not known or cannot decide (a needle with other characters than word characters).
   */
  contains(relPath: string, needle: string): boolean | undefined {
    const words = this.#words.get(relPath);
    if (words === undefined) return undefined;
    if (needle !== this.#needle) {
      this.#needle = needle;
      this.#decides = WORD_NEEDLE.test(needle);
    }
    return this.#decides ? words.includes(needle) : undefined;
  }

  /** Forget a file's words (it was parsed, or it changed since they were read). */
  delete(relPath: string): void {
    this.#words.delete(relPath);
  }

  clear(): void {
    this.#words.clear();
  }
}
