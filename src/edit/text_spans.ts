/**
 * Spans of a text replaced by offsets: the one place several replacements are applied to a text
 * at once (LSP text edits once their positions are offsets, the matches of a replacement, chosen
 * occurrences), each span an offset range of the original text, whatever the order given.
 * @module
 */

/** `text.slice(start, end)` of the original, to be replaced by `text`. */
export interface TextSpan {
  start: number;
  end: number;
  text: string;
}

/** Why spans cannot be applied: one ends before it starts, or two overlap. */
export class SpanConflict extends RangeError {
  constructor(readonly kind: "inverted" | "overlap") {
    super(kind === "inverted" ? "A span ends before it starts." : "Two spans overlap.");
    this.name = "SpanConflict";
  }
}

/**
 * `text` with every span replaced. Spans may come in any order; inserts at one offset keep the
 * order they were given in. Throws a {@linkcode SpanConflict} (and replaces nothing) for a span
 * that ends before it starts or for spans that overlap.
 *
 * @example
 * ```ts
 * import { replaceSpans } from "./text_spans.ts";
 * const spans = [{ start: 6, end: 11, text: "there" }, { start: 0, end: 0, text: "> " }];
 * console.log(replaceSpans("hello world", spans)); // "> hello there"
 * ```
 */
export function replaceSpans(text: string, spans: readonly TextSpan[]): string {
  // A stable sort: inserts at one offset stay in the order given.
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const span of sorted) {
    if (span.end < span.start) throw new SpanConflict("inverted");
    if (span.start < at) throw new SpanConflict("overlap");
    out += text.slice(at, span.start) + span.text;
    at = span.end;
  }
  return out + text.slice(at);
}
