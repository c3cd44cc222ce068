/**
 * Code actions: WorkspaceEdits with file operations (create/rename/delete) applied all or
 * nothing inside the sandbox, the id cache (stable ids, stale ids refused), rename previews
 * executed by id, and real quick fixes from typescript-language-server executed by id with the
 * diagnostic gone afterwards. One server for the whole file.
 */
import { pathToFileURL } from "node:url";
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { planWorkspaceEdit } from "../../src/edit/workspace_edit.ts";
import type { WorkspaceEdit } from "../../src/deps.ts";
import { commitFileChanges } from "../../src/edit/all_or_nothing.ts";

import { actionId, previewWorkspaceEdit } from "../../src/session/code_action_store.ts";
import { codeActions } from "../../src/tools/ide/code_actions.ts";
import { refreshCodeActions } from "../../src/tools/ide/refresh_code_actions.ts";
import { executeCodeAction } from "../../src/tools/ide/execute_code_action.ts";
import { listCodeActions } from "../../src/tools/ide/list_code_actions.ts";
import { diagnostics } from "../../src/tools/ide/diagnostics.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { renameAtPosition } from "../../src/tools/ide/rename_at_position.ts";
import { renameSymbol } from "../../src/tools/symbols/rename_symbol.ts";

const HAS_TS = hasServer("typescript-language-server");

// deno-lint-ignore no-explicit-any
type Json = any;

function range(l1: number, c1: number, l2: number, c2: number) {
  return { start: { line: l1, character: c1 }, end: { line: l2, character: c2 } };
}

Deno.test("WorkspaceEdit with file operations: create, edit, rename, delete — all or nothing", async () => {
  await using h = await toolHarness({
    "a.ts": "export const a = 1;\n",
    "old.ts": "export const o = 2;\r\n",
    "gone.ts": "x\n",
  });
  const uri = (rel: string) => pathToFileURL(h.path(rel)).href;
  const rel = (u: string) => {
    const root = pathToFileURL(h.root).href + "/";
    return u.startsWith(root) ? decodeURIComponent(u.slice(root.length)) : null;
  };
  const edit: WorkspaceEdit = {
    documentChanges: [
      { kind: "create", uri: uri("lib/new.ts") },
      {
        textDocument: { uri: uri("lib/new.ts"), version: null },
        edits: [
          { range: range(0, 0, 0, 0), newText: "export const n = 3;\n" },
        ],
      },
      {
        textDocument: { uri: uri("a.ts"), version: 1 },
        edits: [
          { range: range(0, 13, 0, 14), newText: "b" },
        ],
      },
      { kind: "rename", oldUri: uri("old.ts"), newUri: uri("moved/renamed.ts") },
      {
        textDocument: { uri: uri("moved/renamed.ts"), version: null },
        edits: [
          { range: range(0, 13, 0, 14), newText: "r" },
        ],
      },
      { kind: "delete", uri: uri("gone.ts") },
    ],
  };
  const plan = await planWorkspaceEdit(h.project, edit, { relPathOf: rel });
  assertEquals(plan.operations, [
    "create lib/new.ts",
    "rename old.ts -> moved/renamed.ts",
    "delete gone.ts",
  ]);
  assertEquals(plan.changes.map((c) => [c.relPath, c.line, c.oldText, c.newText]), [
    ["lib/new.ts", 0, "", "export const n = 3;\n"],
    ["a.ts", 0, "a", "b"],
    ["moved/renamed.ts", 0, "o", "r"],
  ]);
  // Planning wrote nothing.
  assertEquals(await h.exists("lib/new.ts"), false);
  assertEquals(await h.read("a.ts"), "export const a = 1;\n");
  const changed = await commitFileChanges(plan.files);
  assertEquals(changed.length, 5);
  assertEquals(await h.read("lib/new.ts"), "export const n = 3;\n");
  assertEquals(await h.read("a.ts"), "export const b = 1;\n");
  assertEquals(await h.read("moved/renamed.ts"), "export const r = 2;\r\n"); // CRLF kept
  assertEquals(await h.exists("old.ts"), false);
  assertEquals(await h.exists("gone.ts"), false);
});

