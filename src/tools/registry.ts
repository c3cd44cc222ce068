/**
 * Every tool Sextant has, registered from this one list. Contexts and modes choose which of
 * them a session exposes (see config/toolsets.ts).
 * @module
 */
import { ADA_TOOLS } from "./ada_tools.ts";
import { CONFIG_TOOLS } from "./config_tools.ts";
import { editTool } from "./edit_tool.ts";
import { createTextFile, findFile, listDir, readFile } from "./file_tools.ts";
import { deleteLines, insertAtLine, replaceLines } from "./line_tools.ts";
import { MEMORY_TOOLS } from "./memory_tools.ts";
import { replaceContentTool, replaceInFiles } from "./replace_tools.ts";
import { searchForPattern } from "./search_tools.ts";
import { executeShellCommand } from "./shell_tool.ts";
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
  ...TOOLCHAIN_TOOLS,
  ...ADA_TOOLS,
  ...MEMORY_TOOLS,
  ...CONFIG_TOOLS,
  ...WORKFLOW_TOOLS,
  executeShellCommand,
];
