/**
 * Compact unified diffs for edit results: hunks only, with two lines of context.
 * @module
 */
import { structuredPatch } from "../deps.ts";

export function unifiedDiff(path: string, before: string, after: string, context = 2): string {
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before, after, "", "", { context });
  const lines = [`--- a/${path}`, `+++ b/${path}`];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    lines.push(...hunk.lines.filter((l) => !l.startsWith("\\")));
  }
  return lines.join("\n");
}
