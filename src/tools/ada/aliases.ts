/**
 * The Ada MCP setup's tool names (`ada_goto_definition`, ...) as aliases of the IDE tools, for the
 * `ada` context: an agent set up for the Ada LSP MCP server finds the names it knows. An alias
 * shares its tool's implementation; its file parameter is called `file` as in the Ada MCP setup (a
 * project-relative path, or an absolute path inside the project). Aliases are marked optional:
 * only the `ada` context includes them.
 * @module
 */

const FILE = { relative_path: "file" } as const;

/** Ada MCP setup name → the name of the tool it stands for, and the parameters it renames. */
export const ADA_ALIASES: ReadonlyArray<[string, string, Readonly<Record<string, string>>]> = [
  ["ada_goto_definition", "goto_definition", FILE],
  ["ada_hover", "hover", FILE],
  ["ada_diagnostics", "diagnostics", FILE],
  ["ada_find_references", "find_references", FILE],
  ["ada_document_symbols", "document_symbols", FILE],
  ["ada_workspace_symbols", "workspace_symbols", {}],
  ["ada_type_definition", "type_definition", FILE],
  ["ada_implementation", "implementation", FILE],
  ["ada_call_hierarchy", "call_hierarchy", FILE],
  ["ada_completions", "completions", FILE],
  ["ada_signature_help", "signature_help", FILE],
  ["ada_code_actions", "code_actions", FILE],
  ["ada_rename_symbol", "rename_at_position", FILE],
  ["ada_format_file", "format_file", FILE],
];

/** Names of the alias tools (the `ada` context includes them). */
export const ADA_ALIAS_NAMES: readonly string[] = ADA_ALIASES.map(([name]) => name);
