/**
 * replace_content (Serena's contract) and replace_in_files (dry run ids, subsets, expected
 * counts, all-or-nothing).
 * @module
 */
import { assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { replaceContentTool, replaceInFiles } from "../../src/tools/files/replace_content.ts";
import { editTool } from "../../src/tools/files/edit.ts";
import { compilePattern, replaceContent } from "../../src/edit/replace.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

type H = Awaited<ReturnType<typeof toolHarness>>;

function replace(h: H, args: Record<string, unknown>): Promise<string> {
  return h.call(replaceContentTool, { relative_path: "f.txt", ...args });
}

// --- replace_content ----------------------------------------------------------------------

Deno.test("replace_content: literal replacement returns OK", async () => {
  await using h = await toolHarness({ "f.txt": "price: $5 (a+b)*\n" });
  assertEquals(await replace(h, { needle: "$5 (a+b)*", repl: "$!1 $& $1", mode: "literal" }), "OK");
  // Literal mode: regex characters in the needle and '$' forms in repl are plain text.
  assertEquals(await h.read("f.txt"), "price: $!1 $& $1\n");
});

Deno.test("replace_content: regex mode is DOTALL and MULTILINE", async () => {
  await using h = await toolHarness({ "f.txt": "start\nmiddle\nend\nafter\n" });
  await replace(h, { needle: "start.*?end", repl: "X", mode: "regex" });
  assertEquals(await h.read("f.txt"), "X\nafter\n");
  await replace(h, { needle: "^after$", repl: "last", mode: "regex" });
  assertEquals(await h.read("f.txt"), "X\nlast\n");
});

Deno.test("replace_content: $!1 backreferences; '\\1' and '$1' stay literal", async () => {
  await using h = await toolHarness({ "f.txt": "let a = foo(1, 2);\n" });
  await replace(h, {
    needle: "foo\\((\\d+), (\\d+)\\)",
    repl: "bar($!2, $!1) /* $1 \\1 */",
    mode: "regex",
  });
  assertEquals(await h.read("f.txt"), "let a = bar(2, 1) /* $1 \\1 */;\n");
});

Deno.test("replace_content: a backreference past the last group is an error", async () => {
  await using h = await toolHarness({ "f.txt": "abc\n" });
  await assertRejects(
    () => replace(h, { needle: "(b)", repl: "$!2", mode: "regex" }),
    "refers to group $!2, but the pattern has only 1 group(s)",
  );
  assertEquals(await h.read("f.txt"), "abc\n");
});

Deno.test("replace_content: no match is an error and changes nothing", async () => {
  await using h = await toolHarness({ "f.txt": "hello\n" });
  await assertRejects(
    () => replace(h, { needle: "bye", repl: "x", mode: "literal" }),
    "No matches of search expression found in file 'f.txt'",
  );
  await assertRejects(() => replace(h, { needle: "b.e", repl: "x", mode: "regex" }), "No matches");
  assertEquals(await h.read("f.txt"), "hello\n");
});

Deno.test("replace_content: several matches are refused with the contract's message", async () => {
  await using h = await toolHarness({ "f.txt": "a a a\n" });
  const error = await assertRejects(() => replace(h, { needle: "a", repl: "b", mode: "literal" }));
  assertEquals(
    error.message,
    "Expression matches 3 occurrences in file 'f.txt'. Please revise the expression to be more " +
      "specific or enable allow_multiple_occurrences if this is expected.",
  );
  assertEquals(await h.read("f.txt"), "a a a\n");
});

Deno.test("replace_content: allow_multiple_occurrences replaces all", async () => {
  await using h = await toolHarness({ "f.txt": "a a a\n" });
  await replace(h, { needle: "a", repl: "b", mode: "literal", allow_multiple_occurrences: true });
  assertEquals(await h.read("f.txt"), "b b b\n");
  await replace(h, {
    needle: "(b)",
    repl: "<$!1>",
    mode: "regex",
    allow_multiple_occurrences: true,
  });
  assertEquals(await h.read("f.txt"), "<b> <b> <b>\n");
});

Deno.test("replace_content: an ambiguous multi-line match is refused, nothing changes", async () => {
  const text = "begin\none\nend\nbegin\ntwo\nend\n";
  await using h = await toolHarness({ "f.txt": text });
  await assertRejects(
    () => replace(h, { needle: "begin.*end", repl: "X", mode: "regex" }),
    "ambiguous",
  );
  assertEquals(await h.read("f.txt"), text);
  // The non-greedy form is not ambiguous.
  await replace(h, {
    needle: "begin.*?end",
    repl: "X",
    mode: "regex",
    allow_multiple_occurrences: true,
  });
  assertEquals(await h.read("f.txt"), "X\nX\n");
});

Deno.test("replace_content: invalid mode, empty needle and bad regex are errors", async () => {
  await using h = await toolHarness({ "f.txt": "abc\n" });
  await assertRejects(() => replace(h, { needle: "a", repl: "b", mode: "glob" }), /mode/);
  await assertRejects(() => replace(h, { needle: "", repl: "b", mode: "literal" }));
  await assertRejects(
    () => replace(h, { needle: "(", repl: "b", mode: "regex" }),
    "Invalid regular",
  );
  assertEquals(await h.read("f.txt"), "abc\n");
});

Deno.test("replace_content: missing, ignored and outside files are errors", async () => {
  await using h = await toolHarness({ ".gitignore": "*.log\n", "x.log": "a\n" });
  await assertRejects(
    () => replace(h, { relative_path: "nope.txt", needle: "a", repl: "b", mode: "literal" }),
    "No file or directory",
  );
  await assertRejects(
    () => replace(h, { relative_path: "x.log", needle: "a", repl: "b", mode: "literal" }),
    "ignored",
  );
  await assertRejects(
    () => replace(h, { relative_path: "../f.txt", needle: "a", repl: "b", mode: "literal" }),
    "outside",
  );
  assertEquals(await h.read("x.log"), "a\n");
});

Deno.test("replace_content: works on CRLF files and keeps their endings", async () => {
  await using h = await toolHarness({ "f.txt": "one\r\ntwo\r\n" });
  await replace(h, { needle: "one\ntwo", repl: "1\n2", mode: "literal" });
  assertEquals(await h.read("f.txt"), "1\r\n2\r\n");
});

Deno.test("replace: compilePattern translates Python anchors", () => {
  assertEquals(compilePattern("\\Aab").test("ab"), true);
  assertEquals(compilePattern("\\Aab", "m").test("x\nab"), false);
  assertEquals(compilePattern("ab\\Z", "m").test("ab\nx"), false);
  assertEquals(replaceContent("x-y", "(?P<a>x)-(?P<b>y)", "$!2-$!1", "regex").text, "y-x");
  assertEquals(replaceContent("Hello", "(?i)hello", "bye", "regex").text, "bye");
  assertEquals(compilePattern("(?s)a.b").test("a\nb"), true);
});

// --- replace_in_files ------------------------------------------------------------------------

const FILES = {
  "src/a.ts": "oldName();\noldName();\n",
  "src/b.ts": "x = oldName;\n",
  "lib/c.js": "oldName\n",
  "README.md": "no match here\n",
};

async function snapshot(h: H): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of Object.keys(FILES)) out[p] = await h.read(p);
  return out;
}

