/**
 * check_project and test_project on a project's own tools, over MCP with `main.ts` under the
 * `sextant` permission set, whose run list names programs on PATH only: a Node project's
 * `node_modules/.bin/tsc` and `vitest` run through `npm exec` (TypeScript 5.9 from npm, and 7 on a
 * hono-like solution tsconfig), and a Python project's `.venv` interpreter through `sh` (its own
 * interpreter, no other Python in its place; flask installed editable from PyPI). The vitest here
 * is a stub script in `node_modules/.bin`, as what is tested is how it is started (its output is
 * tested on the real Vitest in test_project_test.ts).
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { copyTree } from "../helpers/real_code.ts";
import { tempDir, toolHarness } from "../helpers/tool_ctx.ts";
import { hasTypeScript7, linkTypeScript7 } from "../helpers/lsp.ts";
import { fixtureTree, hasPytest, pytestPython, skipWithout } from "../helpers/toolchain.ts";
import { editableVenv, FLASK, flaskSource } from "./real_toolchains.ts";

type Connect = typeof import("../helpers/mcp.ts").connect;

async function callTool(
  connect: Connect,
  root: string,
  name: string,
): Promise<{ text: string; isError: boolean }> {
  const server = await connect(root, ["--tools", name]);
  try {
    const result = await server.client.callTool({ name, arguments: {} }, undefined, {
      timeout: 180_000,
    });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    return { text, isError: result.isError === true };
  } finally {
    await server.close();
  }
}

const VITEST_STUB = `#!/bin/sh
echo "stub vitest ran with: $*" > vitest-ran.txt
echo " ✓ src/math.test.ts (1 test) 2ms"
echo ""
echo " Test Files  1 passed (1)"
echo "      Tests  1 passed (1)"
`;

Deno.test({
  name: "check_project and test_project: the project's node_modules tsc and vitest, sandboxed",
  ignore: skipWithout("npm"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using h = await toolHarness({
      "package.json": JSON.stringify({
        name: "sandboxed-node",
        private: true,
        scripts: { test: "vitest run" },
        devDependencies: { typescript: "5.9.3" },
      }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022" },
        include: ["src"],
      }),
      "src/math.ts": 'export const two: number = "two";\n',
    });
    const install = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "--prefer-offline", "typescript@5.9.3"],
      cwd: h.root,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert(install.success, new TextDecoder().decode(install.stderr));
    await Deno.writeTextFile(join(h.root, "node_modules", ".bin", "vitest"), VITEST_STUB, {
      mode: 0o755,
    });

    const check = await callTool(connect, h.root, "check_project");
    assert(!check.isError, check.text);
    const parsed = JSON.parse(check.text);
    assertStringIncludes(parsed.checks[0].command, "npm exec --no -- tsc");
    assertEquals(parsed.diagnostics[0].file, "src/math.ts", check.text);
    assertStringIncludes(parsed.diagnostics[0].message, "not assignable to type 'number'");

    const test = await callTool(connect, h.root, "test_project");
    assert(!test.isError, test.text);
    assertStringIncludes(await h.read("vitest-ran.txt"), "stub vitest ran with: run");
  },
});

Deno.test({
  name: "test_project: the project's .venv interpreter, sandboxed",
  ignore: !hasPytest && (console.log("skipping: no Python with pytest"), true),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using h = await toolHarness({
      "pyproject.toml": '[project]\nname = "venvproject"\nversion = "0"\n',
      "tests/test_venv.py": "import onlyinvenv\n\ndef test_from_venv():\n" +
        "    assert onlyinvenv.WHERE == 'venv'\n",
    });
    // A venv that sees the interpreter's pytest, plus a module only it has.
    const venv = await new Deno.Command(pytestPython!, {
      args: ["-m", "venv", "--system-site-packages", "--without-pip", ".venv"],
      cwd: h.root,
    }).output();
    assert(venv.success, new TextDecoder().decode(venv.stderr));
    const lib = join(h.root, ".venv", "lib");
    const [pythonDir] = [...Deno.readDirSync(lib)].map((e) => e.name);
    const sitePackages = join(lib, pythonDir!, "site-packages");
    await Deno.mkdir(sitePackages, { recursive: true });
    await Deno.writeTextFile(join(sitePackages, "onlyinvenv.py"), "WHERE = 'venv'\n");

    const test = await callTool(connect, h.root, "test_project");
    assert(!test.isError, test.text);
    const parsed = JSON.parse(test.text);
    assertEquals([parsed.summary?.passed, parsed.summary?.failed], [1, 0], test.text);
    assertEquals(parsed.runs[0].command, ".venv/bin/python -m pytest -rfE --color=no");
    assertStringIncludes(parsed.runs[0].note, "the project's interpreter .venv/bin/python");
  },
});

Deno.test({
  name: "check_project: a solution tsconfig's referenced configs, TypeScript 7 through npm exec, " +
    "sandboxed",
  ignore: skipWithout("npm") || (!hasTypeScript7() && (console.log("skipping: TS 7"), true)),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using h = await toolHarness(fixtureTree("ts_solution"));
    await linkTypeScript7(h.root);
    const url = await h.read("src/utils/url.ts");
    await h.write("src/utils/url.ts", url.replace("number = 16;", 'number = "16";'));
    const before = await h.listAll();
    const check = await callTool(connect, h.root, "check_project");
    assert(!check.isError, check.text);
    const parsed = JSON.parse(check.text);
    assertEquals(parsed.ok, false);
    assertEquals(
      parsed.checks.map((c: { command: string; files: number }) => [c.command, c.files]),
      [
        ["npm exec --no -- tsc --noEmit --pretty false -p tsconfig.build.json", 2],
        ["npm exec --no -- tsc --noEmit --pretty false -p tsconfig.spec.json", 2],
      ],
    );
    assertEquals(parsed.diagnostics[0].code, "TS2322");
    assertEquals(await h.listAll(), before, "nothing written into the project");
  },
});

/** flask from PyPI once (the test skips, with the reason, when it cannot be fetched). */
const flask = await flaskSource().catch((error: Error) => {
  console.log(`skipping the flask test: ${error.message}`);
  return null;
});

