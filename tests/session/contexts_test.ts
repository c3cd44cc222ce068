/**
 * Every built-in context lists its workflow whole, from the real tool registry with the default
 * settings and modes: the IDE tools in `ide`, the dev-tools workflow in `devtools`, the `ada_*`
 * names and check_project in `ada`, and what Claude Code and Codex lack in theirs.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { selectTools } from "../../src/config/tool_selection.ts";
import { contextListSizes, DEFAULT_LIST_BUDGET, describeTool } from "../../src/tools/listing.ts";
import { DEFAULT_SETTINGS, type Settings } from "../../src/config/schema.ts";
import { ADA_ALIAS_NAMES } from "../../src/tools/ada/aliases.ts";
import { BUILTIN_CONTEXTS, DEVTOOLS_WORKFLOW, IDE_WORKFLOW } from "../../src/config/toolsets.ts";

/** Serena 2.1.0's tools/list in its default context (desktop-app, tools interface), in order. */
const SERENA_DESKTOP_TOOLS = [
  "create_text_file",
  "replace_content",
  "replace_in_files",
  "replace_symbol_body",
  "insert_after_symbol",
  "insert_before_symbol",
  "read_file",
  "list_dir",
  "find_file",
  "search_for_pattern",
  "get_symbols_overview",
  "find_symbol",
  "find_referencing_symbols",
  "find_implementations",
  "find_declaration",
  "get_diagnostics_for_file",
  "rename_symbol",
  "safe_delete_symbol",
  "write_memory",
  "read_memory",
  "list_memories",
  "delete_memory",
  "rename_memory",
  "edit_memory",
  "execute_shell_command",
  "activate_project",
  "get_current_config",
  "onboarding",
  "initial_instructions",
];

function listed(context: string): string[] {
  const settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  return selectTools(ALL_TOOLS, { settings, context, modes: settings.modes }).map((t) => t.name);
}

function assertLists(context: string, wanted: readonly string[]): void {
  const names = listed(context);
  const missing = wanted.filter((n) => !names.includes(n));
  assertEquals(missing, [], `${context} lacks ${missing.join(", ")}`);
}

/** Serena's symbol-level reads and edits. */
const SYMBOLIC = [
  "get_symbols_overview",
  "find_symbol",
  "find_referencing_symbols",
  "find_implementations",
  "replace_symbol_body",
  "insert_after_symbol",
  "insert_before_symbol",
  "rename_symbol",
  "safe_delete_symbol",
];

const MEMORIES = ["write_memory", "read_memory", "list_memories", "delete_memory", "edit_memory"];

Deno.test("ide lists every IDE navigation and refactoring tool and the symbolic tools", () => {
  assertLists("ide", [...IDE_WORKFLOW, ...SYMBOLIC]);
  assert(!listed("ide").includes("read_file"), "the IDE reads files itself");
});

Deno.test("devtools lists the dev-tools workflow whole and the symbolic tools", () => {
  assertLists("devtools", [...DEVTOOLS_WORKFLOW, ...SYMBOLIC]);
  assert(!listed("devtools").includes("read_file"), "the client reads files itself");
});

Deno.test("ada lists the ada_* names and check_project as their build", () => {
  assertLists("ada", [...ADA_ALIAS_NAMES, "check_project", "get_spec", "stub_body"]);
});

Deno.test("claude-code and codex bring symbols, rename, code actions, check, test, memories", () => {
  const wanted = [
    ...SYMBOLIC,
    "code_actions",
    "list_code_actions",
    "execute_code_action",
    "check_project",
    "test_project",
    ...MEMORIES,
  ];
  for (const context of ["claude-code", "codex"]) {
    assertLists(context, wanted);
    const names = listed(context);
    for (const plain of ["read_file", "create_text_file", "edit", "execute_shell_command"]) {
      assert(!names.includes(plain), `${context} has its own ${plain}`);
    }
  }
  // Claude Code's own LSP tool answers definition and hover.
  assert(!listed("claude-code").includes("hover"));
});

