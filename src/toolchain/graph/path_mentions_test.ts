import { join } from "node:path";
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { loadSettings } from "../../config/load.ts";
import { Project } from "../../project/project.ts";
import { namesPaths, pathMentions } from "./path_mentions.ts";

Deno.test("path mentions: which files are manifests, configs and build files", () => {
  for (const yes of ["package.json", "a/tsconfig.build.json", "jsr.json", "go.mod", "Makefile"]) {
    assertEquals(namesPaths(yes), true, yes);
  }
  assertEquals(namesPaths(".github/workflows/ci.yml"), true);
  for (const no of ["src/a.ts", "README.md", "data.json", "docs/ci.yml"]) {
    assertEquals(namesPaths(no), false, no);
  }
});

Deno.test("path mentions: the moved path as each file reads it, not longer paths", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {
    "jsr.json": '{ "exports": { "./body": "./src/utils/body.ts" } }\n',
    "pkg/package.json": '{ "main": "../src/utils/body.ts", "x": "src/utils/body.ts" }\n',
    "tsconfig.json": '{ "files": ["src/utils/body.tsx", "dist/src/utils/body.ts"] }\n',
    "go.mod": "module m\n\nreplace example.com/u => ./src/utils\n",
    "pyproject.toml": '[project.scripts]\napp = "app.cli:main"\n',
    "src/utils/body.ts": "",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir.path, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir.path, path), text);
  }
  const project = Project.open(
    dir.path,
    await loadSettings({ projectRoot: dir.path, globalFile: null }),
  );
  const file = { from: "src/utils/body.ts", to: "src/body.ts", folder: false };
  assertEquals((await pathMentions(project, file)).map((m) => `${m.relPath}:${m.line}`), [
    "jsr.json:1",
    "pkg/package.json:1",
  ]);
  const folder = { from: "src/utils", to: "src/util", folder: true };
  assertEquals((await pathMentions(project, folder)).map((m) => `${m.relPath}:${m.line}`), [
    "go.mod:3",
    "jsr.json:1",
    // In the moved folder: the folder's move changes its path.
    "tsconfig.json:1",
    "pkg/package.json:1",
  ]);
  const module = { from: "app/cli.py", to: "app/command.py", folder: false };
  assertEquals(
    (await pathMentions(project, module, ["app.cli"])).map((m) => `${m.relPath}:${m.line}`),
    ["pyproject.toml:2"],
  );
});
