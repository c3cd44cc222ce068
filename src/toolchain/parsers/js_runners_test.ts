/**
 * The js_runners parser on recorded output: the output of vitest, jest and node's test runner.
 * @module
 */
import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { parseJsTestOutput } from "./js_runners.ts";

Deno.test("JavaScript runners: vitest, jest and node's TAP", () => {
  const vitest = ` ❯ src/math.test.js (3 tests | 1 failed | 1 skipped) 11ms
⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/math.test.js > math > multiplies
AssertionError: expected 6 to be 5 // Object.is equality
 ❯ src/math.test.js:4:42
      4|   it("multiplies", () => { expect(2 * 3).toBe(5); });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed | 1 skipped (3)
`;
  const v = parseJsTestOutput(vitest, "/p");
  assertEquals([v.passed, v.failed, v.ignored], [1, 1, 1]);
  assertEquals(v.failures[0]?.name, "math > multiplies");
  assertEquals([v.failures[0]?.file, v.failures[0]?.line], ["src/math.test.js", 4]);
  assertStringIncludes(v.failures[0]!.message, "expected 6 to be 5");

  const jest = `  ● math › multiplies

    expect(received).toBe(expected)

    Expected: 5
    Received: 6

      at Object.<anonymous> (src/math.test.js:4:42)

Tests:       1 failed, 2 passed, 3 total
`;
  const j = parseJsTestOutput(jest, "/p");
  assertEquals([j.passed, j.failed], [2, 1]);
  assertEquals(j.failures[0]?.name, "math > multiplies");
  assertEquals(j.failures[0]?.line, 4);

  const tap = `not ok 2 - node fails
  ---
  location: '/p/src/plain.test.mjs:4:1'
  error: |-
    Expected values to be strictly equal:
    2 !== 3
  code: 'ERR_ASSERTION'
  ...
# pass 1
# fail 1
# skipped 0
`;
  const t = parseJsTestOutput(tap, "/p");
  assertEquals([t.passed, t.failed], [1, 1]);
  assertEquals(t.failures[0]?.name, "node fails");
  assertEquals([t.failures[0]?.file, t.failures[0]?.line], ["src/plain.test.mjs", 4]);
  assertStringIncludes(t.failures[0]!.message, "2 !== 3");
});
