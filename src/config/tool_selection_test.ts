import {
  assert,
  assertEquals,
  assertStringIncludes,
  assertThrows,
} from "../../tests/helpers/assert.ts";
import { z } from "../deps.ts";
import { loadSettings, parseSettings } from "./load.ts";
import { Project } from "../project/project.ts";
import { ALL_TOOLS } from "../tools/mod.ts";
import {
  DEFAULT_SETTINGS,
  layerSettings,
  type Marker,
  MarkerSchema,
  type Settings,
  type SettingsFile,
} from "./schema.ts";
import {
  BUILTIN_CONTEXTS,
  BUILTIN_MODES,
  contextDefinition,
  knownContexts,
  knownModes,
  modeDefinition,
} from "./toolsets.ts";
import { selectTools, unknownToolNames } from "./tool_selection.ts";
import { Session } from "../session/session.ts";
import { defineTool, type Tool } from "../tools/tool.ts";

function fake(name: string, markers: Marker[] = []): Tool {
  return defineTool({
    name,
    description: name,
    params: { x: z.string().optional() },
    markers,
    readOnly: !markers.includes("can-edit"),
    handler: () => Promise.resolve("ok"),
  });
}

/** A tool list shaped like Sextant's (names and markers as registered). */
const TOOLS: Tool[] = [
  fake("read_file"),
  fake("create_text_file", ["can-edit"]),
  fake("list_dir"),
  fake("find_file"),
  fake("search_for_pattern"),
  fake("replace_content", ["can-edit"]),
  fake("replace_in_files", ["can-edit"]),
  fake("edit", ["can-edit"]),
  fake("delete_lines", ["can-edit", "optional"]),
  fake("replace_lines", ["can-edit", "optional"]),
  fake("insert_at_line", ["can-edit", "optional"]),
  fake("find_symbol", ["symbolic-read"]),
  fake("replace_symbol_body", ["symbolic-edit"]),
  fake("rename_symbol", ["symbolic-edit"]),
  fake("restart_language_server", ["optional"]),
  fake("write_memory"),
  fake("read_memory"),
  fake("list_memories"),
  fake("delete_memory"),
  fake("edit_memory"),
  fake("rename_memory"),
  fake("activate_project", ["no-project"]),
  fake("remove_project", ["optional", "no-project"]),
  fake("switch_modes", ["optional"]),
  fake("get_current_config", ["no-project"]),
  fake("execute_shell_command", ["can-edit"]),
  fake("check_onboarding_performed"),
  fake("onboarding"),
  fake("think_about_collected_information"),
  fake("summarize_changes", ["optional"]),
  fake("prepare_for_new_conversation"),
  fake("initial_instructions", ["no-project"]),
];

function settings(over: SettingsFile = {}): Settings {
  return layerSettings(structuredClone(DEFAULT_SETTINGS) as Settings, over);
}

function names(
  context = "desktop-app",
  modes: string[] = ["interactive", "editing"],
  over: SettingsFile = {},
): string[] {
  return selectTools(TOOLS, { settings: settings(over), context, modes }).map((t) => t.name);
}

const EDITING = TOOLS.filter((t) =>
  t.markers.includes("can-edit") || t.markers.includes("symbolic-edit")
)
  .map((t) => t.name);

Deno.test("default selection: every tool except the optional ones, then the context's lists", () => {
  const desktop = BUILTIN_CONTEXTS["desktop-app"]!;
  const selected = names();
  for (const tool of TOOLS) {
    const listed = desktop.included_tools!.includes(tool.name) ||
      (!tool.markers.includes("optional") && !desktop.excluded_tools!.includes(tool.name));
    assertEquals(selected.includes(tool.name), listed, tool.name);
  }
  // A context with no lists of its own (the config may define one) exposes every default tool.
  const over: SettingsFile = { contexts: { plain: { description: "no lists" } } };
  const plain = names("plain", ["interactive", "editing"], over);
  for (const tool of TOOLS) {
    assertEquals(plain.includes(tool.name), !tool.markers.includes("optional"), tool.name);
  }
});

