/**
 * Errors introduced by an edit come back with the edit, with the real servers
 * (typescript-language-server, pyright): an edit that breaks a caller in another file reports
 * that caller's new error after the `OK` line, by default in the edit's own answer; an edit that
 * breaks nothing, or edits a file with old errors elsewhere, reports none as introduced; a file
 * whose errors before the edit are unknown has them listed as such, never as introduced; a rename
 * that breaks tests in a second tsconfig reports exactly what that configuration's `tsc` finds;
 * the switch turns it off. A report not ready within the edit's wait comes first in the session's
 * next answer, once. The tests set the project's waits (`editChecks.setWaits`) so that nothing
 * depends on timing.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { type ToolHarness, toolHarness } from "../helpers/tool_ctx.ts";
import {
  formatNewErrors,
  formatPreviousErrors,
  formatReport,
} from "../../src/tools/new_errors_report.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";
import { replaceInFiles } from "../../src/tools/files/replace_in_files.ts";
import { replaceSymbolBody } from "../../src/tools/symbols/replace_symbol_body.ts";
import { renameSymbol } from "../../src/tools/symbols/rename_symbol.ts";
import { renameFile } from "../../src/tools/files/rename_file.ts";
import { insertAtLine } from "../../src/tools/files/replace_lines.ts";
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
    "Introduced 2 errors (0-based lines): src/b.ts:2 Type 'string' is not assignable to type 'number'. " +
      "src/a.ts:5 Cannot find name 'x'.",
  );
  const many = Array.from({ length: 12 }, (_, i) => ({ relPath: "a.ts", line: i, message: "m" }));
  assertStringIncludes(formatNewErrors(many), "Introduced 12 errors (0-based lines): a.ts:0 m.");
  assertStringIncludes(formatNewErrors(many), "… and 2 more.");
});

Deno.test("formatPreviousErrors: names the edited files, then the errors", () => {
  const errors = [{ relPath: "src/a.ts", line: 3, message: "Type 'string' is not assignable." }];
  assertEquals(
    formatPreviousErrors(["src/b.ts"], errors),
    "Your previous edit of src/b.ts introduced 1 error (0-based lines): src/a.ts:3 Type 'string' is not assignable.",
  );
  assertStringIncludes(
    formatPreviousErrors(["a.ts", "b.ts", "c.ts", "d.ts"], errors),
    "Your previous edit of a.ts, b.ts and 2 more files introduced 1 error (0-based lines):",
  );
});

Deno.test("formatReport: introduced, unknown before, coverage; late reports name their edit", () => {
  const errors = [{ relPath: "a.ts", line: 3, message: "Bad." }];
  assertEquals(formatReport({ introduced: [], unchecked: [] }), null);
  assertEquals(
    formatReport({ introduced: errors, unchecked: errors, covered: { checked: 60, of: 75 } }),
    "Introduced 1 error (0-based lines): a.ts:3 Bad.\n" +
      "Edited files not checked before the edit have 1 error (0-based lines): a.ts:3 Bad.\n" +
      "Checked 60 of 75 changed files for errors.",
  );
  assertEquals(
    formatReport({ introduced: [], unchecked: errors }, ["a.ts"]),
    "Your previous edit of a.ts: its files not checked before it have 1 error (0-based lines): a.ts:3 Bad.",
  );
});

Deno.test({
  name: "new diagnostics: an edit that breaks a caller reports it; a harmless one reports nothing",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  // "wait": every report in its edit's own answer.
  await using h = await toolHarness(FILES, { projectConfig: { report_new_diagnostics: "wait" } });
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
    assertStringIncludes(lines[1]!, "Introduced 1 error (0-based lines): src/a.ts:2 ");
    assertStringIncludes(lines[1]!, "Type 'string' is not assignable to type 'number'");
  });

  await t.step("the next answer carries nothing: the report came with its edit", async () => {
    const text = await h.call(readFile, { relative_path: "src/b.ts" });
    assertEquals(text.includes("previous edit"), false, text);
  });

  await h.session.dispose();
});

/**
 * Set how long edits in the harness's project wait for their report and its "before", until the
 * end of the scope.
 */
function waits(h: ToolHarness, bounds: { reportMs?: number; baselineMs?: number }): Disposable {
  return { [Symbol.dispose]: h.session.services(h.project).editChecks.setWaits(bounds) };
}

const BREAK_COUNT = {
  name_path: "count",
  relative_path: "src/b.ts",
  body: 'export function count(): string {\n  return "2";\n}',
};

