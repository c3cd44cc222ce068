/**
 * The js_runners parser on recorded output: the output of vitest, jest and node's test runner.
 * @module
 */
import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { parseJsTestOutput } from "./js_runners.ts";

const RECORDED = new URL("../../../fixtures/js_runners/", import.meta.url);

/**
 * Vitest 3.2.7's own output, recorded by `NO_COLOR=1 CI=1 vitest run` on fixtures/vitest_project
 * in /tmp/vt (stdout, then stderr, as test_project reads them): failed assertions, a nested
 * describe, a test that throws, an error thrown in the code under test, a timeout, a skipped test
 * and a file that fails to load.
 */
Deno.test("JavaScript runners: vitest's real output", () => {
  const read = (name: string) => Deno.readTextFileSync(new URL(name, RECORDED));
  const output = `${read("vitest-3.2.7.stdout.txt")}\n${read("vitest-3.2.7.stderr.txt")}`;
  const v = parseJsTestOutput(output, "/tmp/vt");
  assertEquals(v.recognized, true);
  // 6 failed tests and the file that failed to load; 1 passed; 1 skipped.
  assertEquals([v.passed, v.failed, v.ignored], [1, 7, 1]);
  const where = v.failures.map((f) => [f.name, f.file, f.line, f.column]);
  assertEquals(where, [
    ["src/broken.test.ts", "src/broken.test.ts", 2, 1],
    // Thrown in the code under test: its line, not the test's.
    ["deep throw", "src/strings.ts", 2, 27],
    ["slow", "src/deep.test.ts", 8, 1],
    ["math > multiplies", "src/math.test.ts", 8, 19],
    ["math > nested > compares objects", "src/math.test.ts", 15, 35],
    ["shout upper-cases", "src/strings.test.ts", 5, 23],
    ["throws", "src/strings.test.ts", 9, 9],
  ]);
  const message = (name: string) => v.failures.find((f) => f.name === name)!.message;
  assertStringIncludes(message("src/broken.test.ts"), "Cannot find module './does-not-exist'");
  assertStringIncludes(message("math > multiplies"), "AssertionError: expected 6 to be 5");
  assertStringIncludes(message("throws"), "TypeError: boom in test");
  assertStringIncludes(message("deep throw"), "RangeError: no booms");
  assertStringIncludes(message("slow"), "Test timed out in 50ms.");
  // The code excerpts below each frame are not part of the message.
  for (const f of v.failures) assertEquals(/^\s*\d+\|/m.test(f.message), false, f.message);
});

Deno.test("JavaScript runners: a vitest run whose only file fails to load", () => {
  const output = ` Test Files  1 failed (1)
      Tests  no tests

 FAIL  src/broken.test.ts [ src/broken.test.ts ]
Error: Cannot find module './does-not-exist' imported from '/p/src/broken.test.ts'
 ❯ src/broken.test.ts:2:1
`;
  const v = parseJsTestOutput(output, "/p");
  assertEquals([v.recognized, v.passed, v.failed], [true, 0, 1]);
  assertEquals(v.failures[0]?.line, 2);
});

/**
 * Jest 29.7.0's own output, recorded by `NO_COLOR=1 CI=1 jest --ci` on fixtures/jest_project in
 * /tmp/jt (everything on stderr): a failed assertion, an error thrown in the code under test and
 * a file that fails to load.
 */
Deno.test("JavaScript runners: jest's real output", () => {
  const read = (name: string) => Deno.readTextFileSync(new URL(name, RECORDED));
  const output = `${read("jest-29.7.0.stdout.txt")}\n${read("jest-29.7.0.stderr.txt")}`;
  const j = parseJsTestOutput(output, "/tmp/jt");
  // 2 failed tests and the file that failed to load; 1 passed; 1 skipped.
  assertEquals([j.recognized, j.passed, j.failed, j.ignored], [true, 1, 3, 1]);
  assertEquals(j.failures.map((f) => [f.name, f.file, f.line, f.column]), [
    ["math > multiplies", "src/math.test.js", 4, 44],
    ["deep throw", "src/strings.js", 2, 27],
    ["src/broken.test.js", "src/broken.test.js", 1, 21],
  ]);
  assertEquals(j.failures[1]!.message, "RangeError: no booms");
  assertStringIncludes(j.failures[2]!.message, "Cannot find module './does-not-exist'");
});

Deno.test("JavaScript runners: jest and node's TAP", () => {
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
