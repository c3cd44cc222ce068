import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { importReach, type ModuleFacts, moduleFacts, type ReachQuestion } from "./import_reach.ts";

/** A question over a project given as texts; bare specifiers lead outside unless listed. */
function question(
  target: string,
  texts: Record<string, string>,
  inside: readonly string[] = [],
): ReachQuestion {
  const facts = new Map<string, ModuleFacts>();
  for (const [path, text] of Object.entries(texts)) {
    if (/\.[cm]?[jt]sx?$/.test(path)) facts.set(path, moduleFacts(path, text));
  }
  return {
    target,
    files: Object.keys(texts),
    facts: (rel) => facts.get(rel) ?? null,
    bare: (_importer, spec) => inside.includes(spec) ? "maybe-inside" : "outside",
  };
}

function reaching(q: ReachQuestion): string[] {
  const reach = importReach(q);
  assert(reach.decided, reach.decided ? "" : reach.reason);
  return [...reach.reaching].sort();
}

Deno.test("moduleFacts: every way a file names a module", () => {
  const facts = moduleFacts(
    "a.ts",
    [
      'import { A } from "./a1";',
      'import "./a2";',
      'export * from "./a3";',
      'export * as ns from "./a4";',
      'import * as b from "./a5";',
      'const c = await import("./a6");',
      'import d = require("./a7");',
      "/** @type {import('./a8').T} */",
      "/** @import { U } from './a9' */",
      'type V = typeof import("./a10");',
      "import {",
      "  W,",
      '} from "./a11";',
    ].join("\n"),
  );
  assertEquals(
    facts.specs.sort(),
    ["./a1", "./a10", "./a11", "./a2", "./a3", "./a4", "./a5", "./a6", "./a7", "./a8", "./a9"]
      .sort(),
  );
  assertEquals(facts.dynamic, false);
  assertEquals(facts.module, true);
  assertEquals(facts.global, false);
});

Deno.test("moduleFacts: dynamic specifiers, scripts, globals", () => {
  assertEquals(moduleFacts("a.ts", "export const x = import(name);").dynamic, true);
  assertEquals(moduleFacts("a.js", "const m = require(`./${n}`);").dynamic, true);
  assertEquals(moduleFacts("a.js", "const m = require(`./x`);").specs, ["./x"]);
  // A script: its declarations are global.
  assertEquals(moduleFacts("a.ts", "class A {}\nconst b = 1;").module, false);
  assertEquals(moduleFacts("a.ts", "// export class A {}\nclass A {}").module, false);
  assertEquals(moduleFacts("a.ts", "const s = `\nexport const x = 1`;").module, false);
  // `import A = N.B` inside a script is no import of a module.
  assertEquals(moduleFacts("a.ts", "import A = N.B;\nlet a: A;").module, false);
  // Exports inside a namespace of a script.
  assertEquals(moduleFacts("a.ts", "namespace N {\n  export class A {}\n}").module, false);
  assertEquals(moduleFacts("a.ts", "export namespace N {\n  export class A {}\n}").module, true);
  // CommonJS in JavaScript is a module.
  assertEquals(moduleFacts("a.js", "module.exports = { a: 1 };").module, true);
  assertEquals(moduleFacts("a.cjs", 'const x = require("./x");').module, true);
  assertEquals(moduleFacts("a.ts", "export {};\ndeclare global { var g: number }").global, true);
  assertEquals(moduleFacts("a.d.ts", "export as namespace Lib;\nexport {};").global, true);
  const augmenting = moduleFacts("a.d.ts", 'declare module "./b" { }\nexport {};');
  assertEquals([augmenting.specs, augmenting.ambient, augmenting.global], [
    ["./b"],
    ["./b"],
    false,
  ]);
});

