/**
 * refresh_code_actions: rebuilds the code-action cache from the quick fixes of the current
 * errors and warnings of a file, a folder or the project.
 * @module
 */
import { z } from "../../deps.ts";
import { requestCodeActions } from "../code_action_runner.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import { resolveFile } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";
import { actionDict } from "./code_actions.ts";

export const refreshCodeActions = defineTool({
  name: "refresh_code_actions",
  description: "Rebuilds the code-action cache: drops stale and server-offered actions, then " +
    "asks the language servers for the quick fixes of the current errors and warnings of a " +
    "file, a folder or the whole project (relative_path omitted). Returns the actions like " +
    "list_code_actions.",
  params: {
    relative_path: z.string().optional().describe(
      "A file or folder; omitted: the whole project.",
    ),
    max_files: z.number().int().min(1).max(500).default(50).describe(
      "Check at most this many files.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const store = ctx.session.codeActions(ctx.project());
    await store.prune();
    const collected = await collectDiagnostics(ctx, args.relative_path, args.max_files);
    const checked = new Set(collected.files.map((f) => f.relPath));
    store.clear((a) => a.action !== undefined && checked.has(a.relPath));
    let asked = 0;
    const limit = 100;
    for (const f of collected.files) {
      const problems = f.diagnostics.filter((d) => (d.severity ?? 1) <= 2);
      if (problems.length === 0) continue;
      const file = await resolveFile(ctx, f.relPath);
      for (const d of problems) {
        if (asked++ >= limit) break;
        await requestCodeActions(ctx, file, d.range, [d], ["quickfix"]);
      }
    }
    const actions = store.list().filter((a) => checked.has(a.relPath));
    return toJson({
      code_actions: actions.map((a) => actionDict(a, true)),
      count: actions.length,
      filesChecked: collected.checked,
      ...(asked > limit
        ? { note: `Only the first ${limit} diagnostics were asked for fixes.` }
        : {}),
    });
  },
});
