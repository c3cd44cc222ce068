/**
 * The layer check (scripts/checks/check_layers.ts): how it reads deno info's module graph, what it calls
 * upward and what a cycle, and that the repository passes it.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  checkRepository,
  importCycles,
  importsOf,
  layerOf,
  moduleGraph,
  upwardImports,
} from "../../scripts/checks/check_layers.ts";

Deno.test("check_layers: imports read from deno info, type-only and dynamic ones told apart", () => {
  const root = "/repo";
  const at = (path: string, line: number) => ({
    specifier: `file://${root}/${path}`,
    span: { start: { line: line - 1 } },
  });
  const modules = [{
    specifier: "file:///repo/src/symbols/index/x.ts",
    dependencies: [
      { specifier: "../../edit/text_file.ts", code: at("src/edit/text_file.ts", 1) },
      { specifier: "../../project/project.ts", type: at("src/project/project.ts", 2) },
      // A value and a type import of one file: the value loads, so it is no type-only import.
      { specifier: "./walk.ts", code: at("src/symbols/index/walk.ts", 7), type: at("x", 3) },
      { specifier: "npm:zod@3", code: { specifier: "npm:/zod@3.0.0", span: at("x", 9).span } },
      {
        specifier: "../../tools/mod.ts",
        code: at("src/tools/mod.ts", 11),
        isDynamic: true,
      },
    ],
  }, { specifier: "npm:/zod@3.0.0", dependencies: [] }];
  const found = importsOf(root, modules).map((i) =>
    `${i.from}>${i.to}${i.typeOnly ? " type" : ""}${i.dynamic ? " dynamic" : ""}:${i.line}`
  );
  const from = "src/symbols/index/x.ts>";
  assertEquals(found, [
    `${from}src/edit/text_file.ts:1`,
    `${from}src/project/project.ts type:2`,
    `${from}src/symbols/index/walk.ts:7`,
    `${from}src/tools/mod.ts dynamic:11`,
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

Deno.test("the server started ahead loads one third-party package: vscode-jsonrpc", async () => {
  // lsp/prestart.ts spawns the project's server before the session's modules load. Through
  // deps.ts its client also initialised zod, ignore, picomatch, jsonc-parser, ... first: ~20 ms
  // before the server could start (docs/performance.md, "Session 12").
  const root = new URL("../../", import.meta.url).pathname;
  const modules = new Map((await moduleGraph(root, "src/lsp/prestart.ts")).map((m) => [
    m.specifier,
    m,
  ]));
  const loaded = new Set<string>();
  const walk = (specifier: string) => {
    if (loaded.has(specifier)) return;
    loaded.add(specifier);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) walk(dep.code.specifier);
    }
  };
  walk([...modules.keys()].find((s) => s.endsWith("/src/lsp/prestart.ts"))!);
  const ownFiles = [...loaded].filter((s) => s.startsWith("file:"));
  assert(ownFiles.some((s) => s.endsWith("/src/lsp/client.ts")), "the client is in the graph");
  const packages = [...loaded].filter((s) => s.startsWith("npm:")).map((s) =>
    s.replace(/^npm:\/?/, "").match(/^(@[^/@]+\/)?[^/@]+/)![0]
  );
  assertEquals(packages, ["vscode-jsonrpc"]);
});
