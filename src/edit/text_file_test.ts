/**
 * Text files: decoding, format preservation on rewrite (line endings, BOM, final newline,
 * permission bits), atomic writes, encodings, and all-or-nothing multi-file writes.
 * @module
 */
import { join } from "node:path";
import {
  assert,
  assertEquals,
  assertNotEquals,
  assertRejects,
  assertThrows,
} from "../../tests/helpers/assert.ts";
import { tempDir, toolHarness } from "../../tests/helpers/tool_ctx.ts";
import {
  decodeText,
  encodeText,
  keepFinalNewline,
  newFileFormat,
  readTextFile,
  tempPathFor,
  writeTextFile,
} from "./text_file.ts";
import { writeAllOrNothing } from "./all_or_nothing.ts";
import { editTool } from "../tools/files/edit.ts";
import { replaceContentTool } from "../tools/files/replace_content.ts";
import { readFile } from "../tools/files/read_file.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const BOM = [0xef, 0xbb, 0xbf];

/** Read then edit `path` through the tools, replacing `from` with `to`. */
async function editVia(
  h: Awaited<ReturnType<typeof toolHarness>>,
  path: string,
  from: string,
  to: string,
): Promise<string> {
  await h.call(readFile, { relative_path: path });
  return await h.call(editTool, { file_path: path, old_string: from, new_string: to });
}

Deno.test("text: decodeText normalizes CRLF and remembers it", () => {
  const f = decodeText(enc("a\r\nb\r\nc"));
  assertEquals(f.text, "a\nb\nc");
  assertEquals(f.format.eol, "\r\n");
  assertEquals(f.format.finalNewline, false);
  assertEquals(decodeText(enc("a\nb\n")).format.eol, "\n");
  // Mixed endings: the majority wins.
  assertEquals(decodeText(enc("a\r\nb\r\nc\n")).format.eol, "\r\n");
  assertEquals(decodeText(enc("a\nb\nc\r\n")).format.eol, "\n");
});

Deno.test("text: encodeText applies the stored format", () => {
  const format = { ...newFileFormat(), eol: "\r\n" as const, bom: true };
  assertEquals([...encodeText("x\ny\n", format)], [...BOM, ...enc("x\r\ny\r\n")]);
  assertEquals(keepFinalNewline("a", newFileFormat()), "a\n");
  assertEquals(keepFinalNewline("a\n\n", { ...newFileFormat(), finalNewline: false }), "a");
  assertEquals(keepFinalNewline("", newFileFormat()), "");
});

