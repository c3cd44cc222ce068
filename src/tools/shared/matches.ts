/**
 * Text matches as Serena shows them: matched lines and context lines with their line numbers.
 * @module
 */

/** One match formatted like Serena: `  >  12:text` for matched lines, `...  11:text` for context. */
export function formatMatch(
  lines: readonly string[],
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
    out.push(`${prefix}${String(i).padStart(4)}:${lines[i]}`);
  }
  return out.join("\n");
}
