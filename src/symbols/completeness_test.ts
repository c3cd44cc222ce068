import { assert, assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import { type NotAnalysed, notAnalysedText } from "./completeness.ts";

const unchecked = (relPath: string, line: number): NotAnalysed => ({
  relPath,
  line,
  character: 0,
  text: `const x = Context; // ${"long ".repeat(40)}`,
  reason: "not checked: more than 64 occurrences needed the server",
  kind: "unchecked",
});

Deno.test("notAnalysedText: the reason once, a few lines per file, bounded", () => {
  const items = [
    ...Array.from({ length: 30 }, (_, i) => unchecked("src/jsx/render.ts", i * 10)),
    ...Array.from({ length: 40 }, (_, i) => unchecked(`src/f${i}.ts`, 2)),
  ];
  const text = notAnalysedText("Context", items);
  assertEquals(text.split("more than 64").length, 2, "the reason once");
  assertStringIncludes(text, "- src/jsx/render.ts:1: const x = Context;");
  assertStringIncludes(text, "- src/jsx/render.ts: 27 more, lines 31, 41");
  assertStringIncludes(text, "- 29 more files, 29 occurrences: src/f11.ts");
  assert(text.length < 4_000, `${text.length} characters`);
});

Deno.test("notAnalysedText: each reason beside its line when they differ", () => {
  const text = notAnalysedText("f", [
    { ...unchecked("a.py", 2), text: "f()", reason: "one" },
    { ...unchecked("b.py", 0), text: "f()", reason: "two" },
  ]);
  assertEquals(
    text,
    "Not analysed: 2 occurrence(s) of 'f' the language server neither listed nor explained:\n" +
      "- a.py:3: f() (one)\n- b.py:1: f() (two)",
  );
});
