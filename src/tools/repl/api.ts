/**
 * The code-mode API `s`: which facade each tool belongs to, and its TypeScript declarations,
 * generated from the same zod shapes as the MCP tool list so the two cannot drift.
 *
 * Serena's tools keep Serena 2.1's facades (`lsp`, `fs`, `edit`, `mem`, `shell`, `cfg`); Sextant's
 * other families get a facade named for the family. A tool the session does not expose is absent.
 * @module
 */
import { z } from "../../deps.ts";
import type { Session } from "../../session/session.ts";
import { selectTools } from "../../config/tool_selection.ts";
import type { Tool } from "../tool.ts";

export const FACADES: Readonly<Record<string, { about: string; tools: readonly string[] }>> = {
  lsp: {
    about: "symbols through the language server",
    tools: [
      "get_symbols_overview",
      "find_symbol",
      "find_referencing_symbols",
      "find_implementations",
      "find_declaration",
      "get_diagnostics_for_file",
      "get_diagnostics_for_symbol",
      "rename_symbol",
      "safe_delete_symbol",
      "restart_language_server",
      "get_symbol_info",
      "find_symbol_usages",
    ],
  },
  fs: {
    about: "files",
    tools: ["read_file", "create_text_file", "list_dir", "find_file", "search_for_pattern"],
  },
  edit: {
    about: "edits of files and symbols",
    tools: [
      "replace_content",
      "replace_in_files",
      "delete_lines",
      "replace_lines",
      "insert_at_line",
      "edit",
      "replace_symbol_body",
      "insert_after_symbol",
      "insert_before_symbol",
    ],
  },
  mem: {
    about: "project memories",
    tools: [
      "list_memories",
      "read_memory",
      "write_memory",
      "edit_memory",
      "rename_memory",
      "delete_memory",
      "onboarding",
      "check_onboarding_performed",
    ],
  },
  shell: { about: "shell commands (off unless enabled)", tools: ["execute_shell_command"] },
  cfg: {
    about: "configuration and modes",
    tools: ["get_current_config", "switch_modes", "remove_project"],
  },
  ide: {
    about: "position-based IDE navigation, diagnostics, format",
    tools: [
      "goto_definition",
      "type_definition",
      "implementation",
      "hover",
      "find_references",
      "signature_help",
      "completions",
      "call_hierarchy",
      "document_symbols",
      "workspace_symbols",
      "diagnostics",
      "format_file",
      "rename_at_position",
    ],
  },
  toolchain: {
    about: "build, check, test, code actions",
    tools: [
      "check_project",
      "test_project",
      "project_info",
      "dependency_graph",
      "code_actions",
      "list_code_actions",
      "execute_code_action",
      "refresh_code_actions",
    ],
  },
  projects: { about: "loaded projects", tools: ["manage_projects"] },
  ada: {
    about: "Ada project tools and the ada_* aliases",
    tools: ["get_spec", "stub_body", "alire_info"],
  },
  workflow: {
    about: "Serena's thinking and workflow prompts",
    tools: [
      "think_about_collected_information",
      "think_about_task_adherence",
      "think_about_whether_you_are_done",
      "summarize_changes",
      "prepare_for_new_conversation",
      "initial_instructions",
    ],
  },
};

/** Tools that code mode never offers through `s` (the interface's own tools). */
const NOT_IN_API = new Set(["repl", "activate_project"]);

/** The facade of a tool; the `ada_*` aliases live in `ada`, anything unlisted in `ide`. */
export function facadeOf(toolName: string): string {
  for (const [facade, { tools }] of Object.entries(FACADES)) {
    if (tools.includes(toolName)) return facade;
  }
  return toolName.startsWith("ada_") ? "ada" : "ide";
}

/** Facade name → the exposed tools' names, for the worker to build `s` from. */
export function apiFacades(tools: readonly Tool[]): Record<string, string[]> {
  const facades: Record<string, string[]> = {};
  for (const tool of tools) {
    if (NOT_IN_API.has(tool.name)) continue;
    (facades[facadeOf(tool.name)] ??= []).push(tool.name);
  }
  return facades;
}

/** Keep only the facades `included_apis` names (when any) and drop `excluded_apis`. */
export function selectFacades(
  facades: Record<string, string[]>,
  included: readonly string[],
  excluded: readonly string[],
): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(facades).filter(([name]) =>
      (included.length === 0 || included.includes(name)) && !excluded.includes(name)
    ),
  );
}

/**
 * Why each tool that `s` leaves out is absent, by facade, so that calling one names the reason
 * instead of failing as "not a function".
 */
