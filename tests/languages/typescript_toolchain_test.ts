/**
 * TypeScript/JavaScript's test_project on a real runner: a project with a tsconfig.json
 * (checked JavaScript) and a package.json whose test script is Node's own runner (`node
 * --test`): the failing test named with its location, then one test by name. (check_project
 * with tsc is tested in tests/toolchain/check_project_test.ts on fixtures/ts_check.)
 * @module
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { callJson, type Json, skipWithout } from "../helpers/toolchain.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { testProject } from "../../src/tools/toolchain/test_project.ts";

const PROJECT = {
  "package.json": JSON.stringify({
    name: "node-test-fixture",
    private: true,
    type: "module",
    scripts: { test: "node --test" },
  }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: { allowJs: true, checkJs: true, noEmit: true, strict: true },
    include: ["src", "test"],
  }),
  "src/math.js": "/** @param {number} a @param {number} b */\n" +
    "export function add(a, b) {\n  return a + b;\n}\n\n" +
    "/** @param {number} a @param {number} b */\n" +
    "export function multiply(a, b) {\n  return a + b;\n}\n",
  "test/math.test.js": 'import { test } from "node:test";\n' +
    'import assert from "node:assert/strict";\n' +
    'import { add, multiply } from "../src/math.js";\n\n' +
    'test("add", () => {\n  assert.equal(add(2, 3), 5);\n});\n\n' +
    'test("multiply", () => {\n  assert.equal(multiply(2, 3), 6);\n});\n',
};

Deno.test({
  name: "test_project on a TypeScript/JavaScript project: node --test, a failure, a filter",
  ignore: skipWithout("npm") || skipWithout("node"),
  async fn() {
    await using h = await toolHarness(PROJECT);
    const all = await callJson(h, testProject);
    const run = all.runs.find((r: Json) => r.toolchain === "node");
    assertEquals([all.ok, run.status, run.passed, run.failed], [false, "failed", 1, 1]);
    assertEquals(run.failures.map((f: Json) => f.name), ["multiply"]);
    assertStringIncludes(run.failures[0].message, "5 !== 6");
    assertEquals([run.failures[0].file, run.failures[0].line], ["test/math.test.js", 9]);
    const one = await callJson(h, testProject, { test_name: "add" });
    const only = one.runs.find((r: Json) => r.toolchain === "node");
    assertEquals([only.status, only.passed, only.failed], ["passed", 1, 0]);
  },
});
