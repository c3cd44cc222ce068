// deno-lint-ignore-file no-import-prefix -- the SDK client is only needed by tests (see helpers/mcp.ts)
import { basename, join } from "node:path";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, startArgs, tempProject } from "../helpers/mcp.ts";
import { z } from "../../src/deps.ts";
import { loadSettings } from "../../src/config/load.ts";
import {
  readRegisteredProjects,
  registerProject,
  uniqueProjectName,
  unregisterProject,
} from "../../src/config/global_config.ts";
import { Session } from "../../src/session/session.ts";
import { getCurrentConfig } from "../../src/tools/session/get_current_config.ts";
import { switchModes } from "../../src/tools/session/switch_modes.ts";
import { ALL_TOOLS, CONFIG_TOOLS, MEMORY_TOOLS, WORKFLOW_TOOLS } from "../../src/tools/mod.ts";
import type { Tool, ToolContext } from "../../src/tools/tool.ts";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { activateProject } from "../../src/tools/session/activate_project.ts";
import { removeProject } from "../../src/tools/session/remove_project.ts";

const TOOLS: Tool[] = [
  ...new Map(
    [...ALL_TOOLS, ...MEMORY_TOOLS, ...CONFIG_TOOLS, ...WORKFLOW_TOOLS].map((t) => [t.name, t]),
  )
    .values(),
];

