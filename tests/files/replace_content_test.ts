/**
 * replace_content (Serena's contract) and replace_in_files (dry run ids, subsets, expected
 * counts, all-or-nothing).
 * @module
 */
import { assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";
import { replaceInFiles } from "../../src/tools/files/replace_in_files.ts";
import { editTool } from "../../src/tools/files/edit.ts";
import { compilePattern, replaceContent } from "../../src/edit/replace.ts";
import { readFile } from "../../src/tools/files/read_file.ts";
import { fixtureTree } from "../helpers/symbols.ts";

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

/** Serena 2.1's dry run on the Python fixture (needle 'radius', repl 'r'), byte for byte. */
const SERENA_DRY_RUN = "Found 8 occurrence(s) in 2 file(s). DRY RUN - no changes were applied.\n" +
  "Re-issue with dry_run=False to replace all of them, or additionally pass occurrence_ids with the ids of the occurrences to replace.\n" +
  "\n" +
  "broken.py (2 occurrence(s)):\n" +
  "  [broken.py:0@f214d05ea28dd87a] line 6\n" +
  "    - def radius_of(circle: Circle) -> float:\n" +
  "    + def r_of(circle: Circle) -> float:\n" +
  "  [broken.py:1@afe81f4532a7fc36] line 7\n" +
  "    -     return circle.radius\n" +
  "    +     return circle.r\n" +
  "\n" +
  "shapes/circle.py (6 occurrence(s)):\n" +
  "  [shapes/circle.py:0@a7bcbd6c12cfc11b] line 7\n" +
  '    -     """A circle with a radius."""\n' +
  '    +     """A circle with a r."""\n' +
  "  [shapes/circle.py:1@2ef6550f02dc5cf6] line 11\n" +
  "    -     def __init__(self, radius: float) -> None:\n" +
  "    +     def __init__(self, r: float) -> None:\n" +
  "  [shapes/circle.py:2@d8330e71483d0c92] line 12\n" +
  "    -         self.radius = radius\n" +
  "    +         self.r = radius\n" +
  "  [shapes/circle.py:3@f6a9d0e745d375f2] line 12\n" +
  "    -         self.radius = radius\n" +
  "    +         self.radius = r\n" +
  "  [shapes/circle.py:4@583b4702ca615582] line 15\n" +
  "    -         return math.pi * self.radius * self.radius\n" +
  "    +         return math.pi * self.r * self.radius\n" +
  "  [shapes/circle.py:5@be11726098ddd9b0] line 15\n" +
  "    -         return math.pi * self.radius * self.radius\n" +
  "    +         return math.pi * self.radius * self.r";

/** The same at max_answer_chars 500: Serena's per-file counts stage (its JSON has spaces). */
const SERENA_DRY_RUN_500 =
  "The answer is too long (1304 characters). You can adjust your query or raise the max_answer_chars parameter.\n" +
  "Found 8 occurrence(s) in 2 file(s). DRY RUN - no changes were applied.\n" +
  "Re-issue with dry_run=False to replace all of them, or additionally pass occurrence_ids with the ids of the occurrences to replace.\n" +
  "Occurrence counts per file:\n" +
  '{"broken.py":2,"shapes/circle.py":6}';

Deno.test("replace_in_files: Serena 2.1's listing, ids and messages on the Python fixture", async () => {
  const tree = await fixtureTree("python");
  await using h = await toolHarness(tree);
  const radius = { needle: "radius", repl: "r", mode: "literal" };
  assertEquals(await h.call(replaceInFiles, { ...radius, dry_run: true }), SERENA_DRY_RUN);
  assertEquals(
    await h.call(replaceInFiles, { ...radius, dry_run: true, max_answer_chars: 500 }),
    SERENA_DRY_RUN_500,
  );
  assertEquals(await h.run(replaceInFiles, { ...radius, needle: "nomatchhere" }), {
    isError: true,
    text: "No occurrences of the pattern were found - NO changes were applied. Check the mode " +
      "(a literal needle containing regex metacharacters must use mode 'literal'; wildcards " +
      "require mode 'regex') and the path/glob restrictions, or locate the content with " +
      "search_for_pattern first.",
  });
  assertEquals(
    await h.run(replaceInFiles, { ...radius, expected_count: 2, max_answer_chars: 400 }),
    {
      isError: true,
      text: "expected_count=2, but the pattern matches 8 occurrence(s) - NO changes were " +
        "applied. Review the prospective changes below; re-issue with the corrected " +
        "expectation, a refined pattern, or occurrence_ids selecting the intended subset.\n" +
        "The answer is too long (1137 characters). You can adjust your query or raise the " +
        "max_answer_chars parameter.\nFound 8 occurrence(s) in 2 file(s).\n" +
        'Occurrence counts per file:\n{"broken.py":2,"shapes/circle.py":6}',
    },
  );
  assertEquals(
    await h.run(replaceInFiles, {
      ...radius,
      occurrence_ids: ["broken.py:0@0000000000000000", "x"],
    }),
    {
      isError: true,
      text: "2 of the given occurrence_ids could not be resolved - NO changes were applied:\n" +
        "  broken.py:0@0000000000000000: the file content or matched range changed since the " +
        "dry run\n  x: malformed id (expected '<path>:<index>@<digest>' as returned by a dry " +
        "run)\nRe-run with dry_run=True to obtain current occurrence ids.",
    },
  );
  assertEquals(
    await h.read("broken.py"),
    new TextDecoder().decode(tree["broken.py"] as Uint8Array),
  );
});

const FILES = {
  "src/a.ts": "oldName();\noldName();\n",
  "src/b.ts": "x = oldName;\n",
  "lib/c.js": "oldName\n",
  "README.md": "no match here\n",
};
const OLD_NEW = { needle: "oldName", repl: "newName", mode: "literal" };

async function snapshot(h: H): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of Object.keys(FILES)) out[p] = await h.read(p);
  return out;
}

