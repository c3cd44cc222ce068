/**
 * restart_language_server: stops and restarts the project's language servers.
 * @module
 */
import { poolFor } from "../../lsp/pool.ts";
import { symbolIndexFor } from "../../lsp/symbols_index.ts";
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
    await symbolIndexFor(ctx.session, project).flush();
    await poolFor(ctx.session, project).restartAll();
    return SUCCESS_RESULT;
  },
});
