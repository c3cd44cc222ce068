/**
 * Parameters and messages that tools of several families share, defined once so their wording
 * and validation never diverge.
 * @module
 */
import { z } from "../../deps.ts";

export const maxAnswerChars = z.number().int().refine((n) => n === -1 || n > 0, {
  message: "must be positive or -1 (the configured default)",
  // Undescribed: the instructions explain -1 once instead of every tool's schema.
}).default(-1);

/** The `project_name` parameter of the dev-tools workflow's tools. */
export const projectNameParam = z.string().optional().describe(
  "A loaded project; omitted: the last used one.",
);

export const replaceMode = z.enum(["literal", "regex"]).describe(
  "regex: DOTALL, MULTILINE; $!1 in repl inserts group 1.",
);

/** How to turn the shell on; shared with the shell tool's error. */
export const ENABLE_SHELL_HINT = 'set "enable_shell": true in the global config ' +
  "($XDG_CONFIG_HOME/sextant/config.jsonc, usually ~/.config/sextant/config.jsonc) or start " +
  "Sextant with --enable-shell, then restart the MCP server";
