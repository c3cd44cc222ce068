/**
 * check_project and test_project against the real toolchains on fixtures/ (copied to temp
 * folders), the process runner (timeouts, cancellation, no orphans), and the output parsers on
 * recorded output. A toolchain that is not installed skips its tests with a printed reason.
 * @module
 */
import { join } from "node:path";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "./helpers/assert.ts";
import { type FileTree, toolHarness } from "./helpers/tool_ctx.ts";
import { z } from "../src/deps.ts";
import { findExecutable } from "../src/toolchain/detect.ts";
import { runCommand } from "../src/toolchain/run.ts";
import { parseCargoMessages, parseLibtestOutput } from "../src/toolchain/parsers/cargo.ts";
import { parseDenoCheck, parseDenoTest } from "../src/toolchain/parsers/deno.ts";
import { parseGnat } from "../src/toolchain/parsers/gnat.ts";
import { parseGoTestJson, parseGoVet } from "../src/toolchain/parsers/go.ts";
import { parseJsTestOutput } from "../src/toolchain/parsers/js_runners.ts";
import { parsePyright } from "../src/toolchain/parsers/pyright.ts";
import { parsePytest } from "../src/toolchain/parsers/pytest.ts";
import { parseTsc } from "../src/toolchain/parsers/tsc.ts";
import type { Tool, ToolContext } from "../src/tools/tool.ts";
import { checkProject } from "../src/tools/toolchain/check_project.ts";
import { testProject } from "../src/tools/toolchain/test_project.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const BUILD_OUTPUTS = new Set([
  "target",
  "obj",
  "bin",
  "node_modules",
  "__pycache__",
  ".pytest_cache",
]);

/** A fixture folder as a file tree (build outputs left out), to copy into a temp project. */
function fixtureTree(name: string): FileTree {
  const tree: FileTree = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (BUILD_OUTPUTS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path, `${prefix}${entry.name}/`);
      else tree[`${prefix}${entry.name}`] = Deno.readFileSync(path);
    }
  };
  walk(join(FIXTURES, name), "");
  return tree;
}

