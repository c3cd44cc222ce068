/**
 * Contexts and modes: data that selects which tools are exposed and adds prompt fragments.
 * Built-ins are defined here; config (`contexts`, `mode_definitions`) may add or override them.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { Marker, Tool } from "../tools/tool.ts";
import type { Settings, ToolSetDefinition } from "./schema.ts";

/** Tools an IDE-hosted or coding-agent client already has built in. */
const CLIENT_BUILTIN_FILE_TOOLS = [
  "create_text_file",
  "read_file",
  "execute_shell_command",
  "list_dir",
  "find_file",
  "replace_content",
  "search_for_pattern",
  "delete_lines",
  "replace_lines",
  "insert_at_line",
  "edit",
  "replace_in_files",
];

export const BUILTIN_CONTEXTS: Readonly<Record<string, ToolSetDefinition>> = {
  "desktop-app": {
    description: "A chat client (e.g. Claude Desktop) with no file tools of its own.",
    prompt: "You have no other file tools: use Sextant's tools for reading, searching and editing.",
  },
  agent: {
    description: "An autonomous agent that relies on Sextant for all code work.",
    prompt: "Work autonomously: gather what you need with the tools, then act.",
  },
  "claude-code": {
    description: "Claude Code: it reads, edits and runs commands itself; Sextant adds semantics.",
    prompt: "Use your own file and shell tools for plain text work; use Sextant for symbols, " +
      "references, renames and diagnostics.",
    excluded_tools: CLIENT_BUILTIN_FILE_TOOLS,
  },
  codex: {
    description: "OpenAI Codex CLI: it has its own file and shell tools.",
    prompt: "Use your own file and shell tools for plain text work; use Sextant for symbols, " +
      "references, renames and diagnostics.",
    excluded_tools: CLIENT_BUILTIN_FILE_TOOLS,
  },
  ide: {
    description: "An IDE assistant (Cursor, VS Code): the editor already reads and edits files.",
    prompt: "The IDE handles plain file edits; use Sextant for code understanding and refactoring.",
    excluded_tools: CLIENT_BUILTIN_FILE_TOOLS,
  },
  ada: {
    description: "Ada projects: exposes the Ada LSP tool names as aliases.",
    prompt: "This is an Ada project; GPR and Alire project files describe its layout.",
  },
};

export const BUILTIN_MODES: Readonly<Record<string, ToolSetDefinition>> = {
  editing: {
    description: "Read and change code.",
    prompt: "Prefer symbolic edits (replace_symbol_body, insert_after_symbol) over line edits; " +
      "read before you edit.",
  },
  planning: {
    description: "Analyse and plan only: every editing tool is hidden.",
    prompt: "Do not change files. Explore the code and produce a plan.",
    excluded_markers: ["can-edit", "symbolic-edit"],
  },
  interactive: {
    description: "Work with the user step by step; ask when the task is unclear.",
    prompt: "Work step by step with the user and ask when a decision is theirs to make.",
  },
  "one-shot": {
    description: "Finish the task in one go without asking questions.",
    prompt: "Complete the task without asking questions; state assumptions you made.",
  },
  "no-onboarding": {
    description: "Skip onboarding.",
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
    ],
  },
};

export function contextDefinition(settings: Settings, name: string): ToolSetDefinition {
  const def = settings.contexts[name] ?? BUILTIN_CONTEXTS[name];
  if (!def) {
    const known = Object.keys({ ...BUILTIN_CONTEXTS, ...settings.contexts }).join(", ");
    throw new ToolError(`Unknown context '${name}'. Known contexts: ${known}.`);
  }
  return def;
}

export function modeDefinition(settings: Settings, name: string): ToolSetDefinition {
  const def = settings.mode_definitions[name] ?? BUILTIN_MODES[name];
  if (!def) {
    const known = Object.keys({ ...BUILTIN_MODES, ...settings.mode_definitions }).join(", ");
    throw new ToolError(`Unknown mode '${name}'. Known modes: ${known}.`);
  }
  return def;
}

export interface SelectOptions {
  settings: Settings;
  context: string;
  modes: readonly string[];
}

/**
 * The exposed tool set: every tool not marked optional, plus included ones, minus those a
 * context, mode or the settings exclude (by name or marker). `read_only` hides editing tools.
 * An explicit exclusion always wins over an inclusion.
 */
export function selectTools(all: readonly Tool[], options: SelectOptions): Tool[] {
  const { settings } = options;
  const layers = [
    contextDefinition(settings, options.context),
    ...options.modes.map((m) => modeDefinition(settings, m)),
    { included_tools: settings.included_tools, excluded_tools: settings.excluded_tools },
  ];
  const included = new Set(layers.flatMap((l) => l.included_tools ?? []));
  const excluded = new Set(layers.flatMap((l) => l.excluded_tools ?? []));
  const excludedMarkers = new Set<string>(layers.flatMap((l) => l.excluded_markers ?? []));
  if (settings.read_only) {
    excludedMarkers.add("can-edit" satisfies Marker);
    excludedMarkers.add("symbolic-edit" satisfies Marker);
  }
  return all.filter((tool) => {
    if (excluded.has(tool.name)) return false;
    if (tool.markers.some((m) => excludedMarkers.has(m))) return false;
    return included.has(tool.name) || !tool.markers.includes("optional");
  });
}
