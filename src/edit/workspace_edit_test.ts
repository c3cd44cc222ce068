import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { editSteps, type LspTextEdit } from "./workspace_edit.ts";

const insert: LspTextEdit = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  newText: "x",
};

Deno.test("editSteps: documentChanges in order, file operations with their options", () => {
  assertEquals(
    editSteps({
      changes: { "file:///ignored": [insert] },
      documentChanges: [
        { kind: "create", uri: "file:///n", options: { ignoreIfExists: true } },
        { textDocument: { uri: "file:///n", version: null }, edits: [insert, { bad: 1 }] },
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
    () => editSteps({ documentChanges: [{ kind: "copy", uri: "file:///a" }] }),
    "unknown file operation 'copy'",
  );
});
