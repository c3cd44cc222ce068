/**
 * search_for_pattern against Serena's contract: output format, context lines, globs and their
 * precedence, relative_path scoping, code-file restriction, errors, binary files, limiting.
 * @module
 */
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { globMatcher, searchForPattern } from "../../src/tools/files/search_for_pattern.ts";
import { tooLongMessage } from "../../src/tools/limit.ts";
import { formatMatch } from "../../src/tools/shared/matches.ts";
import { fixtureTree } from "../helpers/symbols.ts";

const PROJECT = {
  ".gitignore": "dist/\n",
  "src/app.ts": "import x from './x';\nconst TODO = 1;\n// TODO: fix\nexport {};\n",
  "src/util/helpers.ts": "// TODO one\n// nothing\n// TODO two\n",
  "src/view.tsx": "// TODO tsx\n",
  "lib/legacy.js": "// TODO js\n",
  "docs/notes.md": "TODO: write docs\n",
  "dist/bundle.js": "// TODO built\n",
  "node_modules/dep/index.js": "// TODO dep\n",
};

async function search(
  h: Awaited<ReturnType<typeof toolHarness>>,
  args: Record<string, unknown>,
): Promise<Record<string, string[]>> {
  return JSON.parse(await h.call(searchForPattern, args));
}

Deno.test("search: JSON {path: [match]} with '  >' and 0-based line numbers", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, { substring_pattern: "TODO: fix" });
  assertEquals(result, { "src/app.ts": ["  >   2:// TODO: fix"] });
});

Deno.test("search: every match is listed; files in sorted order", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, { substring_pattern: "TODO" });
  assertEquals(Object.keys(result), [
    "docs/notes.md",
    "lib/legacy.js",
    "src/app.ts",
    "src/util/helpers.ts",
    "src/view.tsx",
  ]);
  assertEquals(result["src/util/helpers.ts"], ["  >   0:// TODO one", "  >   2:// TODO two"]);
  assertEquals(result["src/app.ts"], ["  >   1:const TODO = 1;", "  >   2:// TODO: fix"]);
});

Deno.test("search: ignored files and always-ignored folders are not searched", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, { substring_pattern: "TODO (built|dep)" });
  assertEquals(result, {});
});

Deno.test("search: context lines before and after are marked '...'", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, {
    substring_pattern: "TODO: fix",
    context_lines_before: 1,
    context_lines_after: 5,
  });
  assertEquals(result["src/app.ts"], [
    "...   1:const TODO = 1;\n  >   2:// TODO: fix\n...   3:export {};\n...   4:",
  ]);
});

Deno.test("search: a multi-line match marks every matched line (DOTALL)", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, { substring_pattern: "TODO one.*TODO two" });
  assertEquals(result["src/util/helpers.ts"], [
    "  >   0:// TODO one\n  >   1:// nothing\n  >   2:// TODO two",
  ]);
});

Deno.test("search: MULTILINE anchors and Python named groups work", async () => {
  await using h = await toolHarness(PROJECT);
  const anchored = await search(h, { substring_pattern: "^export" });
  assertEquals(anchored, { "src/app.ts": ["  >   3:export {};"] });
  const named = await search(h, { substring_pattern: "(?P<kw>const) (?P=kw)?TODO" });
  assertEquals(Object.keys(named), ["src/app.ts"]);
});

Deno.test("search: a leading Python inline flag (?i) makes the search case-insensitive", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, { substring_pattern: "(?i)write DOCS" });
  assertEquals(result, { "docs/notes.md": ["  >   0:TODO: write docs"] });
});

Deno.test("search: include glob without '/' matches the file name anywhere", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, { substring_pattern: "TODO", paths_include_glob: "*.ts" });
  assertEquals(Object.keys(result), ["src/app.ts", "src/util/helpers.ts"]);
});

Deno.test("search: '**' and '{a,b}' globs", async () => {
  await using h = await toolHarness(PROJECT);
  const deep = await search(h, { substring_pattern: "TODO", paths_include_glob: "src/**/*.ts" });
  assertEquals(Object.keys(deep), ["src/app.ts", "src/util/helpers.ts"]);
  const braces = await search(h, {
    substring_pattern: "TODO",
    paths_include_glob: "**/*.{tsx,js}",
  });
  assertEquals(Object.keys(braces), ["lib/legacy.js", "src/view.tsx"]);
  const oneLevel = await search(h, { substring_pattern: "TODO", paths_include_glob: "src/*.ts" });
  assertEquals(Object.keys(oneLevel), ["src/app.ts"]);
});

