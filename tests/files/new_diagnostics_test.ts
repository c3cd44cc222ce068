/**
 * Errors introduced by an edit come back with the edit (typescript-language-server): an edit
 * that breaks a caller in another file reports that caller's new error after the `OK` line; an
 * edit that breaks nothing, or moves an existing error, adds nothing; the switch turns it off.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { formatNewErrors } from "../../src/tools/shared/new_diagnostics.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";
import { replaceSymbolBody } from "../../src/tools/symbols/replace_symbol_body.ts";
import { insertAtLine } from "../../src/tools/files/line_tools.ts";
import { readFile } from "../../src/tools/files/read_file.ts";
import { getSymbolsOverview } from "../../src/tools/symbols/get_symbols_overview.ts";

const HAS_TS = hasServer("typescript-language-server");

const FILES = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
  "src/b.ts": "export function count(): number {\n  return 1;\n}\n",
  "src/a.ts": 'import { count } from "./b";\n\nexport const total: number = count() + 1;\n',
  "src/broken.ts": "export const x: number = 'no';\n",
};

Deno.test("formatNewErrors: one line, first errors shown, the rest counted", () => {
  assertEquals(
    formatNewErrors([
      {
        relPath: "src/b.ts",
        line: 2,
        message: "Type 'string' is not assignable to type 'number'.",
      },
      { relPath: "src/a.ts", line: 5, message: "Cannot find name 'x'.\nmore detail" },
    ]),
    "Introduced 2 errors: src/b.ts:2 Type 'string' is not assignable to type 'number'. " +
      "src/a.ts:5 Cannot find name 'x'.",
  );
  const many = Array.from({ length: 12 }, (_, i) => ({ relPath: "a.ts", line: i, message: "m" }));
  assertStringIncludes(formatNewErrors(many), "Introduced 12 errors: a.ts:0 m.");
  assertStringIncludes(formatNewErrors(many), "… and 2 more.");
});

Deno.test({
  name: "new diagnostics: an edit that breaks a caller reports it; a harmless one reports nothing",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(FILES);
  // The server runs once a symbol tool used it; edits never start one.
  await h.call(getSymbolsOverview, { relative_path: "src/b.ts" });

  await t.step("a harmless edit answers OK and nothing else", async () => {
    const text = await h.call(replaceContentTool, {
      relative_path: "src/b.ts",
      needle: "return 1;",
      repl: "return 2;",
      mode: "literal",
    });
    assertEquals(text, "OK");
  });

  await t.step("an edit elsewhere in a file with an old error reports nothing new", async () => {
    await h.call(readFile, { relative_path: "src/broken.ts" });
    const text = await h.call(insertAtLine, {
      relative_path: "src/broken.ts",
      line: 0,
      content: "// the old error moves down a line\n",
    });
    assertEquals(text, "OK");
  });

  await t.step("breaking the caller reports the caller's new error", async () => {
    const text = await h.call(replaceSymbolBody, {
      name_path: "count",
      relative_path: "src/b.ts",
      body: 'export function count(): string {\n  return "2";\n}',
    });
    const lines = text.split("\n");
    assertEquals(lines[0], "OK");
    assertEquals(lines.length, 2, text);
    assertStringIncludes(lines[1]!, "Introduced 1 error: src/a.ts:3 ");
    assertStringIncludes(lines[1]!, "Type 'string' is not assignable to type 'number'");
  });

  await h.session.dispose();
});

Deno.test({
  name: "new diagnostics: report_new_diagnostics false turns the report off",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(FILES, { projectConfig: { report_new_diagnostics: false } });
  await h.call(getSymbolsOverview, { relative_path: "src/b.ts" });
  const text = await h.call(replaceContentTool, {
    relative_path: "src/b.ts",
    needle: "(): number",
    repl: "(): string",
    mode: "literal",
  });
  assertEquals(text, "OK");
  await h.session.dispose();
});