Deno.test("planning hides every editing tool, even ones the config enabled", () => {
  const selected = names("desktop-app", ["planning", "interactive"], {
    included_tools: ["delete_lines", "switch_modes"],
  });
  for (const name of EDITING) assert(!selected.includes(name), name);
  assert(selected.includes("find_symbol"));
  assert(selected.includes("write_memory"), "memories stay available for saving a plan");
  assert(selected.includes("switch_modes"), "the way back out of planning stays");
  assertEquals(
    names("desktop-app", ["editing"], { included_tools: ["delete_lines"] }).includes(
      "delete_lines",
    ),
    true,
  );
});

Deno.test("client contexts hide the client's own file tools; the config can bring one back", () => {
  const claude = names("claude-code");
  for (const hidden of ["read_file", "create_text_file", "execute_shell_command", "edit"]) {
    assert(!claude.includes(hidden), hidden);
  }
  assert(claude.includes("replace_content"), "Serena keeps replace_content for claude-code");
  assert(claude.includes("find_symbol"));
  assert(!names("codex").includes("replace_content"));
  assert(!names("ide").includes("list_dir"));
  assert(
    names("claude-code", ["editing"], { included_tools: ["read_file"] }).includes("read_file"),
  );
});

Deno.test("agent context leaves out initial_instructions; one-shot adds summarize_changes", () => {
  assert(!names("agent").includes("initial_instructions"));
  assert(names("desktop-app").includes("initial_instructions"));
  assert(names("desktop-app", ["one-shot"]).includes("summarize_changes"));
  assert(!names("desktop-app", ["interactive"]).includes("summarize_changes"));
});

Deno.test("the user's excluded_tools are final; read_only hides editing tools", () => {
  const selected = names("desktop-app", ["one-shot"], { excluded_tools: ["summarize_changes"] });
  assert(!selected.includes("summarize_changes"));
  const readOnly = names("desktop-app", ["editing"], { read_only: true });
  for (const name of EDITING) assert(!readOnly.includes(name), name);
  assert(readOnly.includes("read_file"));
});

Deno.test("no-memories and no-onboarding modes", () => {
  const noMemories = names("desktop-app", ["no-memories"]);
  for (const name of ["write_memory", "read_memory", "list_memories", "onboarding"]) {
    assert(!noMemories.includes(name), name);
  }
  const noOnboarding = names("desktop-app", ["no-onboarding"]);
  assert(!noOnboarding.includes("onboarding"));
  assert(!noOnboarding.includes("check_onboarding_performed"));
  assert(noOnboarding.includes("write_memory"));
});

Deno.test("contexts and modes are data the config can extend and override", () => {
  const over: SettingsFile = {
    contexts: {
      "claude-code": { prompt: "my own prompt" },
      minimal: { description: "tiny", excluded_markers: ["can-edit", "symbolic-edit"] },
      plain: { description: "no lists of its own" },
    },
    mode_definitions: {
      everything: { description: "all tools", included_markers: ["optional"] },
    },
  };
  const s = settings(over);
  // A field-level override keeps the built-in's other fields.
  const claude = contextDefinition(s, "claude-code");
  assertEquals(claude.prompt, "my own prompt");
  assertEquals(claude.excluded_tools, BUILTIN_CONTEXTS["claude-code"]!.excluded_tools);
  assertEquals(names("minimal", [], over).some((n) => EDITING.includes(n)), false);
  assertEquals(names("plain", ["everything"], over).length, TOOLS.length);
  assert(knownContexts(s).includes("minimal"));
  assert(knownModes(s).includes("everything"));
  assertEquals(knownModes(settings()), Object.keys(BUILTIN_MODES));
});

