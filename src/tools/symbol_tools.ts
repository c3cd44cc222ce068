/**
 * Serena's symbol tools: the read tools (symbol_read_tools.ts), the edit tools
 * (symbol_edit_tools.ts) and restart_language_server; {@linkcode SYMBOL_TOOLS} lists them for
 * the registry.
 * @module
 */
import { poolFor } from "../lsp/pool.ts";
import { symbolIndexFor } from "../lsp/symbols_index.ts";
import { SYMBOL_EDIT_TOOLS } from "./symbol_edit_tools.ts";
import { SYMBOL_READ_TOOLS } from "./symbol_read_tools.ts";
import { defineTool, SUCCESS_RESULT, type Tool } from "./tool.ts";

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

/** Every symbol tool, in registry order. */
export const SYMBOL_TOOLS: readonly Tool[] = [
  ...SYMBOL_READ_TOOLS,
  ...SYMBOL_EDIT_TOOLS,
  restartLanguageServer,
];
