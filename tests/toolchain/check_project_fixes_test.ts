/**
 * check_project(include_fixes=true) with the real toolchain (tsc) and language server
 * (typescript-language-server): a missing import gets the server's "Add import" quick fix with
 * an id that execute_code_action applies, after which check_project reports no error. Also for a
 * loaded project that is not the active one.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, processAlive, skipUnless } from "../helpers/lsp.ts";
import { type FileTree, tempDir, toolHarness, writeTree } from "../helpers/tool_ctx.ts";
import type { ServerPool } from "../../src/lsp/pool.ts";
import { findExecutable } from "../../src/executables.ts";
import { executeCodeAction } from "../../src/tools/ide/execute_code_action.ts";
import { manageProjects } from "../../src/tools/session/manage_projects.ts";
import { projectOfAction } from "../../src/tools/shared/project_selection.ts";
import { checkProject } from "../../src/tools/toolchain/check_project.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_TSC = findExecutable("tsc") !== null;

// deno-lint-ignore no-explicit-any
type Json = any;

/** A TypeScript package whose main.ts uses `double` without importing it. */
const MISSING_IMPORT: FileTree = {
  "package.json": '{ "name": "fixes", "private": true, "type": "module" }\n',
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "ES2022",
      moduleResolution: "bundler",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    include: ["src"],
  }),
  "src/util.ts": "export function double(n: number): number {\n  return n * 2;\n}\n",
  "src/main.ts": "export const four = double(2);\n",
};

/** The "Add import" fix of the one error, checked. */
function addImportFix(check: Json): Json {
  assertEquals(check.ok, false);
  assertEquals(check.diagnostics.length, 1);
  const [d] = check.diagnostics;
  assertEquals([d.file, d.line, d.column, d.code], ["src/main.ts", 1, 21, "TS2304"]);
  const fix = d.available_fixes.find((f: Json) => /^Add import from "\.\/util/.test(f.title));
  assert(fix, JSON.stringify(d.available_fixes));
  assertEquals(fix.kind, "quickfix");
  assert(/^add_import_from_util_[0-9a-f]{8}$/.test(fix.id), fix.id);
  return fix;
}

Deno.test({
  name: "check_project include_fixes: a quick fix id that execute_code_action applies",
  ignore: skipUnless(HAS_TS && HAS_TSC, "typescript-language-server and tsc"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const previousXdg = Deno.env.get("XDG_CONFIG_HOME");
  await using config = await tempDir("sextant-fixes-config-");
  Deno.env.set("XDG_CONFIG_HOME", config.path);
  await using h = await toolHarness(MISSING_IMPORT);
  await using other = await tempDir("sextant-fixes-other-");
  const otherRoot = join(other.path, "second");
  await writeTree(otherRoot, MISSING_IMPORT);
  const json = async (tool: Parameters<typeof h.call>[0], args: Record<string, unknown> = {}) =>
    JSON.parse(await h.call(tool, args));
  try {
    await t.step("the active project: fix, apply, check again", async () => {
      const plain = await json(checkProject);
      assertEquals(plain.diagnostics[0].available_fixes, undefined, "no fixes unless asked");
      assertEquals(plain.note, undefined);
      const check = await json(checkProject, { include_fixes: true });
      assertStringIncludes(check.note, "at most the first 50");
      const fix = addImportFix(check);
      // Same content, same id: asking again gives the same stable id.
      const again = await json(checkProject, { include_fixes: true });
      assertEquals(addImportFix(again).id, fix.id);
      const applied = await json(executeCodeAction, { action_id: fix.id });
      assertEquals(applied.applied, true);
      assertEquals(applied.files.map((f: Json) => f.file), ["src/main.ts"]);
      assertStringIncludes(await h.read("src/main.ts"), 'import { double } from "./util');
      const after = await json(checkProject);
      assertEquals([after.ok, after.diagnostics], [true, []]);
    });

    await t.step("a loaded project that is not active: its fix ids work as they are", async () => {
      await json(manageProjects, { add_project_path: otherRoot });
      // Smart selection: the project just added is the last used one.
      const check = await json(checkProject, { include_fixes: true });
      assertEquals(check.project, "second");
      const fix = addImportFix(check);
      // The id lives in the second project's code-action cache, not in the active one's.
      const second = h.session.projects.byName("second")!;
      assertEquals(projectOfAction(h.session, fix.id), second);
      assertEquals(projectOfAction(h.session, "no_such_action_00000000"), null);
      const applied = await json(executeCodeAction, { action_id: fix.id });
      assertEquals(applied.applied, true);
      const text = await Deno.readTextFile(join(otherRoot, "src/main.ts"));
      assertStringIncludes(text, 'import { double } from "./util');
      const after = await json(checkProject, { project_name: "second" });
      assertEquals([after.project, after.ok, after.diagnostics], ["second", true, []]);
    });

    await t.step("no language server outlives the session", async () => {
      const pids = h.session.projects.list().flatMap((p) =>
        (h.session.services(p).pool as ServerPool).running().map((s) => s.pid)
      ).filter((p): p is number => p !== null);
      assert(pids.length > 0);
      await h.session.dispose();
      for (const pid of pids) assert(!processAlive(pid), `server ${pid} still alive`);
    });
  } finally {
    if (previousXdg === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", previousXdg);
  }
});
