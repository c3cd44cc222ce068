/**
 * Complete or honest answers on projects whose tests the language server does not see by itself
 * (ARCHITECTURE.md §5 rule 10), with the real servers:
 * - fixtures/ts_spec: tsconfig.json holds src/ only, tsconfig.spec.json the tests (as in hono);
 * - fixtures/python_tests: pyright's `include` holds the package only, the tests are outside.
 * References are the same cold and warm and include the tests; a rename leaves every
 * configuration type-checking and the tests collecting; a move updates every import or
 * refuses, naming the files, with nothing changed.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  linkTypeScript7,
  LSP_CACHE,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree, flattenReferences } from "../helpers/symbols.ts";
import { type ToolHarness, toolHarness } from "../helpers/tool_ctx.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { findReferences } from "../../src/tools/ide/find_references.ts";
import { renameSymbol } from "../../src/tools/symbols/rename_symbol.ts";
import { renameFile } from "../../src/tools/files/rename_file.ts";
import { safeDeleteSymbol } from "../../src/tools/symbols/safe_delete_symbol.ts";

const TSC = join(LSP_CACHE, "node_modules", ".bin", "tsc");
const pyright = hasServer("pyright-langserver");
const pytest = (() => {
  try {
    return new Deno.Command("python3", {
      args: ["-m", "pytest", "--version"],
      stdout: "null",
      stderr: "null",
    })
      .outputSync().success;
  } catch {
    return false;
  }
})();

async function run(cwd: string, command: string, args: string[]) {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, text };
}

/** Both configurations of the TypeScript fixture type-check. */
async function typeChecks(h: ToolHarness): Promise<void> {
  for (const config of ["tsconfig.json", "tsconfig.spec.json"]) {
    const result = await run(h.root, TSC, ["-p", config]);
    assert(result.ok, `tsc -p ${config}: ${result.text}`);
  }
}

/** pytest's list of tests (collection only; no cache written). */
async function collected(h: ToolHarness): Promise<string> {
  const result = await run(h.root, "python3", [
    "-m",
    "pytest",
    "--collect-only",
    "-q",
    "-p",
    "no:cacheprovider",
  ]);
  assert(result.ok, result.text);
  return result.text.split("\n").filter((l) => l.includes("::")).join("\n");
}

/** Every file's content, to prove a refusal changed nothing. */
async function snapshot(h: ToolHarness): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of await h.listAll()) {
    if (rel.startsWith(".sextant") || !/\.(ts|py|json)$/.test(rel)) continue;
    out[rel] = await h.read(rel);
  }
  return out;
}