/** Skip (with a printed reason) unless a program is installed. */
function skipWithout(program: string, root?: string): boolean {
  const found = findExecutable(program, root ? { projectRoot: root } : {});
  if (!found) console.log(`skipping: ${program} is not installed`);
  return found === null;
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function callJson(
  h: { call(tool: Tool, args: Record<string, unknown>): Promise<string> },
  tool: Tool,
  args: Record<string, unknown> = {},
): Promise<Json> {
  return JSON.parse(await h.call(tool, args));
}

const hasPytest = (() => {
  for (const python of ["python3", "/usr/bin/python3"]) {
    try {
      if (
        new Deno.Command(python, { args: ["-c", "import pytest"], stderr: "null" }).outputSync()
          .success
      ) {
        return true;
      }
    } catch {
      // try the next
    }
  }
  return false;
})();

// ---- the runner ----------------------------------------------------------------------------

/** Whether a process is alive (zombies count as dead). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

Deno.test("runCommand collects output, exit code and a tail", async () => {
  const result = await runCommand([
    "sh",
    "-c",
    "for i in 1 2 3 4 5; do echo line$i; done; echo err >&2; exit 3",
  ], {
    cwd: "/",
    tailLines: 3,
  });
  assertEquals(result.code, 3);
  assertStringIncludes(result.stdout, "line1\n");
  assertEquals(result.stderr, "err\n");
  assertEquals(result.lines, 6);
  assertEquals(result.tail.length, 3);
  assertEquals(result.timedOut, false);
});

Deno.test("runCommand kills what the process left behind when it exits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = await runCommand(["sh", "-c", `sleep 30 & echo $! > ${dir}/pid`], { cwd: dir });
    assertEquals(result.code, 0);
    const pid = Number(await Deno.readTextFile(`${dir}/pid`));
    assert(await waitFor(() => !alive(pid), 3000), "the background sleep must not outlive the run");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCommand's timeout kills the whole process group", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const started = Date.now();
    const result = await runCommand(["sh", "-c", `sleep 30 & echo $! > ${dir}/pid; sleep 30`], {
      cwd: dir,
      timeoutMs: 500,
    });
    assert(result.timedOut);
    assert(Date.now() - started < 5000, "the timeout must stop the run promptly");
    const pid = Number(await Deno.readTextFile(`${dir}/pid`));
    assert(await waitFor(() => !alive(pid), 3000));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCommand rejects with the abort reason and kills the group when aborted", async () => {
  const controller = new AbortController();
  const progress: number[] = [];
  const run = runCommand(["sh", "-c", "echo started; sleep 30"], {
    cwd: "/",
    signal: controller.signal,
    onProgress: (p) => progress.push(p.lines),
  });
  await new Promise((r) => setTimeout(r, 1300));
  controller.abort(new Error("cancelled by test"));
  await assertRejects(() => run, "cancelled by test");
  assert(progress.length >= 1 && progress[0] === 1, "progress reports lines seen while running");
});

Deno.test("runCommand reports a program that does not exist", async () => {
  await assertRejects(() => runCommand(["/nonexistent/tool"], { cwd: "/" }), "was not found");
});

// ---- parsers on recorded output --------------------------------------------------------------

Deno.test("cargo JSON messages become diagnostics; summary lines are dropped", () => {
  const line = (level: string, message: string, spans: unknown[], code: string | null = null) =>
    JSON.stringify({
      reason: "compiler-message",
      manifest_path: "/nowhere/Cargo.toml",
      message: { level, message, code: code ? { code } : null, spans },
    });
  const span = {
    file_name: "src/lib.rs",
    is_primary: true,
    line_start: 3,
    line_end: 3,
    column_start: 5,
    column_end: 9,
    label: "expected `u32`",
  };
  const output = [
    line("error", "mismatched types", [span], "E0308"),
    line("error", "aborting due to 1 previous error", []),
    '{"reason":"build-finished","success":false}',
  ].join("\n");
  const [d, ...rest] = parseCargoMessages(output, "/nowhere");
  assertEquals(rest.length, 0);
  assertEquals(d?.file, "src/lib.rs");
  assertEquals([d?.line, d?.column, d?.end_column], [3, 5, 9]);
  assertEquals(d?.message, "mismatched types: expected `u32`");
  assertEquals(d?.code, "E0308");
});

Deno.test("libtest output: counts over binaries, panic messages in old and new formats", () => {
  const output = `
running 2 tests
test a::new_style ... FAILED
test a::old_style ... FAILED

failures:

---- a::new_style stdout ----

thread 'a::new_style' (99) panicked at src/a.rs:10:5:
assertion failed: x
  left: 1
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

---- a::old_style stdout ----
thread 'a::old_style' panicked at 'boom', src/b.rs:3:9

failures:
    a::new_style
    a::old_style

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

running 3 tests
test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
  const summary = parseLibtestOutput(output, "/p");
  assertEquals([summary.passed, summary.failed, summary.ignored], [2, 2, 1]);
  assertEquals(summary.failures[0], {
    name: "a::new_style",
    message: "assertion failed: x\n  left: 1",
    file: "src/a.rs",
    line: 10,
    column: 5,
  });
  assertEquals(summary.failures[1]?.message, "boom");
  assertEquals(summary.failures[1]?.file, "src/b.rs");
});

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

Deno.test("pyright JSON: 0-based ranges become 1-based, information becomes info", () => {
  const report = {
    generalDiagnostics: [
      {
        file: "/p/m.py",
        severity: "information",
        message: "hint",
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
        rule: "reportX",
      },
    ],
  };
  const [d] = parsePyright(JSON.stringify(report), "/p")!;
  assertEquals([d?.file, d?.line, d?.column, d?.end_column, d?.severity, d?.code], [
    "m.py",
    1,
    1,
    4,
    "info",
    "reportX",
  ]);
  assertEquals(parsePyright("pyright crashed", "/p"), null);
});

Deno.test("go vet messages and go test -json events", () => {
  const vet = `# example.com/m/pkg
vet: pkg/a.go:5:2: undefined: x
./main.go:9:2: fmt.Printf format %d has arg s of wrong type string
`;
  const [a, b] = parseGoVet(vet, "/p");
  assertEquals([a?.file, a?.line, a?.severity], ["pkg/a.go", 5, "error"]);
  assertEquals([b?.file, b?.severity], ["main.go", "warning"]);
  const events = [
    { Action: "run", Package: "example.com/m/pkg", Test: "TestA" },
    {
      Action: "output",
      Package: "example.com/m/pkg",
      Test: "TestA",
      Output: "    a_test.go:12: got 1, want 2\n",
    },
    { Action: "fail", Package: "example.com/m/pkg", Test: "TestA" },
    { Action: "pass", Package: "example.com/m/pkg", Test: "TestB" },
    { Action: "skip", Package: "example.com/m/pkg", Test: "TestC" },
  ].map((e) => JSON.stringify(e)).join("\n");
  const summary = parseGoTestJson(events, "/p", "example.com/m");
  assertEquals([summary.passed, summary.failed, summary.ignored], [1, 1, 1]);
  assertEquals(summary.failures[0]?.file, "pkg/a_test.go");
  assertEquals(summary.failures[0]?.line, 12);
  assertStringIncludes(summary.failures[0]!.message, "got 1, want 2");
});

Deno.test("GNAT messages: severities, switch tags, continuation merge, old format", () => {
  const output = `/p/src/a.adb:9:27: error: expected type "Standard.Integer"
/p/src/a.adb:9:27: error: found a string type
/p/src/a.adb:12:04: warning: variable "X" is not referenced [-gnatwu]
/p/src/b.adb:1:01: (style) bad casing
b.ads:3:10: missing ";"
gprbuild: *** compilation phase failed
`;
  const [a, w, s, old, ...rest] = parseGnat(output, "/p");
  assertEquals(rest.length, 0);
  assertEquals(a?.message, 'expected type "Standard.Integer"; found a string type');
  assertEquals([w?.severity, w?.code, w?.message], [
    "warning",
    "-gnatwu",
    'variable "X" is not referenced',
  ]);
  assertEquals([s?.severity, s?.code], ["warning", "style"]);
  assertEquals([old?.file, old?.severity], ["b.ads", "error"]);
});

Deno.test("pytest output: closing counts, short summary and frame locations", () => {
  const output = `collected 4 items

tests/test_a.py .F.s                                                     [100%]

=================================== FAILURES ===================================
______________________________ TestX.test_method _______________________________

    def test_method(self):
>       helper()

tests/test_a.py:12: 
_ _ _ _ _
    def helper():
>       assert 1 == 2
E       assert 1 == 2

tests/helpers.py:3: AssertionError
=========================== short test summary info ============================
FAILED tests/test_a.py::TestX::test_method - assert 1 == 2
 +  where details follow
=================== 1 failed, 2 passed, 1 skipped in 0.12s ====================
`;
  const summary = parsePytest(output, "/p");
  assertEquals([summary.passed, summary.failed, summary.ignored], [2, 1, 1]);
  assertEquals(summary.failures[0]?.name, "tests/test_a.py::TestX::test_method");
  assertEquals(summary.failures[0]?.message, "assert 1 == 2\n+  where details follow");
  assertEquals([summary.failures[0]?.file, summary.failures[0]?.line], ["tests/helpers.py", 3]);
});

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

// ---- tools against real toolchains -----------------------------------------------------------

Deno.test({
  name: "check_project: Rust type error with file, line and code; warnings counted",
  ignore: skipWithout("cargo"),
  async fn() {
    await using h = await toolHarness(fixtureTree("rust/broken"));
    const result = await callJson(h, checkProject);
    assertEquals(result.ok, false);
    assertEquals(result.summary.error, 1);
    assert(result.summary.warning >= 1);
    const [error] = result.diagnostics;
    assertEquals(error.file, "src/shapes.rs");
    assertEquals([error.line, error.column], [8, 22]);
    assertEquals(error.code, "E0308");
    assertEquals(error.source, "cargo");
    assertStringIncludes(error.message, "mismatched types");
    assertEquals(result.checks[0].status, "errors");
  },
});

Deno.test({
  name: "test_project: the failing Rust test by name, message and location; a filter",
  ignore: skipWithout("cargo"),
  async fn() {
    await using h = await toolHarness(fixtureTree("rust/tests_fail"));
    const all = await callJson(h, testProject, { backtrace: true });
    assertEquals(all.ok, false);
    const run = all.runs[0];
    assertEquals(run.status, "failed");
    assertEquals([run.passed, run.failed, run.ignored], [2, 1, 1]);
    const [failure] = run.failures;
    assertEquals(failure.name, "tests::subtracts_numbers");
    assertStringIncludes(failure.message, "subtract is wrong");
    assertEquals([failure.file, failure.line], ["src/lib.rs", 24]);
    assertStringIncludes(failure.backtrace, "tests_fail::tests::subtracts_numbers");
    assertStringIncludes(run.output_tail, "test result:");
    assert(!run.output_tail.includes('{"reason"'), "cargo's JSON stays out of the tail");

    const one = await callJson(h, testProject, { test_name: "adds_numbers" });
    assertEquals(one.runs[0].status, "passed");
    assertEquals([one.summary.passed, one.summary.failed], [1, 0]);
  },
});

Deno.test({
  name: "test_project: a Rust crate that does not compile reports build errors",
  ignore: skipWithout("cargo"),
  async fn() {
    await using h = await toolHarness(fixtureTree("rust/broken"));
    const result = await callJson(h, testProject);
    assertEquals(result.runs[0].status, "build_failed");
    assertEquals(result.runs[0].build_errors[0].file, "src/shapes.rs");
    assertEquals(result.runs[0].build_errors[0].line, 8);
  },
});

Deno.test({
  name: "check_project and test_project: Deno type error and failing test",
  ignore: skipWithout("deno"),
  async fn() {
    await using h = await toolHarness(fixtureTree("deno"));
    const check = await callJson(h, checkProject, { include_fixes: true });
    assertEquals(check.summary.error, 1);
    assertEquals(check.diagnostics[0].file, "src/report.ts");
    assertEquals([check.diagnostics[0].line, check.diagnostics[0].column], [5, 9]);
    assertEquals(check.diagnostics[0].code, "TS2322");
    // The fixes come from deno lsp's quick fixes (none for this type error).
    assertStringIncludes(check.note, "available_fixes");
    assert(Array.isArray(check.diagnostics[0].available_fixes));

    const tests = await callJson(h, testProject);
    const run = tests.runs[0];
    assertEquals([run.passed, run.failed], [1, 1]);
    assertEquals(run.failures[0].name, "multiply works");
    assertEquals(run.failures[0].message, "Error: Expected 6, got 5");
    assertEquals([run.failures[0].file, run.failures[0].line], ["tests/math_test.ts", 11]);
    assert(!run.output_tail.includes("\u001b["), "no colour codes in the tail");
  },
});

Deno.test({
  name: "check_project: TypeScript type error from tsc",
  ignore: skipWithout("tsc", join(FIXTURES, "ts_check")),
  async fn() {
    await using h = await toolHarness(fixtureTree("ts_check"));
    const result = await callJson(h, checkProject);
    assertEquals(result.checks.map((c: Json) => c.toolchain), ["typescript"]);
    assertEquals(result.diagnostics.length, 1);
    const [d] = result.diagnostics;
    assertEquals([d.file, d.line, d.column, d.code, d.source], [
      "src/index.ts",
      3,
      36,
      "TS2322",
      "tsc",
    ]);
  },
});

Deno.test({
  name: "check_project: pyright error in a Python project",
  ignore: skipWithout("pyright"),
  async fn() {
    await using h = await toolHarness(fixtureTree("python_check"));
    const result = await callJson(h, checkProject);
    assertEquals(result.summary.error, 1);
    const [d] = result.diagnostics;
    assertEquals([d.file, d.line, d.column, d.code], [
      "calc/report.py",
      7,
      18,
      "reportAssignmentType",
    ]);
  },
});

Deno.test({
  name: "test_project: the failing pytest, and a -k filter",
  ignore: !hasPytest && (console.log("skipping: no Python with pytest"), true),
  async fn() {
    await using h = await toolHarness(fixtureTree("python_check"));
    const result = await callJson(h, testProject);
    const run = result.runs[0];
    assertEquals([run.passed, run.failed], [1, 1]);
    assertEquals(run.failures[0].name, "tests/test_ops.py::test_multiply");
    assertStringIncludes(run.failures[0].message, "assert 5 == 6");
    assertEquals([run.failures[0].file, run.failures[0].line], ["tests/test_ops.py", 9]);
    const one = await callJson(h, testProject, { test_name: "test_add" });
    assertEquals([one.summary.passed, one.summary.failed, one.runs[0].status], [1, 0, "passed"]);
  },
});

const GO_PROJECT: FileTree = {
  "go.mod": "module example.com/demo\n\ngo 1.21\n",
  "calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
  "calc/calc_test.go":
    'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 4 {\n\t\tt.Errorf("got %d, want 4", Add(1, 2))\n\t}\n}\n',
  "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d\\n", "x")\n}\n',
};

Deno.test({
  name: "check_project and test_project: Go vet finding and failing test",
  ignore: skipWithout("go"),
  async fn() {
    await using h = await toolHarness(GO_PROJECT);
    const check = await callJson(h, checkProject);
    assertEquals(check.diagnostics[0].file, "main.go");
    const tests = await callJson(h, testProject);
    assertEquals(tests.runs[0].failures[0].name, "TestAdd");
    assertEquals(tests.runs[0].failures[0].file, "calc/calc_test.go");
  },
});

Deno.test({
  name: "test_project: cancelling a test run kills the whole process tree, with progress first",
  ignore: !hasPytest && (console.log("skipping: no Python with pytest"), true),
  async fn() {
    await using h = await toolHarness({
      "pyproject.toml": '[project]\nname = "slow"\nversion = "0"\n',
      "tests/test_slow.py": `import os, subprocess, time

def test_sleeps():
    child = subprocess.Popen(["sleep", "60"])
    with open("pids.txt", "w") as f:
        f.write(f"{os.getpid()} {child.pid}")
    time.sleep(60)
`,
    });
    const controller = new AbortController();
    const progress: string[] = [];
    const ctx: ToolContext = {
      ...h.ctx,
      signal: controller.signal,
      progress: (_p, _t, message) => {
        progress.push(message ?? "");
        return Promise.resolve();
      },
    };
    const args = z.strictObject(testProject.params).parse({});
    const started = Date.now();
    const run = testProject.handler(args, ctx);
    assert(
      await waitFor(() => {
        try {
          return Deno.readTextFileSync(h.path("pids.txt")).includes(" ");
        } catch {
          return false;
        }
      }, 30_000),
      "the test must start",
    );
    const pids = Deno.readTextFileSync(h.path("pids.txt")).split(" ").map(Number);
    await new Promise((r) => setTimeout(r, 1200));
    controller.abort(new Error("cancelled"));
    await assertRejects(() => run, "cancelled");
    assert(Date.now() - started < 45_000);
    for (const pid of pids) {
      assert(await waitFor(() => !alive(pid), 5000), `process ${pid} must be gone`);
    }
    assert(
      progress.some((m) => /pytest: \d+ s, \d+ lines/.test(m)),
      `progress: ${progress.join(" | ")}`,
    );
  },
});

Deno.test("check_project: project_name must name a loaded project; no toolchain is an error", async () => {
  await using h = await toolHarness({ "README.md": "nothing to build\n" });
  const other = await h.run(checkProject, { project_name: "elsewhere" });
  assert(other.isError);
  assertMatch(other.text, /No project named 'elsewhere' is loaded\. Loaded projects: 'project' /);
  const none = await h.run(testProject, {});
  assert(none.isError);
  assertStringIncludes(none.text, "No known toolchain");
});

Deno.test({
  name: "check_project over MCP: progress notifications and the Rust error (sextant permissions)",
  ignore: skipWithout("cargo"),
  async fn() {
    const { connect } = await import("./helpers/mcp.ts");
    await using h = await toolHarness(fixtureTree("rust/broken"));
    const server = await connect(h.root, ["--tools", "check_project"]);
    try {
      const progress: string[] = [];
      const result = await server.client.callTool(
        { name: "check_project", arguments: {} },
        undefined,
        {
          onprogress: (p: { message?: string | undefined }) => progress.push(p.message ?? ""),
          timeout: 120_000,
        },
      );
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      assert(result.isError !== true, text);
      const parsed = JSON.parse(text);
      assertEquals(parsed.diagnostics[0].file, "src/shapes.rs");
      assert(progress.length >= 1, "at least the start is reported");
    } finally {
      await server.close();
    }
  },
});

Deno.test({
  name: "test_project over MCP: a cancelled run leaves no process behind (sextant permissions)",
  ignore: !hasPytest && (console.log("skipping: no Python with pytest"), true),
  async fn() {
    const { connect } = await import("./helpers/mcp.ts");
    await using h = await toolHarness({
      "pyproject.toml": '[project]\nname = "slow"\nversion = "0"\n',
      "tests/test_slow.py": `import os, subprocess, time

def test_sleeps():
    child = subprocess.Popen(["sleep", "60"])
    with open("pids.txt", "w") as f:
        f.write(f"{os.getpid()} {child.pid}")
    time.sleep(60)
`,
    });
    const server = await connect(h.root, ["--tools", "test_project"]);
    try {
      const controller = new AbortController();
      const call = server.client.callTool({ name: "test_project", arguments: {} }, undefined, {
        signal: controller.signal,
        timeout: 120_000,
      });
      call.catch(() => {});
      const started = await waitFor(() => {
        try {
          return Deno.readTextFileSync(h.path("pids.txt")).includes(" ");
        } catch {
          return false;
        }
      }, 60_000);
      assert(started, "the test must start");
      const pids = Deno.readTextFileSync(h.path("pids.txt")).split(" ").map(Number);
      controller.abort();
      await assertRejects(() => call);
      for (const pid of pids) {
        assert(await waitFor(() => !alive(pid), 10_000), `process ${pid} must be gone`);
      }
      // The server survives the cancelled call and still answers.
      await new Promise((r) => setTimeout(r, 500));
      const tools = await server.client.listTools();
      assertEquals(tools.tools.map((t) => t.name), ["test_project"]);
    } finally {
      await server.close();
    }
  },
});
