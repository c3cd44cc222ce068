/**
 * format_file against typescript-language-server (preview as a diff, apply, the file's own
 * indentation kept) and against pyright (which has no formatter: a clear error). One server per
 * language; servers are checked to be gone at the end.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { detectIndentation, formatFile } from "../../src/tools/ide/format_file.ts";
import { diagnostics } from "../../src/tools/ide/diagnostics.ts";
import { ADA_ALIAS_TOOLS } from "../../src/tools/mod.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_PY = hasServer("pyright-langserver");

Deno.test("detectIndentation: tabs, two and four spaces, default", () => {
  assertEquals(detectIndentation(["a {", "\tb {", "\t\tc", "\t}", "}"]), {
    tabSize: 4,
    insertSpaces: false,
  });
  assertEquals(detectIndentation(["a {", "  b {", "    c", "  }", "}"]), {
    tabSize: 2,
    insertSpaces: true,
  });
  assertEquals(detectIndentation(["def f():", "    if x:", "        y", "    z"]), {
    tabSize: 4,
    insertSpaces: true,
  });
  assertEquals(detectIndentation(["flat", ""]), { tabSize: 4, insertSpaces: true });
});

const UGLY = "export const  a=1;\nexport function f( x:number){\n  if (x>1){\n  return x}\n" +
  "  return a}\n";
const PRETTY = "export const a = 1;\nexport function f(x: number) {\n  if (x > 1) {\n" +
  "    return x\n  }\n  return a\n}\n";

Deno.test({
  name: "format_file with typescript-language-server: preview, apply, already formatted",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
    "src/ugly.ts": UGLY,
    "src/tabs.ts": "export function g(){\n\treturn  1}\n",
  });
  const json = async (args: Record<string, unknown>) => JSON.parse(await h.call(formatFile, args));

  await t.step("preview shows the diff and changes nothing", async () => {
    const r = await json({ relative_path: "src/ugly.ts", preview: true });
    assertEquals([r.file, r.applied, r.formatted], ["src/ugly.ts", false, false]);
    assert(r.changes > 0);
    assertStringIncludes(r.diff, "-export const  a=1;\n");
    assertStringIncludes(r.diff, "+export const a = 1;\n");
    assertEquals(await h.read("src/ugly.ts"), UGLY);
  });

  await t.step("apply formats in the file's own indentation (2 spaces)", async () => {
    const r = await json({ relative_path: "src/ugly.ts" });
    assertEquals([r.applied, r.formatted], [true, true]);
    assertEquals(await h.read("src/ugly.ts"), PRETTY);
    // The server saw the new content: it reports diagnostics for it right away.
    const d = JSON.parse(await h.call(diagnostics, { relative_path: "src/ugly.ts" }));
    assertEquals(d.errorCount, 0);
    const again = await json({ relative_path: "src/ugly.ts" });
    assertEquals([again.changes, again.applied], [0, false]);
  });

  await t.step("tabs stay tabs; explicit options win", async () => {
    await json({ relative_path: "src/tabs.ts" });
    assertEquals(await h.read("src/tabs.ts"), "export function g() {\n\treturn 1\n}\n");
    await json({ relative_path: "src/tabs.ts", insert_spaces: true, tab_size: 3 });
    assertEquals(await h.read("src/tabs.ts"), "export function g() {\n   return 1\n}\n");
  });

  await t.step("the ada alias takes `file`", async () => {
    const alias = ADA_ALIAS_TOOLS.find((x) => x.name === "ada_format_file")!;
    const r = JSON.parse(await h.call(alias, { file: "src/tabs.ts", preview: true }));
    assertEquals(r.changes, 0);
  });

  await t.step("a missing file is a clear error", async () => {
    const r = await h.run(formatFile, { relative_path: "src/none.ts" });
    assert(r.isError);
    assertMatch(r.text, /No file or directory 'src\/none.ts'/);
  });

  await disposeAndCheck(h);
});

Deno.test({
  name: "format_file with pyright (no formatter) is a clear error, file unchanged",
  ignore: skipUnless(HAS_PY, "pyright"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const source = "def f( x ):\n  return x\n";
  await using h = await toolHarness({
    "pyproject.toml": "[project]\nname = 'p'\n",
    "m.py": source,
  });
  const r = await h.run(formatFile, { relative_path: "m.py" });
  assert(r.isError);
  assertMatch(r.text, /pyright-langserver\) does not support formatting/);
  assertEquals(await h.read("m.py"), source);
  await disposeAndCheck(h);
});
