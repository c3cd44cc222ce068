/**
 * get_diagnostics_for_file as the very first call on a freshly started server waits until the
 * server has loaded the project (engine rule 1) and returns the file's type error, never `{}`:
 * typescript-language-server, pyright and rust-analyzer (which reports nothing until its first
 * quiescent `experimental/serverStatus`).
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { getDiagnosticsForFile } from "../../src/tools/ide/get_diagnostics_for_file.ts";

const range = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});

const CASES = [
  {
    lang: "TypeScript",
    available: hasServer("typescript-language-server"),
    fixture: "typescript",
    file: "src/broken.ts",
    expected: {
      "src/broken.ts": {
        Error: {
          count: [{
            message: "Type 'string' is not assignable to type 'number'.",
            range: range(3, 13, 18),
            code: 2322,
            source: "typescript",
          }],
        },
      },
    },
  },
  {
    lang: "Python",
    available: hasServer("pyright-langserver"),
    fixture: "python",
    file: "broken.py",
    expected: {
      "broken.py": {
        Error: {
          // pyright's symbol `count` has a name-only range, so the error is the file's, as
          // Serena groups it.
          "<file>": [{
            message: 'Type "Literal[\'three\']" is not assignable to declared type "int"\n' +
              // pyright indents with no-break spaces.
              '\u00a0\u00a0"Literal[\'three\']" is not assignable to "int"',
            range: range(3, 13, 20),
            code: "reportAssignmentType",
            source: "Pyright",
          }],
        },
      },
    },
  },
  {
    lang: "Rust",
    available: hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]),
    fixture: "rust/broken",
    file: "src/shapes.rs",
    expected: {
      "src/shapes.rs": {
        Error: {
          area: [{
            message: "expected u32, found &'static str",
            range: range(7, 21, 27),
            code: "E0308",
            source: "rust-analyzer",
          }],
        },
      },
    },
  },
];

for (const c of CASES) {
  Deno.test({
    name: `get_diagnostics_for_file (${c.lang}): the first call on a cold server has the error`,
    ignore: skipUnless(c.available, c.lang),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using h = await toolHarness(await fixtureTree(c.fixture));
    try {
      const answer = await h.call(getDiagnosticsForFile, { relative_path: c.file });
      assertEquals(JSON.parse(answer), c.expected);
    } finally {
      await h.session.dispose();
    }
  });
}
