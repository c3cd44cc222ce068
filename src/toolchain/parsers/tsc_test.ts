/**
 * The tsc parser on recorded output: tsc's plain output.
 * @module
 */
import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { parseTsc } from "./tsc.ts";

Deno.test("tsc plain output with continuation lines and global errors", () => {
  const output = `src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/b.ts(10,1): error TS2345: Argument of type '{ a: string; }' is not assignable.
  Property 'b' is missing in type '{ a: string; }'.
error TS5083: Cannot read file '/p/tsconfig.base.json'.
`;
  const [a, b, c] = parseTsc(output, "/p");
  assertEquals([a?.file, a?.line, a?.column, a?.code], ["src/a.ts", 3, 7, "TS2322"]);
  assertStringIncludes(b!.message, "\n  Property 'b' is missing");
  assertEquals([c?.file, c?.code], ["", "TS5083"]);
});
