/**
 * Contexts and modes: data that selects which tools are exposed and adds prompt fragments.
 * A context describes the client (chat app, coding agent, IDE) and is fixed for a session; modes
 * describe the way of working and can be switched live (switch_modes). Built-ins are defined
 * here; config (`contexts`, `mode_definitions`) may add new ones or override a built-in's fields.
 * This module is data and its lookup; tool_selection.ts applies it to the tool list.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { Settings, ToolSetDefinition } from "./schema.ts";

/** Plain file and shell tools that coding-agent and IDE clients already have built in. */
const CLIENT_FILE_TOOLS = ["create_text_file", "read_file", "execute_shell_command"];
/** Sextant's line tools and `edit` duplicate a client's own edit tool. */
const CLIENT_EDIT_TOOLS = ["edit", "delete_lines", "replace_lines", "insert_at_line"];

/**
 * The dev-tools workflow: projects, symbol info and usages, check and test, fixes and refactorings as
 * code actions executed by id. Every context that edits code lists it whole.
 */
export const DEVTOOLS_WORKFLOW = [
  "find_declaration",
  "manage_projects",
  "get_symbol_info",
  "find_symbol_usages",
  "check_project",
  "test_project",
  "list_code_actions",
  "execute_code_action",
  "refresh_code_actions",
  "rename_symbol",
];
/** Every IDE navigation and refactoring tool (the Ada MCP setup's tools, without the `ada_` prefix). */
export const IDE_WORKFLOW = [
  "goto_definition",
  "type_definition",
  "implementation",
  "hover",
  "find_references",
  "document_symbols",
  "workspace_symbols",
  "diagnostics",
  "call_hierarchy",
  "completions",
  "signature_help",
  "code_actions",
  "list_code_actions",
  "execute_code_action",
  "format_file",
  "rename_symbol",
];
/**
 * What a coding agent with its own file tools lacks: symbol-level reads and edits (not
 * optional, so always there), rename, code actions, check and test, memories.
 */
const AGENT_ADDITIONS = [
  "find_declaration",
  "rename_symbol",
  "code_actions",
  "list_code_actions",
  "execute_code_action",
  "check_project",
  "test_project",
];
/** Position-based tools that Claude Code's built-in LSP tool already offers. */
const CLAUDE_CODE_LSP_TOOLS = ["goto_definition", "hover"];

const CLIENT_PROMPT = "Prefer Sextant's symbolic tools for code: get_symbols_overview to see a " +
  "file's structure, find_symbol to read just the symbol you need, find_referencing_symbols " +
  "for usages; they are more precise and cheaper in tokens than reading or grepping whole files.";

/** What desktop-app (and agent, Serena 2.1's same list) adds to and takes from the defaults. */
const DESKTOP_APP_INCLUDED = ["find_declaration", "rename_memory"];
const DESKTOP_APP_EXCLUDED = [
  "check_onboarding_performed",
  "goto_definition",
  "hover",
  "execute_code_action",
  "project_info",
];