interface Setup {
  /** Parent folder: holds `config/` (XDG_CONFIG_HOME) and project folders. */
  base: string;
  configFile: string;
  session: Session;
  notified: number;
  call(tool: Tool, args?: Record<string, unknown>): Promise<string>;
  run(tool: Tool, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  folder(rel: string, files?: Record<string, string>): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A session without a project, with XDG_CONFIG_HOME pointing into a temp folder. */
async function setup(): Promise<Setup> {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-config-" }));
  const previousXdg = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", join(base, "config"));
  const settings = await loadSettings();
  const session = new Session({ settings, tools: TOOLS });
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  const result: Setup = {
    base,
    configFile: join(base, "config", "sextant", "config.jsonc"),
    session,
    notified: 0,
    call: async (tool, args = {}) => {
      const parsed = z.strictObject(tool.params).parse(args) as Record<string, unknown>;
      const answer = await tool.handler(parsed, ctx);
      return typeof answer === "string" ? answer : answer.text;
    },
    run: async (tool, args = {}) => {
      try {
        return { text: await result.call(tool, args), isError: false };
      } catch (error) {
        return { text: (error as Error).message, isError: true };
      }
    },
    folder: async (rel, files = {}) => {
      const dir = join(base, rel);
      await Deno.mkdir(dir, { recursive: true });
      for (const [path, content] of Object.entries(files)) {
        await Deno.mkdir(join(dir, path, ".."), { recursive: true });
        await Deno.writeTextFile(join(dir, path), content);
      }
      return dir;
    },
    async [Symbol.asyncDispose]() {
      if (previousXdg === undefined) Deno.env.delete("XDG_CONFIG_HOME");
      else Deno.env.set("XDG_CONFIG_HOME", previousXdg);
      await session.dispose();
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
  };
  session.onToolsChanged = () => result.notified++;
  return result;
}

Deno.test("activate_project by path registers the project, then works by name", async () => {
  await using s = await setup();
  const app = await s.folder("work/app", { "src/main.ts": "export {};\n" });
  const message = await s.call(activateProject, { project: app });
  // Serena 2.1's activation message, line for line: a path seen the first time is a new
  // project, then its language servers, encoding and memories (here: the onboarding hint).
  assertEquals(
    message,
    `Created and activated a new project with name 'app' at ${app}.\n` +
      "Active language servers: typescript.\nFile encoding: utf-8.\n" +
      "Onboarding has not been performed yet. Ask the user whether to perform onboarding and " +
      "if so, call `onboarding`.\n",
  );
  assertEquals(s.session.project?.root, app);
  assertEquals(s.session.project?.name, "app");
  assertEquals(s.notified, 1, "the client is told the tool set may have changed");
  assertEquals(await readRegisteredProjects(s.configFile), [{ name: "app", path: app }]);
  assert((await Deno.readTextFile(s.configFile)).startsWith("// Sextant's global configuration"));

  // Again by path: no second registration. By name: the same project.
  const again = await s.call(activateProject, { project: app });
  assert(again.startsWith(`The project with name 'app' at ${app} is activated.\n`), again);
  await s.call(activateProject, { project: "app" });
  assertEquals(s.session.project?.root, app);
  assertEquals((await readRegisteredProjects(s.configFile)).length, 1);
});

Deno.test("activate_project keeps comments in the config and picks a free name", async () => {
  await using s = await setup();
  await Deno.mkdir(join(s.base, "config", "sextant"), { recursive: true });
  const original = '{\n  // my favourite context\n  "context": "desktop-app",\n  "projects": [\n' +
    '    { "name": "app", "path": "/somewhere/else/app" } // the old one\n  ]\n}\n';
  await Deno.writeTextFile(s.configFile, original);
  const app = await s.folder("b/app");
  const message = await s.call(activateProject, { project: app });
  assertStringIncludes(message, "new project with name 'app-2'");
  const text = await Deno.readTextFile(s.configFile);
  assertStringIncludes(text, "// my favourite context");
  assertStringIncludes(text, "// the old one");
  assertEquals(await readRegisteredProjects(s.configFile), [
    { name: "app", path: "/somewhere/else/app" },
    { name: "app-2", path: app },
  ]);
  // The registered folder of 'app' is gone: the error suggests remove_project.
  const gone = await s.run(activateProject, { project: "app" });
  assert(gone.isError);
  assertStringIncludes(gone.text, "remove_project");
});

Deno.test("activate_project: unknown name or path lists the registered projects", async () => {
  await using s = await setup();
  const none = await s.run(activateProject, { project: "nope" });
  assert(none.isError);
  assertStringIncludes(none.text, "No projects are registered yet");
  await s.call(activateProject, { project: await s.folder("lib") });
  const unknown = await s.run(activateProject, { project: "nope" });
  assertStringIncludes(unknown.text, "Registered projects: lib.");
  const file = await s.run(activateProject, { project: s.configFile });
  assert(file.isError);
});

Deno.test("activate_project refuses to rewrite an invalid config file", async () => {
  await using s = await setup();
  await Deno.mkdir(join(s.base, "config", "sextant"), { recursive: true });
  await Deno.writeTextFile(s.configFile, '{ "projects": [ { "name": 1 } ] }');
  const result = await s.run(activateProject, { project: await s.folder("x") });
  assert(result.isError);
  assertStringIncludes(result.text, s.configFile);
  assertEquals(await Deno.readTextFile(s.configFile), '{ "projects": [ { "name": 1 } ] }');
});

Deno.test("activate_project loads the project's own config", async () => {
  await using s = await setup();
  const app = await s.folder("ro", { ".sextant/project.jsonc": '{ "read_only": true }' });
  await s.call(activateProject, { project: app });
  const names = s.session.activeTools().map((t) => t.name);
  assert(names.includes("read_file"));
  assert(!names.includes("create_text_file"));
});

Deno.test("activate_project lists existing memories", async () => {
  await using s = await setup();
  const app = await s.folder("m", { ".serena/memories/overview.md": "x" });
  const message = await s.call(activateProject, { project: app });
  assertStringIncludes(
    message,
    '{"memories": ["overview"]}\n' +
      "Use `read_memory` to read these memories later if they are relevant to the task.",
  );
});

Deno.test("activate_project takes the name and language servers of .serena/project.yml", async () => {
  await using s = await setup();
  const app = await s.folder("checkout", {
    ".serena/project.yml": 'project_name: "shop"\nlanguage_servers: ["python"]\n',
    "src/main.ts": "export {};\n",
  });
  const message = await s.call(activateProject, { project: app });
  assert(
    message.startsWith(
      `Created and activated a new project with name 'shop' at ${app}.\n` +
        "Active language servers: python.\n",
    ),
    message,
  );
  assertEquals(s.session.project?.name, "shop");
  assertEquals(await readRegisteredProjects(s.configFile), [{ name: "shop", path: app }]);
});

Deno.test("remove_project removes the entry, keeps comments, and names the known ones", async () => {
  await using s = await setup();
  const one = await s.folder("one");
  await s.call(activateProject, { project: one });
  await s.call(activateProject, { project: await s.folder("two") });
  const text = await Deno.readTextFile(s.configFile);
  await Deno.writeTextFile(s.configFile, text.replace("{", "{\n  // keep me"));
  const removed = await s.call(removeProject, { project_name: "one" });
  assertStringIncludes(removed, "Successfully removed project 'one'");
  assertStringIncludes(await Deno.readTextFile(s.configFile), "// keep me");
  assertEquals((await readRegisteredProjects(s.configFile)).map((p) => p.name), ["two"]);
  assert(await Deno.stat(one).then(() => true), "the folder stays");
  const unknown = await s.run(removeProject, { project_name: "one" });
  assert(unknown.isError);
  assertStringIncludes(unknown.text, "Registered projects: two.");
});

Deno.test("switch_modes: changes the tools live, lists them, and validates names", async () => {
  await using s = await setup();
  const needsProject = await s.run(switchModes, { modes: ["planning"] });
  assertStringIncludes(needsProject.text, "No active project");
  await s.call(activateProject, { project: await s.folder("p") });
  const before = s.notified;
  const result = await s.call(switchModes, { modes: ["planning", "one-shot"] });
  const lines = result.split("\n");
  assertEquals(lines[0], "Active modes: planning, one-shot");
  assertStringIncludes(result, "Do not change any file.");
  assert(lines.at(-1)!.startsWith("Currently active tools: "));
  assert(!lines.at(-1)!.includes("create_text_file"));
  assert(lines.at(-1)!.includes("summarize_changes"));
  assertEquals(s.notified, before + 1);
  const bad = await s.run(switchModes, { modes: ["editing", "bogus"] });
  assert(bad.isError);
  assertStringIncludes(bad.text, "Unknown mode 'bogus'. Known modes: editing, planning");
  assertEquals(s.session.modes, ["planning", "one-shot"]);
});

Deno.test("get_current_config works without a project and shows everything with one", async () => {
  await using s = await setup();
  const bare = await s.call(getCurrentConfig);
  assertStringIncludes(bare, "Active project: none (activate one with activate_project)");
  assertStringIncludes(bare, "Registered projects");
  assertStringIncludes(bare, 'Shell commands: disabled (to enable, set "enable_shell": true');
  const app = await s.folder("cfg", {
    "a.ts": "",
    "b.ts": "",
    "c.py": "",
    ".sextant/project.jsonc": '{ "excluded_tools": ["lsit_dir"] }',
  });
  await s.call(activateProject, { project: app });
  const text = await s.call(getCurrentConfig);
  assertStringIncludes(text, `Active project: 'cfg' at ${app}`);
  assertStringIncludes(text, `  - cfg: ${app} (active)`);
  assertStringIncludes(text, "Context: desktop-app - A chat client");
  assertStringIncludes(text, "Active modes: interactive, editing");
  assertStringIncludes(text, "Available modes (switch_modes): editing, planning, interactive");
  assertStringIncludes(text, "Inactive tools: ");
  assertStringIncludes(text, "remove_project");
  assertStringIncludes(text, "Tool names in the configuration that match no tool: lsit_dir");
  // TypeScript has more files than Python, so it comes first; each says how it would start.
  assertStringIncludes(text, "Language servers for the project's languages:\n  - TypeScript");
  assertStringIncludes(text, "\n  - Python: ");
});

Deno.test("global_config: register/unregister edit the file in place", async () => {
  await using dir = await tempProject();
  const file = join(dir.root, "deep", "config.jsonc");
  await registerProject(file, { name: "a", path: "/a" });
  await registerProject(file, { name: "b", path: "/b" });
  await assertRejects(() => registerProject(file, { name: "a", path: "/c" }), "already registered");
  assertEquals((await unregisterProject(file, "a")).path, "/a");
  assertEquals(await readRegisteredProjects(file), [{ name: "b", path: "/b" }]);
  assertEquals(await readRegisteredProjects(join(dir.root, "missing.jsonc")), []);
  assertEquals(uniqueProjectName("/x/b", [{ name: "b", path: "/b" }]), "b-2");
  assertEquals(uniqueProjectName("/x/c", []), "c");
  // No temporary files are left next to the config.
  assertEquals([...Deno.readDirSync(join(dir.root, "deep"))].map((e) => e.name), ["config.jsonc"]);
});

// --- over MCP, with the real server --------------------------------------------------------

Deno.test("e2e config tools: start without a project, activate one, inspect, remove", async () => {
  await using base = await tempProject();
  const xdg = join(base.root, "xdg");
  const app = join(base.root, "app");
  await Deno.mkdir(join(app, "src"), { recursive: true });
  await Deno.writeTextFile(join(app, "src", "main.ts"), "export const x = 1;\n");
  await Deno.mkdir(join(xdg, "sextant"), { recursive: true });
  await Deno.writeTextFile(
    join(xdg, "sextant", "config.jsonc"),
    '// mine\n{ "included_tools": ["remove_project", "switch_modes"] }\n',
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: startArgs(["--no-project", "--log-level", "warn"]),
    env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: xdg },
    stderr: "pipe",
  });
  const client = new Client({ name: "sextant-test", version: "0" });
  await client.connect(transport);
  try {
    const config = await call(client, "get_current_config");
    assertEquals(config.isError, false);
    assertStringIncludes(config.text, "Active project: none");
    const memories = await call(client, "list_memories");
    assertEquals(memories.isError, true);
    assertStringIncludes(memories.text, "No active project");

    const activated = await call(client, "activate_project", { project: app });
    assertEquals(activated.isError, false, activated.text);
    assertStringIncludes(activated.text, "Active language servers: ");
    assertEquals((await call(client, "list_memories")).text, "{}");
    const after = await call(client, "get_current_config");
    assertStringIncludes(after.text, `Active project: 'app'`);
    assertStringIncludes(after.text, "  - TypeScript/JavaScript: ");

    const removed = await call(client, "remove_project", { project_name: basename(app) });
    assertEquals(removed.isError, false, removed.text);
    const text = await Deno.readTextFile(join(xdg, "sextant", "config.jsonc"));
    assertStringIncludes(text, "// mine");
    assert(!text.includes(app));
  } finally {
    await client.close();
  }
});

Deno.test("e2e: --project takes the name of .serena/project.yml, and activating it again is no new project", async () => {
  await using base = await tempProject({
    ".serena/project.yml": 'project_name: "typescript-shop"\n',
    "src/main.ts": "export const x = 1;\n",
  });
  const server = await connect(base.root);
  try {
    const config = await call(server.client, "get_current_config");
    assertStringIncludes(config.text, "Active project: 'typescript-shop'");
    const activated = await call(server.client, "activate_project", { project: base.root });
    assertEquals(activated.isError, false, activated.text);
    assert(
      activated.text.startsWith(
        `The project with name 'typescript-shop' at ${Deno.realPathSync(base.root)} is activated.`,
      ),
      activated.text,
    );
    // Registered under that name, as Serena registers the project it starts with.
    const again = await call(server.client, "activate_project", { project: "typescript-shop" });
    assertEquals(again.isError, false, again.text);
  } finally {
    await server.close();
  }
});
