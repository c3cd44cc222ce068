import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { openProject } from "../../project/open_project.ts";
import { planFolder, planPaths } from "./change_plan.ts";
import { DeclarationTables } from "./declaration_tables.ts";
import type { StoredFile } from "./store.ts";

const ENTRY: StoredFile = {
  hash: "h",
  size: 1,
  mtime: 5,
  symbols: "[]",
  names: "[]",
  count: 0,
  exact: false,
};

Deno.test("change plans: files gone are forgotten, the others become jobs or other files", async () => {
  const root = Deno.realPathSync(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${root}/src`);
    await Deno.writeTextFile(`${root}/src/a.ts`, "export const a = 1;\n");
    await Deno.writeTextFile(`${root}/src/notes.txt`, "notes\n");
    const project = await openProject(root);
    const tables = new DeclarationTables();
    tables.add("src/a.ts", ENTRY);
    tables.add("src/gone.ts", ENTRY);
    tables.add("old/b.ts", ENTRY);

    // The folder walked again: gone.ts forgotten, a.ts planned on its size and time.
    const folder = await planFolder(project, tables, "src");
    assert(folder.changed);
    assertEquals(folder.jobs.map((j) => [j.relPath, j.known?.mtime]), [["src/a.ts", 5]]);
    assertEquals(tables.indexedFiles("."), ["old/b.ts", "src/a.ts"]);
    assertEquals(tables.otherFiles("."), ["src/notes.txt"]);

    // Reported paths: a folder gone takes what was below it; a file reported on its own is
    // hashed even if its folder's walk planned it too.
    const paths = await planPaths(project, tables, ["old", "src", "src/a.ts"]);
    assert(paths.changed);
    assertEquals(paths.jobs.map((j) => [j.relPath, j.known?.mtime]), [["src/a.ts", -1]]);
    assertEquals(tables.indexedFiles("."), ["src/a.ts"]);

    // Nothing changed on disk for the tables: nothing to save.
    const again = await planPaths(project, tables, ["src/notes.txt"]);
    assertEquals(again, { jobs: [], changed: false });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
