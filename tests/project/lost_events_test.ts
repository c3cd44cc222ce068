/**
 * Events the kernel dropped (an overflow of its queue, reported as `rescan`) reach every user of
 * the project's watcher, and each falls back to the disk: the declaration index walks the tree
 * again, the change feed vouches for nothing it stamped before. The loss is staged by wrapping
 * Deno's watcher: one file's events are dropped, and a rescan event is added after them.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { tempDir, writeTree } from "../helpers/tool_ctx.ts";
import { loadSettings } from "../../src/config/load.ts";
import { ChangeFeed } from "../../src/project/change_feed.ts";
import { Project } from "../../src/project/project.ts";
import { ProjectWatch } from "../../src/project/project_watch.ts";
import { lossyWatcher } from "../helpers/watcher.ts";
import { DeclarationIndex } from "../../src/symbols/index/mod.ts";

Deno.test({
  name: "lost events: the index walks the tree again and the feed voids its stamps",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using dir = await tempDir("sextant-lost-events-");
  const root = dir.path;
  await writeTree(root, { "src/a.ts": "export const alpha = 1;\n" });
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const lossy = lossyWatcher((path) => /\/lost\d\.ts$/.test(path));
  const watch = new ProjectWatch(root, undefined, lossy.open);
  const index = new DeclarationIndex(project, { projectWatch: watch, persist: false });
  const feed = new ChangeFeed(watch);
  try {
    await index.ready();
    assert(watch.watching);
    const stamp = feed.stamp();
    assert((await feed.settle())?.unchanged("src/a.ts", stamp), "nothing changed yet");

    // A file whose events are lost, with nothing to say so: unseen (the staging works).
    Deno.writeTextFileSync(join(root, "src/lost1.ts"), "export class LostOne {}\n");
    await index.ready();
    assertEquals(index.candidates("LostOne"), [], "its events were dropped");
    assert((await feed.settle())!.unchanged("src/lost1.ts", stamp));

    // Now the kernel says events were lost: everything is looked at again.
    Deno.writeTextFileSync(join(root, "src/lost2.ts"), "export class LostTwo {}\n");
    lossy.inject({ kind: "other", paths: [], flag: "rescan" });
    await index.ready();
    assertEquals(index.candidates("LostOne"), ["src/lost1.ts"], "the index walked the tree again");
    assertEquals(index.candidates("LostTwo"), ["src/lost2.ts"]);
    const settled = await feed.settle();
    assert(settled !== null, "the barrier still works");
    assert(!settled.unchanged("src/a.ts", stamp), "the feed vouches for nothing stamped before");
    // Stamps at the overflow itself stay void; one after a later event is good again.
    Deno.writeTextFileSync(join(root, "src/b.ts"), "export const beta = 2;\n");
    await feed.settle();
    const after = feed.stamp();
    assert((await feed.settle())!.unchanged("src/a.ts", after), "a stamp after it is good");
  } finally {
    await feed.dispose();
    await index.dispose();
    await watch.dispose();
  }
});
