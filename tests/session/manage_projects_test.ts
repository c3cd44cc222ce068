/**
 * Several projects in one session: the workspace's smart project selection (unit
 * tests), and manage_projects with two real projects loaded at once (copies of
 * fixtures/typescript and fixtures/python), each with its own language server, tools routed by
 * name and by smart selection, and every server stopped on removal and on shutdown.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../helpers/assert.ts";
import { hasServer, processAlive, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { tempDir, toolHarness, writeTree } from "../helpers/tool_ctx.ts";
import { DEFAULT_SETTINGS, type Settings } from "../../src/config/schema.ts";
import { ToolError } from "../../src/errors.ts";
import type { ServerPool } from "../../src/lsp/pool.ts";
import { Project } from "../../src/project/project.ts";
import { Workspace } from "../../src/project/workspace.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { getCurrentConfig } from "../../src/tools/session/get_current_config.ts";
import { manageProjects } from "../../src/tools/session/manage_projects.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { findSymbolUsages, getSymbolInfo } from "../../src/tools/symbols/get_symbol_info.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import { activateProject } from "../../src/tools/session/activate_project.ts";
import { checkProject } from "../../src/tools/toolchain/check_project.ts";
import { projectInfoTool } from "../../src/tools/toolchain/project_info.ts";
import { testProject } from "../../src/tools/toolchain/test_project.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_PY = hasServer("pyright-langserver");

// deno-lint-ignore no-explicit-any
type Json = any;

const settings = structuredClone(DEFAULT_SETTINGS) as Settings;

/** A project object for a folder that need not exist (the workspace never touches disk). */
function fake(name: string): Project {
  return new Project(`/projects/${name}`, settings, name);
}

