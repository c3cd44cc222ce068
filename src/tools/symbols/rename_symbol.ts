/**
 * rename_symbol: renames a symbol everywhere with the language server, or previews the rename.
 * @module
 */
import { checkNewName } from "../../lsp/identifiers.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { planWorkspaceEdit } from "../../edit/workspace_edit.ts";
import { previewWorkspaceEdit } from "../../lsp/code_actions.ts";
import { namePathOf } from "../../lsp/symbols.ts";
import { requestRename } from "../../lsp/symbols_queries.ts";
import { indexOf, requestOptions } from "../shared/symbols.ts";
import { defineTool } from "../tool.ts";
import { locate, symbolEditParams } from "../shared/symbols.ts";
import { toJson } from "../shared/json.ts";
import { applyWorkspaceEdit } from "../shared/write.ts";

export const renameSymbol = defineTool({
  name: "rename_symbol",
  description:
    "Renames a symbol across the project with the language server (all files or none). " +
    "preview: true changes nothing and returns the changes with an action_id for " +
    "execute_code_action.",
  params: {
    ...symbolEditParams,
    new_name: z.string().describe("The new name of the symbol."),
    preview: z.boolean().default(false).describe(
      "Change nothing; return the changes and an action_id.",
    ),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const newName = checkNewName(args.new_name);
    const target = await locate(ctx, args.name_path, args.relative_path);
    const oldPath = namePathOf(target.node);
    if (newName === target.node.name) {
      return `'${oldPath}' is already named '${newName}'; nothing to change.`;
    }
    const project = ctx.project();
    const index = indexOf(ctx);
    const { edit, server } = await requestRename(index, target, newName, requestOptions(ctx));
    if (args.preview) {
      return toJson(
        await previewWorkspaceEdit(
          ctx.session.codeActions(project),
          project,
          edit,
          (uri) => server.relPathOf(uri),
          {
            title: `Rename '${oldPath}' to '${newName}'`,
            oldName: target.node.name,
            newName,
            relPath: target.node.relPath,
            line: target.node.selectionRange.start.line + 1,
            serverId: server.id,
          },
        ),
      );
    }
    // The server's rename edits text only; a rename that moves files is refused.
    const planOptions = {
      relPathOf: (uri: string) => server.relPathOf(uri),
      fileOperations: false,
    };
    const plan = await planWorkspaceEdit(project, edit, planOptions);
    const planned = plan.files.filter((p) => p.after !== p.before);
    if (planned.length === 0) {
      throw new ToolError(
        `The language server found nothing to rename for '${oldPath}' in ` +
          `'${target.node.relPath}'. Check the name path with find_symbol.`,
      );
    }
    // A server's rename can be wrong (e.g. through re-exports): the errors it introduced come
    // back with the answer (see shared/new_diagnostics.ts).
    ctx.signal.throwIfAborted();
    const changed = await applyWorkspaceEdit(ctx, edit, planOptions);
    const edits = changed.reduce((n, p) => n + p.editCount, 0);
    return `Renamed '${oldPath}' to '${newName}': ${edits} edit(s) in ${changed.length} ` +
      `file(s): ${changed.map((p) => `${p.relPath} (${p.editCount})`).join(", ")}.`;
  },
});
