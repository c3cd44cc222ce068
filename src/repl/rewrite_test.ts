import { assertEquals } from "../../tests/helpers/assert.ts";
import { rewriteCell } from "./rewrite.ts";

Deno.test("rewrite: declarations become globals, the last expression the default export", () => {
  const cell = rewriteCell("const x: Map<string, number> = new Map<string, number>();\nx.size");
  assertEquals(cell.names, ["x"]);
  assertEquals(cell.hasValue, true);
  assertEquals(
    cell.source,
    '"x" in globalThis || (globalThis.x = undefined);\n; (x = new Map<string, number>());\n' +
      "export default (x.size)",
  );
});

Deno.test("rewrite: patterns, functions and classes persist; blocks are not values", () => {
  const cell = rewriteCell(
    "let {a, b: [c, d = 1], ...e} = o\nfunction f() {}\nclass K {}\nif (a) {\n  f()\n} else {}\n",
  );
  assertEquals(cell.names, ["a", "c", "d", "e", "K", "f"]);
  assertEquals(cell.hasValue, false);
});

Deno.test("rewrite: positions map back to the agent's lines and columns", () => {
  const cell = rewriteCell("const a = 1;\n  a.b.c");
  // `c` of `a.b.c` is on line 3, column 23 of the module ("  export default (a.b.c)").
  assertEquals(cell.position(3, 23), { line: 2, column: 7 });
});

Deno.test("rewrite: an unterminated string is a syntax error at its offset", () => {
  try {
    rewriteCell("const a = 'x");
    throw new Error("expected a syntax error");
  } catch (error) {
    assertEquals((error as { offset: number }).offset, 10);
  }
});
