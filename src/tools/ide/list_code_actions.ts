/**
 * list_code_actions: the cached code actions that can still be executed, with their ids
 * (listed as code_actions lists them), in this project and the other loaded ones.
 * @module
 */
import { z } from "../../deps.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";
import { actionDict } from "./code_actions.ts";

export const listCodeActions = defineTool({
  name: "list_code_actions",
  description: "Lists the cached code actions (from code_actions, refresh_code_actions and " +
    "rename previews) that can still be executed, with their ids; stale ones (their files " +
    'changed) are dropped. Returns {"code_actions": [{"id", "title", "kind", "file", "line"}], ' +
    '"count"}.',
  params: {
    relative_path: z.string().optional().describe("Only actions for this file."),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const store = ctx.session.codeActions(ctx.project());
    const dropped = await store.prune();
    const only = args.relative_path?.trim()
      ? ctx.project().resolve(args.relative_path).relative
      : null;
    const actions = store.list().filter((a) => only === null || a.relPath === only);
    const listed = actions.map((a) => actionDict(a, true));
    // Other loaded projects' actions (manage_projects; e.g. a rename previewed with project_name)
    // follow, each with its project: execute_code_action finds them by id.
    for (const project of only === null ? ctx.session.projects.list() : []) {
      if (project === ctx.project()) continue;
      const other = ctx.session.codeActions(project);
      dropped.push(...await other.prune());
      listed.push(
        ...other.list().map((a) => ({ ...actionDict(a, true), project_name: project.name })),
      );
    }
    return toJson({
      code_actions: listed,
      count: listed.length,
      ...(dropped.length > 0 ? { dropped_stale: dropped.length } : {}),
    });
  },
});