Deno.test({
  name: "new diagnostics: a report not ready in time comes first in the next answer, once",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(FILES);
  using _ = waits(h, { reportMs: 0 }); // no edit waits: every report comes later
  await h.call(getSymbolsOverview, { relative_path: "src/b.ts" });

  await t.step("a harmless edit, then the next answer: nothing added to either", async () => {
    const edit = await h.call(replaceContentTool, {
      relative_path: "src/b.ts",
      needle: "return 1;",
      repl: "return 2;",
      mode: "literal",
    });
    assertEquals(edit, "OK");
    const next = await h.call(readFile, { relative_path: "src/a.ts" });
    assertEquals(next, FILES["src/a.ts"]);
  });

  await t.step(
    "breaking the caller: the edit answers OK, the next answer starts with it",
    async () => {
      const edit = await h.call(replaceSymbolBody, BREAK_COUNT);
      assertEquals(edit, "OK");
      const next = await h.call(readFile, { relative_path: "src/a.ts" });
      // The answer keeps its shape; the report is a note beside it (its own content block).
      assertEquals(next, FILES["src/a.ts"]);
      const [note, ...more] = h.notes();
      assertEquals(more, []);
      assertStringIncludes(
        note!,
        "Your previous edit of src/b.ts introduced 1 error (0-based lines): src/a.ts:2 ",
      );
      assertStringIncludes(note!, "Type 'string' is not assignable to type 'number'");
    },
  );

  await t.step("a report is delivered once", async () => {
    const again = await h.call(readFile, { relative_path: "src/a.ts" });
    assertEquals(again, FILES["src/a.ts"]);
    assertEquals(h.notes(), []);
  });

  await t.step("a JSON answer keeps its shape; the report comes beside it", async () => {
    await h.call(replaceContentTool, {
      relative_path: "src/a.ts",
      needle: "count() + 1",
      repl: "count() + undefinedName",
      mode: "literal",
    });
    const next = JSON.parse(await h.call(getSymbolsOverview, { relative_path: "src/a.ts" }));
    assertEquals(next, { Constant: ["total"] });
    assertStringIncludes(
      h.notes()[0]!,
      "Your previous edit of src/a.ts introduced 1 error (0-based lines): src/a.ts:2 Cannot find name",
    );
  });

  await t.step("after an edit's own OK line, the previous edit's report follows", async () => {
    await h.call(replaceContentTool, {
      relative_path: "src/a.ts",
      needle: "count() + undefinedName",
      repl: "count() + otherMissing",
      mode: "literal",
    });
    const edit = await h.call(replaceContentTool, {
      relative_path: "src/a.ts",
      needle: "export const total",
      repl: "export const sum",
      mode: "literal",
    });
    assertEquals(edit, "OK");
    const [note, ...more] = h.notes();
    assertEquals(more, []);
    assertStringIncludes(
      note!,
      "Your previous edit of src/a.ts introduced 1 error (0-based lines):",
    );
    assertStringIncludes(note!, "Cannot find name 'otherMissing'");
  });

  await h.session.dispose();
});

