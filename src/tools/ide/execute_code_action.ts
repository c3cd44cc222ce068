/**
 * execute_code_action: applies a cached code action by id to all its files or none (the
 * code-action runner, code_action_runner.ts, does the work), in the project that offered it.
 * @module
 */
import { z } from "../../deps.ts";
import { executeStoredAction } from "../code_action_runner.ts";
import { defineTool } from "../tool.ts";
import { forProject, projectOfAction } from "../shared/project_selection.ts";
import { toJson } from "../shared/json.ts";

export const executeCodeAction = defineTool({
  name: "execute_code_action",
  description: "Applies a code action by id (from code_actions, list_code_actions, check_project " +
    "fixes or a rename preview) to all files or none; refused when a file changed since. " +
    "Returns a diff.",
  params: {
    action_id: z.string().describe("The id of the action."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    // Fix ids from check_project may belong to another loaded project: run them there.
    const owner = projectOfAction(ctx.session, args.action_id);
    const result = await executeStoredAction(
      owner ? forProject(ctx, owner) : ctx,
      args.action_id,
    );
    const files = result.files.map(({ diff: _diff, ...rest }) => rest);
    const diff = result.files.map((f) => f.diff).join("\n");
    const base = {
      applied: result.applied,
      action: result.action,
      ...(result.command ? { command: result.command } : {}),
      files,
      ...(result.note ? { note: result.note } : {}),
    };
    if (result.files.length === 0) {
      return toJson({ ...base, note: "The action changed no files." });
    }
    return {
      text: toJson({ ...base, diff }),
      shorter: [{ note: "Applied; the diff is too long to show:", text: () => toJson(base) }],
    };
  },
});
