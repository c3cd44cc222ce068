import { assertEquals } from "../tests/helpers/assert.ts";
import { mapLimit } from "./map_limit.ts";

Deno.test("mapLimit: results in input order, never more than the limit running at once", async () => {
  let running = 0;
  let most = 0;
  const items = [5, 1, 4, 2, 3, 0, 6];
  const results = await mapLimit(items, 3, async (n, i) => {
    running++;
    most = Math.max(most, running);
    // Later items finish first, so the order of results cannot come from the order of ends.
    for (let k = 0; k < n; k++) await Promise.resolve();
    running--;
    return `${i}:${n * 10}`;
  });
  assertEquals(results, items.map((n, i) => `${i}:${n * 10}`));
  assertEquals(most, 3);
  assertEquals(await mapLimit([], 4, () => Promise.resolve(1)), []);
});
