/**
 * delete_lines, replace_lines, insert_at_line: 0-based inclusive ranges, the prior-read rule,
 * automatic final newline on inserted content.
 * @module
 */
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { deleteLines, insertAtLine, replaceLines } from "../../src/tools/files/replace_lines.ts";
import { editTool } from "../../src/tools/files/edit.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

const FIVE = "l0\nl1\nl2\nl3\nl4\n";
type H = Awaited<ReturnType<typeof toolHarness>>;

const read = (h: H, start_line?: number, end_line?: number, path = "f.txt") =>
  h.call(readFile, {
    relative_path: path,
    ...(start_line === undefined ? {} : { start_line }),
    ...(end_line === undefined ? {} : { end_line }),
  });

Deno.test("delete_lines: deletes an inclusive 0-based range after it was read", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h, 1, 2);
  assertEquals(
    await h.call(deleteLines, { relative_path: "f.txt", start_line: 1, end_line: 2 }),
    "OK",
  );
  assertEquals(await h.read("f.txt"), "l0\nl3\nl4\n");
});

Deno.test("delete_lines: refused when the lines were not read", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await assertRejects(
    () => h.call(deleteLines, { relative_path: "f.txt", start_line: 1, end_line: 2 }),
    "Call read_file with start_line=1, end_line=2 first",
  );
  // Reading only part of the range is not enough.
  await read(h, 1, 1);
  await assertRejects(
    () => h.call(deleteLines, { relative_path: "f.txt", start_line: 1, end_line: 2 }),
    "have not been read",
  );
  assertEquals(await h.read("f.txt"), FIVE);
});

Deno.test("delete_lines: a whole-file read covers every range", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h);
  await h.call(deleteLines, { relative_path: "f.txt", start_line: 4, end_line: 4 });
  assertEquals(await h.read("f.txt"), "l0\nl1\nl2\nl3\n");
});

Deno.test("delete_lines: after a line edit, lines must be read again", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h);
  await h.call(deleteLines, { relative_path: "f.txt", start_line: 0, end_line: 0 });
  await assertRejects(
    () => h.call(deleteLines, { relative_path: "f.txt", start_line: 0, end_line: 0 }),
    "have not been read",
  );
  assertEquals(await h.read("f.txt"), "l1\nl2\nl3\nl4\n");
});

Deno.test("delete_lines: out-of-range and inverted ranges are errors", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h);
  await assertRejects(
    () => h.call(deleteLines, { relative_path: "f.txt", start_line: 3, end_line: 5 }),
    "Line 5 is beyond the end of 'f.txt' (5 lines, 0-based)",
  );
  await assertRejects(
    () => h.call(deleteLines, { relative_path: "f.txt", start_line: 3, end_line: 2 }),
    /end_line|have not been read/,
  );
  await assertRejects(() =>
    h.call(deleteLines, { relative_path: "f.txt", start_line: -1, end_line: 0 })
  );
  assertEquals(await h.read("f.txt"), FIVE);
});

Deno.test("delete_lines: deleting every line empties the file; no final newline is kept", async () => {
  await using h = await toolHarness({ "f.txt": FIVE, "g.txt": "a\nb" });
  await read(h);
  await h.call(deleteLines, { relative_path: "f.txt", start_line: 0, end_line: 4 });
  assertEquals(await h.read("f.txt"), "");
  await read(h, undefined, undefined, "g.txt");
  await h.call(deleteLines, { relative_path: "g.txt", start_line: 1, end_line: 1 });
  assertEquals(await h.read("g.txt"), "a");
});

Deno.test("replace_lines: replaces the range; content gets a final newline", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h, 1, 3);
  assertEquals(
    await h.call(replaceLines, {
      relative_path: "f.txt",
      start_line: 1,
      end_line: 3,
      content: "X\nY",
    }),
    "OK",
  );
  assertEquals(await h.read("f.txt"), "l0\nX\nY\nl4\n");
});

Deno.test("replace_lines: the last line of a file without final newline", async () => {
  await using h = await toolHarness({ "f.txt": "a\nb" });
  await read(h);
  await h.call(replaceLines, {
    relative_path: "f.txt",
    start_line: 1,
    end_line: 1,
    content: "B\n",
  });
  assertEquals(await h.read("f.txt"), "a\nB");
});

Deno.test("replace_lines: refused without a prior read, file unchanged", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h, 0, 1);
  await assertRejects(
    () =>
      h.call(replaceLines, { relative_path: "f.txt", start_line: 1, end_line: 2, content: "x" }),
    "have not been read",
  );
  assertEquals(await h.read("f.txt"), FIVE);
});

Deno.test("replace_lines: keeps CRLF line endings", async () => {
  await using h = await toolHarness({ "f.txt": "a\r\nb\r\nc\r\n" });
  await read(h);
  await h.call(replaceLines, {
    relative_path: "f.txt",
    start_line: 1,
    end_line: 1,
    content: "B1\nB2",
  });
  assertEquals(await h.read("f.txt"), "a\r\nB1\r\nB2\r\nc\r\n");
});

Deno.test("insert_at_line: inserts before the line, pushing content down", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  assertEquals(
    await h.call(insertAtLine, { relative_path: "f.txt", line: 2, content: "new" }),
    "OK",
  );
  assertEquals(await h.read("f.txt"), "l0\nl1\nnew\nl2\nl3\nl4\n");
  await h.call(insertAtLine, { relative_path: "f.txt", line: 0, content: "first\n" });
  assertEquals(await h.read("f.txt"), "first\nl0\nl1\nnew\nl2\nl3\nl4\n");
});

Deno.test("insert_at_line: line = line count appends; beyond is an error", async () => {
  await using h = await toolHarness({ "f.txt": "a\nb\n", "g.txt": "a\nb" });
  await h.call(insertAtLine, { relative_path: "f.txt", line: 2, content: "c" });
  assertEquals(await h.read("f.txt"), "a\nb\nc\n");
  await h.call(insertAtLine, { relative_path: "g.txt", line: 2, content: "c" });
  assertEquals(await h.read("g.txt"), "a\nb\nc");
  await assertRejects(
    () => h.call(insertAtLine, { relative_path: "f.txt", line: 9, content: "z" }),
    "Line 9 is beyond the end",
  );
  assertEquals(await h.read("f.txt"), "a\nb\nc\n");
});

Deno.test("insert_at_line: into an empty file", async () => {
  await using h = await toolHarness({ "f.txt": "" });
  await h.call(insertAtLine, { relative_path: "f.txt", line: 0, content: "only" });
  assertEquals(await h.read("f.txt"), "only\n");
});

Deno.test("line tools: an edit through another tool also invalidates line reads", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  await read(h);
  await h.call(editTool, { file_path: "f.txt", old_string: "l0\n", new_string: "" });
  await assertRejects(
    () => h.call(deleteLines, { relative_path: "f.txt", start_line: 0, end_line: 0 }),
    "have not been read",
  );
});
