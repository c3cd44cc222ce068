/**
 * format_file: the language server's `textDocument/formatting`, applied or previewed as a
 * unified diff.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { TextEdit } from "../../deps.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { unifiedDiff } from "../../edit/diff.ts";
import { applyTextEdits } from "../../edit/workspace_edit.ts";
import { editFile } from "../shared/write.ts";
import { ask, ideDescribe, resolveFile } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { toJson } from "../shared/json.ts";

/** The indentation a file uses: tabs, or spaces with the most common step (default 4). */
export function detectIndentation(
  lines: readonly string[],
): { tabSize: number; insertSpaces: boolean } {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.startsWith("\t")) tabs++;
    else if (indent.length > 0) spaces++;
    const width = indent.startsWith("\t") ? -1 : indent.length;
    if (width >= 0) {
      const step = width - previous;
      if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = width;
    }
  }
  if (tabs > spaces) return { tabSize: 4, insertSpaces: false };
  let best = 4;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step < best)) {
      best = step;
      bestCount = count;
    }
  }
  return { tabSize: best, insertSpaces: true };
}

export const formatFile = defineTool({
  name: "format_file",
  description: "Formats a file with its language server's formatter (as the IDE's Format " +
    "Document), keeping the file's indentation style unless told otherwise. preview: true " +
    'changes nothing and shows the diff. Returns {"file", "formatted", "changes", "applied", ' +
    '"diff"}.',
  params: {
    relative_path: z.string().describe(ideDescribe.relativePath),
    preview: z.boolean().default(false).describe("Only show the diff; change nothing."),
    tab_size: z.number().int().min(1).max(16).optional().describe(
      "Indentation width; default: what the file uses.",
    ),
    insert_spaces: z.boolean().optional().describe(
      "Indent with spaces (true) or tabs (false); default: what the file uses.",
    ),
  },
  markers: ["symbolic-edit", "can-edit", "optional"],
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const file = await resolveFile(ctx, args.relative_path);
    const detected = detectIndentation(file.lines);
    const options = {
      tabSize: args.tab_size ?? detected.tabSize,
      insertSpaces: args.insert_spaces ?? detected.insertSpaces,
    };
    const edits = await ask<TextEdit[] | null>(
      file,
      LspMethod.formatting,
      { textDocument: { uri: file.uri }, options },
      "documentFormattingProvider",
      "formatting",
    ) ?? [];
    const after = applyTextEdits(file.text, edits, `'${file.relPath}'`);
    if (after === file.text) {
      return toJson({ file: file.relPath, formatted: true, changes: 0, applied: false });
    }
    const diff = unifiedDiff(file.relPath, file.text, after);
    if (args.preview) {
      return toJson({
        file: file.relPath,
        formatted: false,
        changes: edits.length,
        applied: false,
        diff,
      });
    }
    await editFile(ctx, file.relPath, (current) => {
      if (current !== file.text) {
        throw new ToolError(`'${file.relPath}' changed while it was being formatted; try again.`);
      }
      return after;
    });
    return toJson({
      file: file.relPath,
      formatted: true,
      changes: edits.length,
      applied: true,
      diff,
    });
  },
});