Deno.test({
  name: `test_project: flask ${FLASK.version} installed editable in its .venv, broken: the ` +
    "failures the venv's own pytest reports, sandboxed",
  ignore: flask === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using tmp = await tempDir();
    const root = join(tmp.path, "flask");
    await copyTree(flask!.template, root);
    const python = await editableVenv(root, flask!);
    // Nested blueprints lose their parents' names: the editable source is broken.
    const helpers = join(root, "src", "flask", "helpers.py");
    const source = await Deno.readTextFile(helpers);
    const broken = source.replace(
      'out.extend(_split_blueprint_path(name.rpartition(".")[0]))',
      'out.extend(name.rpartition(".")[0])',
    );
    assert(broken !== source, "flask's _split_blueprint_path has changed");
    await Deno.writeTextFile(helpers, broken);

    // The judge: the venv's own pytest, as the project's developers run it.
    const own = await new Deno.Command(python, {
      args: ["-m", "pytest", "-q", "-rfE", "--color=no", "-p", "no:cacheprovider"],
      cwd: root,
      stdout: "piped",
    }).output();
    const ownText = new TextDecoder().decode(own.stdout);
    const closing = /(\d+) failed, (\d+) passed/.exec(ownText);
    assert(closing, ownText.slice(-2000));
    const ownFailed = [...ownText.matchAll(/^FAILED (\S+)/gm)].map((m) => m[1]).sort();
    assert(ownFailed.length > 0);

    const test = await callTool(connect, root, "test_project");
    assert(!test.isError, test.text);
    const run = JSON.parse(test.text).runs[0];
    assertEquals(run.command, ".venv/bin/python -m pytest -rfE --color=no");
    assertEquals([run.failed, run.passed], [Number(closing[1]), Number(closing[2])], test.text);
    assertEquals(run.failures.map((f: { name: string }) => f.name).sort(), ownFailed);
    assertEquals(run.status, "failed");
  },
});

Deno.test({
  name: `check_project: flask ${FLASK.version}'s own mypy (its [tool.mypy]) with its .venv, ` +
    "beside pyright there, sandboxed",
  ignore: flask === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using tmp = await tempDir();
    const root = join(tmp.path, "flask");
    await copyTree(flask!.template, root);
    const python = await editableVenv(root, flask!);
    const helpers = join(root, "src", "flask", "helpers.py");
    const source = await Deno.readTextFile(helpers);
    const broken = source.replace("out: list[str] = [name]", "out: list[int] = [name]");
    assert(broken !== source, "flask's _split_blueprint_path has changed");
    await Deno.writeTextFile(helpers, broken);

    // The judge: the venv's own mypy, as flask's developers run it (its config: pretty output).
    const own = await new Deno.Command(python, {
      args: ["-m", "mypy", "--cache-dir=/dev/null"],
      cwd: root,
      stdout: "piped",
    }).output();
    const ownText = new TextDecoder().decode(own.stdout);
    const ownErrors = [...ownText.matchAll(/^(\S+\.py):(\d+)(?::\d+)?: error:/gm)]
      .map((m) => `${m[1]}:${m[2]}`).sort();
    assert(ownErrors.length > 0, ownText);
    const checked = Number(/checked (\d+) source files/.exec(ownText)?.[1]);

    const check = await callTool(connect, root, "check_project");
    assert(!check.isError, check.text);
    const parsed = JSON.parse(check.text);
    const mypy = parsed.checks.find((c: { command: string }) => c.command.includes("-m mypy"));
    assertEquals(
      [mypy.command.split(" ").slice(0, 3).join(" "), mypy.status, mypy.files],
      [".venv/bin/python -m mypy", "errors", checked],
      check.text,
    );
    const found = parsed.diagnostics
      .filter((d: { source: string; severity: string }) =>
        d.source === "mypy" && d.severity === "error"
      )
      .map((d: { file: string; line: number }) => `${d.file}:${d.line}`).sort();
    assertEquals(found, ownErrors);
    assertEquals(parsed.ok, false);
    assert(
      parsed.checks.some((c: { note?: string }) => c.note?.includes("environment .venv")),
      "pyright resolves imports in the venv",
    );
  },
});
