import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parseCTest, parseGcc } from "./gcc.ts";

Deno.test("parseGcc: errors, warnings with their flag, notes merged, make's directories", () => {
  const output = [
    "[ 25%] Building C object CMakeFiles/shapes.dir/src/shape.c.o",
    "/p/src/shape.c: In function 'square_area':",
    "/p/src/shape.c:2:61: error: 'sid' undeclared (first use in this function); did you mean 'side'?",
    "    2 | double square_area(double side) { return side * sid; }",
    "/p/src/shape.c:2:61: note: each undeclared identifier is reported only once",
    "/p/src/shape.c:2:39: warning: unused variable 'unused' [-Wunused-variable]",
    "make[1]: Entering directory '/p/lib'",
    "util.c:7:1: fatal error: missing.h: No such file or directory",
    "make[1]: Leaving directory '/p/lib'",
    "main.c:9:5: warning: implicit declaration of function 'f' [-Wimplicit-function-declaration]",
    "/usr/bin/ld: /p/src/main.c:5: undefined reference to `rect_volume'",
    "collect2: error: ld returned 1 exit status",
  ].join("\n");
  assertEquals(parseGcc(output, "/p"), [
    {
      file: "src/shape.c",
      line: 2,
      column: 61,
      severity: "error",
      message: "'sid' undeclared (first use in this function); did you mean 'side'?; " +
        "note: each undeclared identifier is reported only once",
      source: "cc",
    },
    {
      file: "src/shape.c",
      line: 2,
      column: 39,
      severity: "warning",
      message: "unused variable 'unused'",
      code: "-Wunused-variable",
      source: "cc",
    },
    {
      file: "lib/util.c",
      line: 7,
      column: 1,
      severity: "error",
      message: "missing.h: No such file or directory",
      source: "cc",
    },
    {
      file: "main.c",
      line: 9,
      column: 5,
      severity: "warning",
      message: "implicit declaration of function 'f'",
      code: "-Wimplicit-function-declaration",
      source: "cc",
    },
    {
      file: "src/main.c",
      line: 5,
      column: 1,
      severity: "error",
      message: "undefined reference to `rect_volume'",
      source: "ld",
    },
  ]);
});

Deno.test("parseCTest: counts, a failed test's output and assertion location, skips", () => {
  const output = [
    "Test project /p/.sextant/cmake-build",
    "    Start 1: square_area",
    "1/4 Test #1: square_area ......................   Passed    0.00 sec",
    "    Start 2: circle_area",
    "2/4 Test #2: circle_area ......................Subprocess aborted***Exception:   0.00 sec",
    "shape_tests: /p/tests/shape_tests.cpp:16: int main(int, char**): Assertion `x' failed.",
    "",
    "    Start 3: slow",
    "3/4 Test #3: slow .............................***Skipped   0.00 sec",
    "    Start 4: parse",
    "4/4 Test #4: parse ............................***Failed    0.01 sec",
    "expected 3, got 4",
    "",
    "50% tests passed, 2 tests failed out of 4",
  ].join("\n");
  const summary = parseCTest(output, "/p");
  assertEquals([summary.recognized, summary.passed, summary.failed, summary.ignored], [
    true,
    1,
    2,
    1,
  ]);
  assertEquals(summary.failures, [
    {
      name: "circle_area",
      message: "Subprocess aborted Exception\n" +
        "shape_tests: /p/tests/shape_tests.cpp:16: int main(int, char**): Assertion `x' failed.",
      file: "tests/shape_tests.cpp",
      line: 16,
    },
    { name: "parse", message: "Failed\nexpected 3, got 4" },
  ]);
  assertEquals(parseCTest("No tests were found!!!\n", "/p").recognized, true);
  assertEquals(parseCTest("make: *** No rule to make target\n", "/p").recognized, false);
});
