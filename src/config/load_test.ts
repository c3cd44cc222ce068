/**
 * Config: JSONC parsing, error messages that name the file, line:column and field, and the
 * layering defaults < global < project < command line.
 * @module
 */
import { join } from "node:path";
import { assertEquals, assertRejects, assertThrows } from "../../tests/helpers/assert.ts";
import { tempDir, writeTree } from "../../tests/helpers/tool_ctx.ts";
import {
  globalConfigPath,
  globalOnlySettingsNotice,
  ignoredGlobalOnlySettings,
  ignoredProgramSettings,
  loadSettings,
  parseSettings,
  programSettingsNotice,
  projectConfigPath,
} from "./load.ts";
import { DEFAULT_SETTINGS, layerSettings, type Settings } from "./schema.ts";
import { ToolError } from "../errors.ts";

Deno.test("config: JSONC with comments and trailing commas parses", () => {
  const text = `// Sextant project config
{
  /* block comment */
  "encoding": "latin1", // trailing comment
  "ignored_paths": [
    "dist/",
    "*.snap",
  ],
  "tool_timeout": 30,
}
`;
  assertEquals(parseSettings(text, "p.jsonc"), {
    encoding: "latin1",
    ignored_paths: ["dist/", "*.snap"],
    tool_timeout: 30,
  });
});

Deno.test("config: an empty or comment-only file is an empty config", () => {
  assertEquals(parseSettings("", "e.jsonc"), {});
  assertEquals(parseSettings("  \n// nothing yet\n", "e.jsonc"), {});
});

Deno.test("config: invalid JSON names the file and line:column", () => {
  const text = '{\n  "encoding": "utf-8",\n  "tool_timeout": ,\n}\n';
  const error = assertThrows(() => parseSettings(text, "/x/project.jsonc"));
  assertEquals(error instanceof ToolError, true);
  assertEquals(error.message, "Invalid config file /x/project.jsonc:3:19: ValueExpected.");
  assertThrows(() => parseSettings('{"a": 1', "f.jsonc"), /^Invalid config file f\.jsonc:1:\d+: /);
  assertThrows(() => parseSettings('{"encoding": "x"} extra', "f.jsonc"), /f\.jsonc:1:19/);
});

Deno.test("config: a wrong type names the field and its line", () => {
  const text = '{\n  "encoding": "utf-8",\n  "tool_timeout": "soon"\n}\n';
  assertThrows(
    () => parseSettings(text, "cfg.jsonc"),
    /^Invalid config file cfg\.jsonc:3:19: field 'tool_timeout': .*number/,
  );
  const nested = '{\n  "language_servers": {\n    "zig": {\n      "command": 42\n    }\n  }\n}';
  assertThrows(
    () => parseSettings(nested, "cfg.jsonc"),
    /cfg\.jsonc:4:18: field 'language_servers\.zig\.command'/,
  );
  assertThrows(
    () => parseSettings('{"ignored_paths": ["a", 7]}', "cfg.jsonc"),
    /cfg\.jsonc:1:25: field 'ignored_paths\.1'/,
  );
  assertThrows(
    () => parseSettings('{"log_level": "loud"}', "cfg.jsonc"),
    /field 'log_level'/,
  );
  assertThrows(() => parseSettings("[1, 2]", "cfg.jsonc"), /cfg\.jsonc:1:1: field '\(top level\)'/);
});

Deno.test("config: an unknown key is named, at its own line", () => {
  const text = '{\n  "encoding": "utf-8",\n  "encodnig": "latin1"\n}';
  assertThrows(
    () => parseSettings(text, "cfg.jsonc"),
    /^Invalid config file cfg\.jsonc:3:3: field 'encodnig': /,
  );
  const nested = '{"language_servers": {"x": {"command": "x", "argz": []}}}';
  assertThrows(() => parseSettings(nested, "cfg.jsonc"), /field 'language_servers\.x\.argz'/);
});

