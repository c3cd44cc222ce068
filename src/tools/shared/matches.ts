/**
 * Text matches as Serena shows them: matched lines and context lines with their line numbers.
 * @module
 */

/** Numbered lines: an array of them, or a {@linkcode LineIndex}. */
export interface Lines {
  at(index: number): string | undefined;
}

/**
 * The lines of a text cut out only when asked for, found by a scan that goes no further than the
 * lines asked for: a few lines of many files cost neither a string per line nor an offset per
 * line of the whole file.
 */
export class LineIndex implements Lines {
  readonly #text: string;
  /** Offsets of the line starts found so far. */
  readonly #starts: number[] = [0];
  #complete = false;

  constructor(text: string) {
    this.#text = text;
  }

  /** Line `index` without its `\n` (as `text.split("\n")[index]`); undefined outside the text. */
  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0) return undefined;
    const starts = this.#starts;
    while (!this.#complete && starts.length <= index + 1) {
      const newline = this.#text.indexOf("\n", starts[starts.length - 1]!);
      if (newline === -1) this.#complete = true;
      else starts.push(newline + 1);
    }
    if (index >= starts.length) return undefined;
    const end = index + 1 < starts.length ? starts[index + 1]! - 1 : this.#text.length;
    return this.#text.slice(starts[index]!, end);
  }
}

/** One match formatted like Serena: `  >  12:text` for matched lines, `...  11:text` for context. */
export function formatMatch(
  lines: Lines,
  first: number,
  last: number,
  before: number,
  after: number,
): string {
  const from = Math.max(0, first - before);
  const out: string[] = [];
  for (let i = from; i <= last + after; i++) {
    const line = lines.at(i);
    if (line === undefined) break; // past the last line
    const prefix = i >= first && i <= last ? "  >" : "...";
    out.push(`${prefix}${String(i).padStart(4)}:${line}`);
  }
  return out.join("\n");
}
