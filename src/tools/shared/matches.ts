/**
 * Text matches as Serena shows them: matched lines and context lines with their line numbers.
 * @module
 */

/** Numbered lines: an array of them, or a LineIndex (edit/line_index.ts). */
export interface Lines {
  at(index: number): string | undefined;
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
