/**
 * The import-graph proof (src/symbols/import_reach.ts) with the real TypeScript servers, on
 * fixtures/ts_reach: a project without a tsconfig (the server builds one inferred program from
 * the files it is shown) whose files reach `Store` through `export *`, `import * as` of a folder,
 * a re-export chain, a dynamic `import()`, an import type and `require`, beside files that
 * mention `Store` with no import path to its module (another `Store`, a local one, a library's,
 * a script's global one).
 *
 * Sextant's references equal the server's own answer when it is shown every file; the files
 * with no import path are never shown to the server and leave nothing unexplained, cold and warm.
 * The CommonJS file (`require`) stays in the graph: its `Store`, which the server leads to the
 * target but leaves out of references in JavaScript, is named "not analysed" as before.
 * @module
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasTypeScriptGeneration, skipUnless, TS_GENERATIONS } from "../helpers/lsp.ts";
import { proofKeepsEveryReference } from "../helpers/import_proof.ts";
import { findReferences } from "../../src/tools/ide/find_references.ts";

const TARGET = { file: "src/store.ts", line: 1, character: 13 };

/** Files that mention `Store` with no import path to src/store.ts. */
const UNRELATED = [
  "scripts/legacy.js",
  "src/from_package.ts",
  "src/local.ts",
  "src/other/store.ts",
  "src/other/user.ts",
];

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name:
      `import-graph proof: every reference kept, unrelated files not shown (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await proofKeepsEveryReference(
      {
        fixture: "ts_reach",
        name: "Store",
        target: TARGET,
        referring: [
          "src/chain_user.ts",
          "src/lazy.ts",
          "src/namespace_user.ts",
          "src/require_user.ts",
          "src/star_user.ts",
          "src/type_only.ts",
        ],
        unrelated: UNRELATED,
        // Only the CommonJS file is named: the server resolves its `Store` to the target but
        // leaves it out of references in JavaScript. Named, so the `require` kept it in the graph.
        unexplained: ["src/commonjs.js:3 missed"],
      },
      generation.typescript,
      async (h, expected) => {
        // find_references by position: the same files, none of the unrelated ones.
        const positional = JSON.parse(
          await h.call(findReferences, {
            relative_path: TARGET.file,
            line: TARGET.line + 1,
            column: TARGET.character + 1,
            include_declaration: false,
          }),
        ) as { references: Array<{ file: string; line: number; column: number }> };
        assertEquals(
          positional.references.map((r) => `${r.file}:${r.line - 1}:${r.column - 1}`).sort(),
          expected,
        );
      },
    );
  });
}
