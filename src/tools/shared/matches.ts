/**
 * Text matches as Serena shows them: matched lines and context lines with their line numbers.
 * @module
 */

/** Numbered lines: an array of them, or a {@linkcode LineIndex}. */
export interface Lines {
  readonly length: number;
  at(index: number): string | undefined;
}

/**
 * The lines of a text by their start offsets, each cut out only when asked for: a few lines of
 * many files cost an offset scan per file instead of a string per line.
 */
export class LineIndex implements Lines {
  readonly #text: string;
  readonly #starts: number[] = [0];

  constructor(text: string) {
    this.#text = text;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
      this.#starts.push(at + 1);
    }
  }

  /** How many `\n`-separated lines the text has (as `text.split("\n").length`). */
  get length(): number {
    return this.#starts.length;
  }

  /** Line `index` without its `\n`; undefined outside the text. */
  at(index: number): string | undefined {
    const starts = this.#starts;
    if (!Number.isInteger(index) || index < 0 || index >= starts.length) return undefined;
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
  const to = Math.min(lines.length - 1, last + after);
  const out: string[] = [];
  for (let i = from; i <= to; i++) {
    const prefix = i >= first && i <= last ? "  >" : "...";
    out.push(`${prefix}${String(i).padStart(4)}:${lines.at(i)}`);
  }
  return out.join("\n");
}
