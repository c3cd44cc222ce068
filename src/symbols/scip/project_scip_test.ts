/**
 * Looking for the project's SCIP index before every find_referencing_symbols (project_scip.ts):
 * an absence is remembered only while the folders that would hold the index keep their mtimes,
 * so an index put there afterwards, by any program, is found by the next question.
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { loadSettings } from "../../config/load.ts";
import { Project } from "../../project/project.ts";
import { ProjectWatch } from "../../project/project_watch.ts";
import { ProjectScip } from "./project_scip.ts";

Deno.test("ProjectScip.locate: an index created after a question without one is found", async () => {
  await using dir = await tempDir("sextant-scip-locate-");
  const root = dir.path;
  await Deno.mkdir(join(root, ".sextant"));
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const scip = new ProjectScip(project, new ProjectWatch(root));
  // Settled folders (an hour old, the same moment each time): their absence is remembered.
  const hourAgo = new Date(Date.now() - 3_600_000);
  const settle = () => {
    for (const folder of [root, join(root, ".sextant")]) Deno.utimeSync(folder, hourAgo, hourAgo);
  };
  settle();
  assertEquals(await scip.locate(), null);
  assertEquals(await scip.locate(), null, "remembered");
  for (const rel of [".sextant/index.scip", "index.scip"]) {
    // Written by another program: the folder's mtime moves, and the next question looks.
    const out = await new Deno.Command("sh", { args: ["-c", `printf x > ${rel}`], cwd: root })
      .output();
    assertEquals(out.success, true);
    assertEquals((await scip.locate())?.path, join(root, rel));
    await Deno.remove(join(root, rel));
    settle();
    assertEquals(await scip.locate(), null, "removed again");
  }
  // Created and then the folder's mtime put back (only a forged mtime does this): unseen until
  // the folder changes again, as for any file compared by its stat.
  await Deno.writeTextFile(join(root, "index.scip"), "x");
  settle();
  assertEquals(await scip.locate(), null);
  await Deno.writeTextFile(join(root, "other.txt"), "");
  assertEquals((await scip.locate())?.path, join(root, "index.scip"));
});