Deno.test("replace_in_files: dry run (default) lists ids and changes nothing", async () => {
  await using h = await toolHarness(FILES);
  const answer = JSON.parse(
    await h.call(replaceInFiles, { needle: "oldName", repl: "newName", mode: "literal" }),
  );
  assertEquals(answer.dry_run, true);
  assertEquals(answer.count, 4);
  assertEquals(answer.files, 3);
  assertEquals(
    answer.occurrences.map((o: { id: string }) => o.id.replace(/@[0-9a-f]{8}$/, "")),
    ["lib/c.js#1", "src/a.ts#1", "src/a.ts#2", "src/b.ts#1"],
  );
  assertEquals(answer.occurrences[2], {
    id: answer.occurrences[2].id,
    line: 1,
    before: "oldName();",
    after: "newName();",
  });
  assertEquals(await snapshot(h), FILES);
});

Deno.test("replace_in_files: apply all", async () => {
  await using h = await toolHarness(FILES);
  const answer = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "oldName",
      repl: "newName",
      mode: "literal",
      dry_run: false,
    }),
  );
  assertEquals(answer, { applied: 4, files: ["lib/c.js", "src/a.ts", "src/b.ts"] });
  assertEquals(await h.read("src/a.ts"), "newName();\nnewName();\n");
  assertEquals(await h.read("lib/c.js"), "newName\n");
});