Deno.test("search: the exclude glob takes precedence over the include glob", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, {
    substring_pattern: "TODO",
    paths_include_glob: "src/**",
    paths_exclude_glob: "**/util/**",
  });
  assertEquals(Object.keys(result), ["src/app.ts", "src/view.tsx"]);
  const both = await search(h, {
    substring_pattern: "TODO",
    paths_include_glob: "*.ts",
    paths_exclude_glob: "*.ts",
  });
  assertEquals(both, {});
});

Deno.test("search: relative_path restricts to a folder or a single file", async () => {
  await using h = await toolHarness(PROJECT);
  const folder = await search(h, { substring_pattern: "TODO", relative_path: "src/util" });
  assertEquals(Object.keys(folder), ["src/util/helpers.ts"]);
  const file = await search(h, { substring_pattern: "TODO", relative_path: "docs/notes.md" });
  assertEquals(file, { "docs/notes.md": ["  >   0:TODO: write docs"] });
  // A path is not a prefix: 'src/app' does not name 'src/app.ts'.
  await assertRejects(
    () => search(h, { substring_pattern: "TODO", relative_path: "src/app" }),
    "does not exist",
  );
});

Deno.test("search: restrict_search_to_code_files skips non-code files", async () => {
  await using h = await toolHarness(PROJECT);
  const result = await search(h, {
    substring_pattern: "TODO",
    restrict_search_to_code_files: true,
  });
  assert(!("docs/notes.md" in result));
  assert("src/app.ts" in result && "lib/legacy.js" in result);
});

Deno.test("search: a non-existent or outside relative_path is an error", async () => {
  await using h = await toolHarness(PROJECT);
  await assertRejects(
    () => search(h, { substring_pattern: "x", relative_path: "nope" }),
    "Relative path 'nope' does not exist.",
  );
  await assertRejects(
    () => search(h, { substring_pattern: "x", relative_path: "../" }),
    "outside the project root",
  );
  await assertRejects(
    () => search(h, { substring_pattern: "x", relative_path: "dist" }),
    "ignored",
  );
  // With skip_ignored_files=false an ignored folder is searched, as Serena 2.1 searches it.
  assertEquals(
    await h.call(searchForPattern, {
      substring_pattern: "TODO",
      relative_path: "dist",
      skip_ignored_files: false,
    }),
    '{"dist/bundle.js":["  >   0:// TODO built"]}',
  );
});

Deno.test("search: an invalid regex is a clear error", async () => {
  await using h = await toolHarness(PROJECT);
  await assertRejects(
    () => search(h, { substring_pattern: "(unclosed" }),
    "Invalid regular expression",
  );
});

Deno.test("search: binary files are skipped, CRLF files are searched per line", async () => {
  await using h = await toolHarness({
    "bin/blob.dat": new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]),
    "win.txt": "first\r\nTODO here\r\nlast\r\n",
  });
  assertEquals(await search(h, { substring_pattern: "TODO" }), {
    "win.txt": ["  >   1:TODO here"],
  });
  // Line ends are seen as \n, so a pattern spanning lines matches a CRLF file too.
  assertEquals(await search(h, { substring_pattern: "here\nlast$" }), {
    "win.txt": ["  >   1:TODO here\n  >   2:last"],
  });
});

Deno.test("search: non-UTF-8 files in the project encoding are searched", async () => {
  await using h = await toolHarness({ "l1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) }, {
    projectConfig: { encoding: "latin1" },
  });
  assertEquals(await search(h, { substring_pattern: "café" }), { "l1.txt": ["  >   0:café"] });
});