/** The files of a find_referencing_symbols answer (its JSON; "Not analysed" comes in a note). */
const files = (text: string) =>
  [...new Set(flattenReferences(text).map((r) => r.relative_path))]
    .sort();

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: "TypeScript, tests in tsconfig.spec.json: references, rename and move see the tests " +
      `(${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree("ts_spec"));
    // The project's own TypeScript 7 makes the registry choose its server (tsc --lsp).
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const args = { name_path: "getPath", relative_path: "src/url.ts" };

    await t.step("references: the tests included, the same cold and warm", async () => {
      const cold = await h.call(findReferencingSymbols, args);
      assertEquals(files(cold), ["src/request.ts", "test/url.test.ts"]);
      // The tests' own getPath (test/request.test.ts) is another symbol: explained, not listed.
      assertEquals(h.notes(), []);
      const warm = await h.call(findReferencingSymbols, args);
      assertEquals(warm, cold);
      const positional = JSON.parse(
        await h.call(findReferences, { ...args, include_declaration: false }),
      ) as { references: Array<{ file: string }>; not_analysed?: string[] };
      assertEquals([...new Set(positional.references.map((r) => r.file))].sort(), [
        "src/request.ts",
        "test/url.test.ts",
      ]);
      assertEquals(positional.not_analysed, undefined);
      assertEquals(await h.call(findReferencingSymbols, args), cold);
    });

    await t.step("rename_symbol: every configuration still type-checks", async () => {
      await typeChecks(h);
      // Serena 2.1's message counts the changed files; the files themselves are checked below.
      const answer = await h.call(renameSymbol, { ...args, new_name: "urlPath" });
      assertStringIncludes(answer, "Successfully renamed");
      await typeChecks(h);
      assertStringIncludes(await h.read("test/url.test.ts"), "urlPath(");
      // The tests' own getPath is untouched.
      assertStringIncludes(await h.read("test/request.test.ts"), "const getPath =");
    });

    await t.step("rename_file: every import is updated, the tests' too", async () => {
      const answer = await h.call(renameFile, {
        relative_path: "src/url.ts",
        new_relative_path: "src/urls.ts",
      });
      assertStringIncludes(answer, "test/url.test.ts");
      assertStringIncludes(await h.read("test/url.test.ts"), '"../src/urls"');
      await typeChecks(h);
    });

    await disposeAndCheck(h);
  });
}

Deno.test({
  name: "Python, tests outside pyright's include: references, rename and move see the tests",
  ignore: skipUnless(pyright && pytest, "pyright-langserver and pytest"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python_tests"));
  const args = { name_path: "get_debug_flag", relative_path: "flaskish/helpers.py" };
  const tests = await collected(h);

  await t.step("references: the tests included, the same cold and warm", async () => {
    const cold = await h.call(findReferencingSymbols, args);
    assertEquals(files(cold), [
      "flaskish/app.py",
      "flaskish/debughelpers.py",
      "tests/test_helpers.py",
    ]);
    assertEquals(h.notes(), []);
    assertEquals(await h.call(findReferencingSymbols, args), cold);
  });

  await t.step("a rename that would leave a use behind refuses, changing nothing", async () => {
    // A script importing the function from a module that does not exist: pyright cannot say
    // what its get_debug_flag is.
    await h.write(
      "scripts/legacy.py",
      "from flaskish.helperz import get_debug_flag\n\nprint(get_debug_flag())\n",
    );
    const before = await snapshot(h);
    const refused = await h.run(renameSymbol, { ...args, new_name: "debug_flag" });
    assert(refused.isError, refused.text);
    assertStringIncludes(refused.text, "scripts/legacy.py:3");
    assertStringIncludes(refused.text, "Nothing was changed");
    assertEquals(await snapshot(h), before);
    // The references answer names it too.
    JSON.parse(await h.call(findReferencingSymbols, args)); // the answer keeps its JSON shape
    const note = h.notes().join("\n");
    assertStringIncludes(note, "Not analysed");
    assertStringIncludes(note, "scripts/legacy.py:3");
    await Deno.remove(h.path("scripts/legacy.py"));
  });

  await t.step("rename_symbol: the tests follow, pytest collects the same tests", async () => {
    const answer = await h.call(renameSymbol, { ...args, new_name: "debug_flag" });
    assertStringIncludes(answer, "Successfully renamed");
    assertStringIncludes(await h.read("tests/test_helpers.py"), "import debug_flag");
    assertEquals(await collected(h), tests);
    const passed = await run(h.root, "python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    assert(passed.ok, passed.text);
  });

  await t.step(
    "rename_file (pyright has no willRenameFiles): the tests' imports follow",
    async () => {
      const answer = await h.call(renameFile, {
        relative_path: "flaskish/debughelpers.py",
        new_relative_path: "flaskish/debugging.py",
      });
      assertStringIncludes(answer, "tests/test_debughelpers.py");
      assertStringIncludes(
        await h.read("tests/test_debughelpers.py"),
        "from flaskish.debugging import explain",
      );
      assertEquals(await collected(h), tests);
    },
  );

  await t.step("safe_delete_symbol of a function only tests use: refused", async () => {
    const answer = await h.call(safeDeleteSymbol, {
      name_path_pattern: "debug_flag",
      relative_path: "flaskish/helpers.py",
    });
    assertStringIncludes(answer, "tests/test_helpers.py");
  });

  await disposeAndCheck(h);
});
