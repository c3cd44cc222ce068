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
import { hasTypeScriptGeneration, skipUnless, TS_GENERATIONS } from "../helpers/lsp.ts";
import { proofKeepsEveryReference } from "../helpers/import_proof.ts";

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
    await proofKeepsEveryReference({
      fixture: "ts_reach_names",
      name: "Model",
      target: TARGET,
      referring: REFERRING,
      unrelated: UNRELATED,
      // Only the module object handed on in a value is named: the server leads its `Model` to
      // the target but leaves it out of references. Named, so the proof kept the file.
      unexplained: ["src/holder_user.ts:3 missed"],
    }, generation.typescript);
  });
}
