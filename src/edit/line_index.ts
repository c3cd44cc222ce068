/**
 * The one table of line starts of a text, and what it answers: the offset of an LSP position
 * (0-based line, UTF-16 character), the position of an offset, the text of a line. As arrays for
 * code that holds a text's starts ({@linkcode lineStarts}), or as a {@linkcode LineIndex} that
 * scans only as far as it is asked (a few lines of many files cost no table of each whole file).
 * @module
 */
import type { Position } from "../deps.ts";

/** Offsets of line starts in `text` (index = line). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Offset of an LSP position in `text`; characters past the end of a line are clamped. */
export function offsetAt(text: string, starts: readonly number[], pos: Position): number {
  if (pos.line < 0) return 0;
  if (pos.line >= starts.length) return text.length;
  const lineStart = starts[pos.line]!;
  const next = pos.line + 1 < starts.length ? starts[pos.line + 1]! - 1 : text.length;
  return Math.min(lineStart + Math.max(0, pos.character), next);
}

/** LSP position of an offset in `text`. */
export function positionAt(starts: readonly number[], offset: number): Position {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - starts[lo]! };
}

/** The lines of a text, its table of line starts filled only as far as it is asked. */
export class LineIndex {
  readonly text: string;
  /** Offsets of the line starts found so far. */
  readonly #starts: number[] = [0];
  #complete = false;

  constructor(text: string) {
    this.text = text;
  }

  /** Find line starts until line `index` has its start and its end, or the text ends. */
  #scanTo(index: number): void {
    const starts = this.#starts;
    while (!this.#complete && starts.length <= index + 1) {
      const newline = this.text.indexOf("\n", starts[starts.length - 1]!);
      if (newline === -1) this.#complete = true;
      else starts.push(newline + 1);
    }
  }

  /** Line `index` without its `\n` (as `text.split("\n")[index]`); undefined outside the text. */
  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0) return undefined;
    this.#scanTo(index);
    const starts = this.#starts;
    if (index >= starts.length) return undefined;
    const end = index + 1 < starts.length ? starts[index + 1]! - 1 : this.text.length;
    return this.text.slice(starts[index]!, end);
  }

  /** Offset of the start of line `index` (the text's length past the last line). */
  lineStart(index: number): number {
    this.#scanTo(index);
    return this.#starts[index] ?? this.text.length;
  }

  /** LSP position of an offset. */
  positionAt(offset: number): Position {
    while (!this.#complete && this.#starts[this.#starts.length - 1]! <= offset) {
      this.#scanTo(this.#starts.length);
    }
    return positionAt(this.#starts, offset);
  }
}
