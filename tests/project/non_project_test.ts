/**
 * The project is the project: a Python project with virtual environments made by
 * `python3 -m venv` (one named `.venv`, one named `env`, known only by its `pyvenv.cfg`) answers
 * `find_symbol Command` with the project's class alone (pip declares several), its declaration
 * index holds no file of either environment, and a search of the project finds no match in them.
 * A path inside an environment that is asked for by name is still answered. Against the real
 * pyright.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { searchForPattern } from "../../src/tools/files/search_for_pattern.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

function makeVenv(path: string): boolean {
  const made = new Deno.Command("python3", { args: ["-m", "venv", path], stdout: "null" })
    .outputSync();
  return made.success;
}

const hasVenv = (() => {
  try {
    const dir = Deno.makeTempDirSync({ prefix: "sextant-venv-probe-" });
    try {
      return makeVenv(`${dir}/v`);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  } catch {
    return false;
  }
})();

Deno.test({
  name: "a project with virtual environments: find_symbol, the index and search see the project",
  ignore: skipUnless(hasServer("pyright-langserver") && hasVenv, "pyright and python3 -m venv"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness({
    "app/commands.py": "class Command:\n    def run(self) -> int:\n        return 0\n",
    "app/__init__.py": "",
  });
  assert(makeVenv(h.path(".venv")) && makeVenv(h.path("env")), "python3 -m venv");
  // pip, installed in every venv, declares classes named Command.
  const pipFile = [...Deno.readDirSync(h.path(".venv/lib"))][0]!.name;
  const pipCli = `.venv/lib/${pipFile}/site-packages/pip/_internal/cli`;
  assert((await Deno.readTextFile(h.path(`${pipCli}/base_command.py`))).includes("class Command"));

  await t.step("find_symbol finds the project's class only", async () => {
    const found = JSON.parse(await h.call(findSymbol, { name_path_pattern: "Command" }));
    assertEquals(
      found.map((s: { relative_path: string; name_path: string }) => s.relative_path),
      ["app/commands.py"],
    );
  });

  await t.step("the declaration index holds no file of either environment", () => {
    const index = h.session.services(h.project).declarations;
    const files = index.allFiles();
    assert(files.includes("app/commands.py"), files.join(", "));
    const leaked = files.filter((f) => f.startsWith(".venv/") || f.startsWith("env/"));
    assertEquals(leaked, []);
  });

  await t.step("search_for_pattern over the project skips the environments", async () => {
    const matches = JSON.parse(
      await h.call(searchForPattern, { substring_pattern: "class Command\\b" }),
    );
    assertEquals(Object.keys(matches), ["app/commands.py"]);
  });

  await t.step("a path inside an environment, asked for by name, is answered", async () => {
    const text = await h.call(readFile, { relative_path: `${pipCli}/base_command.py` });
    assert(text.includes("class Command"));
    const found = JSON.parse(
      await h.call(findSymbol, { name_path_pattern: "Command", relative_path: pipCli }),
    );
    assert(
      found.some((s: { relative_path: string }) => s.relative_path === `${pipCli}/base_command.py`),
      JSON.stringify(found),
    );
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});