Deno.test("search too long: Serena's five stages, each after its 'too long' line", async () => {
  // The Python fixture's 'radius' matches, as Serena 2.1 lists them (its stages' headers and
  // shapes; its JSON has spaces after ',' and ':', ours none).
  await using h = await toolHarness(await fixtureTree("python"));
  const args = { substring_pattern: "radius" };
  const full = await h.call(searchForPattern, args);
  assertEquals(JSON.parse(full), {
    "broken.py": [
      "  >   6:def radius_of(circle: Circle) -> float:",
      "  >   7:    return circle.radius",
    ],
    "shapes/circle.py": [
      '  >   7:    """A circle with a radius."""',
      "  >  11:    def __init__(self, radius: float) -> None:",
      "  >  12:        self.radius = radius",
      "  >  12:        self.radius = radius",
      "  >  15:        return math.pi * self.radius * self.radius",
      "  >  15:        return math.pi * self.radius * self.radius",
    ],
  });
  const tooLong = tooLongMessage(full.length);
  const lines = `${tooLong}\n` +
    "Matched lines per file; use read_file with the line numbers for surrounding context:\n" +
    '{"broken.py":[{"line":6,"text":"def radius_of(circle: Circle) -> float:"},' +
    '{"line":7,"text":"return circle.radius"}],"shapes/circle.py":[' +
    '{"line":7,"text":"\\"\\"\\"A circle with a radius.\\"\\"\\""},' +
    '{"line":11,"text":"def __init__(self, radius: float) -> None:"},' +
    '{"line":12,"text":"self.radius = radius"},{"line":12,"text":"self.radius = radius"},' +
    '{"line":15,"text":"return math.pi * self.radius * self.radius"},' +
    '{"line":15,"text":"return math.pi * self.radius * self.radius"}]}';
  const numbers = `${tooLong}\nMatch lines per file:\n` +
    '{"broken.py":[6,7],"shapes/circle.py":[7,11,12,12,15,15]}';
  const counts = `${tooLong}\nMatch counts per file:\n{"broken.py":2,"shapes/circle.py":6}`;
  const summary = `${tooLong}\nFound 8 matches in 2 files.`;
  const at = (max: number) => h.call(searchForPattern, { ...args, max_answer_chars: max });
  assertEquals(await at(full.length), full);
  // As Serena at 420 of its 437: the first stages are longer than the answer itself here.
  assertEquals(await at(full.length - 1), numbers);
  assertEquals(await at(numbers.length - 1), counts);
  assertEquals(await at(counts.length - 1), summary);
  assertEquals(await at(summary.length - 1), tooLong);
  // With context lines the answer grows, and the first stage (first matched lines) fits.
  const withContext = { ...args, context_lines_after: 3 };
  const long = await h.call(searchForPattern, withContext);
  assertEquals(
    await h.call(searchForPattern, { ...withContext, max_answer_chars: long.length - 1 }),
    lines.replace(tooLong, tooLongMessage(long.length)),
  );
});

Deno.test("search too long: lines over 60 characters are cut in the second stage", async () => {
  const long = "needle " + "x".repeat(300);
  const files: Record<string, string> = {};
  for (let i = 0; i < 4; i++) files[`f${i}.txt`] = `${long}\n`.repeat(3);
  await using h = await toolHarness(files);
  const full = await h.call(searchForPattern, { substring_pattern: "needle" });
  const cut = `${long.slice(0, 60)}...`;
  const entries = (n: number) =>
    Array.from({ length: n }, () => ({ line: 0, text: cut })).map((e, i) => ({ ...e, line: i }));
  const expected = `${tooLongMessage(full.length)}\n` +
    "Matched lines (text over 60 chars is truncated, marked with a trailing '...'); use " +
    "read_file with the line numbers for full content:\n" +
    JSON.stringify(Object.fromEntries([0, 1, 2, 3].map((i) => [`f${i}.txt`, entries(3)])));
  assertEquals(
    await h.call(searchForPattern, {
      substring_pattern: "needle",
      max_answer_chars: expected.length,
    }),
    expected,
  );
});

Deno.test("search: unit helpers (formatMatch, globMatcher)", () => {
  assertEquals(formatMatch(["a", "b", "c"], 1, 1, 5, 5), "...   0:a\n  >   1:b\n...   2:c");
  assert(globMatcher("*.py")("deep/dir/x.py"));
  assert(globMatcher("./src/*.py")("src/x.py"));
  assert(!globMatcher("src/*.py")("src/a/x.py"));
  assert(globMatcher("**/.hidden/*")("a/.hidden/x"));
});

Deno.test("search: Serena 1.7 skip_ignored_files and multiline; invalid regex wording", async () => {
  await using h = await toolHarness(PROJECT);
  assertEquals(
    await h.call(searchForPattern, { substring_pattern: "TODO built" }),
    "{}",
  );
  assertEquals(
    await h.call(searchForPattern, { substring_pattern: "TODO built", skip_ignored_files: false }),
    '{"dist/bundle.js":["  >   0:// TODO built"]}',
  );
  // multiline (default): '.' crosses lines and '^' anchors every line.
  assertEquals(
    await h.call(searchForPattern, {
      substring_pattern: "^// TODO one.*two",
      relative_path: "src/util",
    }),
    '{"src/util/helpers.ts":["  >   0:// TODO one\\n  >   1:// nothing\\n  >   2:// TODO two"]}',
  );
  assertEquals(
    await h.call(searchForPattern, {
      substring_pattern: "^// TODO one.*two",
      relative_path: "src/util",
      multiline: false,
    }),
    "{}",
  );
  assertEquals(
    await h.call(searchForPattern, {
      substring_pattern: "^// TODO two",
      relative_path: "src/util",
      multiline: false,
    }),
    "{}",
  );
  const bad = await h.run(searchForPattern, { substring_pattern: "([a-z" });
  assertEquals(bad, {
    isError: true,
    text: "Invalid regular expression '([a-z': Unterminated character class",
  });
});