Deno.test("desktop-app lists Serena 2.1's desktop-app tools, and of Sextant's own edit and move, check and test", () => {
  const names = listed("desktop-app").filter((n) => n !== "repl");
  assertLists("desktop-app", [...SERENA_DESKTOP_TOOLS]);
  // A chat client has no other way to edit by exact strings or to move a file.
  assertEquals(names.filter((n) => !SERENA_DESKTOP_TOOLS.includes(n)).sort(), [
    "check_project",
    "edit",
    "rename_file",
    "test_project",
  ]);
  for (const name of ["find_declaration", "rename_memory"]) assert(names.includes(name), name);
  for (const name of names) assert(!name.startsWith("think_about_"), name);
  assert(!names.includes("check_onboarding_performed"), "Serena 2.1 has no such tool");
});

Deno.test("agent lists Serena 2.1's agent tools: desktop-app's without initial_instructions", () => {
  const names = listed("agent");
  assertEquals(names, listed("desktop-app").filter((n) => n !== "initial_instructions"));
  assert(!names.includes("initial_instructions"), "the instructions are the system prompt");
  for (const name of ["find_declaration", "rename_memory", "edit"]) {
    assert(names.includes(name), name);
  }
});

Deno.test("every built-in context is tested here", () => {
  assertEquals(Object.keys(BUILTIN_CONTEXTS).sort(), [
    "ada",
    "agent",
    "claude-code",
    "codex",
    "desktop-app",
    "devtools",
    "ide",
  ]);
});

Deno.test("the default context's tools/list stays within its budget", () => {
  const settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  const sizes = contextListSizes(ALL_TOOLS, settings, settings.modes);
  const byContext = Object.fromEntries(sizes.map((s) => [s.context, s.chars]));
  const size = byContext[settings.context]!;
  assertEquals(settings.context, "desktop-app");
  assert(
    size <= DEFAULT_LIST_BUDGET,
    `The default tools/list costs ${size} characters, over the budget of ${DEFAULT_LIST_BUDGET}: ` +
      "shorten descriptions (move how-to into src/prompts/) or make a tool optional.",
  );
  // The measure is what the client receives: the JSON of the listed tools.
  const listed = selectTools(ALL_TOOLS, {
    settings,
    context: "desktop-app",
    modes: settings.modes,
  }).filter((t) => t.name !== "repl");
  assertEquals(size, JSON.stringify(listed.map(describeTool)).length);
});

/** The "All tools" table of docs/tools.md: each tool name with the text of its row. */
function documentedTools(): Map<string, string> {
  const page = Deno.readTextFileSync(new URL("../../docs/tools.md", import.meta.url));
  const section = page.split("\n## All tools\n")[1]!.split("\n## ")[0]!;
  const rows = new Map<string, string>();
  for (const line of section.split("\n").filter((l) => l.startsWith("| `"))) {
    const [, names, what] = line.split("|");
    for (const match of names!.matchAll(/`([a-z_]+)`/g)) rows.set(match[1]!, what!.trim());
  }
  return rows;
}

Deno.test("docs/tools.md counts the default tools and marks exactly the others optional", () => {
  const page = Deno.readTextFileSync(new URL("../../docs/tools.md", import.meta.url));
  const defaults = listed("desktop-app").filter((n) => n !== "repl");
  const stated = /(\d+) tools are on\s+by default/.exec(page);
  assertEquals(Number(stated?.[1]), defaults.length, "the count in docs/tools.md");
  const rows = documentedTools();
  for (const tool of ALL_TOOLS) {
    // The ada_* aliases share one row ("ada_goto_definition, ... ada_rename_symbol").
    if (tool.name.startsWith("ada_") || tool.name === "repl") continue;
    const row = rows.get(tool.name);
    assert(row !== undefined, `docs/tools.md does not list ${tool.name}`);
    const optional = row.startsWith("optional");
    assertEquals(optional, !defaults.includes(tool.name), `${tool.name}: '${row.slice(0, 60)}'`);
  }
});
