import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { loadSettings } from "../../config/load.ts";
import { Project } from "../../project/project.ts";
import { goImportMoves, goModulePath, importPathEdits } from "./go_package_moves.ts";

Deno.test("go moves: the module path a go.mod declares", () => {
  assertEquals(goModulePath("// x\nmodule github.com/a/b // here\n\ngo 1.21\n"), "github.com/a/b");
  assertEquals(goModulePath('module "example.com/q"\n'), "example.com/q");
  assertEquals(goModulePath("go 1.21\n"), null);
});

Deno.test("go moves: import paths of the package and below it, in blocks and single imports", () => {
  const text = 'package x\n\nimport "m/doc/sub"\n\nimport (\n\t"fmt"\n\td "m/doc"\n\t"m/docs"\n)\n';
  assertEquals(importPathEdits("x.go", text, "m/doc", "m/docgen"), [
    { relPath: "x.go", line: 6, character: 4, oldText: "m/doc", newText: "m/docgen" },
    { relPath: "x.go", line: 2, character: 8, oldText: "m/doc/sub", newText: "m/docgen/sub" },
  ]);
});

Deno.test("go moves: a folder in its module, a file, another module", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {
    "go.mod": "module example.com/m\n",
    "lib/a.go": "package lib\n",
    "lib/a_test.go": 'package lib_test\n\nimport "example.com/m/lib"\n\nvar _ = lib.X\n',
    "main.go": 'package main\n\nimport "example.com/m/lib"\n',
    "tools/go.mod": "module example.com/tools\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir.path, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir.path, path), text);
  }
  const project = Project.open(
    dir.path,
    await loadSettings({ projectRoot: dir.path, globalFile: null }),
  );
  const moved = await goImportMoves(project, { from: "lib", to: "pkg/lib2", folder: true });
  assertEquals(moved.problem, undefined);
  // The package's own external test imports it too.
  assertEquals(moved.edits.map((e) => [e.relPath, e.newText]).sort(), [
    ["lib/a_test.go", "example.com/m/pkg/lib2"],
    ["main.go", "example.com/m/pkg/lib2"],
  ]);
  const file = await goImportMoves(project, { from: "lib/a.go", to: "b.go", folder: false });
  assertStringIncludes(file.problem ?? "", "another package");
  const across = await goImportMoves(project, { from: "lib", to: "tools/lib", folder: true });
  assertStringIncludes(across.problem ?? "", "example.com/tools");
});
