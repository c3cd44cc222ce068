/**
 * A tool that only returns a fixed guidance text: the thinking tools, summarize_changes and
 * prepare_for_new_conversation.
 * @module
 */
import { defineTool, type Tool } from "../tool.ts";

/** A tool that only returns a fixed guidance text (it still requires an active project). */
export function guidanceTool(
  name: string,
  description: string,
  text: string,
  optional = false,
): Tool {
  return defineTool({
    name,
    description,
    params: {},
    readOnly: true,
    ...(optional ? { markers: ["optional" as const] } : {}),
    handler(_args, ctx) {
      ctx.project();
      return Promise.resolve(text);
    },
  });
}
