/**
 * The `diagnostics` tool against the real servers on copies of fixtures/typescript and
 * fixtures/python: counts by severity, file/folder/project scope, and version matching — after
 * an edit made through a tool (or outside Sextant), the very next call reports the new content,
 * never the old, without sleeping. One server per language for the whole file.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { diagnostics } from "../../src/tools/ide/diagnostics.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_PY = hasServer("pyright-langserver");

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test({
  name: "diagnostics on TypeScript: scopes, counts, and always the current content",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const tree = await fixtureTree("typescript");
  tree["notes.txt"] = "not code\n";
  await using h = await toolHarness(tree);
  const diag = async (args: Json = {}) => JSON.parse(await h.call(diagnostics, args));
  const replace = (relative_path: string, needle: string, repl: string) =>
    h.call(replaceContentTool, { relative_path, needle, repl, mode: "literal" });

  await t.step("one file: the known type error, 1-based, with counts", async () => {
    assertEquals(await diag({ relative_path: "src/broken.ts" }), {
      diagnostics: [{
        file: "src/broken.ts",
        line: 4,
        column: 14,
        end_line: 4,
        end_column: 19,
        severity: "error",
        message: "Type 'string' is not assignable to type 'number'.",
        code: 2322,
        source: "typescript",
      }],
      errorCount: 1,
      warningCount: 0,
      infoCount: 0,
      hintCount: 0,
      filesChecked: 1,
    });
  });

  await t.step(
    "the whole project and a folder; severity filters the list, not the counts",
    async () => {
      const all = await diag();
      assertEquals(all.filesChecked, 5);
      assertEquals(all.errorCount, 1);
      assertEquals(all.diagnostics.map((d: Json) => d.file), ["src/broken.ts"]);
      const folder = await diag({ relative_path: "src", severity: "warning" });
      assertEquals([folder.diagnostics, folder.errorCount, folder.filesChecked], [[], 1, 5]);
      const limited = await diag({ max_files: 2 });
      assertEquals([limited.filesChecked, limited.filesSkipped], [2, 3]);
    },
  );

  await t.step("after an edit through a tool, the next call sees the new content", async () => {
    await replace("src/broken.ts", '"three"', "3");
    assertEquals((await diag({ relative_path: "src/broken.ts" })).errorCount, 0);
    await replace("src/broken.ts", "= 3;", "= true;");
    const now = await diag({ relative_path: "src/broken.ts" });
    assertEquals(now.diagnostics.map((d: Json) => d.message), [
      "Type 'boolean' is not assignable to type 'number'.",
    ]);
  });

  await t.step("an edit of another file changes this file's diagnostics at once", async () => {
    await replace("src/broken.ts", "= true;", "= 3;");
    await replace(
      "src/shapes.ts",
      "constructor(public readonly radius: number)",
      "constructor(public readonly r: number)",
    );
    const broken = await diag({ relative_path: "src/broken.ts" });
    assertEquals(broken.diagnostics.map((d: Json) => [d.line, d.code]), [[7, 2339]]);
    assertMatch(broken.diagnostics[0].message, /Property 'radius' does not exist on type 'Circle'/);
  });

  await t.step("an edit made outside Sextant is seen too", async () => {
    await Deno.writeTextFile(
      h.path("src/broken.ts"),
      (await h.read("src/broken.ts")).replace("circle.radius", "circle.r"),
    );
    assertEquals((await diag({ relative_path: "src/broken.ts" })).errorCount, 0);
  });

  await t.step("clear errors for missing files and files no server handles", async () => {
    const missing = await h.run(diagnostics, { relative_path: "src/nope.ts" });
    assert(missing.isError);
    assertMatch(missing.text, /No file or directory 'src\/nope.ts'/);
    const text = await h.run(diagnostics, { relative_path: "notes.txt" });
    assertMatch(text.text, /No language server handles 'notes.txt'/);
  });

  await disposeAndCheck(h);
});

Deno.test({
  name: "diagnostics on Python (pyright) follow edits",
  ignore: skipUnless(HAS_PY, "pyright"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python"));
  const diag = async (args: Json = {}) => JSON.parse(await h.call(diagnostics, args));

  await t.step("the project: the one known error", async () => {
    const all = await diag();
    assertEquals(all.errorCount, 1);
    assertEquals(all.diagnostics.map((d: Json) => [d.file, d.line, d.column, d.code]), [
      ["broken.py", 4, 14, "reportAssignmentType"],
    ]);
  });

  await t.step("fixed, then broken differently: each call matches the file", async () => {
    await h.call(replaceContentTool, {
      relative_path: "broken.py",
      needle: '"three"',
      repl: "3",
      mode: "literal",
    });
    assertEquals((await diag({ relative_path: "broken.py" })).diagnostics, []);
    await h.call(replaceContentTool, {
      relative_path: "broken.py",
      needle: "return circle.radius",
      repl: "return circle.diameter",
      mode: "literal",
    });
    const now = await diag({ relative_path: "broken.py" });
    assertEquals(now.diagnostics.map((d: Json) => [d.line, d.severity]), [[8, "error"]]);
    assertMatch(now.diagnostics[0].message, /diameter/);
  });

  await disposeAndCheck(h);
});
