/**
 * check_project (and, where one fixture serves both, test_project) against the real toolchains
 * on fixtures/ copied to temp folders. A toolchain that is not installed skips its tests with a
 * printed reason.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { type FileTree, toolHarness } from "../helpers/tool_ctx.ts";
import { callJson, FIXTURES, fixtureTree, type Json, skipWithout } from "../helpers/toolchain.ts";
import { checkProject } from "../../src/tools/toolchain/check_project.ts";
import { testProject } from "../../src/tools/toolchain/test_project.ts";
import { hasTypeScript7, linkTypeScript7, LSP_CACHE } from "../helpers/lsp.ts";

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
  name: "check_project: pyright resolves imports in the project's .venv",
  ignore: skipWithout("pyright") || skipWithout("python3"),
  async fn() {
    await using h = await toolHarness({
      "pyproject.toml": '[project]\nname = "venvcheck"\nversion = "0"\n',
      "app/main.py": "import onlyinvenv\n\nvalue: int = onlyinvenv.NAME\n",
    });
    const venv = await new Deno.Command("python3", {
      args: ["-m", "venv", "--without-pip", ".venv"],
      cwd: h.root,
    }).output();
    assert(venv.success, new TextDecoder().decode(venv.stderr));
    const lib = h.path(".venv/lib");
    const [pythonDir] = [...Deno.readDirSync(lib)].map((e) => e.name);
    await Deno.writeTextFile(
      join(lib, pythonDir!, "site-packages", "onlyinvenv.py"),
      'NAME: str = "venv"\n',
    );
    const result = await callJson(h, checkProject);
    // Found in the venv, the module's type is known: a str is not an int.
    assertEquals(
      result.diagnostics.map((d: Json) => [d.file, d.line, d.code]),
      [["app/main.py", 3, "reportAssignmentType"]],
    );
    assertStringIncludes(result.checks[0].note, "the project's environment .venv");
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

Deno.test("check_project: project_name must name a loaded project; no toolchain is an error", async () => {
  await using h = await toolHarness({ "README.md": "nothing to build\n" });
  const other = await h.run(checkProject, { project_name: "elsewhere" });
  assert(other.isError);
  assertMatch(other.text, /No project named 'elsewhere' is loaded\. Loaded projects: 'project' /);
  const none = await h.run(testProject, {});
  assert(none.isError);
  assertStringIncludes(none.text, "No known toolchain");
});

const TS59_MODULES = join(LSP_CACHE, "node_modules");
const hasTypeScript59 = (() => {
  try {
    return Deno.statSync(join(TS59_MODULES, "typescript", "bin", "tsc")).isFile;
  } catch {
    return false;
  }
})();

/** Give a project TypeScript 5.9 as its own dependency, linked to the test cache. */
async function linkTypeScript59(root: string): Promise<void> {
  const modules = join(root, "node_modules");
  await Deno.mkdir(join(modules, ".bin"), { recursive: true });
  await Deno.symlink(join(TS59_MODULES, "typescript"), join(modules, "typescript"));
  await Deno.symlink(join(modules, "typescript", "bin", "tsc"), join(modules, ".bin", "tsc"));
}

const GENERATIONS = [
  { name: "TypeScript 5.9", installed: hasTypeScript59, link: linkTypeScript59 },
  { name: "TypeScript 7", installed: hasTypeScript7(), link: linkTypeScript7 },
];

/** src/utils/url.ts of fixtures/ts_solution with a type error (TS2322) on line 2. */
const withTypeError = (text: string) =>
  text.replace("MAX_PARTS: number = 16;", 'MAX_PARTS: number = "16";');

for (const generation of GENERATIONS) {
  Deno.test({
    name: `check_project (${generation.name}): a solution tsconfig (files: [], references, as ` +
      "hono's) checks each referenced config; an error in one is found",
    ignore: !generation.installed && (console.log(`skipping: ${generation.name}`), true),
    async fn() {
      await using h = await toolHarness(fixtureTree("ts_solution"));
      await generation.link(h.root);
      const before = await h.listAll();
      const clean = await callJson(h, checkProject);
      const configs = (result: Json) =>
        result.checks.map((c: Json) => [c.config, c.command, c.status]);
      assertEquals(configs(clean), [
        ["tsconfig.build.json", "tsc --noEmit --pretty false -p tsconfig.build.json", "ok"],
        ["tsconfig.spec.json", "tsc --noEmit --pretty false -p tsconfig.spec.json", "ok"],
      ]);
      // The build config reads index.ts and url.ts; the spec config the test and what it imports.
      assertEquals(clean.checks.map((c: Json) => c.files), [2, 2]);
      assertEquals([clean.ok, clean.diagnostics], [true, []]);
      // Nothing written into the project: no dist/, no .tsbuildinfo of the composite config.
      assertEquals(await h.listAll(), before);

      await h.write("src/utils/url.ts", withTypeError(await h.read("src/utils/url.ts")));
      const broken = await callJson(h, checkProject);
      assertEquals(broken.ok, false);
      assertEquals(configs(broken), [
        ["tsconfig.build.json", "tsc --noEmit --pretty false -p tsconfig.build.json", "errors"],
        ["tsconfig.spec.json", "tsc --noEmit --pretty false -p tsconfig.spec.json", "errors"],
      ]);
      // Both configs read url.ts; its error is reported once.
      assertEquals(
        broken.diagnostics.map((d: Json) => [d.file, d.line, d.code]),
        [["src/utils/url.ts", 2, "TS2322"]],
      );
    },
  });
}