Deno.test("importReach: import chains of every kind reach the target, the others do not", () => {
  const q = question("src/store.ts", {
    "src/store.ts": "export class Store {}",
    "src/index.ts": 'export * from "./store";',
    "src/star.ts": 'import { Store } from "./index";',
    "src/ns.ts": 'import * as lib from ".";',
    "src/reexport.ts": 'export { Store } from "./store.js";',
    "src/chain.ts": 'import { Store } from "./reexport";',
    "src/lazy.ts": 'export const m = () => import("./store");',
    "src/cjs.js": 'const { Store } = require("./store");',
    "src/type.ts": 'export type S = import("../src/store").Store;',
    "src/other/store.ts": "export class Store {}",
    "src/other/user.ts": 'import { Store } from "./store";',
    "src/pkg.ts": 'import { Store } from "vuex";\nimport "./style.css";',
    "src/style.css": "",
    "legacy.js": "function Store() {}",
  });
  assertEquals(reaching(q), [
    "src/chain.ts",
    "src/cjs.js",
    "src/index.ts",
    "src/lazy.ts",
    "src/ns.ts",
    "src/reexport.ts",
    "src/star.ts",
    "src/store.ts",
    "src/type.ts",
  ]);
});

Deno.test("importReach: what the graph cannot resolve may reach the target", () => {
  const texts = {
    "src/store.ts": "export class Store {}",
    "src/alias.ts": 'import { Store } from "@app/store";',
    "src/dynamic.ts": "export const m = (n: string) => import(n);",
    "src/missing.ts": 'import { Store } from "./generated/store";',
    "src/above.ts": 'import { Store } from "../../elsewhere";',
    "src/user.ts": 'import "./alias";',
    "src/unrelated.ts": 'import { Store } from "vuex";',
    // A component of another language may import anything.
    "src/Widget.vue": '<script>import { Store } from "./store";</script>',
    "src/uses_widget.ts": 'import Widget from "./Widget.vue";',
  };
  assertEquals(reaching(question("src/store.ts", texts, ["@app/store"])), [
    "src/above.ts",
    "src/alias.ts",
    "src/dynamic.ts",
    "src/missing.ts",
    "src/store.ts",
    "src/user.ts",
    "src/uses_widget.ts",
  ]);
});

Deno.test("importReach: undecided where declarations may be global", () => {
  const decided = (target: string, texts: Record<string, string>) =>
    importReach(question(target, texts)).decided;
  assertEquals(decided("a.ts", { "a.ts": "class A {}", "b.ts": "new A();" }), false);
  assertEquals(decided("a.ts", { "a.ts": "export class A {}\ndeclare global {}" }), false);
  // A script that reaches the target may hand its types to every file through its globals.
  assertEquals(
    decided("a.ts", {
      "a.ts": "export class A {}",
      "g.ts": 'declare var a: import("./a").A;',
      "b.ts": "export const x = a;",
    }),
    false,
  );
  // A script that does not reach it changes nothing.
  assertEquals(
    decided("a.ts", { "a.ts": "export class A {}", "g.ts": "declare var A: number;" }),
    true,
  );
});

Deno.test("importReach: a declared or augmented module leads its importers to what it declares", () => {
  const texts = {
    "src/a.ts": "export class A {}",
    // An ambient module holding the target's type, and a file importing it by that name.
    "types/lib.d.ts": 'declare module "lib" { export type T = import("../src/a").A; }',
    "src/uses_lib.ts": 'import type { T } from "lib";',
    // A project module augmented with the target's type, and its importer.
    "src/plain.ts": "export interface Plain {}",
    "src/augment.ts":
      'import { A } from "./a";\ndeclare module "./plain" { interface Plain { a: A } }',
    "src/uses_plain.ts": 'import type { Plain } from "./plain";',
    // A pattern.
    "types/css.d.ts":
      'import { A } from "../src/a";\ndeclare module "*.css" { const a: A; export default a; }',
    "src/uses_css.ts": 'import styles from "theme.css";',
    "src/unrelated.ts": 'import { B } from "other-lib";',
  };
  const reach = importReach(question("src/a.ts", texts));
  // types/lib.d.ts is a script (global ambient modules): undecided, as scripts on a path are.
  assertEquals(reach.decided, false);
  const modular = { ...texts, "types/lib.d.ts": `export {};\n${texts["types/lib.d.ts"]}` };
  assertEquals(reaching(question("src/a.ts", modular)), [
    "src/a.ts",
    "src/augment.ts",
    "src/plain.ts",
    "src/uses_css.ts",
    "src/uses_lib.ts",
    "src/uses_plain.ts",
    "types/css.d.ts",
    "types/lib.d.ts",
  ]);
});
