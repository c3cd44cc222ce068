/**
 * get_diagnostics_for_symbol (Serena 1.7, optional) on the real servers: the diagnostics of one
 * symbol's body, grouped file → severity → symbol as get_diagnostics_for_file groups them; with
 * `check_symbol_references`, those of the symbols referring to it too (the innermost symbol
 * holding each reference, as find_referencing_symbols names it). Serena's `reference_file`
 * is accepted for `relative_path`, and an empty path looks the symbol up in the whole project.
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { getDiagnosticsForSymbol } from "../../src/tools/ide/get_diagnostics_for_symbol.ts";

Deno.test({
  name: "get_diagnostics_for_symbol on TypeScript (typescript-language-server)",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const tree = await fixtureTree("typescript");
  tree["src/uses.ts"] = 'import { count } from "./broken.ts";\n\n' +
    "export function twice(): string {\n  const n: string = count;\n  return n;\n}\n\n" +
    "export function fine(): number {\n  return count;\n}\n";
  await using h = await toolHarness(tree);

  await t.step("one symbol's body", async () => {
    assertEquals(
      await h.call(getDiagnosticsForSymbol, { name_path: "count", relative_path: "src/broken.ts" }),
      '{"src/broken.ts":{"Error":{"count":[{"message":"Type \'string\' is not assignable to ' +
        'type \'number\'.","range":{"start":{"line":3,"character":13},"end":{"line":3,' +
        '"character":18}},"code":2322,"source":"typescript"}]}}}',
    );
  });

  await t.step("a symbol without diagnostics", async () => {
    assertEquals(
      await h.call(getDiagnosticsForSymbol, {
        name_path: "radiusOf",
        relative_path: "src/broken.ts",
      }),
      "{}",
    );
  });

  await t.step("with the referencing symbols; reference_file; no file", async () => {
    const expected = '{"src/broken.ts":{"Error":{"count":[{"message":"Type \'string\' is not ' +
      'assignable to type \'number\'.","range":{"start":{"line":3,"character":13},"end":{' +
      '"line":3,"character":18}},"code":2322,"source":"typescript"}]}},"src/uses.ts":{"Error":' +
      '{"twice/n":[{"message":"Type \'number\' is not assignable to type \'string\'.","range":{' +
      '"start":{"line":3,"character":8},"end":{"line":3,"character":9}},"code":2322,' +
      '"source":"typescript"}]}}}';
    assertEquals(
      await h.call(getDiagnosticsForSymbol, {
        name_path: "count",
        reference_file: "src/broken.ts",
        check_symbol_references: true,
      }),
      expected,
    );
    assertEquals(
      await h.call(getDiagnosticsForSymbol, { name_path: "count", check_symbol_references: true }),
      expected,
    );
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});

Deno.test({
  name: "get_diagnostics_for_symbol on Python (pyright)",
  ignore: skipUnless(hasServer("pyright-langserver"), "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python"));

  await t.step("a variable whose range is only its name, and a clean function", async () => {
    // Serena 2.1's answer, but for its JSON spacing: the diagnostic's line meets the body's.
    assertEquals(
      await h.call(getDiagnosticsForSymbol, { name_path: "count", reference_file: "broken.py" }),
      '{"broken.py":{"Error":{"count":[{"message":"Type \\"Literal[\'three\']\\" is not ' +
        'assignable to declared type \\"int\\"\\n\u00a0\u00a0\\"Literal[\'three\']\\" is not ' +
        'assignable to \\"int\\"","range":{"start":{"line":3,"character":13},"end":{"line":3,' +
        '"character":20}},"code":"reportAssignmentType","source":"Pyright"}]}}}',
    );
    assertEquals(
      await h.call(getDiagnosticsForSymbol, {
        name_path: "radius_of",
        relative_path: "broken.py",
        min_severity: 1,
      }),
      "{}",
    );
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});
