/**
 * read_file, create_text_file, list_dir, find_file and max_answer_chars, called directly on a
 * temporary project, checked against Serena's tool contract.
 * @module
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { tooLongMessage } from "../../src/tools/limit.ts";
import { createTextFile } from "../../src/tools/files/create_text_file.ts";
import { findFile } from "../../src/tools/files/find_file.ts";
import { listDir } from "../../src/tools/files/list_dir.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

const FIVE = "l0\nl1\nl2\nl3\nl4\n";

// --- read_file ------------------------------------------------------------------------------

Deno.test("read_file: returns the whole file by default", async () => {
  await using h = await toolHarness({ "f.txt": FIVE, "src/empty.txt": "" });
  assertEquals(await h.call(readFile, { relative_path: "f.txt" }), FIVE);
  assertEquals(await h.call(readFile, { relative_path: "src/empty.txt" }), "");
});

Deno.test("read_file: line ranges are 0-based and inclusive", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", start_line: 1, end_line: 2 }),
    "l1\nl2",
  );
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", start_line: 0, end_line: 0 }),
    "l0",
  );
  // As in Serena: the final line break leaves an empty last line, so reading to the end keeps it.
  assertEquals(await h.call(readFile, { relative_path: "f.txt", start_line: 3 }), "l3\nl4\n");
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", start_line: 4, end_line: 4 }),
    "l4",
  );
  // end_line past the end is clamped, like a Python slice.
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", start_line: 3, end_line: 99 }),
    "l3\nl4\n",
  );
  // Negative line numbers count from the end.
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", start_line: -3, end_line: -2 }),
    "l3\nl4",
  );
});

Deno.test("read_file: a start_line past the end is empty, an inverted range an error", async () => {
  await using h = await toolHarness({ "f.txt": FIVE });
  assertEquals(await h.call(readFile, { relative_path: "f.txt", start_line: 5 }), "");
  assertEquals(await h.call(readFile, { relative_path: "f.txt", start_line: 99 }), "");
  await assertRejects(
    () => h.call(readFile, { relative_path: "f.txt", start_line: 3, end_line: 1 }),
    "end_line (1) is before start_line (3)",
  );
});

Deno.test("read_file: \\n, \\r\\n and a lone \\r end lines; the answer joins them with \\n", async () => {
  await using h = await toolHarness({ "m.txt": "a\r\nb\rc\nd\r\n", "py.py": "x = 1\r\ny = 2\r\n" });
  assertEquals(await h.call(readFile, { relative_path: "m.txt" }), "a\nb\nc\nd\n");
  assertEquals(
    await h.call(readFile, { relative_path: "m.txt", start_line: 1, end_line: 2 }),
    "b\nc",
  );
  assertEquals(await h.call(readFile, { relative_path: "py.py", start_line: 1 }), "y = 2\n");
});

Deno.test("read_file: missing files, folders, ignored and binary files are errors", async () => {
  await using h = await toolHarness({
    "src/a.ts": "x",
    ".gitignore": "secret.env\n",
    "secret.env": "KEY=1",
    "img.bin": new Uint8Array([0x89, 0x50, 0, 1, 2]),
  });
  await assertRejects(() => h.call(readFile, { relative_path: "nope.ts" }), "No file or directory");
  await assertRejects(() => h.call(readFile, { relative_path: "src" }), "is a directory");
  await assertRejects(() => h.call(readFile, { relative_path: "secret.env" }), "ignored");
  await assertRejects(() => h.call(readFile, { relative_path: "img.bin" }), "binary file");
  await assertRejects(() => h.call(readFile, { relative_path: "../x" }), "outside the project");
});

Deno.test("read_file: records what was read, whole file or line range", async () => {
  await using h = await toolHarness({ "f.txt": FIVE, "g.txt": FIVE });
  const real = (p: string) => h.project.resolve(p).real;
  assert(!h.session.reads.wasRead(real("f.txt")));
  await h.call(readFile, { relative_path: "f.txt", start_line: 1, end_line: 2 });
  assert(h.session.reads.wasRead(real("f.txt")));
  assert(h.session.reads.rangeWasRead(real("f.txt"), 1, 2));
  assert(!h.session.reads.rangeWasRead(real("f.txt"), 0, 2));
  await h.call(readFile, { relative_path: "g.txt" });
  assert(h.session.reads.rangeWasRead(real("g.txt"), 0, 4));
  // A read past the end is empty and records nothing.
  assertEquals(await h.call(readFile, { relative_path: "f.txt", start_line: 9 }), "");
  assert(!h.session.reads.rangeWasRead(real("f.txt"), 9, 9));
});

Deno.test("read_file: CRLF and BOM are not shown to the agent", async () => {
  await using h = await toolHarness({
    "crlf.txt": "a\r\nb\r\n",
    "bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0a]),
  });
  assertEquals(await h.call(readFile, { relative_path: "crlf.txt" }), "a\nb\n");
  assertEquals(await h.call(readFile, { relative_path: "bom.txt" }), "hi\n");
});

// --- create_text_file ---------------------------------------------------------------------

Deno.test("create_text_file: creates a new file with the contract's message", async () => {
  await using h = await toolHarness();
  const answer = await h.call(createTextFile, { relative_path: "new.txt", content: "hello\n" });
  assertEquals(answer, "File created: new.txt.");
  assertEquals(await h.read("new.txt"), "hello\n");
});

Deno.test("create_text_file: overwriting says so", async () => {
  await using h = await toolHarness({ "old.txt": "before\n" });
  const answer = await h.call(createTextFile, { relative_path: "old.txt", content: "after\n" });
  assertEquals(answer, "File created: old.txt. Overwrote existing file.");
  assertEquals(await h.read("old.txt"), "after\n");
});

Deno.test("create_text_file: parent folders are created", async () => {
  await using h = await toolHarness();
  const answer = await h.call(createTextFile, { relative_path: "a/b/c/d.ts", content: "x\n" });
  assertEquals(answer, "File created: a/b/c/d.ts.");
  assertEquals(await h.read("a/b/c/d.ts"), "x\n");
});

Deno.test("create_text_file: content is written exactly (no newline added)", async () => {
  await using h = await toolHarness({ "old.txt": "x\n" });
  await h.call(createTextFile, { relative_path: "n.txt", content: "no newline" });
  assertEquals(await h.read("n.txt"), "no newline");
  await h.call(createTextFile, { relative_path: "old.txt", content: "now none" });
  assertEquals(await h.read("old.txt"), "now none");
  await h.call(createTextFile, { relative_path: "crlf-new.txt", content: "a\r\nb\r\n" });
  assertEquals(await h.read("crlf-new.txt"), "a\r\nb\r\n");
  await h.call(createTextFile, { relative_path: "empty.txt", content: "" });
  assertEquals(await h.read("empty.txt"), "");
});

Deno.test("create_text_file: overwrite keeps CRLF, BOM and file mode", async () => {
  await using h = await toolHarness({
    "crlf.txt": "one\r\ntwo\r\n",
    "bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x78, 0x0a]),
    "run.sh": "#!/bin/sh\necho 1\n",
  });
  await Deno.chmod(h.path("run.sh"), 0o755);
  await h.call(createTextFile, { relative_path: "crlf.txt", content: "uno\ndos\n" });
  assertEquals(await h.read("crlf.txt"), "uno\r\ndos\r\n");
  await h.call(createTextFile, { relative_path: "bom.txt", content: "y\n" });
  assertEquals([...await h.bytes("bom.txt")], [0xef, 0xbb, 0xbf, 0x79, 0x0a]);
  await h.call(createTextFile, { relative_path: "run.sh", content: "#!/bin/sh\necho 2\n" });
  assertEquals(Deno.statSync(h.path("run.sh")).mode! & 0o777, 0o755);
  assertEquals(await h.read("run.sh"), "#!/bin/sh\necho 2\n");
});

Deno.test("create_text_file: counts as read for later edits", async () => {
  await using h = await toolHarness();
  await h.call(createTextFile, { relative_path: "n.txt", content: "x\n" });
  assert(h.session.reads.wasRead(h.project.resolve("n.txt").real));
});

Deno.test("create_text_file: refuses folders, ignored existing files and VCS folders", async () => {
  await using h = await toolHarness({
    "src/a.ts": "x",
    ".gitignore": "*.log\n",
    "x.log": "keep",
    ".git/HEAD": "ref: refs/heads/main\n",
  });
  await assertRejects(
    () => h.call(createTextFile, { relative_path: "src", content: "x" }),
    "is a directory",
  );
  await assertRejects(
    () => h.call(createTextFile, { relative_path: "x.log", content: "x" }),
    "ignored",
  );
  assertEquals(await h.read("x.log"), "keep");
  await assertRejects(
    () => h.call(createTextFile, { relative_path: ".git/hooks/pre-commit", content: "rm -rf ~" }),
    "'.git'",
  );
  assert(!await h.exists(".git/hooks"));
  // ...also when a symlink leads there.
  await Deno.symlink(".git", h.path("gitlink"));
  await assertRejects(
    () => h.call(createTextFile, { relative_path: "gitlink/hooks/post-merge", content: "x" }),
    "'.git'",
  );
  // A file merely named like such a folder is fine.
  assertEquals(
    await h.call(createTextFile, { relative_path: "docs/node_modules", content: "x" }),
    "File created: docs/node_modules.",
  );
  // A new ignored file is allowed (Serena only requires new files to be inside the project).
  assertEquals(
    await h.call(createTextFile, { relative_path: "new.log", content: "x" }),
    "File created: new.log.",
  );
});

// --- list_dir -----------------------------------------------------------------------------

const TREE = {
  ".gitignore": "*.log\nbuild/\n",
  "README.md": "r",
  "src/a.ts": "a",
  "src/lib/b.ts": "b",
  "src/debug.log": "d",
  "build/out.js": "o",
  "node_modules/pkg/index.js": "n",
  ".git/HEAD": "h",
};

Deno.test("list_dir: non-recursive lists the folder's own entries as JSON", async () => {
  await using h = await toolHarness(TREE);
  const answer = JSON.parse(await h.call(listDir, { relative_path: "src", recursive: false }));
  assertEquals(answer, { dirs: ["src/lib"], files: ["src/a.ts", "src/debug.log"] });
});

Deno.test("list_dir: recursive from the root, everything but .git", async () => {
  await using h = await toolHarness(TREE);
  const answer = JSON.parse(await h.call(listDir, { relative_path: ".", recursive: true }));
  assertEquals(answer.dirs, ["build", "node_modules", "node_modules/pkg", "src", "src/lib"]);
  assertEquals(answer.files, [
    ".gitignore",
    "README.md",
    "build/out.js",
    "node_modules/pkg/index.js",
    "src/a.ts",
    "src/debug.log",
    "src/lib/b.ts",
  ]);
});

Deno.test("list_dir: skip_ignored_files drops gitignored and always-ignored entries", async () => {
  await using h = await toolHarness(TREE);
  const answer = JSON.parse(
    await h.call(listDir, { relative_path: ".", recursive: true, skip_ignored_files: true }),
  );
  assertEquals(answer, {
    dirs: ["src", "src/lib"],
    files: [".gitignore", "README.md", "src/a.ts", "src/lib/b.ts"],
  });
  await assertRejects(
    () => h.call(listDir, { relative_path: "build", recursive: false, skip_ignored_files: true }),
    "ignored",
  );
});

Deno.test("list_dir: a missing folder answers Serena 2.1's JSON, not as an error", async () => {
  await using h = await toolHarness(TREE);
  const r = await h.run(listDir, { relative_path: "nope/deeper", recursive: false });
  assert(!r.isError);
  assertEquals(JSON.parse(r.text), {
    error: "Directory not found: nope/deeper (check if the path is correct relative to the " +
      "project root)",
    project_root: h.root,
  });
});

Deno.test("list_dir: a file and a path outside are errors", async () => {
  await using h = await toolHarness(TREE);
  await assertRejects(
    () => h.call(listDir, { relative_path: "README.md", recursive: false }),
    "not a directory",
  );
  await assertRejects(() => h.call(listDir, { relative_path: "..", recursive: false }), "outside");
  await assertRejects(() => h.call(listDir, { relative_path: "." }), "recursive");
});

Deno.test("list_dir: too long → directories only, then the too-long message", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) files[`d${i % 3}/file-with-a-long-name-${i}.txt`] = "";
  await using h = await toolHarness(files);
  const full = await h.call(listDir, { relative_path: ".", recursive: true });
  const shorter = await h.call(listDir, {
    relative_path: ".",
    recursive: true,
    max_answer_chars: 300,
  });
  assert(shorter.length <= 300);
  const [tooLong, note, body] = shorter.split("\n");
  assertEquals(tooLong, tooLongMessage(full.length));
  assertStringIncludes(note!, "50 files omitted");
  assertEquals(JSON.parse(body!), { dirs: ["d0", "d1", "d2"] });
  const tiny = await h.call(listDir, { relative_path: ".", recursive: true, max_answer_chars: 10 });
  assertEquals(tiny, tooLongMessage(full.length));
});

// --- find_file ----------------------------------------------------------------------------

Deno.test("find_file: matches file names by mask, recursively", async () => {
  await using h = await toolHarness(TREE);
  const find = async (args: Record<string, unknown>) =>
    JSON.parse(await h.call(findFile, args)).files;
  assertEquals(await find({ file_mask: "*.{ts,md}", relative_path: "src/lib" }), ["src/lib/b.ts"]);
  assertEquals(await find({ file_mask: "*.ts", relative_path: "." }), ["src/a.ts", "src/lib/b.ts"]);
  assertEquals(await find({ file_mask: "?.ts", relative_path: "src/lib" }), ["src/lib/b.ts"]);
  assertEquals(await find({ file_mask: "*.md", relative_path: "." }), ["README.md"]);
  assertEquals(await find({ file_mask: "README.md", relative_path: "." }), ["README.md"]);
  assertEquals(await find({ file_mask: "*.py", relative_path: "." }), []);
});

Deno.test("find_file: skip_ignored_files (Serena 2.1) is false by default", async () => {
  await using h = await toolHarness(TREE);
  const find = async (args: Record<string, unknown>) =>
    JSON.parse(await h.call(findFile, args)).files;
  // Ignored files are found unless skip_ignored_files is true; .git is never walked.
  assertEquals(await find({ file_mask: "*.log", relative_path: "." }), ["src/debug.log"]);
  assertEquals(await find({ file_mask: "*.js", relative_path: "." }), [
    "build/out.js",
    "node_modules/pkg/index.js",
  ]);
  assertEquals(await find({ file_mask: "HEAD", relative_path: "." }), []);
  const skip = { relative_path: ".", skip_ignored_files: true };
  assertEquals(await find({ file_mask: "*.log", ...skip }), []);
  assertEquals(await find({ file_mask: "*.js", ...skip }), []);
  assertEquals(await find({ file_mask: "*.ts", ...skip }), ["src/a.ts", "src/lib/b.ts"]);
});

Deno.test("find_file: mask is matched against the name only, case-sensitively", async () => {
  await using h = await toolHarness({ "src/App.tsx": "", "src/app.ts": "", "srcx.ts": "" });
  assertEquals(JSON.parse(await h.call(findFile, { file_mask: "app.*", relative_path: "." })), {
    files: ["src/app.ts"],
  });
  assertEquals(JSON.parse(await h.call(findFile, { file_mask: "src*", relative_path: "." })), {
    files: ["srcx.ts"],
  });
});

Deno.test("find_file: a missing folder is an error; an ignored one is searched in full", async () => {
  await using h = await toolHarness(TREE);
  await assertRejects(
    () => h.call(findFile, { file_mask: "*", relative_path: "nope" }),
    "No file or directory",
  );
  // Serena 2.1: the ignore rules do not apply below a folder the agent names itself.
  for (const skip_ignored_files of [false, true]) {
    assertEquals(
      JSON.parse(
        await h.call(findFile, { file_mask: "*", relative_path: "build", skip_ignored_files }),
      ),
      { files: ["build/out.js"] },
    );
  }
});

// --- max_answer_chars -------------------------------------------------------------------------

Deno.test("max_answer_chars: -1 is the default and uses the configured limit", async () => {
  await using h = await toolHarness({ "f.txt": "x".repeat(500) }, {
    projectConfig: { default_max_tool_answer_chars: 100 },
  });
  assertEquals(await h.call(readFile, { relative_path: "f.txt" }), tooLongMessage(500));
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", max_answer_chars: -1 }),
    tooLongMessage(500),
  );
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", max_answer_chars: 500 }),
    "x".repeat(500),
  );
});

Deno.test("max_answer_chars: Serena 2.1's exact too-long message", async () => {
  await using h = await toolHarness({ "f.txt": "y".repeat(42) });
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", max_answer_chars: 41 }),
    "The answer is too long (42 characters). You can adjust your query or raise the " +
      "max_answer_chars parameter.",
  );
  assertEquals(
    await h.call(readFile, { relative_path: "f.txt", max_answer_chars: 42 }),
    "y".repeat(42),
  );
});

Deno.test("max_answer_chars: 0 and negative values other than -1 are errors", async () => {
  await using h = await toolHarness({ "f.txt": "z" });
  for (const bad of [0, -5, -2, 1.5]) {
    await assertRejects(
      () => h.call(readFile, { relative_path: "f.txt", max_answer_chars: bad }),
      bad === 1.5 ? /int/ : /positive or -1/,
    );
  }
});