Deno.test("WorkspaceEdit refusals change nothing: outside the sandbox, conflicts, missing files", async () => {
  await using h = await toolHarness({ "a.ts": "let a = 1;\n", "b.ts": "let b = 2;\n" });
  const uri = (rel: string) => pathToFileURL(h.path(rel)).href;
  const rel = (u: string) => {
    const root = pathToFileURL(h.root).href + "/";
    return u.startsWith(root) ? decodeURIComponent(u.slice(root.length)) : null;
  };
  const before = await h.listAll();
  const refuse = async (documentChanges: unknown[], match: RegExp) => {
    await assertRejects(async () => {
      await commitFileChanges(
        (await planWorkspaceEdit(h.project, { documentChanges } as WorkspaceEdit, {
          relPathOf: rel,
        }))
          .files,
      );
    }, match);
    assertEquals(await h.listAll(), before);
    assertEquals(await h.read("a.ts"), "let a = 1;\n");
  };
  const touchA = {
    textDocument: { uri: uri("a.ts") },
    edits: [{ range: range(0, 4, 0, 5), newText: "z" }],
  };
  await refuse(
    [touchA, { kind: "create", uri: pathToFileURL(h.outside + "/x.ts").href }],
    /outside the project/,
  );
  await refuse([touchA, { kind: "create", uri: uri("b.ts") }], /'b.ts', which already exists/);
  await refuse(
    [touchA, { kind: "rename", oldUri: uri("a.ts"), newUri: uri("b.ts") }],
    /already exists/,
  );
  await refuse(
    [touchA, { kind: "delete", uri: uri("nope.ts") }],
    /'nope.ts', which does not exist/,
  );
  await refuse([touchA, {
    textDocument: { uri: uri("nope.ts") },
    edits: [{ range: range(0, 0, 0, 0), newText: "x" }],
  }], /does not exist/);
  await refuse(
    [touchA, { kind: "rename", oldUri: uri("a.ts"), newUri: uri("../escape.ts") }],
    /outside the project/,
  );
  // Options make conflicts fine: ignoreIfExists skips, overwrite replaces.
  const plan = await planWorkspaceEdit(h.project, {
    documentChanges: [
      { kind: "create", uri: uri("b.ts"), options: { ignoreIfExists: true } },
      { kind: "delete", uri: uri("nope.ts"), options: { ignoreIfNotExists: true } },
      { kind: "rename", oldUri: uri("a.ts"), newUri: uri("b.ts"), options: { overwrite: true } },
    ],
  }, { relPathOf: rel });
  await commitFileChanges(plan.files);
  assertEquals(await h.read("b.ts"), "let a = 1;\n");
  assertEquals(await h.exists("a.ts"), false);
});

Deno.test("previewed edits: stable ids, executed by id, stale ids refused", async () => {
  await using h = await toolHarness({ "a.ts": "const café = 1;\nconsole.log(café);\n" });
  const uri = pathToFileURL(h.path("a.ts")).href;
  const rel = (u: string) => (u === uri ? "a.ts" : null);
  const edit = {
    changes: {
      [uri]: [
        { range: range(0, 6, 0, 10), newText: "tea" },
        { range: range(1, 12, 1, 16), newText: "tea" },
      ],
    },
  };
  const info = {
    title: "Rename 'café' to 'tea'",
    oldName: "café",
    newName: "tea",
    relPath: "a.ts",
    line: 1,
  };
  const preview = await previewWorkspaceEdit(
    h.session.codeActions(h.project),
    h.project,
    edit,
    rel,
    info,
  );
  assertEquals(preview.changes, [
    { file: "a.ts", line: 1, column: 7, oldText: "café", newText: "tea" },
    { file: "a.ts", line: 2, column: 13, oldText: "café", newText: "tea" },
  ]);
  assertEquals([preview.totalChanges, preview.applied, preview.files], [2, false, { "a.ts": 2 }]);
  assertMatch(preview.action_id, /^rename_cafe_to_tea_[0-9a-f]{8}$/);
  // The same edit of the same content gets the same id.
  assertEquals(
    (await previewWorkspaceEdit(h.session.codeActions(h.project), h.project, edit, rel, info))
      .action_id,
    preview.action_id,
  );
  assertEquals(actionId("A b", "k"), actionId("A b", "k"));
  assert(actionId("A b", "k") !== actionId("A b", "k2"));
  assertEquals(await h.read("a.ts"), "const café = 1;\nconsole.log(café);\n");

  const listed = JSON.parse(await h.call(listCodeActions, {}));
  assertEquals(listed.code_actions.map((a: Json) => a.id), [preview.action_id]);

  // Stale: the file changed after the preview; nothing is applied, the id is dropped.
  await h.write("a.ts", "const café = 2;\nconsole.log(café);\n");
  const stale = await h.run(executeCodeAction, { action_id: preview.action_id });
  assert(stale.isError);
  assertMatch(stale.text, /is stale: 'a.ts' changed since it was offered. Nothing was changed/);
  assertEquals(await h.read("a.ts"), "const café = 2;\nconsole.log(café);\n");
  assertEquals(h.session.codeActions(h.project).get(preview.action_id), undefined);

  const fresh = await previewWorkspaceEdit(
    h.session.codeActions(h.project),
    h.project,
    edit,
    rel,
    info,
  );
  assert(fresh.action_id !== preview.action_id, "new content, new id");
  const done = JSON.parse(await h.call(executeCodeAction, { action_id: fresh.action_id }));
  assertEquals(done.files, [{ file: "a.ts", change: "edited", edits: 2 }]);
  assertEquals(await h.read("a.ts"), "const tea = 2;\nconsole.log(tea);\n");
  const again = await h.run(executeCodeAction, { action_id: fresh.action_id });
  assertMatch(again.text, /No code action '.*'\. Ids come from code_actions/);
});