Deno.test("config: invalid values are refused (non-positive limits)", () => {
  assertThrows(
    () => parseSettings('{"default_max_tool_answer_chars": 0}', "c"),
    /default_max_tool_answer_chars/,
  );
  assertThrows(() => parseSettings('{"tool_timeout": -1}', "c"), /tool_timeout/);
});

Deno.test("config: layering defaults < global < project < overrides", async () => {
  await using dir = await tempDir();
  const globalFile = join(dir.path, "global", "config.jsonc");
  const root = join(dir.path, "proj");
  await writeTree(dir.path, {
    "global/config.jsonc": `{
      // global layer
      "tool_timeout": 100,
      "encoding": "latin1",
      "ignored_paths": ["global-ignored/"],
      "modes": ["planning"],
      "log_level": "warn",
      "projects": [{ "name": "p", "path": "/somewhere" }],
      "language_servers": { "a": { "command": "a-ls" }, "b": { "command": "b-ls" } },
    }`,
    "proj/.sextant/project.jsonc": `{
      "tool_timeout": 50,
      "ignored_paths": ["project-ignored/"],
      "projects": [{ "name": "sneaky", "path": "/elsewhere" }],
      "language_servers": { "b": { "extensions": [".b"] } },
    }`,
  });
  const s = await loadSettings({
    globalFile,
    projectRoot: root,
    overrides: { tool_timeout: 7, modes: ["one-shot"] },
  });
  assertEquals(s.tool_timeout, 7, "overrides win");
  assertEquals(s.encoding, "latin1", "global beats defaults");
  assertEquals(s.log_level, "warn");
  assertEquals(s.context, DEFAULT_SETTINGS.context, "untouched keys keep their default");
  assertEquals(s.modes, ["one-shot"], "lists of modes replace");
  assertEquals(s.ignored_paths, ["global-ignored/", "project-ignored/"], "ignored_paths add up");
  assertEquals(s.language_servers, {
    a: { command: "a-ls" },
    b: { command: "b-ls", extensions: [".b"] },
  });
  assertEquals(s.projects, [{ name: "p", path: "/somewhere" }], "projects only from global");

  const noOverrides = await loadSettings({ globalFile, projectRoot: root });
  assertEquals(noOverrides.tool_timeout, 50, "project beats global");
  const globalOnly = await loadSettings({ globalFile });
  assertEquals(globalOnly.tool_timeout, 100);
  const none = await loadSettings({ globalFile: null });
  assertEquals(none, { ...DEFAULT_SETTINGS } as Settings);
});

Deno.test("config: a project file's program settings are left out, and named", async () => {
  await using dir = await tempDir();
  const globalFile = join(dir.path, "global.jsonc");
  for (const key of ["command", "args", "initialization_options", "settings"]) {
    const value = key === "command" ? '"sh"' : key === "args" ? '["-c", "id"]' : "{}";
    await writeTree(dir.path, {
      "proj/.sextant/project.jsonc":
        `{ "tool_timeout": 7, "language_servers": { "ts": { "${key}": ${value}, ` +
        `"extensions": [".tsx"] } } }`,
    });
    const root = join(dir.path, "proj");
    const s = await loadSettings({ globalFile, projectRoot: root });
    assertEquals(s.tool_timeout, 7, "the rest of the project file applies");
    assertEquals(s.language_servers.ts, { extensions: [".tsx"] });
    assertEquals(await ignoredProgramSettings(root), [`language_servers.ts.${key}`]);
    const notice = programSettingsNotice([`language_servers.ts.${key}`], "p.jsonc");
    assertEquals(notice.includes(`language_servers.ts.${key}`), true, notice);
    assertEquals(notice.includes("global config"), true, notice);
  }
  // The same keys from the user's own layers are honoured.
  await writeTree(dir.path, { "proj/.sextant/project.jsonc": "{}" });
  const s = await loadSettings({
    globalFile,
    projectRoot: join(dir.path, "proj"),
    overrides: { language_servers: { ts: { command: "sh", args: ["-c", "id"] } } },
  });
  assertEquals(s.language_servers.ts, { command: "sh", args: ["-c", "id"] });
});

