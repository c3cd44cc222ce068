/**
 * Every tool Sextant has, registered from this one list. A tool is found from its name in one
 * step: `<family>/<tool_name>.ts`, or, where several tools share one implementation, the file
 * named for the main one, whose header lists the others (`layout_test.ts` keeps this true):
 *
 * - `files/`: read_file, create_text_file, list_dir, find_file, search_for_pattern,
 *   replace_content, replace_in_files, the line tools (replace_lines.ts), edit, rename_file;
 * - `symbols/`: Serena's symbol tools (overview, find, references, implementations, edits,
 *   rename, safe delete), get_symbol_info with find_symbol_usages, restart_language_server;
 * - `ide/`: position-based navigation (definition, hover, references, completions, signature
 *   help, call and type hierarchy, document and workspace symbols), diagnostics, code actions,
 *   format, rename at a position;
 * - `toolchain/`: check_project, test_project, project_info, dependency_graph,
 *   execute_shell_command;
 * - `ada/`: get_spec, stub_body, alire_info, and the `ada_*` aliases (aliases.ts);
 * - `session/`: projects, config and modes, memories, the workflow tools;
 * - `repl/`: code mode's `repl` (src/repl/ holds its worker and API);
 * - `shared/`: small helpers tools of several families use (parameters, the write path, symbol
 *   and position lookups, project selection). A family imports only the files at this folder's
 *   root and `shared/`, never another family.
 *
 * Beside this file, the machinery every call goes through: the tool definition (tool.ts), the
 * catalog, the selection, the listing, the call pipeline (call.ts), the report of the errors an
 * edit introduced (new_errors.ts), and the code-action runner with its refresh after each call
 * (code_action_runner.ts, code_action_refresh.ts).
 *
 * Contexts and modes choose which of them a session exposes (config/tool_selection.ts applies the data in
 * config/toolsets.ts).
 * @module
 */
import { ADA_ALIASES } from "./ada/aliases.ts";
import { alireInfo } from "./ada/alire_info.ts";
import { getSpec } from "./ada/get_spec.ts";
import { stubBody } from "./ada/stub_body.ts";
import { createTextFile } from "./files/create_text_file.ts";
import { editTool } from "./files/edit.ts";
import { findFile } from "./files/find_file.ts";
import { deleteLines, insertAtLine, replaceLines } from "./files/replace_lines.ts";
import { listDir } from "./files/list_dir.ts";
import { readFile } from "./files/read_file.ts";
import { renameFile } from "./files/rename_file.ts";
import { replaceContentTool } from "./files/replace_content.ts";
import { replaceInFiles } from "./files/replace_in_files.ts";
import { searchForPattern } from "./files/search_for_pattern.ts";
import { callHierarchy } from "./ide/call_hierarchy.ts";
import { typeHierarchy } from "./ide/type_hierarchy.ts";
import { codeActions } from "./ide/code_actions.ts";
import { refreshCodeActions } from "./ide/refresh_code_actions.ts";
import { executeCodeAction } from "./ide/execute_code_action.ts";
import { listCodeActions } from "./ide/list_code_actions.ts";
import { completions } from "./ide/completions.ts";
import { signatureHelp } from "./ide/signature_help.ts";
import { diagnostics } from "./ide/diagnostics.ts";
import { documentSymbols } from "./ide/document_symbols.ts";
import { findReferences } from "./ide/find_references.ts";
import { formatFile } from "./ide/format_file.ts";
import { getDiagnosticsForFile } from "./ide/get_diagnostics_for_file.ts";
import { getDiagnosticsForSymbol } from "./ide/get_diagnostics_for_symbol.ts";
import { gotoDefinition, implementation, typeDefinition } from "./ide/goto_definition.ts";
import { hover } from "./ide/hover.ts";
import { renameAtPosition } from "./ide/rename_at_position.ts";
import { workspaceSymbols } from "./ide/workspace_symbols.ts";
import { activateProject } from "./session/activate_project.ts";
import { removeProject } from "./session/remove_project.ts";
import { getCurrentConfig } from "./session/get_current_config.ts";
import { switchModes } from "./session/switch_modes.ts";
import { manageProjects } from "./session/manage_projects.ts";
import { writeMemory } from "./session/write_memory.ts";
import { renameMemory } from "./session/rename_memory.ts";
import { editMemory } from "./session/edit_memory.ts";
import { deleteMemory } from "./session/delete_memory.ts";
import { listMemories } from "./session/list_memories.ts";
import { readMemory } from "./session/read_memory.ts";
import { onboarding } from "./session/onboarding.ts";
import { prepareForNewConversation } from "./session/prepare_for_new_conversation.ts";
import { summarizeChanges } from "./session/summarize_changes.ts";
import { thinkAboutWhetherYouAreDone } from "./session/think_about_whether_you_are_done.ts";
import { thinkAboutTaskAdherence } from "./session/think_about_task_adherence.ts";
import { thinkAboutCollectedInformation } from "./session/think_about_collected_information.ts";
import { initialInstructions } from "./session/initial_instructions.ts";
import { checkOnboardingPerformed } from "./session/check_onboarding_performed.ts";
import { repl } from "./repl/repl.ts";
import { aliasTool } from "./shared/alias.ts";
import { findReferencingSymbols } from "./symbols/find_referencing_symbols.ts";
import { findImplementations } from "./symbols/find_implementations.ts";
import { findDeclaration } from "./symbols/find_declaration.ts";
import { findSymbol } from "./symbols/find_symbol.ts";
import { getSymbolsOverview } from "./symbols/get_symbols_overview.ts";
import { renameSymbol } from "./symbols/rename_symbol.ts";
import {
  insertAfterSymbol,
  insertBeforeSymbol,
  replaceSymbolBody,
} from "./symbols/replace_symbol_body.ts";
import { restartLanguageServer } from "./symbols/restart_language_server.ts";
import { safeDeleteSymbol } from "./symbols/safe_delete_symbol.ts";
import { findSymbolUsages, getSymbolInfo } from "./symbols/get_symbol_info.ts";
import type { Tool } from "./tool.ts";
import { checkProject } from "./toolchain/check_project.ts";
import { executeShellCommand } from "./toolchain/execute_shell_command.ts";
import { projectInfoTool } from "./toolchain/project_info.ts";
import { dependencyGraph } from "./toolchain/dependency_graph.ts";
import { testProject } from "./toolchain/test_project.ts";

