/**
 * rename_file of Python modules on real code with pyright, the default Python server, which has
 * no `workspace/willRenameFiles`: flask 3.1.0's source distribution from PyPI
 * (scripts/bench/generations.ts fetches it once) over MCP. Sextant rewrites the imports itself and
 * proves them with pyright's errors. Judged as flask judges itself: its own test collection,
 * `python3 -m pytest --collect-only -q` with the copy's `src` first on the path, gives the same
 * result before and after each move (flask's tests import the moved modules).
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, LSP_CACHE } from "../helpers/lsp.ts";
import { connect } from "../helpers/mcp.ts";
import { callLong } from "../helpers/real_code.ts";
import { flaskTree } from "../../scripts/bench/generations.ts";

const HAS_PY = hasServer("pyright-langserver");
/** Why the test cannot run (flask is fetched once into the cache here), or null. */
const skipReason = !HAS_PY ? "pyright-langserver is not installed" : await flaskTree().then(
  async (tree) => {
    await tree.dispose();
    return null;
  },
  (error) => `flask cannot be fetched: ${error instanceof Error ? error.message : error}`,
);
if (skipReason !== null) console.log(`skipping the flask move test: ${skipReason}`);

async function python(root: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("python3", {
    args,
    cwd: root,
    env: { PYTHONPATH: join(root, "src"), PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

/** The collection's summary and the files that failed to collect, without timings. */
async function collection(root: string): Promise<string> {
  const out = await python(root, [
    "-m",
    "pytest",
    "--collect-only",
    "-q",
    "-p",
    "no:cacheprovider",
  ]);
  const summary = out.trim().split("\n").at(-1)!.replace(/ in [\d.]+s.*$/, "");
  const failed = [...out.matchAll(/^ERROR collecting (\S+)/gm)].map((m) => m[1]).sort();
  return `${summary}; errors in: ${failed.join(", ")}`;
}

Deno.test({
  name: "rename_file on flask with pyright: a module and a package move, their importers " +
    "rewritten, pytest collects the same before and after",
  ignore: skipReason !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const tree = await flaskTree();
  try {
    const root = tree.root;
    // The tests import the copy, not an installed flask.
    assertEquals(
      (await python(root, ["-c", "import flask; print(flask.__file__)"])).trim(),
      join(root, "src", "flask", "__init__.py"),
    );
    const before = await collection(root);
    assert(/\d+ tests collected/.test(before), before);
    await Deno.mkdir(join(root, ".sextant"), { recursive: true });
    await Deno.writeTextFile(
      join(root, ".sextant", "project.jsonc"),
      JSON.stringify({ included_tools: ["rename_file"] }),
    );
    const connected = await connect(root, [], {
      SEXTANT_LSP_PATH: LSP_CACHE,
      XDG_CONFIG_HOME: join(root, "..", "xdg"),
    });
    try {
      await t.step("a module the tests import, used through a plain `import a.b`", async () => {
        const result = await callLong(connected, "rename_file", {
          relative_path: "src/flask/views.py",
          new_relative_path: "src/flask/class_views.py",
        });
        assert(!result.isError, result.text);
        assertStringIncludes(result.text, "Checked with pyright-langserver: no new errors");
        for (
          const file of ["tests/test_views.py", "tests/test_async.py", "tests/test_helpers.py"]
        ) {
          assertStringIncludes(result.text, file);
        }
        const views = await Deno.readTextFile(join(root, "tests", "test_views.py"));
        assertStringIncludes(views, "import flask.class_views\n");
        assertStringIncludes(views, "class Index(flask.class_views.View):");
        assert(!/flask\.views\b/.test(views), views);
        assertEquals(await collection(root), before);
      });

      await t.step("a package folder, imported relatively, by name and by the tests", async () => {
        const result = await callLong(connected, "rename_file", {
          relative_path: "src/flask/json",
          new_relative_path: "src/flask/serial",
        });
        assert(!result.isError, result.text);
        assertStringIncludes(result.text, "no new errors");
        const init = await Deno.readTextFile(join(root, "src", "flask", "__init__.py"));
        // Imported by name: the module keeps its name in the package, so `flask.json` still works.
        assertStringIncludes(init, "from . import serial as json\n");
        assertStringIncludes(init, "from .serial import jsonify as jsonify\n");
        // `from ..json import dumps` in json/tag.py named its own package from above it.
        const tag = await Deno.readTextFile(join(root, "src", "flask", "serial", "tag.py"));
        assert(tag.includes("\nfrom . import dumps\nfrom . import loads\n"), "serial/tag.py");
        assertStringIncludes(
          await Deno.readTextFile(join(root, "tests", "test_json_tag.py")),
          "from flask.serial.tag import JSONTag\n",
        );
        assertEquals(await collection(root), before);
      });
    } finally {
      await connected.close();
    }
  } finally {
    await tree.dispose();
  }
});