export const BUILTIN_CONTEXTS: Readonly<Record<string, ToolSetDefinition>> = {
  "desktop-app": {
    description: "A chat client (e.g. Claude Desktop) with no file tools of its own: Serena " +
      "2.1's tool list, plus edit, rename_file, check_project and test_project.",
    prompt: "You talk to the user through a chat window that does not show the code: keep " +
      "them informed with short summaries of what you found and what you changed.",
    // Serena 2.1's desktop-app list (it has no check_onboarding_performed any more); of
    // Sextant's own tools, edit and rename_file (a chat client has no other way to edit by
    // exact strings or to move a file), check_project and test_project fit the list's budget
    // (tools/listing.ts). The others stay one `included_tools` away: find_declaration and
    // find_symbol's include_info answer what goto_definition and hover would.
    included_tools: DESKTOP_APP_INCLUDED,
    excluded_tools: DESKTOP_APP_EXCLUDED,
  },
  agent: {
    description: "An autonomous agent that gets these instructions at startup.",
    prompt: "Work autonomously: gather what you need with the tools, then act.",
    // Serena 2.1's agent list is its desktop-app list without initial_instructions: the
    // instructions reach the agent as its system prompt, the tool would repeat them.
    included_tools: DESKTOP_APP_INCLUDED,
    excluded_tools: [...DESKTOP_APP_EXCLUDED, "initial_instructions"],
  },
  "claude-code": {
    description: "Claude Code: it reads, edits and runs commands itself; Sextant adds semantics.",
    prompt: "Your own tools cover plain reads, edits and shell commands. " + CLIENT_PROMPT,
    excluded_tools: [
      ...CLIENT_FILE_TOOLS,
      "find_file",
      "list_dir",
      "search_for_pattern",
      ...CLIENT_EDIT_TOOLS,
      ...CLAUDE_CODE_LSP_TOOLS,
    ],
    included_tools: AGENT_ADDITIONS,
  },
  codex: {
    description: "OpenAI Codex CLI: it has its own file, edit and shell tools.",
    prompt: "Your own tools cover plain reads, edits and shell commands. " + CLIENT_PROMPT,
    excluded_tools: [...CLIENT_FILE_TOOLS, "replace_content", ...CLIENT_EDIT_TOOLS],
    included_tools: AGENT_ADDITIONS,
  },
  ide: {
    description: "An IDE assistant (Cursor, VS Code, ...): the editor reads and edits files.",
    prompt: "The IDE handles plain file reads, edits and commands. " + CLIENT_PROMPT,
    excluded_tools: [...CLIENT_FILE_TOOLS, "find_file", "list_dir", ...CLIENT_EDIT_TOOLS],
    // An IDE user thinks in positions: every navigation and refactoring tool fits here.
    included_tools: IDE_WORKFLOW,
  },
  devtools: {
    description: "The dev-tools workflow for every language: projects, symbol info, " +
      "check, test, fixes and refactorings as code actions; the client has its own file tools.",
    prompt: "Work in the check-fix loop: check_project(include_fixes=true) shows diagnostics " +
      "with fix ids; list_code_actions lists the current fixes and previewed renames; " +
      "execute_code_action applies one by id; check_project again until clean; test_project " +
      "runs the tests. get_symbol_info and find_symbol_usages take a symbol name and a file_hint; " +
      "so does rename_symbol (symbol_name, file_hint, project_name): execute_immediately=false " +
      "(the default) previews the rename under an action_id, true applies it.",
    excluded_tools: [
      ...CLIENT_FILE_TOOLS,
      "find_file",
      "list_dir",
      "search_for_pattern",
      "replace_content",
      "replace_in_files",
      ...CLIENT_EDIT_TOOLS,
      "goto_definition",
      "hover",
      "code_actions",
    ],
    included_tools: DEVTOOLS_WORKFLOW,
  },
  ada: {
    description: "Ada projects: also exposes the Ada LSP tool names (ada_*) as aliases.",
    prompt: "This is an Ada project: GPR and Alire project files describe its layout; specs " +
      "(.ads) and bodies (.adb) are separate files.",
    // The Ada MCP setup's names (src/tools/ada/aliases.ts): optional tools only this context includes.
    included_tools: [
      "ada_goto_definition",
      "ada_hover",
      "ada_diagnostics",
      "ada_find_references",
      "ada_document_symbols",
      "ada_workspace_symbols",
      "ada_type_definition",
      "ada_implementation",
      "ada_call_hierarchy",
      "ada_completions",
      "ada_signature_help",
      "ada_code_actions",
      "ada_rename_symbol",
      "ada_format_file",
      // Ada project intelligence (src/tools/ada/), optional elsewhere.
      "get_spec",
      "stub_body",
      "alire_info",
      "dependency_graph",
      // The Ada MCP setup's `build`.
      "check_project",
    ],
    // The aliases stand for these; listing both would only cost tokens.
    excluded_tools: ["goto_definition", "hover", "code_actions"],
  },
};

export const BUILTIN_MODES: Readonly<Record<string, ToolSetDefinition>> = {
  editing: {
    description: "Read and change code.",
    prompt: "Prefer symbol-level edits (replace_symbol_body, insert_after_symbol) for whole " +
      "symbols and replace_content or edit for a few lines; read code before you change it.",
  },
  planning: {
    description: "Analyse and plan only: every editing tool is hidden.",
    prompt: "Do not change any file. Explore the code and produce an analysis or a plan.",
    excluded_markers: ["can-edit", "symbolic-edit"],
  },
  interactive: {
    description: "Work with the user step by step; ask when the task is unclear.",
    prompt: "Work step by step with the user; ask when a decision is theirs to make.",
  },
  "one-shot": {
    description: "Finish the task in one go without asking questions.",
    prompt: "Complete the task without asking questions; state the assumptions you made and " +
      "end with summarize_changes.",
    included_tools: ["summarize_changes"],
  },
  "no-onboarding": {
    description: "Skip onboarding (the project is known or memories are not wanted).",
    excluded_tools: ["onboarding", "check_onboarding_performed"],
  },
  "no-memories": {
    description: "Do not use project memories.",
    excluded_tools: [
      "write_memory",
      "read_memory",
      "list_memories",
      "delete_memory",
      "edit_memory",
      "rename_memory",
      "onboarding",
      "check_onboarding_performed",
      "prepare_for_new_conversation",
    ],
  },
};

function lookup(
  kind: "context" | "mode",
  builtins: Readonly<Record<string, ToolSetDefinition>>,
  configured: Record<string, ToolSetDefinition>,
  name: string,
): ToolSetDefinition {
  const builtin = builtins[name];
  const own = configured[name];
  // A configured definition with a built-in's name overrides that built-in field by field.
  if (builtin || own) return { ...builtin, ...own };
  const known = [...new Set([...Object.keys(builtins), ...Object.keys(configured)])].join(", ");
  throw new ToolError(`Unknown ${kind} '${name}'. Known ${kind}s: ${known}.`);
}

/** The definition of a context (built-in, configured, or a built-in with configured fields). */
export function contextDefinition(settings: Settings, name: string): ToolSetDefinition {
  return lookup("context", BUILTIN_CONTEXTS, settings.contexts, name);
}

/** The definition of a mode (built-in, configured, or a built-in with configured fields). */
export function modeDefinition(settings: Settings, name: string): ToolSetDefinition {
  return lookup("mode", BUILTIN_MODES, settings.mode_definitions, name);
}

/** Names of every context the settings know (built-in first). */
export function knownContexts(settings: Settings): string[] {
  return [...new Set([...Object.keys(BUILTIN_CONTEXTS), ...Object.keys(settings.contexts)])];
}

/** Names of every mode the settings know (built-in first). */
export function knownModes(settings: Settings): string[] {
  return [...new Set([...Object.keys(BUILTIN_MODES), ...Object.keys(settings.mode_definitions)])];
}
