/**
 * A served project has one file watcher, shared by the declaration index, the change feed and
 * the forwarding of file events to language servers: with all three listening there is one
 * recursive watcher (and one set of inotify watches), a change made on disk reaches all three,
 * and after dispose nothing is watched any more.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { tempDir, writeTree } from "../helpers/tool_ctx.ts";
import { loadSettings } from "../../src/config/load.ts";
import { ProjectWatcher } from "../../src/lsp/watcher.ts";
import { Project } from "../../src/project/project.ts";
import { ProjectWatch } from "../../src/project/project_watch.ts";
import { inotifyWatches, inotifyWatchesSettled } from "../helpers/inotify.ts";
import { ProjectServices } from "../../src/project_host.ts";

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  assert(done(), what);
}

Deno.test({
  name: "one project, one watcher: the index, the change feed and the forwarder all see a change",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using dir = await tempDir("sextant-one-watch-");
  const root = dir.path;
  await writeTree(root, {
    "src/a.ts": "export function alpha(): number {\n  return 1;\n}\n",
    "src/lib/b.ts": "export const beta = 2;\n",
    "node_modules/dep/index.js": "module.exports = 1;\n",
  });
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const watchesBefore = inotifyWatches();
  const openBefore = ProjectWatch.open;
  const services = new ProjectServices(project);
  let forwarder: ProjectWatcher | null = null;
  try {
    // The index starts the watcher with its first build; the feed and the forwarder join it.
    await services.declarations.ready();
    assertEquals(ProjectWatch.open, openBefore + 1);
    const watchesOfOne = inotifyWatches() - watchesBefore;
    assert(watchesOfOne > 0);
    const stamp = services.changes.stamp();
    assert(stamp >= 0, "the feed counts the shared watcher's events");
    assert((await services.changes.settle()) !== null, "the feed's barrier is the watcher's");
    const sent: string[] = [];
    forwarder = new ProjectWatcher(services.watch, (changes) => {
      for (const change of changes) sent.push(change.uri);
    });
    assertEquals(ProjectWatch.open, openBefore + 1, "still one watcher with all three users");
    assertEquals(inotifyWatches() - watchesBefore, watchesOfOne, "and no more watches");

    // A change made outside Sextant.
    const added = join(root, "src/lib/gamma.ts");
    Deno.writeTextFileSync(added, "export class Gamma {}\n");
    Deno.writeTextFileSync(join(root, "node_modules/dep/index.js"), "module.exports = 2;\n");
    await services.declarations.ready();
    assertEquals(services.declarations.candidates("Gamma"), ["src/lib/gamma.ts"], "the index");
    const settled = await services.changes.settle();
    assert(settled !== null);
    assert(!settled.unchanged("src/lib/gamma.ts", stamp), "the feed");
    assert(settled.unchanged("src/a.ts", stamp), "the feed: an untouched file");
    await until("the forwarder", () => sent.some((uri) => uri.endsWith("/src/lib/gamma.ts")));
    assert(!sent.some((uri) => uri.includes("node_modules")), "the forwarder's own filter");

    // The forwarder leaves; the others keep the watcher.
    await forwarder.close();
    forwarder = null;
    assertEquals(ProjectWatch.open, openBefore + 1);
  } finally {
    await forwarder?.close();
    await services.dispose();
  }
  assertEquals(ProjectWatch.open, openBefore, "disposed with the project");
  assertEquals(await inotifyWatchesSettled(watchesBefore), watchesBefore, "no watch left");
});