/** The dry run's occurrence ids, by their `path:index` part. */
async function dryRunIds(
  h: H,
  args: Record<string, unknown> = OLD_NEW,
): Promise<Record<string, string>> {
  const listing = await h.call(replaceInFiles, { ...args, dry_run: true });
  const ids = [...listing.matchAll(/^ {2}\[(\S+)\]/gm)].map((m) => m[1]!);
  return Object.fromEntries(ids.map((id) => [id.split("@")[0]!, id]));
}

Deno.test("replace_in_files: a dry run lists each change and changes nothing", async () => {
  await using h = await toolHarness(FILES);
  const listing = await h.call(replaceInFiles, { ...OLD_NEW, dry_run: true });
  assertEquals(
    listing.replace(/@[0-9a-f]{16}/g, "@…"),
    "Found 4 occurrence(s) in 3 file(s). DRY RUN - no changes were applied.\n" +
      "Re-issue with dry_run=False to replace all of them, or additionally pass occurrence_ids " +
      "with the ids of the occurrences to replace.\n\n" +
      "lib/c.js (1 occurrence(s)):\n  [lib/c.js:0@…] line 0\n    - oldName\n    + newName\n\n" +
      "src/a.ts (2 occurrence(s)):\n  [src/a.ts:0@…] line 0\n    - oldName();\n    + newName();\n" +
      "  [src/a.ts:1@…] line 1\n    - oldName();\n    + newName();\n\n" +
      "src/b.ts (1 occurrence(s)):\n  [src/b.ts:0@…] line 0\n    - x = oldName;\n    + x = newName;",
  );
  assertEquals(await snapshot(h), FILES);
});

Deno.test("replace_in_files: without dry_run (Serena's default) every occurrence is replaced", async () => {
  await using h = await toolHarness(FILES);
  assertEquals(
    await h.call(replaceInFiles, OLD_NEW),
    "Replaced 4 occurrence(s) in 3 file(s):\n  lib/c.js: 1\n  src/a.ts: 2\n  src/b.ts: 1",
  );
  assertEquals(await h.read("src/a.ts"), "newName();\nnewName();\n");
  assertEquals(await h.read("lib/c.js"), "newName\n");
});

Deno.test("replace_in_files: apply only the chosen occurrence ids", async () => {
  await using h = await toolHarness(FILES);
  const ids = await dryRunIds(h);
  assertEquals(
    await h.call(replaceInFiles, {
      ...OLD_NEW,
      occurrence_ids: [ids["src/a.ts:1"]!, ids["lib/c.js:0"]!],
    }),
    "Replaced 2 occurrence(s) in 2 file(s):\n  src/a.ts: 1\n  lib/c.js: 1",
  );
  assertEquals(await h.read("src/a.ts"), "oldName();\nnewName();\n");
  assertEquals(await h.read("lib/c.js"), "newName\n");
  assertEquals(await h.read("src/b.ts"), "x = oldName;\n");
  await assertRejects(
    () => h.call(replaceInFiles, { ...OLD_NEW, occurrence_ids: [] }),
    "occurrence_ids is empty - pass at least one id from a dry run, or omit the parameter to " +
      "replace all.",
  );
});

Deno.test("replace_in_files (Serena 2.1): an id is refused once its file or match changed", async () => {
  await using h = await toolHarness(FILES);
  const ids = await dryRunIds(h);
  const apply = (occurrence_ids: string[]) =>
    h.call(replaceInFiles, { ...OLD_NEW, occurrence_ids });
  const refused = (lines: string[]) =>
    `${lines.length} of the given occurrence_ids could not be resolved - NO changes were ` +
    `applied:\n${lines.map((l) => `  ${l}`).join("\n")}\n` +
    "Re-run with dry_run=True to obtain current occurrence ids.";
  // An edit elsewhere in the file: same match count, the ids of that file are stale.
  await Deno.writeTextFile(h.path("src/a.ts"), "// moved\noldName();\noldName();\n");
  await assertRejects(
    () => apply([ids["src/a.ts:1"]!, ids["lib/c.js:0"]!]),
    refused([`${ids["src/a.ts:1"]}: the file content or matched range changed since the dry run`]),
  );
  // The match itself gone: the file has no match, or fewer than the id's index.
  await Deno.writeTextFile(h.path("src/b.ts"), "x = newName;\n");
  await assertRejects(
    () => apply([ids["src/b.ts:0"]!]),
    refused([`${ids["src/b.ts:0"]}: the pattern currently has no matches in this file`]),
  );
  await Deno.writeTextFile(h.path("src/a.ts"), "oldName();\n");
  await assertRejects(
    () => apply([ids["src/a.ts:1"]!]),
    refused([
      `${ids["src/a.ts:1"]}: the file now has fewer matches than at dry-run time (content changed)`,
    ]),
  );
  assertEquals(await h.read("lib/c.js"), "oldName\n", "nothing was changed");
  // Ids of an unchanged file still apply.
  await apply([ids["lib/c.js:0"]!]);
  assertEquals(await h.read("lib/c.js"), "newName\n");
});

