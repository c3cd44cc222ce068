import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { ChangeFeed, type Settled } from "./change_feed.ts";

/** The feed's barrier, once its watcher runs (the first call only starts it). */
async function barrier(feed: ChangeFeed): Promise<Settled> {
  for (let i = 0; i < 100; i++) {
    const settled = await feed.settle();
    if (settled) return settled;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the change feed never settled");
}

/** A test over a change feed on a new temporary folder, both removed after it. */
function feedTest(name: string, fn: (root: string, feed: ChangeFeed) => Promise<void>): void {
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false }, async () => {
    const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "sextant-feed-" }));
    const feed = new ChangeFeed(root);
    try {
      await fn(root, feed);
    } finally {
      await feed.dispose();
      Deno.removeSync(root, { recursive: true });
    }
  });
}

feedTest(
  "ChangeFeed: a file, or a folder above it, changed after a stamp is not vouched for",
  async (root, feed) => {
    Deno.mkdirSync(`${root}/src/deep`, { recursive: true });
    Deno.writeTextFileSync(`${root}/src/a.ts`, "export const a = 1;\n");
    Deno.writeTextFileSync(`${root}/src/deep/b.ts`, "export const b = 1;\n");
    assertEquals(await feed.settle(), null, "the first call starts the watcher");
    await barrier(feed);
    const stamp = feed.stamp();
    assert(stamp >= 0);
    let settled = await barrier(feed);
    assert(settled.unchanged("src/a.ts", stamp), "nothing happened");
    assert(settled.unchanged("src/deep/b.ts", stamp));
    // Written right before the barrier: seen, with no wait in between.
    Deno.writeTextFileSync(`${root}/src/a.ts`, "export const a = 2;\n");
    settled = await barrier(feed);
    assert(!settled.unchanged("src/a.ts", stamp), "an edit between two calls is seen");
    assert(settled.unchanged("src/deep/b.ts", stamp));
    const later = feed.stamp();
    assert(settled.unchanged("src/a.ts", later), "read again after the edit: vouched for");
    // A folder renamed reports itself, not the files in it.
    Deno.renameSync(`${root}/src/deep`, `${root}/src/moved`);
    settled = await barrier(feed);
    assert(!settled.unchanged("src/deep/b.ts", later), "a folder above it moved");
    assert(!settled.unchanged("src/a.ts", -1), "a missing stamp vouches for nothing");
    // Barriers asked for at once: the second one covers the write made after the first began.
    const before = feed.stamp();
    const first = feed.settle();
    Deno.writeTextFileSync(`${root}/src/a.ts`, "export const a = 3;\n");
    const second = feed.settle();
    assert((await first) !== null);
    assert(!(await second)!.unchanged("src/a.ts", before), "seen by the later barrier");
    // Links may lead outside the watched tree: never vouched for.
    Deno.symlinkSync(`${root}/src/a.ts`, `${root}/src/link.ts`);
    assert(feed.watchable(`${root}/src/a.ts`));
    assert(!feed.watchable(`${root}/src/link.ts`));
    assert(!feed.watchable(`${root}/src`), "a folder is not a file");
    await feed.dispose();
    assertEquals(await feed.settle(), null, "disposed: nothing is vouched for");
  },
);

feedTest(
  "ChangeFeed: quiet since a stamp until anything outside Sextant's caches changes",
  async (root, feed) => {
    Deno.mkdirSync(`${root}/src`, { recursive: true });
    Deno.mkdirSync(`${root}/.sextant/cache`, { recursive: true });
    Deno.mkdirSync(`${root}/node_modules`, { recursive: true });
    Deno.writeTextFileSync(`${root}/src/a.ts`, "export const a = 1;\n");
    Deno.writeTextFileSync(`${root}/tsconfig.json`, "{}\n");
    await feed.settle();
    await barrier(feed);
    const stamp = feed.stamp();
    assert((await barrier(feed)).quietSince(stamp), "nothing happened");
    // Sextant's own caches change as questions are answered: they do not count.
    Deno.writeTextFileSync(`${root}/.sextant/cache/declarations.jsonl`, "{}\n");
    assert((await barrier(feed)).quietSince(stamp), "a cache write is no change of the project");
    // Anything else does, a folder's new entry included (an install in node_modules).
    Deno.mkdirSync(`${root}/node_modules/left-pad`);
    const settled = await barrier(feed);
    assert(!settled.quietSince(stamp), "a new entry of node_modules is a change");
    const later = feed.stamp();
    assert(settled.quietSince(later), "quiet again from a later stamp");
    Deno.writeTextFileSync(`${root}/.sextant/project.jsonc`, "{}\n");
    assert(!(await barrier(feed)).quietSince(later), "the project's settings are not a cache");
    assert(!(await barrier(feed)).quietSince(-1), "a missing stamp vouches for nothing");

    // What a plan may be vouched for by: files, folders and absent paths below the root, on
    // their real paths, outside the caches, files with no other hard link.
    assert(feed.vouchable(`${root}/src/a.ts`));
    assert(feed.vouchable(`${root}/node_modules`), "a folder");
    assert(feed.vouchable(`${root}/src/missing/package.json`), "an absent path");
    assert(!feed.vouchable(`${root}/.sextant/cache/declarations.jsonl`), "a cache file");
    assert(!feed.vouchable(`${root}/../elsewhere.json`), "outside the root");
    Deno.symlinkSync(`${root}/src`, `${root}/linked`);
    assert(!feed.vouchable(`${root}/linked/a.ts`), "through a link");
    assert(!feed.vouchable(`${root}/linked/missing.ts`), "an absent path below a link");
    Deno.linkSync(`${root}/tsconfig.json`, `${root}/src/tsconfig.json`);
    assert(!feed.vouchable(`${root}/tsconfig.json`), "a file with another hard link");
  },
);