Deno.test({
  name: "check_project: the project's own typecheck script of package.json, through npm run",
  ignore: skipWithout("npm") || (!hasTypeScript7() && (console.log("skipping: TS 7"), true)),
  async fn() {
    const tree = fixtureTree("ts_solution");
    const pkg = JSON.parse(new TextDecoder().decode(tree["package.json"] as Uint8Array));
    pkg.scripts.typecheck = "tsc --noEmit -p tsconfig.spec.json";
    tree["package.json"] = JSON.stringify(pkg, null, 2);
    await using h = await toolHarness(tree);
    await linkTypeScript7(h.root);
    await h.write("src/utils/url.ts", withTypeError(await h.read("src/utils/url.ts")));
    const result = await callJson(h, checkProject);
    assertEquals(result.ok, false);
    assertEquals(result.checks.length, 1);
    assertEquals(result.checks[0].command, "npm run typecheck");
    assertStringIncludes(result.checks[0].note, '"typecheck" script of package.json');
    assertEquals(
      result.diagnostics.map((d: Json) => [d.file, d.line, d.code]),
      [["src/utils/url.ts", 2, "TS2322"]],
    );
  },
});

Deno.test({
  name: "check_project: a tsconfig with nothing to check is never ok, and says why",
  ignore: skipWithout("tsc"),
  async fn() {
    await using h = await toolHarness({
      "tsconfig.json": '{ "files": [], "references": [] }\n',
      "src/a.ts": "export const a: number = 'a';\n",
    });
    const result = await callJson(h, checkProject);
    assertEquals(result.ok, false);
    assertEquals(result.checks.map((c: Json) => c.status), ["skipped"]);
    assertStringIncludes(result.checks[0].reason, "nothing to check: tsconfig.json has no input");
  },
});

Deno.test({
  name:
    "check_project: a checker that read none of the project's files is never ok (Deno, pyright)",
  ignore: skipWithout("deno") || skipWithout("pyright"),
  async fn() {
    await using deno = await toolHarness({ "deno.json": "{}\n", "README.md": "no code\n" });
    const empty = await callJson(deno, checkProject);
    assertEquals([empty.ok, empty.checks[0].status], [false, "nothing_checked"]);
    assertStringIncludes(empty.checks[0].reason, "deno check read none of the project's files");

    await using python = await toolHarness({
      "pyproject.toml": '[project]\nname = "empty"\nversion = "0"\n',
    });
    const none = await callJson(python, checkProject);
    assertEquals([none.ok, none.checks[0].status, none.checks[0].files], [
      false,
      "nothing_checked",
      0,
    ]);
  },
});

Deno.test({
  name: "check_project: a referenced project that was never built (TS6305) is explained",
  ignore: !hasTypeScript7() && (console.log("skipping: TypeScript 7"), true),
  async fn() {
    const config = (references: string[]) =>
      JSON.stringify({
        compilerOptions: { composite: true, strict: true, module: "nodenext", outDir: "dist" },
        include: ["src"],
        references: references.map((path) => ({ path })),
      });
    await using h = await toolHarness({
      "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./app" }] }),
      "core/tsconfig.json": config([]),
      "core/src/index.ts": "export const one: number = 1;\n",
      "app/tsconfig.json": config(["../core"]),
      "app/src/main.ts":
        'import { one } from "../../core/src/index.js";\nexport const two = one;\n',
    });
    await linkTypeScript7(h.root);
    const result = await callJson(h, checkProject);
    // app references core: both are checked, app first (depth first from tsconfig.json).
    assertEquals(result.checks.map((c: Json) => [c.config, c.status]), [
      ["app/tsconfig.json", "errors"],
      ["core/tsconfig.json", "ok"],
    ]);
    assertEquals(result.diagnostics[0].code, "TS6305");
    assertStringIncludes(result.checks[0].note, "which has not been built");
    assertEquals(result.ok, false);
  },
});

Deno.test({
  name: "check_project: mypy configured without files, or not installed, is named as not run",
  ignore: skipWithout("pyright"),
  async fn() {
    await using h = await toolHarness({
      "pyproject.toml": '[project]\nname = "m"\nversion = "0"\n\n[tool.mypy]\nstrict = true\n',
      "m/__init__.py": "X: int = 1\n",
    });
    const noFiles = await callJson(h, checkProject);
    const mypy = (result: Json) => result.checks.find((c: Json) => /mypy/.test(c.reason ?? ""));
    assertStringIncludes(mypy(noFiles).reason, "without files to check");
    // With files but no mypy in the project's environment: said, never run with another Python.
    await h.write("pyproject.toml", (await h.read("pyproject.toml")) + 'files = ["m"]\n');
    await Deno.mkdir(h.path(".venv/bin"), { recursive: true });
    await Deno.writeTextFile(h.path(".venv/pyvenv.cfg"), "home = /usr/bin\n");
    await Deno.symlink("/bin/false", h.path(".venv/bin/python"));
    const missing = await callJson(h, checkProject);
    assertStringIncludes(mypy(missing).reason, "environment .venv has no mypy");
    assertEquals(mypy(missing).status, "skipped");
  },
});
