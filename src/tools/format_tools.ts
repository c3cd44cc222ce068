/**
 * Refactoring with the language server: format_file (`textDocument/formatting`, applied or
 * previewed as a unified diff) and a position-addressed rename (the `ada_rename_symbol` alias;
 * Serena's `rename_symbol` addresses symbols by name path), which previews by default and then
 * stores the edit as a code action for `execute_code_action`.
 * @module
 */
import { checkNewName } from "../lsp/identifiers.ts";
import { z } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { unifiedDiff } from "../edit/diff.ts";
import { applyTextEdits, type LspTextEdit, type LspWorkspaceEdit } from "../edit/workspace_edit.ts";
import { previewWorkspaceEdit } from "../lsp/code_actions.ts";
import { toAgentPosition } from "../lsp/positions.ts";
import { applyEditInSession } from "./code_action_exec.ts";
import { editFile } from "./file_edit.ts";
import {
  ask,
  describePosition,
  ideDescribe,
  positionParams,
  resolveFile,
  resolvePosition,
  toJson,
} from "./ide_common.ts";
import { defineTool, type Tool } from "./tool.ts";

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
    const edits = await ask<LspTextEdit[] | null>(
      file,
      "textDocument/formatting",
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

/**
 * Rename at a position (seed 003's `ada_rename_symbol`): preview by default (the changes and an
 * action id for execute_code_action), or apply. Registered only through its `ada_` alias.
 */
export const renameAtPosition = defineTool({
  name: "rename_at_position",
  description: "Renames the symbol at a position everywhere with the language server's rename " +
    "refactoring. Position: relative_path + 1-based line/column, or name_path. preview (default " +
    'true) changes nothing and returns {"oldName", "newName", "changes": [{"file", "line", ' +
    '"column", "oldText", "newText"}], "totalChanges", "applied": false, "action_id"} (execute ' +
    "it with execute_code_action); preview false applies it to all files or none.",
  params: {
    ...positionParams,
    new_name: z.string().describe("The new name."),
    preview: z.boolean().default(true).describe("Only show the changes (default)."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const newName = checkNewName(args.new_name);
    const target = await resolvePosition(ctx, args);
    const oldName = target.symbol?.name ?? target.word;
    const edit = await ask<LspWorkspaceEdit | null>(
      target,
      "textDocument/rename",
      { textDocument: { uri: target.uri }, position: target.position, newName },
      "renameProvider",
      "renaming",
    );
    const relPathOf = (uri: string) => target.server.relPathOf(uri);
    const empty = !edit || (Object.keys(edit.changes ?? {}).length === 0 &&
      (edit.documentChanges ?? []).length === 0);
    if (empty) {
      throw new ToolError(
        `Nothing to rename at ${describePosition(target)}: put the position on an identifier.`,
      );
    }
    const at = toAgentPosition(target.lines, target.position);
    if (args.preview) {
      return toJson(
        await previewWorkspaceEdit(ctx.project(), edit, relPathOf, {
          title: `Rename '${oldName}' to '${newName}'`,
          oldName,
          newName,
          relPath: target.relPath,
          line: at.line,
          serverId: target.server.id,
        }),
      );
    }
    const files = await applyEditInSession(ctx, edit, relPathOf);
    return toJson({
      oldName,
      newName,
      files: Object.fromEntries(files.map((f) => [f.file, f.edits])),
      totalChanges: files.reduce((n, f) => n + f.edits, 0),
      applied: true,
    });
  },
});

/** The registered tools of this module (rename_at_position is exposed only as an alias). */
export const FORMAT_TOOLS: readonly Tool[] = [formatFile];
