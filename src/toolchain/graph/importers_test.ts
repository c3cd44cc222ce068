import { join } from "node:path";
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { loadSettings } from "../../config/load.ts";
import { Project } from "../../project/project.ts";
import { ImportIndex } from "./importers.ts";

Deno.test("importers: the import lines that name a file, per language, not in comments", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {
    "src/shapes.ts": "export interface Shape {}\n",
    // A type-only import names the file as much as a value import does.
    "src/a.ts": 'import type { Shape } from "./shapes.ts";\n',
    "src/b.ts": '// import { Shape } from "./shapes.ts";\nexport const b = 1;\n',
    "src/c.ts": 'import {\n  type Shape,\n} from "./shapes";\n',
    "pkg/mod.py": "",
    "pkg/user.py": "import os, pkg.mod as m\n",
    "notes.md": 'import { Shape } from "./src/shapes.ts";\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir.path, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir.path, path), text);
  }
  const project = Project.open(
    dir.path,
    await loadSettings({ projectRoot: dir.path, globalFile: null }),
  );
  const all = () => true;
  const imports = new ImportIndex(project);
  assertEquals(await imports.importersOf([{ relPath: "src/shapes.ts", folder: false }], all), [
    { relPath: "src/a.ts", line: 1, text: 'import type { Shape } from "./shapes.ts";' },
    { relPath: "src/c.ts", line: 3, text: '} from "./shapes";' },
  ]);
  assertEquals(await imports.importersOf([{ relPath: "pkg/mod.py", folder: false }], all), [
    { relPath: "pkg/user.py", line: 1, text: "import os, pkg.mod as m" },
  ]);
  // Our own write is seen at once, without a new walk.
  await Deno.writeTextFile(join(dir.path, "src/b.ts"), 'export * from "./shapes.ts";\n');
  imports.changed(["src/b.ts"]);
  const after = await imports.importersOf([{ relPath: "src/shapes.ts", folder: false }], all);
  assertEquals(after.map((s) => s.relPath), ["src/a.ts", "src/b.ts", "src/c.ts"]);
});
