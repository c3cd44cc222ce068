/**
 * Applying WorkspaceEdits: text-edit application rules, both WorkspaceEdit forms, the sandbox,
 * file formats, and all-or-nothing writes when a target fails mid-way.
 */
import type { DeleteFile, TextEdit, WorkspaceEdit } from "../deps.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../../tests/helpers/assert.ts";
import { toolHarness } from "../../tests/helpers/tool_ctx.ts";
import {
  applyTextEdits,
  editBatches,
  editSteps,
  planWorkspaceEdit as planEdit,
} from "./workspace_edit.ts";
import { commitFileChanges } from "./all_or_nothing.ts";
import type { Project } from "../project/project.ts";

/** The files of a planned edit, as the tests below look at them. */
async function planWorkspaceEdit(
  project: Project,
  edit: WorkspaceEdit,
  relPathOf: (uri: string) => string | null,
) {
  return (await planEdit(project, edit, { relPathOf })).files;
}

function edit(l1: number, c1: number, l2: number, c2: number, newText: string): TextEdit {
  return {
    range: { start: { line: l1, character: c1 }, end: { line: l2, character: c2 } },
    newText,
  };
}

Deno.test("applyTextEdits: replacements, inserts in array order, deletions, clamping", () => {
  const text = "let foo = 1;\nfoo += foo;\n";
  assertEquals(
    applyTextEdits(text, [
      edit(1, 7, 1, 10, "bar"),
      edit(0, 4, 0, 7, "bar"),
      edit(1, 0, 1, 3, "bar"),
    ]),
    "let bar = 1;\nbar += bar;\n",
  );
  assertEquals(
    applyTextEdits(text, [edit(0, 0, 0, 0, "a"), edit(0, 0, 0, 0, "b")]),
    "ablet foo = 1;\nfoo += foo;\n",
  );
  assertEquals(applyTextEdits(text, [edit(0, 0, 1, 0, "")]), "foo += foo;\n");
  // Characters past the line end clamp to it; lines past the end mean the end of the text.
  assertEquals(applyTextEdits(text, [edit(0, 99, 0, 99, "!")]), "let foo = 1;!\nfoo += foo;\n");
  assertEquals(applyTextEdits(text, [edit(9, 0, 9, 0, "x")]), text + "x");
  // CRLF in new text is normalized (files are handled with \n inside).
  assertEquals(applyTextEdits("a\n", [edit(0, 1, 0, 1, "\r\nb")]), "a\nb\n");
  assertEquals(applyTextEdits(text, []), text);
});

