import { assert, assertEquals, assertThrows } from "../../../tests/helpers/assert.ts";
import { allMatches, MAX_MATCHES, searchFiles } from "./regex_child.ts";

Deno.test("regex child: matches past MAX_MATCHES fail in the child, whole", () => {
  const text = "y".repeat(MAX_MATCHES + 10);
  assertThrows(
    () => allMatches({ source: "x*", flags: "g", text }),
    `more than ${MAX_MATCHES} times`,
  );
  assertEquals(allMatches({ source: "y", flags: "g", text: "yy" }).length, 2);
  // Groups that repeat the text at every position are counted by their characters too.
  assertThrows(
    () => allMatches({ source: "(?=([\\s\\S]*))", flags: "g", text: "z".repeat(20_000) }),
    "characters",
  );
});

Deno.test("regex child: a search answer is measured, and built only while it fits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const absolute = `${dir}/many.txt`;
    await Deno.writeTextFile(absolute, "a\n".repeat(2000));
    const request = {
      source: "a",
      flags: "gm",
      files: [{ path: "many.txt", absolute }],
      encoding: "utf-8",
      contextBefore: 100,
      contextAfter: 0,
    };
    const whole = searchFiles({ ...request, maxChars: 1e9 });
    assert(whole.results !== null);
    assertEquals(whole.length, JSON.stringify(whole.results).length);
    // Not built past the limit, yet its length is exact; of the shorter forms only the first that
    // fits and the next come back, and the counts always.
    const cut = searchFiles({ ...request, maxChars: 20_000 });
    assertEquals(cut.results, null);
    assertEquals(cut.length, whole.length);
    assertEquals(cut.firstLines, null);
    assertEquals(cut.cutLines, null);
    assertEquals(cut.lineNumbers?.["many.txt"]?.length, 2000);
    assertEquals(cut.counts, { "many.txt": 2000 });
    assertEquals(cut.total, 2000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
