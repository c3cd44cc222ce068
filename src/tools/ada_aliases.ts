/**
 * The seed-003 tool names (`ada_goto_definition`, ...) as aliases of the IDE tools, for the
 * `ada` context: an agent set up for the Ada LSP MCP server finds the names it knows. An alias
 * shares its tool's implementation; its file parameter is called `file` as in seed 003 (a
 * project-relative path, or an absolute path inside the project). Aliases are marked optional:
 * only the `ada` context includes them.
 * @module
 */
import { z } from "../deps.ts";
import { codeActions } from "./code_action_tools.ts";
import { diagnostics } from "./diagnostics_tools.ts";
import { formatFile, renameAtPosition } from "./format_tools.ts";
import {
  completions,
  findReferences,
  gotoDefinition,
  hover,
  implementation,
  signatureHelp,
  typeDefinition,
} from "./nav_tools.ts";
import { callHierarchy, documentSymbols, workspaceSymbols } from "./nav_symbols_tools.ts";
import type { Marker, Tool } from "./tool.ts";

const FILE_DESCRIPTION = "The file: relative to the project root, or absolute inside it.";

/**
 * A copy of `tool` under another name, sharing its handler; parameters named in `renames`
 * (`{ relative_path: "file" }`) are exposed under the new name and mapped back before the
 * handler runs. The alias carries the `optional` marker.
 */
export function aliasTool(
  tool: Tool,
  name: string,
  renames: Readonly<Record<string, string>> = {},
): Tool {
  const params: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(tool.params)) {
    const renamed = renames[key];
    if (renamed === undefined) params[key] = schema as z.ZodType;
    else {
      const optional = (schema as z.ZodType).safeParse(undefined).success;
      params[renamed] = optional
        ? z.string().optional().describe(FILE_DESCRIPTION)
        : z.string().describe(FILE_DESCRIPTION);
    }
  }
  const markers: Marker[] = [...new Set<Marker>([...tool.markers, "optional"])];
  return {
    name,
    description: `${tool.description} (Alias of ${tool.name}.)`,
    params,
    markers,
    readOnly: tool.readOnly,
    destructive: tool.destructive,
    handler(args, ctx) {
      const mapped: Record<string, unknown> = { ...args };
      for (const [original, renamed] of Object.entries(renames)) {
        if (renamed in mapped) {
          mapped[original] = mapped[renamed];
          delete mapped[renamed];
        }
      }
      return tool.handler(mapped, ctx);
    },
  };
}

const FILE = { relative_path: "file" } as const;

/** Seed-003 name → the tool it stands for. */
const ALIASES: ReadonlyArray<[string, Tool, Readonly<Record<string, string>>]> = [
  ["ada_goto_definition", gotoDefinition, FILE],
  ["ada_hover", hover, FILE],
  ["ada_diagnostics", diagnostics, FILE],
  ["ada_find_references", findReferences, FILE],
  ["ada_document_symbols", documentSymbols, FILE],
  ["ada_workspace_symbols", workspaceSymbols, {}],
  ["ada_type_definition", typeDefinition, FILE],
  ["ada_implementation", implementation, FILE],
  ["ada_call_hierarchy", callHierarchy, FILE],
  ["ada_completions", completions, FILE],
  ["ada_signature_help", signatureHelp, FILE],
  ["ada_code_actions", codeActions, FILE],
  ["ada_rename_symbol", renameAtPosition, FILE],
  ["ada_format_file", formatFile, FILE],
];

/** The alias tools, in registry order. */
export const ADA_ALIAS_TOOLS: readonly Tool[] = ALIASES.map(([name, tool, renames]) =>
  aliasTool(tool, name, renames)
);

/** Names of the alias tools (the `ada` context includes them). */
export const ADA_ALIAS_NAMES: readonly string[] = ALIASES.map(([name]) => name);