Deno.test("applyTextEdits: overlapping or inverted edits are refused", () => {
  assertThrows(
    () => applyTextEdits("abcdef", [edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")]),
    "overlapping",
  );
  assertThrows(() => applyTextEdits("abcdef", [edit(0, 3, 0, 1, "x")]), "inverted");
});

Deno.test("editBatches: documentChanges preferred, resource operations refused", () => {
  const a = [edit(0, 0, 0, 1, "x")];
  assertEquals(editBatches({ changes: { "file:///a": a } }), [{ uri: "file:///a", edits: a }]);
  assertEquals(
    editBatches({
      changes: { "file:///ignored": a },
      documentChanges: [{ textDocument: { uri: "file:///b", version: 3 }, edits: a }],
    }),
    [{ uri: "file:///b", edits: a }],
  );
  assertThrows(
    () =>
      editBatches({
        documentChanges: [{ kind: "rename", oldUri: "file:///a", newUri: "file:///b" }],
      }),
    "rename file:///a",
  );
  assertEquals(editBatches(null), []);
  assertEquals(editBatches({}), []);
});

Deno.test("planWorkspaceEdit: edits several files, keeps formats, refuses paths outside", async () => {
  await using h = await toolHarness({
    "a.ts": "export const foo = 1;\n",
    "b.ts": "import { foo } from './a.ts';\r\nconsole.log(foo);\r\n",
  });
  const uri = (rel: string) => `file://${h.root}/${rel}`;
  const relPathOf = (u: string) =>
    u.startsWith(`file://${h.root}/`) ? u.slice(`file://${h.root}/`.length) : null;
  const plans = await planWorkspaceEdit(h.project, {
    documentChanges: [
      {
        textDocument: { uri: uri("b.ts"), version: 1 },
        edits: [edit(0, 9, 0, 12, "bar"), edit(1, 12, 1, 15, "bar")],
      },
      { textDocument: { uri: uri("a.ts"), version: 1 }, edits: [edit(0, 13, 0, 16, "bar")] },
    ],
  }, relPathOf);
  assertEquals(plans.map((p) => [p.relPath, p.editCount]), [["a.ts", 1], ["b.ts", 2]]);
  // Nothing is written by planning.
  assertEquals(await h.read("a.ts"), "export const foo = 1;\n");
  await commitFileChanges(plans);
  assertEquals(await h.read("a.ts"), "export const bar = 1;\n");
  assertEquals(await h.read("b.ts"), "import { bar } from './a.ts';\r\nconsole.log(bar);\r\n");

  await assertRejects(
    () =>
      planWorkspaceEdit(
        h.project,
        { changes: { "file:///etc/passwd": [edit(0, 0, 0, 0, "x")] } },
        relPathOf,
      ),
    "outside the project",
  );
  // A relative path that escapes the root is refused by the sandbox.
  await assertRejects(
    () =>
      planWorkspaceEdit(
        h.project,
        { changes: { "x": [edit(0, 0, 0, 0, "x")] } },
        () => "../outside/x.ts",
      ),
  );
});

Deno.test("planWorkspaceEdit: sequential TextDocumentEdits of one file apply in order", async () => {
  await using h = await toolHarness({ "a.py": "x = 1\n" });
  const u = `file://${h.root}/a.py`;
  const plans = await planWorkspaceEdit(h.project, {
    documentChanges: [
      { textDocument: { uri: u, version: 1 }, edits: [edit(0, 0, 0, 1, "yy")] },
      { textDocument: { uri: u, version: 2 }, edits: [edit(0, 0, 0, 2, "zzz")] },
    ],
  }, () => "a.py");
  assertEquals(plans.length, 1);
  assertEquals(plans[0]!.after, "zzz = 1\n");
  assertEquals(plans[0]!.editCount, 2);
});

Deno.test("commitFileChanges: a target that became a folder fails and changes no file", async () => {
  await using h = await toolHarness({
    "a.ts": "const foo = 1;\n",
    "b.ts": "foo;\n",
    "c.ts": "foo;\n",
  });
  const relPathOf = (u: string) => u.slice(`file://${h.root}/`.length);
  const changes: Record<string, TextEdit[]> = {};
  for (const [rel, l, c] of [["a.ts", 0, 6], ["b.ts", 0, 0], ["c.ts", 0, 0]] as const) {
    changes[`file://${h.root}/${rel}`] = [edit(l, c, l, c + 3, "bar")];
  }
  const plans = await planWorkspaceEdit(h.project, { changes }, relPathOf);
  assertEquals(plans.length, 3);
  // Mid-way: the second target is replaced by a folder after planning.
  await Deno.remove(h.path("b.ts"));
  await Deno.mkdir(h.path("b.ts"));
  await Deno.writeTextFile(h.path("b.ts/keep.txt"), "x");
  await assertRejects(() => commitFileChanges(plans));
  assertEquals(await h.read("a.ts"), "const foo = 1;\n");
  assertEquals(await h.read("c.ts"), "foo;\n");
  // No temporary files are left behind.
  const leftovers = (await h.listAll()).filter((p) => p.includes(".sextant-"));
  assertEquals(leftovers, []);
  assert(true);
});

const insert: TextEdit = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  newText: "x",
};

Deno.test("editSteps: documentChanges in order, file operations with their options", () => {
  assertEquals(
    editSteps({
      changes: { "file:///ignored": [insert] },
      documentChanges: [
        { kind: "create", uri: "file:///n", options: { ignoreIfExists: true } },
        {
          textDocument: { uri: "file:///n", version: null },
          edits: [insert, { bad: 1 } as unknown as TextEdit],
        },
        { kind: "rename", oldUri: "file:///a", newUri: "file:///b" },
        { kind: "delete", uri: "file:///c" },
      ],
    }),
    [
      { kind: "create", uri: "file:///n", options: { ignoreIfExists: true } },
      { kind: "edit", uri: "file:///n", edits: [insert] },
      { kind: "rename", oldUri: "file:///a", newUri: "file:///b", options: {} },
      { kind: "delete", uri: "file:///c", options: {} },
    ],
  );
});

Deno.test("editSteps: `changes` when there are no documentChanges; nothing for no edit", () => {
  assertEquals(editSteps({ changes: { "file:///a": [insert] } }), [
    { kind: "edit", uri: "file:///a", edits: [insert] },
  ]);
  assertEquals(editSteps(null), []);
  assertEquals(editSteps({}), []);
});

Deno.test("editSteps: an unknown file operation is refused", () => {
  assertThrows(
    () =>
      editSteps({ documentChanges: [{ kind: "copy", uri: "file:///a" } as unknown as DeleteFile] }),
    "unknown file operation 'copy'",
  );
});
