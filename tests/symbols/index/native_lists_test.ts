/**
 * What the TypeScript 7 agreement check leaves out of the index's tree (scripts/checks/index_agreement.ts
 * `asNativeTypeScriptLists`): exactly the properties TypeScript 7 merges into a same-named class,
 * function or variable of their list (or an import at the top level), with their children moved
 * there, and nothing else.
 */
import { assertEquals } from "../../helpers/assert.ts";
import {
  asNativeTypeScriptLists,
  topLevelAliases,
} from "../../../scripts/checks/index_agreement.ts";
import { parseFile } from "../../../src/symbols/index/parser.ts";
import { fromCompact, namePathOf, walkSymbols } from "../../../src/symbols/model.ts";

async function listed(text: string): Promise<{ tsserver: string[]; native: string[] }> {
  const roots = fromCompact((await parseFile(text, "typescript")).symbols, "a.ts");
  const lines = (nodes: typeof roots) =>
    [...walkSymbols(nodes)].map((n) => `${namePathOf(n)}:${n.kind}`);
  return { tsserver: lines(roots), native: lines(asNativeTypeScriptLists(roots, text)) };
}

Deno.test("the TypeScript 7 view drops merged properties only, moving their children", async () => {
  const { tsserver, native } = await listed([
    'import { imported } from "./b";',
    "const a = 1;",
    "function f() {}",
    "class C {}",
    "type T = number;",
    "interface I {}",
    "f({ a, b: 1, f: () => { const inner = 1; }, C, T, I, imported });",
    "f({ a() {}, get C() { return 1; } });",
    "",
  ].join("\n"));
  // tsserver lists every member of both object literals at the top level.
  // tsserver lists every member of both object literals at the top level.
  assertEquals(tsserver.filter((l) => /^a\[\d\]:/.test(l)).length, 3);
  assertEquals(tsserver.length, 15);
  assertEquals(native, [
    "a[0]:14",
    "f:12",
    "f/inner:14", // the merged property's children, moved into the function
    "C:5", // and the accessor `get C()` merged into the class
    "T:13",
    "I[0]:11",
    "b:7", // no declaration of that name
    "I[1]:7", // an interface takes no merge
    "a[1]:6", // a method is no property
  ]);
});

Deno.test("the names a file imports and exports by specifier", () => {
  const names = topLevelAliases([
    'import def, { one, two as deux, type three } from "./b";',
    'import * as ns from "./b";',
    'import fs = require("fs");',
    "// import { commented } from './c';",
    "export { local as exported };",
    'export * from "./d";',
  ].join("\n"));
  assertEquals([...names].sort(), ["def", "deux", "exported", "fs", "ns", "one", "three"]);
});
