import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { posix } from "node:path";
import {
  importReach,
  joinRelative,
  type ModuleFacts,
  moduleFacts,
  type ReachQuestion,
} from "./import_reach.ts";

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

Deno.test("moduleFacts: each form is found where its first word is, however it is written", () => {
  // Words inside other words are no forms; spaces and line breaks inside a form are.
  const facts = moduleFacts(
    "a.js",
    [
      'x.require("./no1"); reimport("./no2"); importer("./no3");',
      'const a = require\n  ("./a");',
      'export {\n  b\n} from "./b";',
      'import c,\n{ d } from "./c";',
      "module\n  .exports = e;",
    ].join("\n"),
  );
  assertEquals(facts.specs, ["./b", "./c", "./a"]);
  assertEquals([facts.exports, facts.module], [["e"], true]);
  // A multiline namespace block, and statements after other line breaks (`\r`, `\u2028`).
  const namespaced = "export\n  declare\n  namespace N {\n  export class A {}\n}";
  assertEquals(moduleFacts("a.ts", namespaced).module, true);
  assertEquals(moduleFacts("a.ts", "declare namespace N {\n  export class A {}\n}").module, false);
  assertEquals(moduleFacts("a.ts", "let a;\rexport {};").module, true);
  assertEquals(moduleFacts("a.ts", "let a;\u2028export {};").module, true);
  assertEquals(moduleFacts("a.ts", "let a; export {};").module, false);
  assertEquals(moduleFacts("a.ts", "undeclare global;\nexport {};").global, false);
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
  // However the keyword is followed (a tab, a line break), a namespace's exports are its own.
  assertEquals(moduleFacts("a.ts", "namespace\tN {\n  export class A {}\n}").module, false);
  assertEquals(moduleFacts("a.ts", "declare module\n  N {\n  export class A {}\n}").module, false);
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
  // src/index.ts only passes the module on (`export *`): it holds no binding to refer by.
  assertEquals(reaching(q), [
    "src/chain.ts",
    "src/cjs.js",
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
  // A computed specifier (src/dynamic.ts) is `any` to the server too: it leads nowhere.
  assertEquals(reaching(question("src/store.ts", texts, ["@app/store"])), [
    "src/above.ts",
    "src/alias.ts",
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
    // A project module augmented with the target's type, and its importer: the block names it
    // in a type, which refers to it but hands nothing on.
    "src/plain.ts": "export interface Plain {}",
    "src/augment.ts":
      'import { A } from "./a";\ndeclare module "./plain" { interface Plain { a: A } }',
    "src/uses_plain.ts": 'import type { Plain } from "./plain";',
    // A block that imports may hand the target on to the module's importers.
    "src/plain2.ts": "export interface Plain2 {}",
    "src/augment2.ts":
      'import * as ns from "./a";\ndeclare module "./plain2" { export import B = ns.A }',
    "src/uses_plain2.ts": 'import type { Plain2 } from "./plain2";',
    // So may one naming a module object that escapes in its file.
    "src/plain3.ts": "export interface Plain3 {}",
    "src/augment3.ts":
      'import * as ns from "./a";\nconst all = ns;\ndeclare module "./plain3" { interface Plain3 { a: typeof all } }',
    "src/uses_plain3.ts": 'import type { Plain3 } from "./plain3";',
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
    "src/augment2.ts",
    "src/augment3.ts",
    "src/plain2.ts",
    "src/plain3.ts",
    "src/uses_css.ts",
    "src/uses_lib.ts",
    "src/uses_plain2.ts",
    "src/uses_plain3.ts",
    "types/css.d.ts",
    "types/lib.d.ts",
  ]);
});

/** What a file takes from each module, as `spec: whole/escapes/star/reexports names`. */
function takes(path: string, lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [spec, t] of Object.entries(moduleFacts(path, lines.join("\n")).takes)) {
    const flags = [
      t.whole && "whole",
      t.escapes && "escapes",
      t.star && "star",
      t.reexports && "reexports",
    ].filter(Boolean);
    out[spec] = [...flags, ...t.names].join(" ");
  }
  return out;
}

Deno.test("moduleFacts: what a file takes from each module, and whether it hands it on", () => {
  assertEquals(
    takes("a.ts", [
      'import { A, type B, C as D } from "./m1";',
      'import E from "./m2";',
      'import * as ns from "./m3";',
      'export { F as G } from "./m4";',
      'export * from "./m5";',
      'export * as all from "./m6";',
      'import "./m7";',
      'import H, { I } from "./m8";',
      'import {\n  // a comment\n  J,\n} from "./m9";',
      'import * as kept from "./m10";',
      "export const x = ns.value + E.y + H?.z + kept;",
      'export type T = import("./m11").T;',
      'export type U = typeof import("./m12");',
    ]),
    {
      "./m1": "A B C",
      "./m2": "whole",
      "./m3": "whole",
      "./m4": "reexports F",
      "./m5": "star",
      "./m6": "whole escapes",
      "./m7": "",
      "./m8": "whole I",
      "./m9": "J",
      "./m10": "whole escapes",
      "./m11": "whole",
      "./m12": "whole escapes",
    },
  );
  const facts = moduleFacts("a.ts", 'import { C as D } from "./m";\nexport { D as E, F };');
  assertEquals([facts.renames, facts.exports], [[["C", "D"], ["D", "E"]], ["D", "F"]]);
  assertEquals(moduleFacts("a.ts", "export default Model;").exports, ["Model"]);
  assertEquals(moduleFacts("a.ts", "export default class Model {}").exports, []);
  // A namespace that aliases what the file imports hands it on as `N.A`.
  assertEquals(
    takes("a.ts", [
      'import { A } from "./m";',
      "export namespace N {",
      "  export import B = A;",
      "}",
    ]),
    { "./m": "whole escapes A" },
  );
});

Deno.test("moduleFacts: CommonJS, calls and what they hand on", () => {
  assertEquals(
    takes("a.js", [
      'const a = require("./a");',
      'const b = tslib_1.__importStar(require("./b"));',
      'tslib_1.__exportStar(require("./c"), exports);',
      'require("./d");',
      'module.exports.e = require("./e");',
      'const f = require("./f").F;',
      "exports.G = a.G;",
      "use(b);",
      'const lazy = import(/* webpackChunkName: "g" */ "./g");',
      "const computed = require(name);",
      'const { H, I: J, K = 1 } = require("./h");',
      'const { L, ...others } = require("./i");',
    ]),
    {
      "./a": "whole",
      "./b": "whole escapes",
      "./c": "star",
      "./d": "",
      "./e": "whole escapes",
      "./f": "whole",
      "./g": "whole escapes",
      "./h": "H I K",
      "./i": "whole escapes",
    },
  );
  const facts = moduleFacts("a.js", 'const a = require("./a");\nexports.G = a.G;');
  assertEquals([facts.renames, facts.exports, facts.bindings], [[["G", "G"]], ["a"], ["a"]]);
  assertEquals(moduleFacts("a.js", "module.exports = { a };").exports, null);
});

Deno.test("importReach by name: a file taking only other names from the modules cannot refer to it", () => {
  const texts = {
    "src/model.ts": "export class Model {}\nexport const helper = 1;",
    "src/index.ts": 'export * from "./model";',
    "src/barrel.ts": 'export { Model as Entity, helper } from "./model";',
    "src/back.ts": 'export { Entity as Model } from "./barrel";',
    "src/back_user.ts": 'import { Model } from "./back";',
    "src/entity_user.ts": 'import { Entity } from "./barrel";',
    "src/star_user.ts": 'import { Model } from "./index";',
    "src/ns_user.ts": 'import * as lib from "./index";\nnew lib.Model();',
    "src/lazy.ts": 'export const m = () => import("./model");',
    "src/lazy_user.ts": 'import { m } from "./lazy";',
    "src/holder.ts": 'import * as models from "./model";\nexport const registry = { models };',
    "src/holder_user.ts": 'import { registry } from "./holder";',
    "src/service.ts": 'import { Model } from "./model";\nexport const service = new Model();',
    "src/service_user.ts": 'import { service } from "./service";\nconst Model = 1;',
    "src/other_names.ts": 'import { helper } from "./model";\ninterface Model {}',
    "src/other_index.ts": 'import { helper } from "./index";\ntype Model = 1;',
    // `./index.js` is src/index.ts to TypeScript, never src/index.mjs.
    "src/index.mjs": 'import lib from "./index.js";\nexport const { Model } = lib;',
    "src/cjs.js": 'const m = require("./model");\nexports.Model = m.Model;',
    "src/cjs_user.js": 'const { Model } = require("./cjs");',
    "src/cjs_named.ts": 'import { Model } from "./cjs";',
    "src/local.ts": 'import { Model as M } from "./model";\nexport { M };',
    "src/local_user.ts": 'import { M } from "./local";',
    // A folder whose package.json names its entry.
    "pkg/package.json": '{ "types": "./types/entry.d.ts" }',
    "pkg/types/entry.d.ts": 'export { Model } from "../../src/model";',
    "src/pkg_user.ts": 'import { Model } from "../pkg";',
  };
  const q: ReachQuestion = {
    ...question("src/model.ts", texts),
    name: "Model",
    folderEntries: (folder) => folder === "pkg" ? ["./types/entry.d.ts"] : null,
  };
  assertEquals(reaching(q), [
    "pkg/types/entry.d.ts",
    "src/back.ts",
    "src/back_user.ts",
    "src/barrel.ts",
    "src/cjs.js",
    "src/cjs_named.ts",
    "src/cjs_user.js",
    "src/entity_user.ts",
    "src/holder.ts",
    "src/holder_user.ts",
    "src/index.mjs",
    "src/lazy.ts",
    "src/lazy_user.ts",
    "src/local.ts",
    "src/local_user.ts",
    "src/model.ts",
    "src/ns_user.ts",
    "src/pkg_user.ts",
    "src/service.ts",
    "src/star_user.ts",
  ]);
  // Without the package's entry, its importer may lead anywhere: kept.
  const unsure = reaching({ ...q, folderEntries: () => null });
  assertEquals(unsure.includes("src/pkg_user.ts"), true);
});

Deno.test("moduleFacts: the names a module exports as they are", () => {
  assertEquals(moduleFacts("a.js", "module.exports = a.b;").exports, ["a"]);
  assertEquals(moduleFacts("a.js", 'exports["B"] = a;\nexports.c = 1;').exports, ["a"]);
  assertEquals(moduleFacts("a.js", 'exports["B"] = a;').renames, [["a", "B"]]);
  assertEquals(moduleFacts("a.ts", "export = A.B;").exports, ["A"]);
  assertEquals(moduleFacts("a.ts", "import B = A.C;\nexport import D = A.E;").renames, [
    ["C", "B"],
    ["E", "D"],
  ]);
  assertEquals(moduleFacts("a.ts", "export import D = A.E;").exports, ["A"]);
  // A binding's name in a path or a string is no use of it.
  assertEquals(
    moduleFacts("a.js", 'const utils = require("./utils");\nutils.x("@s/utils-b");').takes,
    { "./utils": { whole: true, escapes: false, star: false, names: [], reexports: false } },
  );
});

Deno.test("joinRelative: the path posix.normalize(posix.join(...)) gives, null outside", () => {
  const specs = [
    ".",
    "..",
    "./",
    "../",
    "./a",
    "./a/",
    ".//a//b",
    "./a/./b",
    "./a/../b",
    "../a",
    "../../a",
    "../../../a",
    "./a/../../..",
    "./a/b/../..",
    "../a/..",
    "./.x",
    "./a..b",
    "./..a",
  ];
  for (const folder of ["", "x", "x/y"]) {
    for (const spec of specs) {
      const joined = posix.normalize(posix.join(folder === "" ? "." : folder, spec))
        .replace(/\/$/, "");
      const expected = joined === ".." || joined.startsWith("../")
        ? null
        : joined === "."
        ? ""
        : joined;
      assertEquals(joinRelative(folder, spec), expected, `${folder} + ${spec}`);
    }
  }
});

Deno.test("moduleFacts: whether declaration blocks may hand on the file's bindings", () => {
  const facts = (text: string) => moduleFacts("a.ts", `import * as ns from "./n";\n${text}`);
  const carry = (text: string) => facts(text).globalsCarry;
  assertEquals(carry("const x = 1;"), false);
  // Braces in strings and comments are not the block's end; what follows it is not read.
  assertEquals(
    carry(
      'declare global {\n  interface Window { a: { b: "}" } } // }\n  /* } */ var c: `x}`;\n}\nexport { ns };',
    ),
    false,
  );
  assertEquals(carry("declare global { var a: typeof ns.A }"), false);
  assertEquals(carry('declare global { var a: import("./a").A }'), true);
  assertEquals(carry("declare global { namespace N { export import B = ns.A } }"), true);
  assertEquals(carry("declare global { export { ns } }"), true);
  assertEquals(
    carry("declare global { var a: number }\ndeclare global { var b: ReturnType<typeof require> }"),
    true,
  );
  assertEquals(carry("export as namespace Lib;"), true);
  assertEquals(carry("declare global { var a: number;"), true); // unclosed
  assertEquals(carry("declare global { var a: `${Ns}`; }"), true); // braces not followed
  assertEquals(carry("declare global\n{ var a: 'x\n}"), true); // a broken string
  // Augmentations: quiet where no block of a module may hand anything on.
  const augments = facts(
    'declare module "./m" { interface M { a: string } }\n' +
      'declare module "./loud" { export import A = ns.A }\n' +
      'declare module "./twice" { interface T {} }\ndeclare module "./twice" { var t: import("./x").X }\n' +
      'declare module "lib" { interface L {} }',
  );
  assertEquals(augments.quietAugments, ["./m"]);
  assertEquals(augments.takes["./m"]?.whole, true);
  assertEquals(augments.takes["./m"]?.escapes, false);
});

Deno.test("importReach: a holding file's globals hand the symbol on only through an import or an escaping module", () => {
  const texts = (globals: string, imports = 'import { A } from "./a";') => ({
    "a.ts": "export class A {}",
    "holds.ts": `${imports}\nexport const a = new A();\ndeclare global {\n  ${globals}\n}`,
    "other.ts": "export const A = 1;",
  });
  const reach = (globals: string, imports?: string) =>
    importReach({ ...question("a.ts", texts(globals, imports)), name: "A" });
  // Globals that name it in types only: decided, the file kept as a holder.
  assertEquals(
    reaching({ ...question("a.ts", texts("var flag: boolean | undefined")), name: "A" }),
    [
      "a.ts",
      "holds.ts",
    ],
  );
  assertEquals(reach("var b: typeof Ax", 'import { A as Ax } from "./a";').decided, true);
  assertEquals(reach("var b: typeof ns.A", 'import * as ns from "./a";').decided, true);
  // An alias, an import type, a module object that escapes (named otherwise than `ns.member`,
  // there or elsewhere in the file): undecided.
  assertEquals(reach("namespace N { export import B = A }").decided, false);
  assertEquals(reach('var b: import("./a").A').decided, false);
  assertEquals(reach("var b: typeof ns", 'import * as ns from "./a";').decided, false);
  assertEquals(
    reach("var flag: boolean", 'import * as ns from "./a";\nexport { ns };').decided,
    false,
  );
  // Without the symbol's name, any global may carry it.
  assertEquals(importReach(question("a.ts", texts("var flag: boolean"))).decided, false);
  // `export as namespace`: the file's exports are a global.
  const umd = {
    ...texts("var flag: boolean"),
    "holds.ts": 'import { A } from "./a";\nexport { A };\nexport as namespace Lib;',
  };
  assertEquals(importReach({ ...question("a.ts", umd), name: "A" }).decided, false);
});

Deno.test("importReach: an implicit JSX runtime that may be any module makes its file a holder, not a source", () => {
  const texts = {
    "src/a.ts": "export class A {}",
    "src/page.tsx":
      'import { helper } from "./helper";\nexport const Page = () => <div>{helper}</div>;',
    "src/helper.ts": "export const helper = 1;",
    // Imports only the page: nothing of the runtime's reaches it through the page.
    "src/uses_page.ts": 'import { Page } from "./page";',
    // A page augmenting a module, with a block that hands nothing on.
    "src/plain.ts": "export interface Plain {}",
    "src/augment.tsx":
      'declare module "./plain" { interface Plain { a: string } }\nexport const B = () => <b />;',
    "src/uses_plain.ts": 'import type { Plain } from "./plain";',
  };
  const q = (runtimes: string[]) => ({
    ...question("src/a.ts", texts, ["app/jsx-runtime"]),
    name: "A",
    jsxRuntimes: runtimes,
  });
  // The runtime may be a project module (the project's own package): each page may refer to A.
  assertEquals(reaching(q(["app/jsx-runtime"])), ["src/a.ts", "src/augment.tsx", "src/page.tsx"]);
  // A runtime outside the project: nothing.
  assertEquals(reaching(q(["react/jsx-runtime"])), ["src/a.ts"]);
});