Deno.test({
  name: "code actions from typescript-language-server, executed by id",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness({
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "ESNext", noEmit: true },
      include: ["src"],
    }),
    "src/util.ts": "export function double(n: number): number {\n  return n * 2;\n}\n" +
      "export function triple(n: number): number {\n  return n * 3;\n}\n",
    "src/needs.ts": "export const y = double(2);\n\nexport function g(a: number): number {\n" +
      "  return a + 1 + 2;\n}\n",
    "src/other.ts": "export const z = triple(3);\n",
    "src/names.ts": "export function area(r: number): number {\n  return r * r;\n}\n" +
      "export const unit = area(1);\n",
  });
  const json = async (tool: Tool, args: Json) => JSON.parse(await h.call(tool, args));
  const errorsIn = async (file: string) =>
    (await json(diagnostics, { relative_path: file, severity: "error" })).diagnostics;

  await t.step("a quick fix for a real diagnostic, executed by id, removes it", async () => {
    const before = await errorsIn("src/needs.ts");
    assertEquals(before.map((d: Json) => [d.line, d.column, d.code]), [[1, 18, 2304]]);
    const offered = await json(codeActions, {
      relative_path: "src/needs.ts",
      diagnostic: "double",
    });
    const fix = offered.actions.find((a: Json) => a.title === 'Add import from "./util"');
    assert(fix, `no import fix in ${JSON.stringify(offered.actions)}`);
    assertEquals(fix.kind, "quickfix");
    assertEquals(fix.fixes, ["Cannot find name 'double'."]);
    // Asking again for unchanged content gives the same ids.
    const again = await json(codeActions, { relative_path: "src/needs.ts", diagnostic: "2304" });
    assert(again.actions.some((a: Json) => a.id === fix.id));
    const done = await json(executeCodeAction, { action_id: fix.id });
    assertEquals(done.files, [{ file: "src/needs.ts", change: "edited", edits: 1 }]);
    assert((await h.read("src/needs.ts")).startsWith('import { double } from "./util";\n'));
    assertEquals(await errorsIn("src/needs.ts"), []);
  });

  await t.step("a stale id is refused after the file changed, and nothing changes", async () => {
    const offered = await json(codeActions, { relative_path: "src/other.ts", start_line: 1 });
    const fix = offered.actions.find((a: Json) => a.title === 'Add import from "./util"');
    assert(fix);
    await h.call(replaceContentTool, {
      relative_path: "src/other.ts",
      needle: "triple(3)",
      repl: "triple(4)",
      mode: "literal",
    });
    const r = await h.run(executeCodeAction, { action_id: fix.id });
    assert(r.isError);
    assertMatch(r.text, /is stale: 'src\/other.ts' changed since it was offered/);
    assertEquals(await h.read("src/other.ts"), "export const z = triple(4);\n");
    const unknown = await h.run(executeCodeAction, { action_id: "no_such_action_00000000" });
    assertMatch(unknown.text, /No code action 'no_such_action_00000000'/);
  });

  await t.step("refresh_code_actions collects the fixes of current errors", async () => {
    const r = await json(refreshCodeActions, { relative_path: "src" });
    const titles = r.code_actions.filter((a: Json) => a.file === "src/other.ts")
      .map((a: Json) => a.title);
    assert(titles.includes('Add import from "./util"'), titles);
    const listed = await json(listCodeActions, { relative_path: "src/other.ts" });
    assertEquals(listed.count, titles.length);
  });

  await t.step("a refactoring that runs a server command", async () => {
    const offered = await json(codeActions, {
      relative_path: "src/needs.ts",
      start_line: 6,
      start_column: 10,
      end_column: 19,
      kind: "refactor.extract",
    });
    const extract = offered.actions.find((a: Json) => a.title.startsWith("Extract to constant"));
    assert(extract, JSON.stringify(offered.actions));
    const r = await h.run(executeCodeAction, { action_id: extract.id });
    // The server applies the refactoring through workspace/applyEdit, which we carry out.
    assert(!r.isError, r.text);
    assertMatch(await h.read("src/needs.ts"), /const \w+ = a \+ 1 \+ 2;/);
    assertEquals(await errorsIn("src/needs.ts"), []);
  });

  await t.step("rename preview by position: nothing applied, executed by id", async () => {
    const preview = await json(renameAtPosition, {
      relative_path: "src/names.ts",
      name_path: "area",
      new_name: "square",
    });
    assertEquals(preview.applied, false);
    assertEquals(preview.changes.map((c: Json) => `${c.line}:${c.column}:${c.oldText}`), [
      "1:17:area",
      "4:21:area",
    ]);
    assertEquals(
      await h.read("src/names.ts"),
      "export function area(r: number): number {\n" +
        "  return r * r;\n}\nexport const unit = area(1);\n",
    );
    await json(executeCodeAction, { action_id: preview.action_id });
    assertEquals(
      await h.read("src/names.ts"),
      "export function square(r: number): number {\n" +
        "  return r * r;\n}\nexport const unit = square(1);\n",
    );
    assertEquals(await errorsIn("src/names.ts"), []);
  });

  await t.step("rename_symbol with preview: true stores the edit; executed by id", async () => {
    const utilBefore = await h.read("src/util.ts");
    const preview = await json(renameSymbol, {
      relative_path: "src/util.ts",
      name_path: "double",
      new_name: "twice",
      preview: true,
    });
    assertEquals(preview.applied, false);
    assertEquals(preview.oldName, "double");
    assertEquals(Object.keys(preview.files).sort(), ["src/needs.ts", "src/util.ts"]);
    assertEquals(await h.read("src/util.ts"), utilBefore);
    const listed = await json(listCodeActions, {});
    assert(listed.code_actions.some((a: Json) => a.id === preview.action_id));
    await json(executeCodeAction, { action_id: preview.action_id });
    assertMatch(await h.read("src/util.ts"), /export function twice\(/);
    assertMatch(await h.read("src/needs.ts"), /import \{ twice \} from "\.\/util";/);
    assertEquals(await errorsIn("src/needs.ts"), []);
  });

  await t.step("bad ranges are clear errors", async () => {
    const r = await h.run(codeActions, { relative_path: "src/names.ts", start_line: 40 });
    assertMatch(r.text, /Line 40 is outside 'src\/names.ts'/);
    const none = await h.run(codeActions, { relative_path: "src/names.ts" });
    assertMatch(none.text, /No range given/);
    const d = await h.run(codeActions, { relative_path: "src/names.ts", diagnostic: "nothing" });
    assertMatch(d.text, /No diagnostic in 'src\/names.ts' matches 'nothing'/);
    const p = await h.run(renameAtPosition, {
      relative_path: "src/names.ts",
      line: 2,
      column: 99,
      new_name: "x",
    });
    assertMatch(p.text, /Column 99 is outside line 2/);
  });

  await disposeAndCheck(h);
});