export function hiddenApi(
  session: Session,
  facades: Record<string, string[]>,
): Record<string, Record<string, string>> {
  const settings = session.project?.settings ?? session.settings;
  const offered = new Set(Object.values(facades).flat());
  const withoutModes = new Set(
    selectTools(session.allTools, { settings, context: session.context, modes: [] }).map((t) =>
      t.name
    ),
  );
  const exposed = new Set(session.exposedTools().map((t) => t.name));
  const hidden: Record<string, Record<string, string>> = {};
  for (const tool of session.allTools) {
    if (offered.has(tool.name) || NOT_IN_API.has(tool.name) || tool.name === "repl") continue;
    const facade = facadeOf(tool.name);
    let reason: string;
    if (exposed.has(tool.name)) {
      reason = `the facade '${facade}' is not selected (included_apis/excluded_apis in the config)`;
    } else if (
      settings.read_only && tool.markers.some((m) => m === "can-edit" || m === "symbolic-edit")
    ) {
      reason = "the project is read-only (read_only: true), so no tool that edits is offered";
    } else if (settings.excluded_tools.includes(tool.name)) {
      reason = "the config excludes it (excluded_tools)";
    } else if (withoutModes.has(tool.name)) {
      reason = `the active mode(s) ${session.modes.join(", ")} exclude it (switch_modes)`;
    } else {
      reason = `the context '${session.context}' and the config do not offer it ` +
        "(included_tools in the config adds it)";
    }
    (hidden[facade] ??= {})[tool.name] = reason;
  }
  return hidden;
}

type JsonSchema = Record<string, unknown>;

/** A JSON schema node as a TypeScript type. */
function tsType(node: JsonSchema): string {
  if (Array.isArray(node.enum)) return node.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in node) return JSON.stringify(node.const);
  const union = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (union) return [...new Set(union.map(tsType))].join(" | ");
  switch (node.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = tsType((node.items ?? {}) as JsonSchema);
      return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((node.required ?? []) as string[]);
      const fields = Object.entries(properties).map(([key, value]) =>
        `${key}${required.has(key) ? "" : "?"}: ${tsType(value)}`
      );
      if (fields.length === 0) return "Record<string, unknown>";
      return `{ ${fields.join("; ")} }`;
    }
    default:
      return "unknown";
  }
}

const jsonSchemas = new WeakMap<Tool, JsonSchema>();

function argumentSchema(tool: Tool): JsonSchema {
  let schema = jsonSchemas.get(tool);
  if (!schema) {
    schema = z.toJSONSchema(z.strictObject(tool.params), { io: "input" }) as JsonSchema;
    jsonSchemas.set(tool, schema);
  }
  return schema;
}

function comment(text: string, indent: string): string {
  const lines = text.trim().split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join("\n")}\n${indent} */\n`;
}

/** The declaration of one API method: its arguments object, documented field by field. */
export function methodDeclaration(tool: Tool, indent = "  "): string {
  const schema = argumentSchema(tool);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(([key, node]) => {
    const notes = [
      node.description,
      "default" in node ? `Default: ${JSON.stringify(node.default)}.` : "",
    ]
      .filter(Boolean).join(" ");
    const doc = notes ? comment(String(notes), indent + "  ") : "";
    return `${doc}${indent}  ${key}${required.has(key) ? "" : "?"}: ${tsType(node)};\n`;
  });
  const optional = required.size === 0 ? "?" : "";
  const args = fields.length ? `args${optional}: {\n${fields.join("")}${indent}}` : "";
  return comment(tool.description, indent) +
    `${indent}${tool.name}(${args}): Promise<ToolResult>;\n`;
}

const RESULT_DECLARATION =
  `/** What every API method resolves to; a failed call throws a ToolError instead. */
interface ToolResult<T = unknown> {
  readonly tool: string;
  /** Exactly the tool's answer text; a cell whose value is a ToolResult answers this text. */
  readonly text: string;
  /** The text parsed as JSON when it is JSON, else the text. */
  readonly data: T;
}
`;

/** `s.info(topic)`: a facade's or a method's declarations; without a topic, the overview. */
export function describeApi(
  facades: Record<string, string[]>,
  tools: readonly Tool[],
  topic: string | null,
): string {
  const byName = new Map(tools.map((t) => [t.name, t]));
  if (topic === null) {
    const lines = Object.entries(facades).map(([facade, names]) =>
      `s.${facade}: ${FACADES[facade]?.about ?? facade}: ${names.join(", ")}`
    );
    return [
      "Facades (each method takes one object of the tool's parameters, resolves to a ToolResult):",
      ...lines,
      "s.info(name): declarations of a facade or a method; s.reset(): clear this session's variables.",
    ].join("\n");
  }
  const [facadePart, member] = topic.includes(".") ? topic.split(".", 2) : [topic, ""];
  if (!member && facades[topic]) {
    const body = facades[topic]!.map((name) => methodDeclaration(byName.get(name)!)).join("\n");
    return `${RESULT_DECLARATION}\n/** s.${topic}: ${FACADES[topic]?.about ?? topic} */\n` +
      `interface ${capitalize(topic)}Api {\n${body}}\n`;
  }
  const name = member || facadePart!;
  if (name === "ToolResult") return RESULT_DECLARATION;
  const facade = Object.entries(facades).find(([, names]) => names.includes(name))?.[0];
  if (facade && (!member || facade === facadePart)) {
    return `// s.${facade}.${name}\n${methodDeclaration(byName.get(name)!, "")}`;
  }
  throw new Error(
    `Unknown item '${topic}': neither a facade nor a method of this session. Available facades: ` +
      `${Object.keys(facades).join(", ")}.`,
  );
}

function capitalize(name: string): string {
  return name[0]!.toUpperCase() + name.slice(1);
}

/** The compact overview for the `repl` tool's description: every facade and its methods. */
export function apiOverview(): string {
  return Object.entries(FACADES).map(([facade, { tools }]) => `s.${facade}: ${tools.join(", ")}`)
    .join("\n");
}
