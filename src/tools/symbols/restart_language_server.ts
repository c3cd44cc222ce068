/**
 * restart_language_server: stops and restarts the project's language servers.
 * @module
 */
import { defineTool, SUCCESS_RESULT } from "../tool.ts";

export const restartLanguageServer = defineTool({
  name: "restart_language_server",
  description: "Restarts the project's language servers. Use only on explicit user request or " +
    "after confirmation, e.g. when a server hangs. Returns OK.",
  params: {},
  markers: ["optional"],
  readOnly: false,
  destructive: false,
  async handler(_args, ctx) {
    const project = ctx.project();
    await ctx.session.services(project).symbols.flush();
    await ctx.session.services(project).pool.restartAll();
    return SUCCESS_RESULT;
  },
});