Deno.test("config: scip_indexes comes from the global file only; a project's is dropped", async () => {
  await using dir = await tempDir();
  const globalFile = join(dir.path, "global.jsonc");
  const root = join(dir.path, "proj");
  await writeTree(dir.path, {
    "global.jsonc": JSON.stringify({
      scip_indexes: {
        [root]: "/ci/proj/index.scip",
        "/elsewhere": { url: "https://ci.example.com/index.scip", max_bytes: 1000 },
      },
    }),
    "proj/.sextant/project.jsonc": JSON.stringify({
      tool_timeout: 9,
      scip_indexes: { [root]: "https://attacker.example/index.scip" },
    }),
  });
  const s = await loadSettings({ globalFile, projectRoot: root });
  assertEquals(s.tool_timeout, 9, "the rest of the project file applies");
  assertEquals(s.scip_indexes, {
    [root]: "/ci/proj/index.scip",
    "/elsewhere": { url: "https://ci.example.com/index.scip", max_bytes: 1000 },
  });
  assertEquals(await ignoredGlobalOnlySettings(root), ["scip_indexes"]);
  const notice = globalOnlySettingsNotice(["scip_indexes"], "p.jsonc");
  assertEquals(notice.includes("only your global config"), true, notice);
  // An entry must name exactly one of a path and a URL, and a URL must be http(s).
  const refused = (text: string) => {
    try {
      parseSettings(text, "g.jsonc");
    } catch (error) {
      assertEquals(error instanceof ToolError, true);
      return (error as Error).message;
    }
    return "";
  };
  const neither = refused('{ "scip_indexes": { "/p": { "max_bytes": 5 } } }');
  assertEquals(neither.includes("exactly one of 'path' and 'url'"), true, neither);
  const fileUrl = refused('{ "scip_indexes": { "/p": { "url": "file:///etc/x" } } }');
  assertEquals(fileUrl.includes("http: or https: URL"), true, fileUrl);
});

Deno.test("config: missing files are empty layers; a broken one is an error naming it", async () => {
  await using dir = await tempDir();
  const s = await loadSettings({
    globalFile: join(dir.path, "missing.jsonc"),
    projectRoot: join(dir.path, "nope"),
  });
  assertEquals(s, { ...DEFAULT_SETTINGS } as Settings);
  await writeTree(dir.path, { "p/.sextant/project.jsonc": '{ "encoding": 1 }' });
  const file = projectConfigPath(join(dir.path, "p"));
  await assertRejects(
    () => loadSettings({ globalFile: null, projectRoot: join(dir.path, "p") }),
    `Invalid config file ${file}:1:15: field 'encoding'`,
  );
});

Deno.test("config: loadSettings does not mutate the defaults", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "g.jsonc": '{"ignored_paths": ["x/"], "modes": ["planning"]}' });
  await loadSettings({ globalFile: join(dir.path, "g.jsonc") });
  assertEquals(DEFAULT_SETTINGS.ignored_paths, []);
  assertEquals(DEFAULT_SETTINGS.modes, ["interactive", "editing"]);
  const layered = layerSettings({ ...DEFAULT_SETTINGS } as Settings, { excluded_tools: ["a"] });
  assertEquals(layered.excluded_tools, ["a"]);
  assertEquals(DEFAULT_SETTINGS.excluded_tools, []);
});

Deno.test("config: the global file lives under XDG_CONFIG_HOME", () => {
  const before = Deno.env.get("XDG_CONFIG_HOME");
  try {
    Deno.env.set("XDG_CONFIG_HOME", "/xdg");
    assertEquals(globalConfigPath(), "/xdg/sextant/config.jsonc");
  } finally {
    if (before === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", before);
  }
  assertEquals(projectConfigPath("/r"), "/r/.sextant/project.jsonc");
});
