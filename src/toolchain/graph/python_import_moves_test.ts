import { join } from "node:path";
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { loadSettings } from "../../config/load.ts";
import { Project } from "../../project/project.ts";
import type { ImportEdit } from "./move_edits.ts";
import { pythonImportMoves } from "./python_import_moves.ts";

/** The files' texts with the edits applied (the files stay at their old paths). */
function applied(
  files: Record<string, string>,
  edits: readonly ImportEdit[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) {
    const lines = text.split("\n");
    const offset = (line: number, character: number) =>
      lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
    const mine = edits.filter((e) => e.relPath === path)
      .map((e) => ({ ...e, at: offset(e.line, e.character) }))
      .sort((a, b) => b.at - a.at);
    let result = text;
    for (const e of mine) {
      assertEquals(result.slice(e.at, e.at + e.oldText.length), e.oldText);
      result = result.slice(0, e.at) + e.newText + result.slice(e.at + e.oldText.length);
    }
    out[path] = result;
  }
  return out;
}

async function plan(files: Record<string, string>, from: string, to: string, folder = false) {
  await using dir = await tempDir();
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir.path, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir.path, path), text);
  }
  const project = Project.open(
    dir.path,
    await loadSettings({ projectRoot: dir.path, globalFile: null }),
  );
  const result = await pythonImportMoves(project, { from, to, folder });
  return { ...result, after: applied(files, result.edits) };
}

const FILES = {
  "src/pkg/__init__.py": "from .shapes import area\nfrom . import shapes\n",
  "src/pkg/shapes.py": "from .units import METRE\n\ndef area(r):\n    return r * METRE\n",
  "src/pkg/units.py": "METRE = 1\n",
  "src/pkg/sub/__init__.py": "",
  "src/pkg/sub/user.py": "from ..shapes import area\nfrom .. import shapes, units\n",
  "tests/test_shapes.py": "import pkg.shapes\nimport pkg.shapes as s\n" +
    "from pkg.shapes import (\n    area,\n)\nfrom pkg import shapes\n\n" +
    "def test():\n    # pkg.shapes.area in a comment stays\n" +
    '    assert pkg.shapes.area(1) == s.area(1) == "pkg.shapes"[0:0] or 1\n',
};

Deno.test("python moves: a module renamed in its package", async () => {
  const { edits, after, problem, notUpdated } = await plan(
    FILES,
    "src/pkg/shapes.py",
    "src/pkg/geometry.py",
  );
  // A string that is the module's dotted name is listed, not edited (no server checks it).
  assertEquals(notUpdated, [{
    relPath: "tests/test_shapes.py",
    line: 10,
    text: 'assert pkg.shapes.area(1) == s.area(1) == "pkg.shapes"[0:0] or 1',
  }]);
  assertEquals(problem, undefined);
  assertEquals(
    after["src/pkg/__init__.py"],
    "from .geometry import area\nfrom . import geometry as shapes\n",
  );
  assertEquals(
    after["src/pkg/sub/user.py"],
    "from ..geometry import area\nfrom .. import geometry as shapes, units\n",
  );
  assertEquals(
    after["tests/test_shapes.py"],
    "import pkg.geometry\nimport pkg.geometry as s\n" +
      "from pkg.geometry import (\n    area,\n)\nfrom pkg import geometry as shapes\n\n" +
      "def test():\n    # pkg.shapes.area in a comment stays\n" +
      '    assert pkg.geometry.area(1) == s.area(1) == "pkg.shapes"[0:0] or 1\n',
  );
  // The moved module's own relative import still resolves from the same folder.
  assertEquals(edits.some((e) => e.relPath === "src/pkg/shapes.py"), false);
});

Deno.test("python moves: a module moved to another package", async () => {
  const { after, problem } = await plan(FILES, "src/pkg/shapes.py", "src/pkg/sub/shapes.py");
  assertEquals(problem, undefined);
  assertEquals(after["src/pkg/shapes.py"], FILES["src/pkg/shapes.py"].replace(".units", "..units"));
  assertEquals(
    after["src/pkg/__init__.py"],
    "from .sub.shapes import area\nfrom .sub import shapes\n",
  );
  // A statement importing other names too is split.
  assertEquals(
    after["src/pkg/sub/user.py"],
    "from .shapes import area\nfrom .. import units\nfrom . import shapes\n",
  );
  assertEquals(after["tests/test_shapes.py"]!.split("\n").slice(0, 6), [
    "import pkg.sub.shapes",
    "import pkg.sub.shapes as s",
    "from pkg.sub.shapes import (",
    "    area,",
    ")",
    "from pkg.sub import shapes",
  ]);
  assertEquals(after["tests/test_shapes.py"]!.includes("pkg.sub.shapes.area(1)"), true);
});

Deno.test("python moves: a package folder, its importers and its own files", async () => {
  const { after, problem } = await plan(FILES, "src/pkg/sub", "src/pkg/inner", true);
  assertEquals(problem, undefined);
  // Relative imports inside the moved package keep their meaning; nothing else names it.
  assertEquals(after["src/pkg/sub/user.py"], FILES["src/pkg/sub/user.py"]);
  const top = await plan(
    { ...FILES, "app.py": "from pkg.sub.user import area\nimport pkg.sub\n" },
    "src/pkg",
    "src/geo",
    true,
  );
  assertEquals(top.problem, undefined);
  assertEquals(top.after["app.py"], "from geo.sub.user import area\nimport geo.sub\n");
  assertEquals(
    top.after["tests/test_shapes.py"]!.split("\n").slice(0, 2),
    ["import geo.shapes", "import geo.shapes as s"],
  );
});
