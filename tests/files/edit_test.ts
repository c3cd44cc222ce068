/**
 * The `edit` tool: single and multi mode, never mixed; expected_replacements; the
 * file must have been read; all edits checked before anything is written; a diff in the result.
 * @module
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { applyEdits, editTool } from "../../src/tools/files/edit.ts";
import { createTextFile } from "../../src/tools/files/create_text_file.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

const SRC = 'const VERSION = "1.0.0";\nlet debug = false;\nlet debug2 = false;\n';
type H = Awaited<ReturnType<typeof toolHarness>>;

async function ready(files: Record<string, string> = { "c.ts": SRC }): Promise<H> {
  const h = await toolHarness(files);
  try {
    for (const p of Object.keys(files)) await h.call(readFile, { relative_path: p });
  } catch (error) {
    await h[Symbol.asyncDispose]();
    throw error;
  }
  return h;
}

Deno.test("edit: single edit replaces and answers with a unified diff", async () => {
  await using h = await ready();
  const answer = await h.call(editTool, {
    file_path: "c.ts",
    old_string: '"1.0.0"',
    new_string: '"1.1.0"',
  });
  assertEquals(
    answer,
    "Applied 1 edit(s) to c.ts (1 replacement(s)).\n" +
      "--- a/c.ts\n+++ b/c.ts\n@@ -1,3 +1,3 @@\n" +
      '-const VERSION = "1.0.0";\n+const VERSION = "1.1.0";\n let debug = false;\n let debug2 = false;',
  );
  assertEquals(await h.read("c.ts"), SRC.replace("1.0.0", "1.1.0"));
});

Deno.test("edit: multi edits apply in order, each seeing the previous result", async () => {
  await using h = await ready();
  const answer = await h.call(editTool, {
    file_path: "c.ts",
    edits: [
      { old_string: "1.0.0", new_string: "1.1.0" },
      { old_string: "= false", new_string: "= true", expected_replacements: 2 },
      { old_string: "debug2 = true", new_string: "verbose = true" },
    ],
  });
  assertStringIncludes(answer, "Applied 3 edit(s) to c.ts (4 replacement(s)).");
  assertEquals(
    await h.read("c.ts"),
    'const VERSION = "1.1.0";\nlet debug = true;\nlet verbose = true;\n',
  );
});

Deno.test("edit: a failing second edit leaves the file untouched", async () => {
  await using h = await ready();
  await assertRejects(
    () =>
      h.call(editTool, {
        file_path: "c.ts",
        edits: [
          { old_string: "1.0.0", new_string: "2.0.0" },
          { old_string: "not there", new_string: "x" },
        ],
      }),
    "Edit 2 of 2: old_string was not found in 'c.ts' (after the previous edits were applied)",
  );
  assertEquals(await h.read("c.ts"), SRC);
  assertEquals((await h.listAll()).length, 1, "no temporary files");
});

Deno.test("edit: expected_replacements must match the occurrence count", async () => {
  await using h = await ready();
  await assertRejects(
    () => h.call(editTool, { file_path: "c.ts", old_string: "= false", new_string: "= true" }),
    "expected 1 replacement(s) but old_string occurs 2 time(s) in 'c.ts'",
  );
  await assertRejects(
    () =>
      h.call(editTool, {
        file_path: "c.ts",
        old_string: "= false",
        new_string: "= true",
        expected_replacements: 3,
      }),
    "expected 3 replacement(s) but old_string occurs 2 time(s)",
  );
  assertEquals(await h.read("c.ts"), SRC);
  await h.call(editTool, {
    file_path: "c.ts",
    old_string: "= false",
    new_string: "= true",
    expected_replacements: 2,
  });
  assertEquals(await h.read("c.ts"), SRC.replaceAll("= false", "= true"));
});

Deno.test("edit: mixing single and multi parameters is refused", async () => {
  await using h = await ready();
  for (
    const extra of [
      { old_string: "1.0.0", new_string: "x" },
      { old_string: "1.0.0" },
      { expected_replacements: 1 },
    ]
  ) {
    await assertRejects(
      () =>
        h.call(editTool, {
          file_path: "c.ts",
          edits: [{ old_string: "debug", new_string: "trace", expected_replacements: 2 }],
          ...extra,
        }),
      "Cannot mix single edit parameters",
    );
  }
  assertEquals(await h.read("c.ts"), SRC);
});

Deno.test("edit: neither mode, half a single edit, or an empty edits array is refused", async () => {
  await using h = await ready();
  await assertRejects(() => h.call(editTool, { file_path: "c.ts" }), "Must provide either");
  await assertRejects(
    () => h.call(editTool, { file_path: "c.ts", old_string: "x" }),
    "Must provide either",
  );
  await assertRejects(
    () => h.call(editTool, { file_path: "c.ts", edits: [] }),
    "edits array is empty",
  );
  await assertRejects(
    () =>
      h.call(editTool, {
        file_path: "c.ts",
        edits: [{ old_string: "a", new_string: "b", bogus: 1 }],
      }),
  );
});

Deno.test("edit: the file must have been read in this session", async () => {
  await using h = await toolHarness({ "c.ts": SRC });
  await assertRejects(
    () => h.call(editTool, { file_path: "c.ts", old_string: "1.0.0", new_string: "2" }),
    "File 'c.ts' has not been read in this session",
  );
  assertEquals(await h.read("c.ts"), SRC);
  // A partial read counts; so does creating the file.
  await h.call(readFile, { relative_path: "c.ts", start_line: 2, end_line: 2 });
  await h.call(editTool, { file_path: "c.ts", old_string: "1.0.0", new_string: "2" });
  await h.call(createTextFile, { relative_path: "n.ts", content: "a\n" });
  await h.call(editTool, { file_path: "n.ts", old_string: "a", new_string: "b" });
  assertEquals(await h.read("n.ts"), "b\n");
});

Deno.test("edit: the read is tracked by real path (./x, absolute and x are one file)", async () => {
  await using h = await toolHarness({ "c.ts": SRC });
  await h.call(readFile, { relative_path: "./c.ts" });
  await h.call(editTool, { file_path: h.path("c.ts"), old_string: "1.0.0", new_string: "3" });
  assertStringIncludes(await h.read("c.ts"), '"3"');
});

Deno.test("edit: empty or identical old/new strings are refused", async () => {
  await using h = await ready();
  await assertRejects(
    () => h.call(editTool, { file_path: "c.ts", old_string: "", new_string: "x" }),
    "old_string is empty",
  );
  await assertRejects(
    () => h.call(editTool, { file_path: "c.ts", old_string: "debug", new_string: "debug" }),
    "identical",
  );
});

Deno.test("edit: special replacement characters are literal", async () => {
  await using h = await ready({ "s.txt": "a.b\n" });
  await h.call(editTool, { file_path: "s.txt", old_string: "a.b", new_string: "$& $1 $$" });
  assertEquals(await h.read("s.txt"), "$& $1 $$\n");
});

Deno.test("edit: missing, ignored and outside files are refused", async () => {
  await using h = await toolHarness({ ".gitignore": "*.log\n", "x.log": "a\n" });
  await assertRejects(
    () => h.call(editTool, { file_path: "nope.ts", old_string: "a", new_string: "b" }),
    "No file or directory",
  );
  await assertRejects(
    () => h.call(editTool, { file_path: "x.log", old_string: "a", new_string: "b" }),
    "ignored",
  );
  await assertRejects(
    () => h.call(editTool, { file_path: "../x.log", old_string: "a", new_string: "b" }),
    "outside",
  );
});

Deno.test("edit: applyEdits is pure and names the failing edit", () => {
  assertEquals(
    applyEdits("a b c", [
      { old_string: "a", new_string: "b", expected_replacements: 1 },
      { old_string: "b", new_string: "z", expected_replacements: 2 },
    ], "f"),
    "z z c",
  );
  try {
    applyEdits("x", [{ old_string: "y", new_string: "z", expected_replacements: 1 }], "f");
    assert(false, "should throw");
  } catch (error) {
    assertStringIncludes((error as Error).message, "The edit: old_string was not found in 'f'");
  }
});

Deno.test("edit: concurrent edits of one file are serialized, none is lost", async () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
  await using h = await ready({ "many.txt": lines.join("\n") + "\n" });
  const results = await Promise.all(
    lines.map((line, i) =>
      h.run(editTool, { file_path: "many.txt", old_string: `${line}\n`, new_string: `L${i}\n` })
    ),
  );
  assertEquals(results.filter((r) => r.isError), []);
  assertEquals(await h.read("many.txt"), lines.map((_, i) => `L${i}\n`).join(""));
});
