import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import type { Project } from "../../project/project.ts";
import { NoticedChanges } from "./noticed_changes.ts";

Deno.test("NoticedChanges: paths are taken once; the whole tree wins over paths", async () => {
  // Without a watcher only Sextant's own edits are heard, and no barrier can be had.
  const changes = new NoticedChanges({} as Project, null);
  assert(!changes.pending);
  assert(!(await changes.barrier()), "no watcher, no barrier");
  changes.add("src/a.ts");
  changes.add("src/b.ts");
  changes.add("src/a.ts");
  assert(changes.pending);
  assertEquals([...changes.paths()], ["src/a.ts", "src/b.ts"]);
  assertEquals(changes.take(), { all: false, paths: ["src/a.ts", "src/b.ts"] });
  assert(!changes.pending);
  changes.add("src/c.ts");
  changes.markAll();
  assert(changes.all);
  assertEquals(changes.take(), { all: true });
  assertEquals(changes.take(), { all: false, paths: [] }, "the paths went with the whole tree");
});