/** Point XDG_CONFIG_HOME at an empty folder for the duration (no real global config is read). */
async function isolatedConfig(): Promise<{ [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await tempDir("sextant-projects-config-");
  const previous = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", dir.path);
  return {
    async [Symbol.asyncDispose]() {
      if (previous === undefined) Deno.env.delete("XDG_CONFIG_HOME");
      else Deno.env.set("XDG_CONFIG_HOME", previous);
      await dir[Symbol.asyncDispose]();
    },
  };
}

Deno.test("workspace: explicit name, else last used, else first loaded; clear errors", () => {
  const ws = new Workspace();
  const none = assertThrows(() => ws.select());
  assert(none instanceof ToolError);
  assertStringIncludes(none.message, "No project_name provided and no projects available");
  assertStringIncludes(none.message, "manage_projects");

  const a = fake("a");
  const b = fake("b");
  ws.load(a);
  ws.load(b);
  assertEquals(ws.lastUsed, null);
  assertEquals(ws.select(), a, "nothing used yet: the first loaded");
  assertEquals(ws.lastUsed, a, "and it becomes the last used");
  assertEquals(ws.select("b"), b, "an explicit name wins");
  assertEquals(ws.select(), b, "and becomes the last used");
  assertEquals(ws.select(""), b, "an empty name counts as omitted");

  const unknown = assertThrows(() => ws.select("c"));
  assert(unknown instanceof ToolError);
  assertStringIncludes(unknown.message, "No project named 'c' is loaded");
  assertStringIncludes(unknown.message, "'a' (/projects/a), 'b' (/projects/b)");
  assertEquals(ws.lastUsed, b, "a failed selection changes nothing");

  assertEquals(ws.unload("b"), b);
  assertEquals(ws.lastUsed, null, "removing the last used project clears it");
  assertEquals(ws.select(), a);
  assertThrows(() => ws.unload("b"), "No project named 'b' is loaded");
});

Deno.test("workspace: same root replaces in place, same object is a no-op, unique names", () => {
  const ws = new Workspace();
  const a = fake("a");
  assertEquals(ws.load(a), null);
  assertEquals(ws.load(a), null);
  assertEquals(ws.list().length, 1);
  ws.use(a);
  const again = new Project("/projects/a", settings, "a");
  assertEquals(ws.load(again), a, "the replaced project is returned (to stop its servers)");
  assertEquals(ws.list(), [again]);
  assertEquals(ws.lastUsed, again, "last used follows the replacement");
  assertEquals(ws.uniqueName("a"), "a-2");
  assertEquals(ws.uniqueName("x", ["x", "x-2"]), "x-3");
  ws.use(fake("not-loaded"));
  assertEquals(ws.lastUsed, again, "only loaded projects can be the last used one");
});

Deno.test("manage_projects: the first one loaded becomes active; removing the active moves on", async () => {
  await using _config = await isolatedConfig();
  await using one = await tempDir();
  await using two = await tempDir();
  await writeTree(one.path, { "a.txt": "x\n" });
  const session = new Session({ host: () => new ProjectHost(), settings, tools: ALL_TOOLS });
  let notified = 0;
  session.onToolsChanged = () => notified++;
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  const call = async (args: Record<string, unknown>) => {
    const answer = await manageProjects.handler(args, ctx);
    return JSON.parse(typeof answer === "string" ? answer : answer.text);
  };
  try {
    const empty = await call({});
    assertEquals(empty.count, 0);
    assertStringIncludes(empty.note, "add_project_path");

    // Nothing active yet: the first project loaded becomes the active one too.
    const first = await call({ add_project_path: one.path });
    assertEquals(session.project?.root, one.path);
    assertEquals(notified, 1);
    assertStringIncludes(first.messages.join(" "), "now the active project too");
    const second = await call({ add_project_path: two.path });
    assertEquals(session.project?.root, one.path, "adding does not change the active project");
    assertEquals(second.projects.map((p: Json) => [p.path, p.active, p.last_used]), [
      [one.path, true, undefined],
      [two.path, undefined, true],
    ]);
    assertEquals(second.default_project, session.projects.list()[1]!.name);
    const again = await call({ add_project_path: two.path });
    assertStringIncludes(again.messages[0], "already loaded");
    assertEquals(again.count, 2);

    // Removing the active project makes the next loaded one active.
    const oneName = session.projects.list()[0]!.name;
    const removed = await call({ remove_project_name: oneName });
    assertEquals(session.project?.root, two.path);
    assertStringIncludes(removed.messages.join(" "), "is the active project now");
    assertEquals(removed.count, 1);
    const bad = await manageProjects.handler({ remove_project_name: oneName }, ctx)
      .then(() => null, (e: Error) => e);
    assert(bad instanceof ToolError);
    assertStringIncludes(bad.message, "Loaded projects: ");
    const missing = await manageProjects.handler({ add_project_path: join(one.path, "nope") }, ctx)
      .then(() => null, (e: Error) => e);
    assert(missing instanceof ToolError);
    assertStringIncludes(missing.message, "does not exist");
  } finally {
    await session.dispose();
  }
});

Deno.test({
  name: "two projects at once: tools routed by name and by smart selection; servers stopped",
  ignore: skipUnless(HAS_TS && HAS_PY, "typescript-language-server and pyright"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using _config = await isolatedConfig();
  await using h = await toolHarness(await fixtureTree("typescript"));
  await using pyDir = await tempDir("sextant-projects-py-");
  const pyRoot = join(pyDir.path, "pyshapes");
  await writeTree(pyRoot, await fixtureTree("python"));
  const json = async (tool: Parameters<typeof h.call>[0], args: Record<string, unknown> = {}) =>
    JSON.parse(await h.call(tool, args));
  const ts = h.project;

  await t.step("the active project is loaded; a second one is added and used last", async () => {
    const listed = await json(manageProjects);
    assertEquals(listed.projects.map((p: Json) => p.name), ["project"]);
    assertEquals(listed.projects[0].active, true);
    assertEquals(listed.projects[0].toolchains, ["typescript", "node"]);
    const added = await json(manageProjects, { add_project_path: pyRoot });
    assertEquals(added.projects.map((p: Json) => [p.name, p.path]), [
      ["project", h.root],
      ["pyshapes", pyRoot],
    ]);
    assertEquals(added.projects[1].last_used, true);
    assertEquals(added.projects[1].toolchains, ["python"]);
    assert(added.projects[1].languages.some((l: string) => /python/i.test(l)), added.projects[1]);
    assertEquals(added.default_project, "pyshapes");
    assertEquals(h.session.project, ts, "the active project stays");
  });

  await t.step("smart selection: last used, then by name (which becomes last used)", async () => {
    const py = await json(getSymbolInfo, { symbol_name: "Circle" });
    assertEquals([py.project, py.file_path, py.kind, py.line], [
      "pyshapes",
      "shapes/circle.py",
      "Class",
      7,
    ]);
    assertStringIncludes(py.documentation ?? "", "A circle with a radius.");
    const tsInfo = await json(getSymbolInfo, { symbol_name: "Circle", project_name: "project" });
    assertEquals([tsInfo.project, tsInfo.file_path, tsInfo.line], ["project", "src/shapes.ts", 9]);
    // "project" is now the last used one: no name goes there.
    const usages = await json(findSymbolUsages, { symbol_name: "Circle" });
    assertEquals([usages.project, usages.total, usages.file_count], ["project", 19, 5]);
    const pyUsages = await json(findSymbolUsages, {
      symbol_name: "Circle",
      project_name: "pyshapes",
    });
    assertEquals(pyUsages.project, "pyshapes");
    const files = pyUsages.files.map((f: Json) => f.file);
    for (const f of ["app.py", "shapes/__init__.py", "shapes/registry.py"]) {
      assert(files.includes(f), `${f} in ${files}`);
    }
    assert(!files.some((f: string) => f.endsWith(".ts")), "no TypeScript file in Python usages");
    // The toolchain tools select the same way: pyshapes was named last.
    const info = await json(projectInfoTool, {});
    assertEquals([info.project, info.toolchains], ["pyshapes", ["python"]]);
    const named = await json(projectInfoTool, { project_name: "project" });
    assertEquals([named.project, named.toolchains], ["project", ["typescript", "node"]]);
    assertEquals(h.session.projects.lastUsed, ts);
  });

  await t.step("both language servers run at once, one per project", async () => {
    const listed = await json(manageProjects);
    const servers = listed.projects.map((p: Json) => Object.keys(p.language_servers));
    assertEquals(servers, [["typescript"], ["python"]]);
    for (const p of listed.projects) {
      assert(Object.values(p.language_servers).every((s) => /^running/.test(s as string)), p);
    }
  });

  await t.step("an unknown project name names the loaded ones", async () => {
    for (const tool of [getSymbolInfo, findSymbolUsages, checkProject, testProject]) {
      const args = tool === getSymbolInfo || tool === findSymbolUsages
        ? { symbol_name: "Circle", project_name: "nope" }
        : { project_name: "nope" };
      const result = await h.run(tool, args);
      assert(result.isError, tool.name);
      assertStringIncludes(result.text, "No project named 'nope' is loaded. Loaded projects: ");
      assertStringIncludes(result.text, `'project' (${h.root}), 'pyshapes' (${pyRoot})`);
    }
  });

  await t.step("get_current_config lists the loaded projects", async () => {
    const text = await h.call(getCurrentConfig, {});
    assertStringIncludes(
      text,
      `Loaded projects (manage_projects): project (${h.root}) [last used], pyshapes (${pyRoot})`,
    );
  });

  await t.step("activate_project by a loaded name keeps the loaded project object", async () => {
    const loaded = h.session.projects.byName("pyshapes")!;
    const tsPids = (h.session.services(ts).pool as ServerPool).running().map((s) => s.pid);
    assert(tsPids.length > 0);
    await h.call(activateProject, { project: "pyshapes" });
    // Switching the active project keeps the language servers of the loaded ones running.
    assertEquals((h.session.services(ts).pool as ServerPool).running().map((s) => s.pid), tsPids);
    assertEquals(h.session.project, loaded);
    assertEquals(h.session.projects.lastUsed, loaded);
    assertEquals(h.session.projects.list().length, 2);
    // Back to the TypeScript project for the rest of the test.
    await h.call(activateProject, { project: "project" });
    assertEquals(h.session.project, ts);
  });

  await t.step("removing a project stops its language servers; others keep running", async () => {
    const py = h.session.projects.byName("pyshapes")!;
    // pyshapes was active for a moment: use it again so its server runs before removal.
    await json(getSymbolInfo, { symbol_name: "Square", project_name: "pyshapes" });
    const pyPids = (h.session.services(py).pool as ServerPool).running().map((s) => s.pid)
      .filter((p): p is number => p !== null);
    assertEquals(pyPids.length, 1);
    const after = await json(manageProjects, { remove_project_name: "pyshapes" });
    assertEquals(after.projects.map((p: Json) => p.name), ["project"]);
    assertEquals(after.default_project, "project", "last used was cleared: the first loaded");
    for (const pid of pyPids) assert(!processAlive(pid), `python server ${pid} still alive`);
    const gone = await h.run(getSymbolInfo, { symbol_name: "Circle", project_name: "pyshapes" });
    assert(gone.isError);
    const still = await json(getSymbolInfo, { symbol_name: "Square" });
    assertEquals(still.file_path, "src/shapes.ts");
  });

  await t.step("session.dispose stops every server", async () => {
    const pids = (h.session.services(ts).pool as ServerPool).running().map((s) => s.pid)
      .filter((p): p is number => p !== null);
    assert(pids.length > 0);
    await h.session.dispose();
    for (const pid of pids) assert(!processAlive(pid), `server ${pid} still alive`);
  });
});

Deno.test("manage_projects: a project loads under its .serena/project.yml name", async () => {
  await using _config = await isolatedConfig();
  await using app = await tempDir();
  await writeTree(app.path, {
    ".serena/project.yml": 'project_name: "shop"\n',
    "src/main.ts": "export {};\n",
  });
  const session = new Session({ host: () => new ProjectHost(), settings, tools: ALL_TOOLS });
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  try {
    const answer = await manageProjects.handler({ add_project_path: app.path }, ctx);
    const messages = JSON.parse(typeof answer === "string" ? answer : answer.text).messages;
    assertStringIncludes(messages.join(" "), `Loaded project 'shop' at ${app.path}`);
    assertEquals(session.project?.name, "shop");
  } finally {
    await session.dispose();
  }
});
