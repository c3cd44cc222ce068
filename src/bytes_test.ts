import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { concatBytes, writeAll } from "./bytes.ts";

Deno.test("concatBytes: chunks in order, one chunk as it is, none as empty", () => {
  const one = new Uint8Array([1, 2]);
  assertEquals(
    concatBytes([one, new Uint8Array(0), new Uint8Array([3])]),
    new Uint8Array([1, 2, 3]),
  );
  assert(concatBytes([one]) === one, "one chunk is not copied");
  assertEquals(concatBytes([]), new Uint8Array(0));
});

Deno.test("writeAll: a writer that takes a few bytes at a time gets them all, in order", async () => {
  const got: number[] = [];
  const writer = {
    write(bytes: Uint8Array): Promise<number> {
      const taken = bytes.subarray(0, 3);
      got.push(...taken);
      return Promise.resolve(taken.length);
    },
  };
  await writeAll(writer, new Uint8Array([1, 2, 3, 4, 5, 6, 7]));
  assertEquals(got, [1, 2, 3, 4, 5, 6, 7]);
});