Deno.test("replace_in_files: an expected_count mismatch changes nothing and lists the changes", async () => {
  await using h = await toolHarness(FILES);
  const wrong = await h.run(replaceInFiles, { ...OLD_NEW, expected_count: 3 });
  assertEquals(wrong.isError, true);
  assertStringIncludes(
    wrong.text,
    "expected_count=3, but the pattern matches 4 occurrence(s) - NO changes were applied.",
  );
  assertStringIncludes(wrong.text, "\nFound 4 occurrence(s) in 3 file(s).\n\nlib/c.js (1 ");
  assertEquals(await snapshot(h), FILES);
  assertStringIncludes(
    await h.call(replaceInFiles, { ...OLD_NEW, expected_count: 4 }),
    "Replaced 4 occurrence(s) in 3 file(s)",
  );
});

Deno.test("replace_in_files: an ambiguous multi-line match is flagged, refused blind, allowed by id", async () => {
  const files = { "a.txt": "<x>\n</x>\n", "b.txt": "<x>\n1\n</x>\n<x>\n2\n</x>\n" };
  await using h = await toolHarness(files);
  const greedy = { needle: "<x>.*</x>", repl: "Y", mode: "regex" };
  const listing = await h.call(replaceInFiles, { ...greedy, dry_run: true });
  assertStringIncludes(
    listing,
    "] lines 0-5  (WARNING: the pattern matches again inside this match — possible " +
      "over-match, verify the diff)\n    - <x>\n    - 1\n    - </x>\n    - <x>\n    - 2\n" +
      "    - </x>\n    + Y",
  );
  const blind = await h.run(replaceInFiles, greedy);
  assertEquals(blind.isError, true);
  assertStringIncludes(
    blind.text,
    "1 occurrence(s) are ambiguous (the pattern matches again inside the matched text, " +
      "indicating possible over-matching) - NO changes were applied.",
  );
  assertEquals(await h.read("a.txt"), files["a.txt"]);
  const ids = await dryRunIds(h, greedy);
  await h.call(replaceInFiles, { ...greedy, occurrence_ids: [ids["a.txt:0"]!] });
  assertEquals(await h.read("a.txt"), "Y\n");
});

Deno.test("replace_in_files: scope by relative_path and globs", async () => {
  await using h = await toolHarness(FILES);
  const header = async (args: Record<string, unknown>) =>
    (await h.call(replaceInFiles, { ...OLD_NEW, dry_run: true, ...args })).split(" DRY")[0];
  assertEquals(
    Object.keys(
      await dryRunIds(h, { ...OLD_NEW, relative_path: "src", paths_exclude_glob: "b.ts" }),
    ),
    ["src/a.ts:0", "src/a.ts:1"],
  );
  assertEquals(
    await header({ paths_include_glob: "**/*.js" }),
    "Found 1 occurrence(s) in 1 file(s).",
  );
  assertEquals(await header({ relative_path: "src/b.ts" }), "Found 1 occurrence(s) in 1 file(s).");
  assertEquals(await header({ needle: "zzz" }), "Found 0 occurrence(s) in 0 file(s).");
});

Deno.test("replace_in_files: regex with backreferences, the preview shows the result", async () => {
  await using h = await toolHarness({ "v.txt": "version = 1.2\n" });
  const bump = { needle: "(\\d+)\\.(\\d+)", repl: "$!1.$!2.0", mode: "regex" };
  assertStringIncludes(
    await h.call(replaceInFiles, { ...bump, dry_run: true }),
    "] line 0\n    - version = 1.2\n    + version = 1.2.0",
  );
  await h.call(replaceInFiles, bump);
  assertEquals(await h.read("v.txt"), "version = 1.2.0\n");
});

Deno.test("replace_in_files: a file reached through a symlink is changed once", async () => {
  await using h = await toolHarness({ "real.txt": "foo\n" });
  await Deno.symlink("real.txt", h.path("alias.txt"));
  assertEquals(
    await h.call(replaceInFiles, { needle: "foo", repl: "foofoo", mode: "literal" }),
    "Replaced 1 occurrence(s) in 1 file(s):\n  alias.txt: 1",
  );
  assertEquals(await h.read("real.txt"), "foofoo\n");
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
