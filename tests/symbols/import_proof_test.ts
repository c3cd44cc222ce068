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
import {
  hasTypeScriptGeneration,
  linkTypeScript7,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { referencesShownEverything } from "../helpers/import_proof.ts";
import { findReferencesChecked } from "../../src/symbols/queries.ts";
import { parseNamePath } from "../../src/symbols/name_path.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
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
    const expected = await referencesShownEverything("ts_reach", TARGET, generation.typescript);
    // Every way in is among the server's own answer (the fixture is what it claims to be).
    for (
      const file of [
        "src/chain_user.ts",
        "src/lazy.ts",
        "src/namespace_user.ts",
        "src/require_user.ts",
        "src/star_user.ts",
        "src/type_only.ts",
      ]
    ) {
      assertEquals(expected.some((key) => key.startsWith(`${file}:`)), true, file);
    }
    for (const file of UNRELATED) {
      assertEquals(expected.some((key) => key.startsWith(`${file}:`)), false, file);
    }

    await using h = await toolHarness(await fixtureTree("ts_reach"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const services = h.session.services(h.project);
    const index = services.symbols;
    for (const when of ["cold", "warm"]) {
      const target = await index.resolveUnique(parseNamePath("Store"), TARGET.file);
      const checked = await findReferencesChecked(index, target);
      const keys = checked.hits
        .map((hit) => `${hit.relPath}:${hit.position.line}:${hit.position.character}`)
        .sort();
      assertEquals(keys, expected, `${when}: the server's own answer when shown every file`);
      // Only the CommonJS file is named: the server resolves its `Store` to the target but
      // leaves it out of references in JavaScript. Named, so the `require` kept it in the graph.
      assertEquals(
        checked.notAnalysed.map((n) => `${n.relPath}:${n.line} ${n.kind}`),
        ["src/commonjs.js:3 missed"],
        `${when}: what is left unexplained`,
      );
      const server = await services.pool.serverFor(TARGET.file);
      const open = new Set(server.openDocuments?.() ?? []);
      assertEquals(UNRELATED.filter((f) => open.has(f)), [], `${when}: unrelated files shown`);
      index.startDeclarations(); // the warm question runs on the declaration index
      await index.declarations?.ready();
    }
    // The tool's answer and its notes name no unrelated file.
    const answer = await h.call(findReferencingSymbols, {
      name_path: "Store",
      relative_path: TARGET.file,
    });
    const told = [answer, ...h.notes()].join("\n");
    for (const file of UNRELATED) assertEquals(told.includes(file), false, file);
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
    await disposeAndCheck(h);
  });
}
