/**
 * The deno parser on recorded output: `deno check` and `deno test` output.
 * @module
 */
import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { parseDenoCheck, parseDenoTest } from "./deno.ts";

Deno.test("deno check output: multi-line messages, warnings and module errors", () => {
  const output = `Check src/a.ts
TS2345 [ERROR]: Argument of type 'string' is not assignable to parameter of type 'number'.
  Type 'string' is not assignable to type 'number'.
  f("x");
    ~~~
    at file:///p/src/a.ts:4:5

error: Module not found "file:///p/src/missing.ts".
    at file:///p/src/b.ts:1:20

error: Type checking failed.
`;
  const [a, b, ...rest] = parseDenoCheck(output, "/p");
  assertEquals(rest.length, 0);
  assertEquals(a?.file, "src/a.ts");
  assertEquals([a?.line, a?.column, a?.code], [4, 5, "TS2345"]);
  assertEquals(
    a?.message,
    "Argument of type 'string' is not assignable to parameter of type 'number'.\n" +
      "  Type 'string' is not assignable to type 'number'.",
  );
  assertEquals([b?.file, b?.line, b?.column], ["src/b.ts", 1, 20]);
  assertStringIncludes(b!.message, "Module not found");
});

Deno.test("deno test output: counts, ignored tests and failure locations", () => {
  const output = `running 3 tests from ./a_test.ts
one ... ok (1ms)
two ... FAILED (2ms)
three ... ignored (0ms)

 ERRORS 

two => ./a_test.ts:5:6
error: AssertionError: Values are not equal.
  throw new AssertionError("x");
        ^
    at file:///p/a_test.ts:6:3

 FAILURES 

two => ./a_test.ts:5:6

FAILED | 1 passed | 1 failed | 1 ignored (9ms)
`;
  const summary = parseDenoTest(output, "/p");
  assertEquals([summary.passed, summary.failed, summary.ignored], [1, 1, 1]);
  assertEquals(summary.failures, [{
    name: "two",
    message: "AssertionError: Values are not equal.",
    file: "a_test.ts",
    line: 5,
    column: 6,
  }]);
});
