import { assertEquals } from "../../../tests/helpers/assert.ts";
import { oneLoadAtATime, parseFile } from "./parser.ts";

Deno.test("parser: a grammar whose scanner fails on one file still parses the next", async () => {
  // tree-sitter-wasms' bash scanner throws on a `case` statement; whatever it does, the file
  // after it must parse (a failed parser used to fail every later file of its grammar).
  await parseFile('case "$x" in\n  a) echo 1 ;;\nesac\n', "bash").catch(() => undefined);
  const next = await parseFile("deploy() {\n  target=1\n}\n", "bash");
  assertEquals(next.symbols.map((s) => s[0]), ["deploy"]);
  assertEquals(next.symbols[0]![10]?.map((s) => s[0]), ["target"]);
  assertEquals(next.exact, true);
});

Deno.test("parser: grammar loads run one at a time, a failed one does not stop the next", async () => {
  // Two grammars loading together could see each other's half-linked exports (about one fresh
  // thread in twelve failed the tsx grammar, loaded beside the typescript one).
  const events: string[] = [];
  const load = (name: string, fail = false) =>
    oneLoadAtATime(async () => {
      events.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`end ${name}`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    });
  const results = await Promise.allSettled([load("a"), load("b", true), load("c")]);
  assertEquals(events, ["start a", "end a", "start b", "end b", "start c", "end c"]);
  assertEquals(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
  // The real grammars, first loaded together in this thread.
  const parsed = await Promise.all([
    parseFile("export const a = 1;\n", "typescript"),
    parseFile("export const B = () => <div />;\n", "tsx"),
  ]);
  assertEquals(parsed.map((file) => file.symbols.map((s) => s[0])), [["a"], ["B"]]);
});