Deno.test("text: an edit keeps CRLF line endings", async () => {
  await using h = await toolHarness({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
  await editVia(h, "w.txt", "two", "2\nand a half");
  assertEquals(await h.read("w.txt"), "one\r\n2\r\nand a half\r\nthree\r\n");
});

Deno.test("text: an edit keeps the UTF-8 BOM", async () => {
  await using h = await toolHarness({ "b.txt": new Uint8Array([...BOM, ...enc("héllo\n")]) });
  await editVia(h, "b.txt", "héllo", "hello");
  assertEquals([...await h.bytes("b.txt")], [...BOM, ...enc("hello\n")]);
});

Deno.test("text: an edit keeps a missing final newline, and an existing one", async () => {
  await using h = await toolHarness({ "no.txt": "a\nb", "yes.txt": "a\nb\n" });
  await editVia(h, "no.txt", "b", "c");
  assertEquals(await h.read("no.txt"), "a\nc");
  await editVia(h, "yes.txt", "b\n", "c");
  assertEquals(await h.read("yes.txt"), "a\nc\n");
});

Deno.test("text: an edit keeps the permission bits (chmod 755 survives)", async () => {
  await using h = await toolHarness({ "run.sh": "#!/bin/sh\necho hi\n", "ro.txt": "k\n" });
  await Deno.chmod(h.path("run.sh"), 0o755);
  await Deno.chmod(h.path("ro.txt"), 0o640);
  await editVia(h, "run.sh", "hi", "bye");
  await editVia(h, "ro.txt", "k", "v");
  assertEquals(Deno.statSync(h.path("run.sh")).mode! & 0o7777, 0o755);
  assertEquals(Deno.statSync(h.path("ro.txt")).mode! & 0o7777, 0o640);
  assertEquals(await h.read("run.sh"), "#!/bin/sh\necho bye\n");
});

Deno.test("text: writes are atomic renames and leave no temporary files", async () => {
  await using h = await toolHarness({ "a.txt": "alpha\n", "sub/b.txt": "beta\n" });
  const before = Deno.statSync(h.path("a.txt")).ino;
  await editVia(h, "a.txt", "alpha", "ALPHA");
  await h.call(replaceContentTool, {
    relative_path: "sub/b.txt",
    needle: "beta",
    repl: "BETA",
    mode: "literal",
  });
  // A rename replaces the inode; an in-place write would keep it.
  assertNotEquals(Deno.statSync(h.path("a.txt")).ino, before);
  assertEquals(await h.listAll(), ["a.txt", "sub", "sub/b.txt"]);
});

Deno.test("text: a failed edit leaves no temporary file and the original intact", async () => {
  await using h = await toolHarness({ "a.txt": "alpha\n" }, {
    projectConfig: { encoding: "latin1" },
  });
  await h.call(readFile, { relative_path: "a.txt" });
  await assertRejects(
    () => h.call(editTool, { file_path: "a.txt", old_string: "alpha", new_string: "€uro" }),
    "cannot store",
  );
  assertEquals(await h.read("a.txt"), "alpha\n");
  assertEquals(await h.listAll(), [".sextant", ".sextant/project.jsonc", "a.txt"]);
});

Deno.test("text: a very long file name can still be written (temp name stays short)", async () => {
  const name = `${"n".repeat(250)}.txt`;
  await using h = await toolHarness({ [name]: "long\n" });
  await editVia(h, name, "long", "short");
  assertEquals(await h.read(name), "short\n");
  assert(tempPathFor(join(h.root, name)).split("/").pop()!.length < 100);
});

Deno.test("text: non-UTF-8 content is a clear error, not mojibake", async () => {
  await using h = await toolHarness({ "l1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
  await assertRejects(
    () => h.call(readFile, { relative_path: "l1.txt" }),
    /'l1.txt' is not valid utf-8; set the project's 'encoding'/,
  );
  assertThrows(
    () => decodeText(new Uint8Array([0xff, 0xfe, 0x41]), "utf-8", "x"),
    "not valid utf-8",
  );
  assertThrows(() => decodeText(enc("abc"), "klingon"), "Unknown encoding 'klingon'");
});

Deno.test("text: binary content is refused", () => {
  assertThrows(() => decodeText(new Uint8Array([0x41, 0, 0x42]), "utf-8", "x.bin"), "binary file");
});

Deno.test("text: latin1 round trip keeps every byte, including 0x80-0x9f", async () => {
  const bytes = new Uint8Array([...enc("caf"), 0xe9, 0x20, 0x80, 0x9f, 0xa0, 0xff, 0x0a]);
  await using h = await toolHarness({ "l1.txt": bytes }, { projectConfig: { encoding: "latin1" } });
  assertEquals(
    await h.call(readFile, { relative_path: "l1.txt" }),
    "café \u0080\u009f\u00a0ÿ\n",
  );
  await editVia(h, "l1.txt", "caf", "CAF");
  assertEquals([...await h.bytes("l1.txt")], [
    ...enc("CAF"),
    0xe9,
    0x20,
    0x80,
    0x9f,
    0xa0,
    0xff,
    0x0a,
  ]);
  // Writing a character latin1 cannot hold fails before anything is written.
  await assertRejects(
    () => h.call(editTool, { file_path: "l1.txt", old_string: "CAF", new_string: "☕" }),
    "latin1 cannot store",
  );
  assertEquals((await h.bytes("l1.txt"))[0], 0x43);
});

Deno.test("text: windows-1252 round trip (0x80 is the euro sign)", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "w.txt");
  await Deno.writeFile(path, new Uint8Array([0x80, 0x20, 0x81, 0x0a]));
  const file = await readTextFile(path, "windows-1252");
  assertEquals(file.text, "€ \u0081\n");
  await writeTextFile(path, file.text.replace(" ", "-"), file.format);
  assertEquals([...await Deno.readFile(path)], [0x80, 0x2d, 0x81, 0x0a]);
});

Deno.test("text: readTextFile remembers the mode", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "m.txt");
  await Deno.writeTextFile(path, "m\n", { mode: 0o600 });
  await Deno.chmod(path, 0o600);
  assertEquals((await readTextFile(path)).format.mode! & 0o777, 0o600);
});

