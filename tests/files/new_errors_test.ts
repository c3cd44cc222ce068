/**
 * Errors introduced by an edit come back with the edit (typescript-language-server): an edit
 * that breaks a caller in another file reports that caller's new error after the `OK` line; an
 * edit that breaks nothing, or moves an existing error, adds nothing; the switch turns it off.
 * A report not ready within the edit's wait comes first in the session's next answer, once.
 * The wait is a share of the edit's own time; these tests set it to "always" or "never"
 * (`setReportWaitShare`), or accept either place for the default, so nothing depends on timing.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import {
  formatNewErrors,
  formatPreviousErrors,
  setReportWaitShare,
} from "../../src/tools/new_errors.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";
import { replaceSymbolBody } from "../../src/tools/symbols/replace_symbol_body.ts";
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
    "Introduced 2 errors: src/b.ts:2 Type 'string' is not assignable to type 'number'. " +
      "src/a.ts:5 Cannot find name 'x'.",
  );
  const many = Array.from({ length: 12 }, (_, i) => ({ relPath: "a.ts", line: i, message: "m" }));
  assertStringIncludes(formatNewErrors(many), "Introduced 12 errors: a.ts:0 m.");
  assertStringIncludes(formatNewErrors(many), "… and 2 more.");
});

Deno.test("formatPreviousErrors: names the edited files, then the errors", () => {
  const errors = [{ relPath: "src/a.ts", line: 3, message: "Type 'string' is not assignable." }];
  assertEquals(
    formatPreviousErrors(["src/b.ts"], errors),
    "Your previous edit of src/b.ts introduced 1 error: src/a.ts:3 Type 'string' is not assignable.",
  );
  assertStringIncludes(
    formatPreviousErrors(["a.ts", "b.ts", "c.ts", "d.ts"], errors),
    "Your previous edit of a.ts, b.ts and 2 more files introduced 1 error:",
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
    assertStringIncludes(lines[1]!, "Introduced 1 error: src/a.ts:3 ");
    assertStringIncludes(lines[1]!, "Type 'string' is not assignable to type 'number'");
  });

  await t.step("the next answer carries nothing: the report came with its edit", async () => {
    const text = await h.call(readFile, { relative_path: "src/b.ts" });
    assertEquals(text.includes("previous edit"), false, text);
  });

  await h.session.dispose();
});

/** Set how long edits wait for their report until the end of the scope. */
function waitShare(share: number): Disposable {
  return { [Symbol.dispose]: setReportWaitShare(share) };
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
  using _ = waitShare(0); // no edit waits: every report comes later
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
      assertStringIncludes(note!, "Your previous edit of src/b.ts introduced 1 error: src/a.ts:3 ");
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
      "Your previous edit of src/a.ts introduced 1 error: src/a.ts:3 Cannot find name",
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
    assertStringIncludes(note!, "Your previous edit of src/a.ts introduced 1 error:");
    assertStringIncludes(note!, "Cannot find name 'otherMissing'");
  });

  await h.session.dispose();
});

Deno.test({
  name: "new diagnostics: by default the report comes with the edit or with the next answer",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(FILES);
  await h.call(getSymbolsOverview, { relative_path: "src/b.ts" });
  const edit = await h.call(replaceSymbolBody, BREAK_COUNT);
  const next = await h.call(readFile, { relative_path: "src/a.ts" });
  const both = [edit, next, ...h.notes()].join("\n");
  assertEquals(edit.split("\n")[0], "OK");
  assertEquals(next, FILES["src/a.ts"]);
  assertEquals(both.match(/ src\/a\.ts:3 Type 'string' is not assignable/g)?.length, 1, both);
  if (edit === "OK") {
    assertStringIncludes(h.notes()[0]!, "Your previous edit of src/b.ts introduced 1 error");
  } else assertStringIncludes(edit, "\nIntroduced 1 error: src/a.ts:3 ");
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
