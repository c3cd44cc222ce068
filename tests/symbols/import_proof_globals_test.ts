/**
 * The import-graph proof beside declarations that reach other files without an import: a
 * `declare global` block and a module augmentation (src/symbols/import_reach.ts, ModuleFacts
 * `globalsCarry` and `quietAugments`), with the real TypeScript servers, on
 * fixtures/ts_reach_globals. The blocks name `Model` in types only: they refer to it but hand
 * nothing on, so the files using the globals or importing the augmented module, which hold a
 * `Model` of their own, are never shown to the server (the proof could not decide there before:
 * every candidate was shown), and Sextant's references equal the server's own answer when it is
 * shown every file, cold and warm. A use of an import the server does not resolve is named, not
 * taken for another symbol.
 * @module
 */
import { hasTypeScriptGeneration, skipUnless, TS_GENERATIONS } from "../helpers/lsp.ts";
import { proofKeepsEveryReference } from "../helpers/import_proof.ts";

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `import-graph proof: globals and augmentations that hand nothing on ` +
      `(${generation.name})`,
    ignore: skipUnless(
      hasTypeScriptGeneration(generation.typescript),
      generation.name,
    ),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await proofKeepsEveryReference({
      fixture: "ts_reach_globals",
      name: "Model",
      target: { file: "src/model.ts", line: 1, character: 13 },
      referring: ["src/augment.ts", "src/user.ts"],
      unrelated: ["src/global_user.ts", "src/registry_user.ts"],
      // A `Model` imported from a module that does not exist: TypeScript 7 leads it to the import
      // (typescript-language-server to nothing), which is no answer about the class.
      unexplained: ["src/broken.ts:2 unresolved"],
    }, generation.typescript);
  });
}