/** The dry run's ids, by their `path#n` part. */
async function dryRunIds(h: H): Promise<Record<string, string>> {
  const answer = JSON.parse(
    await h.call(replaceInFiles, { needle: "oldName", repl: "newName", mode: "literal" }),
  );
  return Object.fromEntries(
    answer.occurrences.map((o: { id: string }) => [o.id.split("@")[0], o.id]),
  );
}

Deno.test("replace_in_files: apply only the chosen occurrence ids", async () => {
  await using h = await toolHarness(FILES);
  const ids = await dryRunIds(h);
  await h.call(replaceInFiles, {
    needle: "oldName",
    repl: "newName",
    mode: "literal",
    dry_run: false,
    occurrence_ids: [ids["src/a.ts#2"]!, ids["lib/c.js#1"]!],
  });
  assertEquals(await h.read("src/a.ts"), "oldName();\nnewName();\n");
  assertEquals(await h.read("lib/c.js"), "newName\n");
  assertEquals(await h.read("src/b.ts"), "x = oldName;\n");
});

Deno.test("replace_in_files: unknown ids change nothing", async () => {
  await using h = await toolHarness(FILES);
  const ids = await dryRunIds(h);
  await assertRejects(
    () =>
      h.call(replaceInFiles, {
        needle: "oldName",
        repl: "newName",
        mode: "literal",
        dry_run: false,
        occurrence_ids: [ids["src/a.ts#1"]!, "src/a.ts#9@00000000", "src/a.ts#1"],
      }),
    "2 of the given occurrence_ids could not be resolved; nothing was changed:\n" +
      "  src/a.ts#9@00000000: the file now has fewer matches than at the dry run\n" +
      "  src/a.ts#1: malformed id (expected 'path#n@digest' as a dry run lists it)\n" +
      "Run the dry run again to get current ids.",
  );
  assertEquals(await snapshot(h), FILES);
});

Deno.test("replace_in_files (Serena 2.1): an id is refused once its file or match changed", async () => {
  await using h = await toolHarness(FILES);
  const ids = await dryRunIds(h);
  const apply = (occurrence_ids: string[]) =>
    h.call(replaceInFiles, {
      needle: "oldName",
      repl: "newName",
      mode: "literal",
      dry_run: false,
      occurrence_ids,
    });
  // An edit elsewhere in the file: same match count, the ids of that file are stale.
  await Deno.writeTextFile(h.path("src/a.ts"), "// moved\noldName();\noldName();\n");
  await assertRejects(
    () => apply([ids["src/a.ts#2"]!, ids["lib/c.js#1"]!]),
    "1 of the given occurrence_ids could not be resolved; nothing was changed:\n" +
      `  ${ids["src/a.ts#2"]}: the file or the matched text changed since the dry run\n` +
      "Run the dry run again to get current ids.",
  );
  // The match itself gone: the file has no match, or fewer than the id's number.
  await Deno.writeTextFile(h.path("src/b.ts"), "x = newName;\n");
  await assertRejects(
    () => apply([ids["src/b.ts#1"]!]),
    `  ${ids["src/b.ts#1"]}: the needle now matches nowhere in this file\n`,
  );
  await Deno.writeTextFile(h.path("src/a.ts"), "oldName();\n");
  await assertRejects(
    () => apply([ids["src/a.ts#2"]!]),
    `  ${ids["src/a.ts#2"]}: the file now has fewer matches than at the dry run\n`,
  );
  assertEquals(await h.read("lib/c.js"), "oldName\n", "nothing was changed");
  // Ids of an unchanged file still apply.
  await apply([ids["lib/c.js#1"]!]);
  assertEquals(await h.read("lib/c.js"), "newName\n");
});

Deno.test("replace_in_files: an expected_count mismatch changes nothing", async () => {
  await using h = await toolHarness(FILES);
  await assertRejects(
    () =>
      h.call(replaceInFiles, {
        needle: "oldName",
        repl: "newName",
        mode: "literal",
        dry_run: false,
        expected_count: 3,
      }),
    "Expected 3 occurrence(s) but found 4; nothing was changed",
  );
  assertEquals(await snapshot(h), FILES);
  const ok = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "oldName",
      repl: "newName",
      mode: "literal",
      dry_run: false,
      expected_count: 4,
    }),
  );
  assertEquals(ok.applied, 4);
});

