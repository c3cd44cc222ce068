/**
 * Every tool Sextant has, registered from this one list. Contexts and modes choose which of
 * them a session exposes (see config/toolsets.ts).
 * @module
 */
import { ADA_ALIAS_TOOLS } from "./ada_aliases.ts";
import { ADA_TOOLS } from "./ada_tools.ts";
import { CODE_ACTION_TOOLS } from "./code_action_tools.ts";
import { CONFIG_TOOLS } from "./config_tools.ts";
import { editTool } from "./edit_tool.ts";
import { DIAGNOSTICS_TOOLS } from "./diagnostics_tools.ts";
import { createTextFile, findFile, listDir, readFile } from "./file_tools.ts";
import { FORMAT_TOOLS } from "./format_tools.ts";
import { deleteLines, insertAtLine, replaceLines } from "./line_tools.ts";
import { MEMORY_TOOLS } from "./memory_tools.ts";
import { NAV_SYMBOL_TOOLS } from "./nav_symbols_tools.ts";
import { NAV_TOOLS } from "./nav_tools.ts";
import { PROJECT_TOOLS } from "./project_tools.ts";
import { replaceContentTool, replaceInFiles } from "./replace_tools.ts";
import { searchForPattern } from "./search_tools.ts";
import { executeShellCommand } from "./shell_tool.ts";
import { SYMBOL_INFO_TOOLS } from "./symbol_info_tools.ts";
import { SYMBOL_TOOLS } from "./symbol_tools.ts";
import type { Tool } from "./tool.ts";
import { TOOLCHAIN_TOOLS } from "./toolchain_tools.ts";
import { WORKFLOW_TOOLS } from "./workflow_tools.ts";

export const ALL_TOOLS: readonly Tool[] = [
  readFile,
  createTextFile,
  listDir,
  findFile,
  replaceContentTool,
  replaceInFiles,
  searchForPattern,
  deleteLines,
  replaceLines,
  insertAtLine,
  editTool,
  ...SYMBOL_TOOLS,
  ...SYMBOL_INFO_TOOLS,
  ...NAV_TOOLS,
  ...NAV_SYMBOL_TOOLS,
  ...DIAGNOSTICS_TOOLS,
  ...CODE_ACTION_TOOLS,
  ...FORMAT_TOOLS,
  ...ADA_ALIAS_TOOLS,
  ...TOOLCHAIN_TOOLS,
  ...ADA_TOOLS,
  ...MEMORY_TOOLS,
  ...CONFIG_TOOLS,
  ...PROJECT_TOOLS,
  ...WORKFLOW_TOOLS,
  executeShellCommand,
];