Deno.test("unknown contexts and modes are errors that list the known ones", () => {
  assertThrows(() => contextDefinition(settings(), "nope"), "Known contexts: desktop-app, agent");
  assertThrows(() => modeDefinition(settings(), "nope"), "Known modes: editing, planning");
  assertThrows(() => names("desktop-app", ["planing"]), "Unknown mode 'planing'");
});

Deno.test("unknownToolNames reports names in the configuration that match no tool", () => {
  const s = settings({
    included_tools: ["delete_line"],
    excluded_tools: ["read_file"],
    contexts: { plain: { description: "no lists of its own" } },
  });
  assertEquals(unknownToolNames(TOOLS, { settings: s, context: "plain", modes: [] }), [
    "delete_line",
  ]);
});

Deno.test("markers: the config schema knows exactly the tool markers, and rejects others", () => {
  // Every marker a tool carries is one the schema knows (the Marker type is the schema's).
  const known = new Set<string>(MarkerSchema.options);
  for (const tool of ALL_TOOLS) for (const m of tool.markers) assert(known.has(m), m);
  assertThrows(
    () =>
      parseSettings(
        '{ "mode_definitions": { "m": { "excluded_markers": ["can_edit"] } } }',
        "x.jsonc",
      ),
    "mode_definitions.m.excluded_markers.0",
  );
});

Deno.test("every built-in has a description; every built-in mode name is one word or kebab", () => {
  for (
    const [name, def] of [...Object.entries(BUILTIN_CONTEXTS), ...Object.entries(BUILTIN_MODES)]
  ) {
    assert(def.description && def.description.length > 0, name);
    assert(/^[a-z]+(-[a-z]+)*$/.test(name), name);
  }
});

Deno.test("Session.setModes validates, changes the tool set and notifies", () => {
  const session = new Session({ settings: settings(), tools: TOOLS });
  let notified = 0;
  session.onToolsChanged = () => notified++;
  assert(session.activeTools().some((t) => t.name === "replace_content"));
  session.setModes(["planning", "planning"]);
  assertEquals(session.modes, ["planning"]);
  assertEquals(notified, 1);
  assert(!session.activeTools().some((t) => t.name === "replace_content"));
  const error = assertThrows(() => session.setModes(["editing", "bogus"]), "Unknown mode 'bogus'");
  assertStringIncludes(error.message, "Known modes:");
  assertEquals(session.modes, ["planning"], "a failed switch changes nothing");
  assertEquals(notified, 1);
});

Deno.test("session: the project's config chooses the starting context and modes", async () => {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-modes-" }));
  try {
    await Deno.mkdir(`${root}/.sextant`);
    await Deno.writeTextFile(
      `${root}/.sextant/project.jsonc`,
      '{ "context": "ide", "modes": ["planning"] }',
    );
    const globalSettings = await loadSettings({ globalFile: null });
    const settings = await loadSettings({ projectRoot: root, globalFile: null });
    const session = new Session({
      settings: globalSettings,
      tools: ALL_TOOLS,
      project: Project.open(root, settings),
    });
    assertEquals(session.context, "ide");
    assertEquals(session.modes, ["planning"]);
    const names = session.activeTools().map((t) => t.name);
    assertEquals(names.includes("replace_content"), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("Session.activeTools follows a context assigned and a project's settings", async () => {
  const session = new Session({ settings: settings(), tools: TOOLS });
  const active = () => session.activeTools().map((t) => t.name);
  const before = active();
  assertEquals(session.activeTools(), session.activeTools(), "kept while nothing changes");
  const other = session.context === "claude-code" ? "desktop-app" : "claude-code";
  session.context = other;
  assertEquals(active(), names(other, session.modes));
  assert(active().join() !== before.join(), "the contexts differ in their tools");
  const root = Deno.makeTempDirSync({ prefix: "sextant-select-" });
  try {
    await session.setProject(Project.open(root, settings({ read_only: true })));
    assert(!active().some((t) => EDITING.includes(t)), "a read-only project hides editing");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
