/**
 * Answers are never stale: a file created on disk (here as a shell command or an editor would,
 * outside Sextant's tools) is part of the very next query's answer, an edited one is answered as
 * it is now, and a deleted one is gone from it, with no wait. Against the real servers (typescript-language-server, pyright) on copies of
 * fixtures/typescript and fixtures/python.
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";

type Json = Record<string, unknown>;
type Entry = {
  body_location: { start_line: number; end_line: number };
  content_around_reference: string;
};

const CASES = [
  {
    lang: "TypeScript",
    server: "typescript-language-server",
    fixture: "typescript",
    target: { name_path: "Circle", relative_path: "src/shapes.ts" },
    file: "src/extra.ts",
    text: 'import { Circle } from "./shapes.ts";\n\nexport function extra(): Circle {\n' +
      "  return new Circle(2);\n}\n",
    expected: {
      File: [{
        name_path: "extra",
        body_location: { start_line: 0, end_line: 6 },
        content_around_reference: '  >   0:import { Circle } from "./shapes.ts";\n...   1:',
      }],
      Function: [{
        name_path: "extra",
        body_location: { start_line: 2, end_line: 4 },
        content_around_reference: "...   1:\n  >   2:export function extra(): Circle {\n" +
          "...   3:  return new Circle(2);",
      }, {
        name_path: "extra",
        body_location: { start_line: 2, end_line: 4 },
        content_around_reference: "...   2:export function extra(): Circle {\n" +
          "  >   3:  return new Circle(2);\n...   4:}",
      }],
    },
  },
  {
    lang: "Python",
    server: "pyright-langserver",
    fixture: "python",
    target: { name_path: "Circle", relative_path: "shapes/circle.py" },
    file: "extra.py",
    text: "from shapes.circle import Circle\n\n\ndef extra() -> Circle:\n    return Circle(2)\n",
    expected: {
      File: [{
        name_path: "extra",
        body_location: { start_line: 0, end_line: 6 },
        content_around_reference: "  >   0:from shapes.circle import Circle\n...   1:",
      }],
      Function: [{
        name_path: "extra",
        body_location: { start_line: 3, end_line: 4 },
        content_around_reference: "...   2:\n  >   3:def extra() -> Circle:\n" +
          "...   4:    return Circle(2)",
      }, {
        name_path: "extra",
        body_location: { start_line: 3, end_line: 4 },
        content_around_reference: "...   3:def extra() -> Circle:\n" +
          "  >   4:    return Circle(2)\n...   5:",
      }],
    },
  },
];

for (const c of CASES) {
  Deno.test({
    name: `fresh files (${c.lang}): a new file's references are in the very next answer`,
    ignore: skipUnless(hasServer(c.server), c.server),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree(c.fixture));
    const refsIn = async (file: string) =>
      (JSON.parse(await h.call(findReferencingSymbols, c.target)) as Record<string, Json>)[file];

    await t.step("created outside Sextant: listed at once", async () => {
      assertEquals(await refsIn(c.file), undefined);
      await Deno.writeTextFile(h.path(c.file), c.text);
      assertEquals(await refsIn(c.file), c.expected);
    });

    await t.step("edited outside Sextant between two warm calls: answered fresh", async () => {
      // Warm: the file read once, then taken from memory on the change feed's word.
      await refsIn(c.file);
      await refsIn(c.file);
      await Deno.writeTextFile(h.path(c.file), "\n" + c.text);
      const after = await refsIn(c.file) as Record<string, Entry[]>;
      const expected = c.expected as Record<string, Entry[]>;
      const marked = (entries: Entry[]) =>
        entries.map((e) => Number(/ {2}>\s+(\d+):/.exec(e.content_around_reference)![1]));
      for (const [kind, entries] of Object.entries(expected)) {
        assertEquals(
          after[kind]?.map((e) => e.body_location.end_line),
          entries.map((e) => e.body_location.end_line + 1),
          kind,
        );
        assertEquals(marked(after[kind] ?? []), marked(entries).map((n) => n + 1), kind);
      }
    });

    await t.step("deleted outside Sextant: gone at once", async () => {
      await Deno.remove(h.path(c.file));
      assertEquals(await refsIn(c.file), undefined);
    });

    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}