/** The IDE tools that the `ada_*` aliases stand for. */
const IDE_TOOLS: readonly Tool[] = [
  gotoDefinition,
  typeDefinition,
  implementation,
  hover,
  findReferences,
  signatureHelp,
  completions,
  callHierarchy,
  typeHierarchy,
  documentSymbols,
  workspaceSymbols,
  diagnostics,
  codeActions,
  listCodeActions,
  executeCodeAction,
  refreshCodeActions,
  formatFile,
];

/** The `ada_*` aliases, built from the tools they stand for. */
export const ADA_ALIAS_TOOLS: readonly Tool[] = ADA_ALIASES.map(([name, toolName, renames]) => {
  const tool = [...IDE_TOOLS, renameAtPosition].find((t) => t.name === toolName);
  if (!tool) throw new Error(`The alias ${name} stands for an unknown tool ${toolName}`);
  return aliasTool(tool, name, renames);
});

/** The memory tools, in registry order. */
export const MEMORY_TOOLS: readonly Tool[] = [
  writeMemory,
  readMemory,
  listMemories,
  deleteMemory,
  editMemory,
  renameMemory,
];

/** The project and configuration tools, in registry order. */
export const CONFIG_TOOLS: readonly Tool[] = [
  activateProject,
  removeProject,
  switchModes,
  getCurrentConfig,
];

/** Serena's workflow tools, in registry order. */
export const WORKFLOW_TOOLS: readonly Tool[] = [
  checkOnboardingPerformed,
  onboarding,
  thinkAboutCollectedInformation,
  thinkAboutTaskAdherence,
  thinkAboutWhetherYouAreDone,
  summarizeChanges,
  prepareForNewConversation,
  initialInstructions,
];

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
  getSymbolsOverview,
  findSymbol,
  findReferencingSymbols,
  findImplementations,
  findDeclaration,
  getDiagnosticsForFile,
  getDiagnosticsForSymbol,
  replaceSymbolBody,
  insertAfterSymbol,
  insertBeforeSymbol,
  renameSymbol,
  renameFile,
  safeDeleteSymbol,
  restartLanguageServer,
  getSymbolInfo,
  findSymbolUsages,
  ...IDE_TOOLS,
  ...ADA_ALIAS_TOOLS,
  checkProject,
  testProject,
  projectInfoTool,
  dependencyGraph,
  getSpec,
  stubBody,
  alireInfo,
  ...MEMORY_TOOLS,
  ...CONFIG_TOOLS,
  manageProjects,
  ...WORKFLOW_TOOLS,
  executeShellCommand,
  repl,
];
