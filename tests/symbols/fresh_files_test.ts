/**
 * Answers are never stale: a file created on disk (here as a shell command or an editor would,
 * outside Sextant's tools) is part of the very next query's answer, an edited one is answered as
 * it is now (also when another program wrote it the moment before the question), and a deleted
 * one is gone from it, with no wait. Against the real servers (TypeScript 7's, typescript-language-
 * server, pyright) on copies of fixtures/typescript and fixtures/python.
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasServer, hasTypeScript7, linkTypeScript7, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree, referenceLines } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";

const TYPESCRIPT = {
  fixture: "typescript",
  target: { name_path: "Circle", relative_path: "src/shapes.ts" },
  file: "src/extra.ts",
  text: 'import { Circle } from "./shapes.ts";\n\nexport function extra(): Circle {\n' +
    "  return new Circle(2);\n}\n",
  // Each reference line: kind, containing symbol, line (0-based) and text.
  expected: [
    'File|extra|0:import { Circle } from "./shapes.ts";',
    "Function|extra|2:export function extra(): Circle {",
    "Function|extra|3:  return new Circle(2);",
  ],
};

const CASES = [
  {
    ...TYPESCRIPT,
    lang: "TypeScript 7",
    server: "tsc",
    available: hasTypeScript7(),
    typescript7: true,
  },
  { ...TYPESCRIPT, lang: "TypeScript", server: "typescript-language-server" },
  {
    lang: "Python",
    server: "pyright-langserver",
    fixture: "python",
    target: { name_path: "Circle", relative_path: "shapes/circle.py" },
    file: "extra.py",
    text: "from shapes.circle import Circle\n\n\ndef extra() -> Circle:\n    return Circle(2)\n",
    expected: [
      "File|extra|0:from shapes.circle import Circle",
      "Function|extra|3:def extra() -> Circle:",
      "Function|extra|4:    return Circle(2)",
    ],
  },
];

for (const c of CASES) {
  Deno.test({
    name: `fresh files (${c.lang}): a new file's references are in the very next answer`,
    ignore: skipUnless(
      "available" in c ? c.available === true : hasServer(c.server),
      c.server,
    ),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree(c.fixture));
    if ("typescript7" in c) await linkTypeScript7(h.root);
    // The reference lines in one file (src/tools/shared/reference_entries.ts chooses the form).
    const refsIn = async (file: string) =>
      referenceLines(await h.call(findReferencingSymbols, c.target))
        .filter((r) => r.startsWith(`${file}|`)).map((r) => r.slice(file.length + 1));
    const shifted = (lines: string[]) =>
      lines.map((r) => r.replace(/\|(\d+):/, (_, n) => `|${Number(n) + 1}:`));

    await t.step("created outside Sextant: listed at once", async () => {
      assertEquals(await refsIn(c.file), []);
      await Deno.writeTextFile(h.path(c.file), c.text);
      assertEquals(await refsIn(c.file), c.expected);
    });

    await t.step("edited outside Sextant between two warm calls: answered fresh", async () => {
      // Warm: the file read once, then taken from memory on the change feed's word.
      await refsIn(c.file);
      await refsIn(c.file);
      await Deno.writeTextFile(h.path(c.file), "\n" + c.text);
      assertEquals(await refsIn(c.file), shifted(c.expected).sort());
    });

    await t.step("edited by another program right before a warm question: seen", async () => {
      await refsIn(c.file);
      await refsIn(c.file);
      // A process of its own writes, and the question comes the moment it has exited.
      const text = "\n\n" + c.text;
      const out = await new Deno.Command("sh", {
        args: ["-c", 'printf "%s" "$1" > "$2"', "sh", text, h.path(c.file)],
      }).output();
      assertEquals(out.success, true);
      const twice = (lines: string[]) => shifted(shifted(lines));
      assertEquals(await refsIn(c.file), twice(c.expected).sort());
    });

    await t.step("a containing symbol renamed in place: named anew", async () => {
      // The server lists the same positions: only the file's text tells the answer changed.
      await refsIn(c.file);
      const renamed = (text: string) => text.replace(/(function|def) extra/, "$1 extro");
      await Deno.writeTextFile(h.path(c.file), "\n\n" + renamed(c.text));
      const expected = shifted(shifted(c.expected)).map((line) =>
        renamed(line.replace(/^Function\|extra\|/, "Function|extro|"))
      );
      assertEquals(await refsIn(c.file), expected.sort());
    });

    await t.step("deleted outside Sextant: gone at once", async () => {
      await Deno.remove(h.path(c.file));
      assertEquals(await refsIn(c.file), []);
    });

    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}
