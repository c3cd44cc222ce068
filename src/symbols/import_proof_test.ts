import { assertEquals } from "../../tests/helpers/assert.ts";
import { projectResolution, resolutionUnchanged } from "./import_proof.ts";

/** A project on disk from `files` (path → text); its file list as the index gives it. */
async function project(files: Record<string, string>): Promise<{ root: string; list: string[] }> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-import-proof-" }));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  return { root, list: Object.keys(files).filter((f) => !f.startsWith("node_modules/")) };
}

Deno.test("projectResolution: where a bare specifier may lead into the project", async () => {
  const { root, list } = await project({
    "package.json": '{ "name": "@app/root" }',
    "packages/core/package.json": '{ "name": "@app/core" }',
    "packages/core/src/index.ts": "export const core = 1;",
    "tsconfig.json": `{
      // comments and trailing commas, as tsc reads them
      "extends": "./tsconfig.base.json",
      "compilerOptions": { "paths": { "~/*": ["./src/*"] }, },
    }`,
    "tsconfig.base.json": '{ "compilerOptions": { "baseUrl": ".", "jsxImportSource": "preact" } }',
    "src/util.ts": "export const u = 1;",
    "node_modules/react/package.json": "{}",
  });
  try {
    await Deno.symlink(`${root}/packages/core`, `${root}/node_modules/linked`);
    const r = projectResolution(root, list);
    const bare = (spec: string) => r.bare("src/a.ts", spec);
    assertEquals(bare("~/util"), "maybe-inside", "tsconfig paths");
    assertEquals(bare("src/util"), "maybe-inside", "baseUrl");
    assertEquals(bare("@app/core/x"), "maybe-inside", "a project package's name");
    assertEquals(bare("@app/root"), "maybe-inside", "the package itself");
    assertEquals(bare("linked"), "maybe-inside", "node_modules linked into the project");
    assertEquals(bare("#internal"), "maybe-inside", "subpath imports");
    assertEquals(bare("react"), "outside", "an installed library");
    assertEquals(bare("not-installed"), "outside", "nothing to resolve to");
    assertEquals(bare("node:fs"), "outside");
    assertEquals(bare("fs"), "outside");
    assertEquals(r.jsxRuntimes.sort(), ["preact/jsx-runtime", "react/jsx-runtime"]);
    assertEquals(r.undecidable, null);
    assertEquals(resolutionUnchanged(r), true);
    // An install changes where packages lead. Folder times have millisecond precision here: the
    // install comes a few milliseconds after the read, as any real one does.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await Deno.mkdir(`${root}/node_modules/new`);
    assertEquals(resolutionUnchanged(r), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("projectResolution: rootDirs and moduleSuffixes make relative paths undecidable", async () => {
  const { root, list } = await project({
    "tsconfig.json": '{ "compilerOptions": { "moduleSuffixes": [".ios", ""] } }',
  });
  try {
    assertEquals(projectResolution(root, list).undecidable, "tsconfig.json sets moduleSuffixes");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
