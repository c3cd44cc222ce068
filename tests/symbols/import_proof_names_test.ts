/**
 * The import-graph proof by name (src/symbols/import_reach.ts, `reachOf` with the symbol's name)
 * with the real TypeScript servers, on fixtures/ts_reach_names: a project without a tsconfig
 * whose files reach `Model` through a re-export under another name and back, `export *`,
 * `import * as`, a dynamic `import()` and the module object handed on in a value, beside files
 * that import the module, its index or a user of `Model` for other names only and hold a `Model`
 * of their own, and one that loads a module by a computed name.
 *
 * Sextant's references equal the server's own answer when it is shown every file, cold and warm;
 * the files that take no binding to `Model` are never shown to the server. The file reaching it
 * through the module object in a value (src/holder_user.ts), which the server leads to the
 * target but leaves out of references, stays in the graph and is named "not analysed".
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

const TARGET = { file: "src/model.ts", line: 1, character: 13 };

/** Files that mention `Model` and take no binding to the class. */
const UNRELATED = [
  "src/computed.ts",
  "src/other_index.ts",
  "src/other_names.ts",
  "src/service_user.ts",
];

/** Every way in: each holds a reference in the server's own answer. */
const REFERRING = [
  "src/back.ts",
  "src/back_user.ts",
  "src/barrel.ts",
  "src/lazy.ts",
  "src/namespace_user.ts",
  "src/service.ts",
  "src/star_user.ts",
];

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `import-graph proof by name: every reference kept, files taking other names not shown ` +
      `(${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    const expected = await referencesShownEverything(
      "ts_reach_names",
      TARGET,
      generation.typescript,
    );
    // The fixture is what it claims to be: every way in is among the server's own answer, and
    // no unrelated file is.
    for (const file of REFERRING) {
      assertEquals(expected.some((key) => key.startsWith(`${file}:`)), true, file);
    }
    for (const file of UNRELATED) {
      assertEquals(expected.some((key) => key.startsWith(`${file}:`)), false, file);
    }

    await using h = await toolHarness(await fixtureTree("ts_reach_names"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const services = h.session.services(h.project);
    const index = services.symbols;
    for (const when of ["cold", "warm"]) {
      const target = await index.resolveUnique(parseNamePath("Model"), TARGET.file);
      const checked = await findReferencesChecked(index, target);
      const keys = checked.hits
        .map((hit) => `${hit.relPath}:${hit.position.line}:${hit.position.character}`)
        .sort();
      assertEquals(keys, expected, `${when}: the server's own answer when shown every file`);
      // Only the module object handed on in a value is named: the server leads its `Model` to
      // the target but leaves it out of references. Named, so the proof kept the file.
      assertEquals(
        checked.notAnalysed.map((n) => `${n.relPath}:${n.line} ${n.kind}`),
        ["src/holder_user.ts:3 missed"],
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
      name_path: "Model",
      relative_path: TARGET.file,
    });
    const told = [answer, ...h.notes()].join("\n");
    for (const file of UNRELATED) assertEquals(told.includes(file), false, file);
    await disposeAndCheck(h);
  });
}