// --- all-or-nothing multi-file writes -----------------------------------------------------

Deno.test("all_or_nothing: several files are written together, formats kept", async () => {
  await using dir = await tempDir();
  const a = join(dir.path, "a.txt");
  const b = join(dir.path, "b.txt");
  await Deno.writeTextFile(a, "a\r\n");
  await Deno.writeTextFile(b, "b\n");
  const fa = await readTextFile(a);
  const fb = await readTextFile(b);
  await writeAllOrNothing([
    { path: a, text: "A\n", format: fa.format },
    { path: b, text: "B\n", format: fb.format },
  ]);
  assertEquals(await Deno.readTextFile(a), "A\r\n");
  assertEquals(await Deno.readTextFile(b), "B\n");
  assertEquals([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), ["a.txt", "b.txt"]);
});

Deno.test("all_or_nothing: a failing temp write changes no file", async () => {
  await using dir = await tempDir();
  const a = join(dir.path, "a.txt");
  await Deno.writeTextFile(a, "a\n");
  const fa = await readTextFile(a);
  await assertRejects(() =>
    writeAllOrNothing([
      { path: a, text: "A\n", format: fa.format },
      { path: join(dir.path, "gone", "b.txt"), text: "B\n", format: newFileFormat() },
    ])
  );
  assertEquals(await Deno.readTextFile(a), "a\n");
  assertEquals([...Deno.readDirSync(dir.path)].map((e) => e.name), ["a.txt"]);
});

Deno.test("all_or_nothing: a failing rename restores the files already replaced", async () => {
  await using dir = await tempDir();
  const a = join(dir.path, "a.txt");
  const blocker = join(dir.path, "blocker");
  await Deno.writeTextFile(a, "a\n");
  await Deno.mkdir(blocker);
  await Deno.writeTextFile(join(blocker, "inside"), "x");
  const fa = await readTextFile(a);
  await assertRejects(() =>
    writeAllOrNothing([
      { path: a, text: "A\n", format: fa.format },
      // Renaming a file over a non-empty folder fails after a.txt was already replaced.
      { path: blocker, text: "B\n", format: newFileFormat() },
    ])
  );
  assertEquals(await Deno.readTextFile(a), "a\n");
  assertEquals([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), ["a.txt", "blocker"]);
});

Deno.test("all_or_nothing: an encoding error surfaces before any file is touched", async () => {
  await using dir = await tempDir();
  const a = join(dir.path, "a.txt");
  const b = join(dir.path, "b.txt");
  await Deno.writeTextFile(a, "a\n");
  await Deno.writeTextFile(b, "b\n");
  await assertRejects(
    () =>
      writeAllOrNothing([
        { path: a, text: "A\n", format: newFileFormat() },
        { path: b, text: "☃\n", format: newFileFormat("latin1") },
      ]),
    "cannot store",
  );
  assertEquals(await Deno.readTextFile(a), "a\n");
  assertEquals(await Deno.readTextFile(b), "b\n");
});