Deno.test({
  name: "new diagnostics: by default the edit's own answer carries its report",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(FILES);
  // The default (true) waits up to a bound; raised here so a busy machine cannot move the report.
  using _ = waits(h, { reportMs: 60_000 });
  await h.call(getSymbolsOverview, { relative_path: "src/b.ts" });
  const edit = await h.call(replaceSymbolBody, BREAK_COUNT);
  const lines = edit.split("\n");
  assertEquals(lines[0], "OK");
  assertEquals(lines.length, 2, edit);
  assertStringIncludes(lines[1]!, "Introduced 1 error (0-based lines): src/a.ts:2 ");
  assertStringIncludes(lines[1]!, "Type 'string' is not assignable to type 'number'");
  assertEquals(await h.call(readFile, { relative_path: "src/a.ts" }), FILES["src/a.ts"]);
  assertEquals(h.notes(), []);
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

const HAS_PYRIGHT = hasServer("pyright-langserver");

/** A script outside pyright's `include`, with four errors of its own. */
const SCRIPT = "import notamodule\n" +
  "from pkg.a import f, VERSION\n" +
  "x: int = 'a'\n" +
  "y: str = f()\n" +
  "print(VERSION, notamodule.z, undefined_name)\n";

const PY_FILES = {
  "pyproject.toml": '[tool.pyright]\ninclude = ["src/pkg"]\ntypeCheckingMode = "basic"\n',
  "src/pkg/__init__.py": "",
  "src/pkg/a.py": "VERSION = '1'\n\n\ndef f() -> int:\n    return 1\n",
  "scripts/run_app.py": SCRIPT,
  "scripts/other.py": SCRIPT,
};

Deno.test({
  name: "new diagnostics (pyright): old errors of an edited file are never reported as introduced",
  ignore: skipUnless(HAS_PYRIGHT, "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(PY_FILES);
  using _ = waits(h, { reportMs: 60_000 });
  await h.call(getSymbolsOverview, { relative_path: "src/pkg/a.py" });

  await t.step("a file with old errors, edited elsewhere: none introduced", async () => {
    const text = await h.call(replaceInFiles, {
      needle: "y: str",
      repl: "v: str",
      mode: "literal",
      relative_path: "scripts/run_app.py",
    });
    assertEquals(text, "Replaced 1 occurrence(s) in 1 file(s):\n  scripts/run_app.py: 1");
  });

  await t.step("no errors from before the edit: listed as such, not as introduced", async () => {
    using _ = waits(h, { baselineMs: 0 }); // nothing asked before the write
    const text = await h.call(replaceInFiles, {
      needle: "x: int",
      repl: "z: int",
      mode: "literal",
      relative_path: "scripts/other.py",
    });
    const [listing, report, ...more] = text.split("\n\n")[0]!.split("\n").slice(1);
    assertEquals(listing, "  scripts/other.py: 1");
    assertEquals(more, []);
    assert(!text.includes("Introduced"), text);
    assertStringIncludes(
      report!,
      "Edited files not checked before the edit have 4 errors (0-based lines): ",
    );
    assertStringIncludes(report!, 'scripts/other.py:0 Import "notamodule" could not be resolved');
  });

  await t.step("the next edit of that file compares with the previous check", async () => {
    const text = await h.call(replaceInFiles, {
      needle: "z: int",
      repl: "w: int",
      mode: "literal",
      relative_path: "scripts/other.py",
    });
    assertEquals(text, "Replaced 1 occurrence(s) in 1 file(s):\n  scripts/other.py: 1");
  });

  await t.step("an error the edit makes is reported in its own answer", async () => {
    await h.call(readFile, { relative_path: "src/pkg/a.py" });
    const text = await h.call(replaceContentTool, {
      relative_path: "src/pkg/a.py",
      needle: "return 1",
      repl: "return missing_name",
      mode: "literal",
    });
    assertEquals(text.split("\n")[0], "OK");
    assertStringIncludes(
      text,
      '\nIntroduced 1 error (0-based lines): src/pkg/a.py:4 "missing_name" is not defined.',
    );
  });

  await t.step("a rename that changes the text old errors point at: none introduced", async () => {
    // `v: str = f()` and `from pkg.a import f` hold old errors on `f`; the rename makes them
    // `g()` and `import g`, the same errors.
    await h.call(replaceInFiles, {
      needle: "print(VERSION",
      repl: "print(f.nothing, VERSION",
      mode: "literal",
      relative_path: "scripts/run_app.py",
    });
    const text = await h.call(renameSymbol, {
      name_path: "f",
      relative_path: "src/pkg/a.py",
      new_name: "g",
    });
    assertStringIncludes(text.split("\n")[0]!, "Successfully renamed 'f' to 'g'");
    const script = await h.read("scripts/run_app.py");
    assertStringIncludes(script, "v: str = g()");
    assertStringIncludes(script, "print(g.nothing, VERSION");
    assert(!text.includes("Introduced"), text);
    assert(!text.includes("not checked"), text);
  });

  await disposeAndCheck(h);
});

/** `tsc -p <config>` in the project: its error lines. */
async function tscErrors(root: string, config: string): Promise<string[]> {
  const tsc = join(LSP_CACHE, "node_modules", ".bin", "tsc");
  const out = await new Deno.Command(tsc, { args: ["-p", config], cwd: root, stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => / error TS\d+:/.test(l));
}

Deno.test({
  name: "new diagnostics: a rename that breaks tests in a second tsconfig reports what tsc finds",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const tree = await fixtureTree("ts_spec");
  // More test files than the check used to cover, each broken by the rename (tsconfig.spec.json
  // owns them; tsserver does not load that config by itself).
  for (let i = 0; i < 14; i++) {
    tree[`test/t${String(i).padStart(2, "0")}.test.ts`] =
      'import { getPath } from "../src/url";\n' +
      'const urlPath = "http://a.example/b";\n' +
      "export const path: string = getPath(urlPath);\n";
  }
  await using h = await toolHarness(tree);
  using _ = waits(h, { reportMs: 60_000 });
  const args = { name_path: "getPath", relative_path: "src/url.ts" };

  await t.step(
    "rename_symbol: the report counts the errors tsc -p tsconfig.spec.json finds",
    async () => {
      assertEquals(await tscErrors(h.root, "tsconfig.spec.json"), []);
      const answer = await h.call(renameSymbol, { ...args, new_name: "urlPath" });
      const [first, report, ...more] = answer.split("\n");
      assertStringIncludes(
        first!,
        "Successfully renamed 'getPath' to 'urlPath' (33 edits in 17 files)",
      );
      assertEquals(more, []);
      const found = await tscErrors(h.root, "tsconfig.spec.json");
      assert(found.length >= 14, found.join("\n"));
      assertStringIncludes(report!, `Introduced ${found.length} errors (0-based lines): test/`);
      assertEquals(await tscErrors(h.root, "tsconfig.json"), []);
    },
  );

  await t.step(
    "rename_file: the broken tests are edited again; their old errors are not new",
    async () => {
      const answer = await h.call(renameFile, {
        relative_path: "src/url.ts",
        new_relative_path: "src/urls.ts",
      });
      assertEquals(answer.split("\n")[0], "OK");
      assert(!/Introduced|not checked/.test(answer), answer);
      assertStringIncludes(await h.read("test/t13.test.ts"), '"../src/urls"');
    },
  );

  await disposeAndCheck(h);
});
