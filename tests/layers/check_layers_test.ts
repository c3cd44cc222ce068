/**
 * The layer check (scripts/check_layers.ts): how it reads import lines, what it calls upward and
 * what a cycle, and that the repository passes it.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  checkRepository,
  importCycles,
  importsOf,
  layerOf,
  upwardImports,
} from "../../scripts/check_layers.ts";

Deno.test("check_layers: import lines, type-only and dynamic imports", () => {
  const text = [
    'import { a } from "../edit/text_file.ts";',
    'import type { Project } from "../project/project.ts";',
    "import {",
    "  type Found,",
    "  type Rule,",
    '} from "./rules/core.ts";',
    'import { type Node, walk } from "./walk.ts";',
    'export { grammarFor } from "./grammars.ts";',
    'import "./side_effect.ts";',
    'import { z } from "npm:zod@3";',
    'const mod = await import("../tools/mod.ts");',
  ].join("\n");
  const found = importsOf("src/symbols/index/x.ts", text).map((i) =>
    `${i.to}${i.typeOnly ? " type" : ""}${i.dynamic ? " dynamic" : ""}:${i.line}`
  );
  assertEquals(found, [
    "src/symbols/edit/text_file.ts:1",
    "src/symbols/project/project.ts type:2",
    "src/symbols/index/rules/core.ts type:3",
    "src/symbols/index/walk.ts:7",
    "src/symbols/index/grammars.ts:8",
    "src/symbols/index/side_effect.ts:9",
    "src/symbols/tools/mod.ts dynamic:11",
  ]);
});

Deno.test("check_layers: an import up the table is named, one down or across is not", () => {
  assert(layerOf("src/edit/text_file.ts") > layerOf("src/project/project.ts"));
  assert(layerOf("src/symbols/lookup.ts") < layerOf("src/symbols/index/mod.ts"));
  assert(layerOf("src/symbols/index/mod.ts") < layerOf("src/symbols/model.ts"));
  // The session sits below its tools, and the prompts between them.
  assert(layerOf("src/tools/tool.ts") < layerOf("src/prompts/system.ts"));
  assert(layerOf("src/prompts/system.ts") < layerOf("src/session/session.ts"));
  const imports = [
    { from: "src/edit/x.ts", to: "src/project/project.ts", line: 3, typeOnly: true },
    { from: "src/project/project.ts", to: "src/edit/text_file.ts", line: 4, typeOnly: false },
    { from: "src/tools/tool.ts", to: "src/session/session.ts", line: 5, typeOnly: true },
    { from: "src/symbols/lookup.ts", to: "src/lsp/pool.ts", line: 6, typeOnly: false },
    { from: "src/session/session.ts", to: "src/tools/tool.ts", line: 7, typeOnly: true },
  ].map((i) => ({ ...i, dynamic: false }));
  const upward = upwardImports(imports);
  assertEquals(upward.length, 2, upward.join("\n"));
  assert(upward[0]!.startsWith("src/edit/x.ts:3 imports src/project/project.ts"), upward[0]);
  assert(upward[1]!.startsWith("src/session/session.ts:7 imports src/tools/tool.ts"), upward[1]);
  // lsp/ knows nothing of symbols, not even of the model.
  assertEquals(
    upwardImports([{ ...imports[3]!, from: "src/lsp/pool.ts", to: "src/symbols/model.ts" }]).length,
    1,
  );
  assertEquals(
    upwardImports([{ ...imports[0]!, from: "src/new_folder/x.ts" }]),
    ["src/new_folder/x.ts is in no layer (add it to LAYERS)"],
  );
});

Deno.test("check_layers: files that import each other are a cycle, types too; dynamic imports not", () => {
  const edge = (from: string, to: string, typeOnly = false, dynamic = false) => ({
    from,
    to,
    line: 1,
    typeOnly,
    dynamic,
  });
  assertEquals(
    importCycles([edge("a.ts", "b.ts"), edge("b.ts", "c.ts"), edge("c.ts", "a.ts")]),
    [["a.ts", "b.ts", "c.ts"]],
  );
  // Naming each other's types is one concept split in two: a cycle though nothing loads.
  assertEquals(importCycles([edge("a.ts", "b.ts"), edge("b.ts", "a.ts", true)]), [[
    "a.ts",
    "b.ts",
  ]]);
  assertEquals(importCycles([edge("a.ts", "b.ts"), edge("b.ts", "a.ts", false, true)]), []);
});

Deno.test("check_layers: the repository has no upward import and no import cycle", async () => {
  const root = new URL("../../", import.meta.url).pathname;
  const { files, upward, cycles } = await checkRepository(root);
  assert(files > 100, `${files} modules read`);
  assertEquals(upward, []);
  assertEquals(cycles, []);
});
