// Loaded as Sextant's dependencies load it: it changes how a MessageChannel delivers (a yield
// through one then let nothing else run).
import "node:worker_threads";
import { assertEquals, assertRejects } from "../tests/helpers/assert.ts";
import { inTurns, TURN_MS } from "./turns.ts";

/** Hold the thread for `ms` (a step of synchronous work). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* working */ }
}

Deno.test("inTurns: every item in order, and a timer set before runs before the end", async () => {
  let fired = false;
  const timer = setTimeout(() => fired = true, 0);
  const seen: Array<[number, boolean]> = [];
  // Each step holds the thread past a turn's length: the loop must get its turn in between.
  await inTurns([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], (i) => {
    busy(TURN_MS / 2);
    seen.push([i, fired]);
  });
  clearTimeout(timer);
  assertEquals(seen.map(([i]) => i), [...Array(18).keys()]);
  assertEquals(seen[0]![1], false);
  assertEquals(seen[seen.length - 1]![1], true);
});

Deno.test("inTurns: a read started before completes between the turns", async () => {
  let read = false;
  const reading = Deno.readFile(import.meta.filename!).then(() => read = true);
  const seen: boolean[] = [];
  await inTurns([...Array(40).keys()], () => {
    busy(TURN_MS / 2);
    seen.push(read);
  });
  await reading;
  assertEquals(seen[seen.length - 1], true, `read seen after ${seen.indexOf(true)} steps`);
});

Deno.test("inTurns: an abort between turns stops the run", async () => {
  const controller = new AbortController();
  const seen: number[] = [];
  await assertRejects(() =>
    inTurns([...Array(100).keys()], (i) => {
      seen.push(i);
      busy(TURN_MS / 2);
      if (i === 3) controller.abort();
    }, controller.signal)
  );
  assertEquals(seen.length < 100, true, `${seen.length} steps`);
});

Deno.test("inTurns: nothing to do, nothing held", async () => {
  await inTurns([], () => {
    throw new Error("no step");
  });
});
