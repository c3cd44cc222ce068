/**
 * rename_at_position: renames the symbol at a position (the ada context's ada_rename_symbol).
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { WorkspaceEdit } from "../../deps.ts";
import { checkNewName } from "../../symbols/identifiers.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { previewWorkspaceEdit } from "../../session/code_action_store.ts";
import { toAgentPosition } from "../../lsp/positions.ts";
import { applyEditInSession } from "../code_action_runner.ts";
import { ask, describePosition, resolvePosition } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { positionParams } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";

/**
 * Rename at a position (the Ada MCP setup's `ada_rename_symbol`): preview by default (the changes and an
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
    const edit = await ask<WorkspaceEdit | null>(
      target,
      LspMethod.rename,
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
        await previewWorkspaceEdit(
          ctx.session.codeActions(ctx.project()),
          ctx.project(),
          edit,
          relPathOf,
          {
            title: `Rename '${oldName}' to '${newName}'`,
            oldName,
            newName,
            relPath: target.relPath,
            line: at.line,
            serverId: target.server.id,
          },
        ),
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
