/**
 * test_project against the real test runners on fixtures/ copied to temp folders: failures by
 * name and location, filters, build errors, and cancellation that kills the whole process tree.
 * A runner that is not installed skips its tests with a printed reason.
 * @module
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import {
  alive,
  callJson,
  fixtureTree,
  hasPytest,
  type Json,
  pytestPython,
  skipWithout,
  waitFor,
} from "../helpers/toolchain.ts";
import { z } from "../../src/deps.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import { testProject } from "../../src/tools/toolchain/test_project.ts";
import { JEST_VERSION, jestModules, VITEST_VERSION, vitestModules } from "./real_toolchains.ts";

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

Deno.test({
  name: "test_project: a .venv without pytest is reported, never replaced by another Python",
  ignore: pytestPython === null && (console.log("skipping: no Python with pytest"), true),
  async fn() {
    await using h = await toolHarness(fixtureTree("python_check"));
    // Without --system-site-packages: the venv cannot see the pytest of the Python it came from.
    const venv = await new Deno.Command(pytestPython!, {
      args: ["-m", "venv", "--without-pip", ".venv"],
      cwd: h.root,
    }).output();
    assert(venv.success, new TextDecoder().decode(venv.stderr));
    const result = await callJson(h, testProject);
    assertEquals(result.ok, false);
    assertEquals(result.runs[0].status, "skipped");
    assertStringIncludes(result.runs[0].reason, "virtual environment .venv has no pytest");
    assertStringIncludes(result.runs[0].reason, ".venv/bin/python -m pip install pytest");
  },
});

/** Vitest from npm once (the test skips, with the reason, when it cannot be fetched). */
const vitest = await vitestModules().catch((error: Error) => {
  console.log(`skipping the Vitest test: ${error.message}`);
  return null;
});

Deno.test({
  name: `test_project: Vitest ${VITEST_VERSION}'s own failures, by name, message and location`,
  ignore: vitest === null,
  async fn() {
    await using h = await toolHarness(fixtureTree("vitest_project"));
    await Deno.symlink(vitest!, h.path("node_modules"));
    const result = await callJson(h, testProject);
    const run = result.runs[0];
    assertEquals(result.ok, false);
    assertEquals([run.toolchain, run.status, run.command], ["node", "failed", "vitest run"]);
    // 6 failed tests, and the file that does not load; as the recorded run in fixtures/js_runners.
    assertEquals([run.passed, run.failed, run.ignored], [1, 7, 1], run.output_tail);
    const where = run.failures.map((f: Json) => `${f.name} @ ${f.file}:${f.line}`).sort();
    assertEquals(where, [
      "deep throw @ src/strings.ts:2",
      "math > multiplies @ src/math.test.ts:8",
      "math > nested > compares objects @ src/math.test.ts:15",
      "shout upper-cases @ src/strings.test.ts:5",
      "slow @ src/deep.test.ts:8",
      "src/broken.test.ts @ src/broken.test.ts:2",
      "throws @ src/strings.test.ts:9",
    ]);
    const multiplies = run.failures.find((f: Json) => f.name === "math > multiplies");
    assertStringIncludes(multiplies.message, "expected 6 to be 5");

    const one = await callJson(h, testProject, { test_name: "adds" });
    assertEquals(one.runs[0].passed, 1, one.runs[0].output_tail);
    assertEquals(one.runs[0].failures.map((f: Json) => f.name), ["src/broken.test.ts"]);

    // A script that does more than start the runner runs as written; the filter reaches Vitest.
    const pkg = JSON.parse(await h.read("package.json"));
    pkg.scripts.test = "node -e \"require('fs').writeFileSync('pre.txt', 'ran')\" && vitest run";
    await h.write("package.json", JSON.stringify(pkg));
    const script = await callJson(h, testProject, { test_name: "adds" });
    assertEquals(script.runs[0].command, "npm test -- -t adds");
    assertEquals(await h.read("pre.txt"), "ran");
    assertEquals(
      [script.runs[0].passed, script.runs[0].ignored],
      [1, 7],
      script.runs[0].output_tail,
    );
  },
});

/** Jest from npm once (the test skips, with the reason, when it cannot be fetched). */
const jest = await jestModules().catch((error: Error) => {
  console.log(`skipping the Jest test: ${error.message}`);
  return null;
});

Deno.test({
  name: `test_project: Jest ${JEST_VERSION}'s own failures, a file that fails to load included`,
  ignore: jest === null,
  async fn() {
    await using h = await toolHarness(fixtureTree("jest_project"));
    await Deno.symlink(jest!, h.path("node_modules"));
    const result = await callJson(h, testProject);
    const run = result.runs[0];
    assertEquals([result.ok, run.status, run.command], [false, "failed", "jest --ci"]);
    // 2 failed tests and the file that does not load; as the recorded run in fixtures/js_runners.
    assertEquals([run.passed, run.failed, run.ignored], [1, 3, 1], run.output_tail);
    // Jest runs files in parallel: their order varies.
    assertEquals(run.failures.map((f: Json) => `${f.name} @ ${f.file}:${f.line}`).sort(), [
      "deep throw @ src/strings.js:2",
      "math > multiplies @ src/math.test.js:4",
      "src/broken.test.js @ src/broken.test.js:1",
    ]);
    const one = await callJson(h, testProject, { test_name: "adds" });
    assertEquals([one.runs[0].command, one.runs[0].passed], ["jest --ci -t adds", 1]);
  },
});