Deno.test("replace_in_files: a failure in one file (ambiguous match) changes no file", async () => {
  await using h = await toolHarness({
    "a.txt": "<x>\n</x>\n",
    "b.txt": "<x>\n1\n</x>\n<x>\n2\n</x>\n",
  });
  await assertRejects(
    () => h.call(replaceInFiles, { needle: "<x>.*</x>", repl: "Y", mode: "regex", dry_run: false }),
    "ambiguous",
  );
  assertEquals(await h.read("a.txt"), "<x>\n</x>\n");
});

Deno.test("replace_in_files: scope by relative_path and globs", async () => {
  await using h = await toolHarness(FILES);
  const scoped = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "oldName",
      repl: "n",
      mode: "literal",
      relative_path: "src",
      paths_exclude_glob: "b.ts",
    }),
  );
  assertEquals(
    scoped.occurrences.map((o: { id: string }) => o.id.split("@")[0]),
    ["src/a.ts#1", "src/a.ts#2"],
  );
  const globbed = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "oldName",
      repl: "n",
      mode: "literal",
      paths_include_glob: "**/*.js",
    }),
  );
  assertEquals(globbed.count, 1);
  const oneFile = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "oldName",
      repl: "n",
      mode: "literal",
      relative_path: "src/b.ts",
    }),
  );
  assertEquals(oneFile.count, 1);
});

Deno.test("replace_in_files: no match anywhere is an error", async () => {
  await using h = await toolHarness(FILES);
  await assertRejects(
    () => h.call(replaceInFiles, { needle: "zzz", repl: "y", mode: "literal" }),
    "No matches",
  );
});

Deno.test("replace_in_files: regex with backreferences, preview shows the result", async () => {
  await using h = await toolHarness({ "v.txt": "version = 1.2\n" });
  const dry = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "(\\d+)\\.(\\d+)",
      repl: "$!1.$!2.0",
      mode: "regex",
    }),
  );
  assertEquals(dry.occurrences[0].after, "version = 1.2.0");
  await h.call(replaceInFiles, {
    needle: "(\\d+)\\.(\\d+)",
    repl: "$!1.$!2.0",
    mode: "regex",
    dry_run: false,
  });
  assertEquals(await h.read("v.txt"), "version = 1.2.0\n");
});

Deno.test("replace_in_files: a file reached through a symlink is changed once", async () => {
  await using h = await toolHarness({ "real.txt": "foo\n" });
  await Deno.symlink("real.txt", h.path("alias.txt"));
  const answer = JSON.parse(
    await h.call(replaceInFiles, {
      needle: "foo",
      repl: "foofoo",
      mode: "literal",
      dry_run: false,
    }),
  );
  assertEquals(answer.applied, 1);
  assertEquals(await h.read("real.txt"), "foofoo\n");
  assertStringIncludes(JSON.stringify(answer.files), "alias.txt");
});

Deno.test("replace_in_files: an invalid max_answer_chars is refused before anything changes", async () => {
  await using h = await toolHarness(FILES);
  await assertRejects(() =>
    h.call(replaceInFiles, {
      needle: "oldName",
      repl: "newName",
      mode: "literal",
      dry_run: false,
      max_answer_chars: 0,
    })
  );
  assertEquals(await snapshot(h), FILES);
});

Deno.test("replace_in_files: runs safely beside parallel edits of the same files", async () => {
  const body = Array.from({ length: 10 }, (_, i) => `row ${i} foo`).join("\n") + "\n";
  await using h = await toolHarness({ "a.txt": body, "b.txt": body });
  await h.call(readFile, { relative_path: "a.txt" });
  const edits = Array.from(
    { length: 10 },
    (_, i) =>
      h.run(editTool, { file_path: "a.txt", old_string: `row ${i} `, new_string: `ROW ${i} ` }),
  );
  const all = h.run(replaceInFiles, {
    needle: "foo",
    repl: "bar",
    mode: "literal",
    dry_run: false,
  });
  const results = await Promise.all([all, ...edits]);
  assertEquals(results.filter((r) => r.isError), []);
  assertEquals(
    await h.read("a.txt"),
    Array.from({ length: 10 }, (_, i) => `ROW ${i} bar`).join("\n") + "\n",
  );
  assertEquals(await h.read("b.txt"), body.replaceAll("foo", "bar"));
});
