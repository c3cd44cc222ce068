import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parseFile } from "./parser.ts";

Deno.test("parser: a grammar whose scanner fails on one file still parses the next", async () => {
  // tree-sitter-wasms' bash scanner throws on a `case` statement; whatever it does, the file
  // after it must parse (a failed parser used to fail every later file of its grammar).
  await parseFile('case "$x" in\n  a) echo 1 ;;\nesac\n', "bash").catch(() => undefined);
  const next = await parseFile("deploy() {\n  target=1\n}\n", "bash");
  assertEquals(next.symbols.map((s) => s[0]), ["deploy"]);
  assertEquals(next.symbols[0]![10]?.map((s) => s[0]), ["target"]);
  assertEquals(next.exact, true);
});
