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
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { linkTypeScript7 } from "../helpers/lsp.ts";

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
          "src/getter.ts",
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

/** The files a find_referencing_symbols answer (Serena's shape) lists, sorted. */
function answerFiles(answer: string): string[] {
  return Object.keys(JSON.parse(answer) as Record<string, unknown>).sort();
}

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name:
      `import-graph proof, cold tool calls: a top-level target and a member (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    // A cold question scans, proves and shows the candidates of the name while the target is
    // still being located (queries.ts's nameQueryAhead), as for a top-level symbol of that name.
    const cold = async (namePath: string) => {
      await using h = await toolHarness(await fixtureTree("ts_reach"));
      if (generation.typescript === 7) await linkTypeScript7(h.root);
      const answer = await h.call(findReferencingSymbols, {
        name_path: namePath,
        relative_path: TARGET.file,
      });
      const server = await h.session.services(h.project).pool.serverFor(TARGET.file);
      const open = new Set(server.openDocuments?.() ?? []);
      const notes = h.notes().join("\n");
      await disposeAndCheck(h);
      return { files: answerFiles(answer), open, notes };
    };
    await t.step("Store: the proof's files, the unrelated ones never shown", async () => {
      const { files, open, notes } = await cold("Store");
      for (
        const file of ["src/chain_user.ts", "src/getter.ts", "src/lazy.ts", "src/star_user.ts"]
      ) {
        assertEquals(files.includes(file), true, `${file} in ${files}`);
      }
      assertEquals(UNRELATED.filter((f) => open.has(f) || files.includes(f)), []);
      for (const file of UNRELATED) assertEquals(notes.includes(file), false, file);
    });
    await t.step(
      "Store/get: a member is reached through its class, not by its own name",
      async () => {
        // The proof as for a top-level `get` leaves src/getter.ts unshown (it imports `Store`
        // alone); the member's question shows it, and its reference is found.
        const { files } = await cold("Store/get");
        assertEquals(files, ["src/getter.ts"]);
      },
    );
  });
}
