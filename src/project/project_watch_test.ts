import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { inotifyWatches, inotifyWatchesSettled } from "../../tests/helpers/inotify.ts";
import { type OpenWatcher, ProjectWatch, type WatchEvent } from "./project_watch.ts";

Deno.test({
  name: "ProjectWatch: every subscriber hears each change, in order, after one barrier",
  ignore: Deno.build.os !== "linux",
}, async () => {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "sextant-watch-" }));
  Deno.mkdirSync(`${root}/lib/deep`, { recursive: true });
  const before = inotifyWatches();
  const watch = new ProjectWatch(root);
  try {
    const heard: WatchEvent[][] = [[], []];
    let ended = 0;
    const unsubscribe = heard.map((list) =>
      watch.subscribe({ event: (e) => list.push(e), ended: () => ended++ })
    );
    assertEquals(await watch.barrier(), false, "not started: no barrier");
    assert(watch.start());
    assert(watch.start(), "a second start is the same watcher");
    // The root, lib, lib/deep and the marker's .sextant and .sextant/cache.
    assertEquals(inotifyWatches(), before + 5);
    assertEquals(ProjectWatch.open, 1);
    Deno.writeTextFileSync(`${root}/a.ts`, "export const a = 1;\n");
    // Barriers asked for at once share a touch; each one covers the writes made before it.
    const first = watch.barrier();
    Deno.mkdirSync(`${root}/src`);
    const second = watch.barrier();
    assertEquals(await Promise.all([first, second]), [true, true]);
    for (const list of heard) {
      const rels = list.flatMap((e) => e.rels);
      assert(rels.includes("a.ts"), `a.ts heard: ${rels}`);
      assert(rels.includes("src"), `src heard: ${rels}`);
      assert(
        !rels.some((r) => r.startsWith(".sextant")),
        "the marker's events are the watch's own",
      );
      const seqs = list.map((e) => e.seq);
      assertEquals(seqs, [...seqs].sort((x, y) => x - y));
    }
    assertEquals(heard[0]!.map((e) => e.seq), heard[1]!.map((e) => e.seq));
    // An unsubscribed listener hears nothing more.
    unsubscribe[1]!();
    const count = heard[1]!.length;
    Deno.writeTextFileSync(`${root}/src/b.ts`, "export const b = 1;\n");
    assert(await watch.barrier());
    assertEquals(heard[1]!.length, count);
    assert(heard[0]!.some((e) => e.rels.includes("src/b.ts")));
    // Disposed: the subscribers hear the end, the watcher is closed, the marker removed.
    const seq = watch.seq;
    await watch.dispose();
    assertEquals(ended, 1);
    assertEquals(await inotifyWatchesSettled(before), before);
    assertEquals(ProjectWatch.open, 0);
    assertEquals(await watch.barrier(), false);
    assertEquals([...Deno.readDirSync(`${root}/.sextant/cache`)].map((e) => e.name), []);
    assert(!watch.start(), "disposed for good");
    assertEquals(watch.seq, seq);
  } finally {
    await watch.dispose();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test({
  name: "ProjectWatch: without a marker (no cache folder possible) events still come, no barrier",
  ignore: Deno.build.os !== "linux",
}, async () => {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "sextant-watch-" }));
  Deno.writeTextFileSync(`${root}/file`, "");
  const watch = new ProjectWatch(root, `${root}/file/cache`);
  try {
    const rels: string[] = [];
    watch.subscribe({ event: (e) => rels.push(...e.rels) });
    assert(watch.start());
    assertEquals(await watch.barrier(), false);
    Deno.writeTextFileSync(`${root}/a.ts`, "");
    for (let i = 0; i < 200 && !rels.includes("a.ts"); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert(rels.includes("a.ts"));
  } finally {
    await watch.dispose();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test({
  name: "ProjectWatch: a barrier for the changes made before `since` shares a touch made after it",
  ignore: Deno.build.os !== "linux",
}, async () => {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "sextant-watch-" }));
  // Deno's watcher, counting the marker's events: one per touch of it.
  let markerEvents = 0;
  const open: OpenWatcher = (at, options) => {
    const real = Deno.watchFs(at, options);
    return {
      close: () => real.close(),
      [Symbol.dispose]: () => real.close(),
      async *[Symbol.asyncIterator]() {
        for await (const event of real) {
          if (event.paths.some((p) => p.includes("watch-marker"))) markerEvents++;
          yield event;
        }
      },
    };
  };
  const watch = new ProjectWatch(root, undefined, open);
  try {
    const rels: string[] = [];
    watch.subscribe({ event: (e) => rels.push(...e.rels) });
    assert(watch.start());
    assert(await watch.barrier());
    const perTouch = markerEvents;
    assert(perTouch > 0);

    // Asked (since), a change, then another caller's barrier touches: the asker shares it.
    const since = performance.now();
    Deno.writeTextFileSync(`${root}/a.ts`, "export const a = 1;\n");
    const other = watch.barrier();
    await Promise.resolve(); // the other caller's touch is made
    await Promise.resolve();
    const mine = watch.barrier(250, since);
    assertEquals(await Promise.all([other, mine]), [true, true]);
    assert(rels.includes("a.ts"), "the change made before the shared touch is heard");
    assertEquals(markerEvents, 2 * perTouch, "one touch for both");

    // A touch already seen, made after `since`: answered at once, no touch.
    assert(await watch.barrier(250, since));
    assertEquals(markerEvents, 2 * perTouch);

    // Asked after the last touch: a touch of its own, and the change before it is heard.
    Deno.writeTextFileSync(`${root}/b.ts`, "export const b = 1;\n");
    assert(await watch.barrier(250, performance.now()));
    assert(rels.includes("b.ts"));
    assertEquals(markerEvents, 3 * perTouch);
  } finally {
    await watch.dispose();
    Deno.removeSync(root, { recursive: true });
  }
});
