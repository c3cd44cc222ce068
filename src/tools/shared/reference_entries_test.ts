import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { fileSymbol, SymbolKind } from "../../symbols/model.ts";
import type { ReferenceHit } from "../../symbols/queries.ts";
import {
  grepChars,
  grepLinesChars,
  listingLegend,
  referenceEntriesJson,
  SERENA_SHAPE_CHARS,
  TREE_LISTING_LEGEND,
} from "./reference_entries.ts";
import { referenceLines } from "../../../tests/helpers/symbols.ts";

/** A file of `lines` lines, each a call of `Store` in one function `user`. */
function hitsIn(relPath: string, lines: number): ReferenceHit[] {
  const text = Array.from({ length: lines }, (_, i) => `  new Store(${i}); // a long comment ${i}`)
    .join("\n");
  const file = { relPath, text, roots: [], cached: false };
  const user = {
    ...fileSymbol(relPath, text),
    name: "user",
    kind: SymbolKind.Function,
  };
  return Array.from({ length: lines }, (_, line) => ({
    relPath,
    position: { line, character: 6 },
    file,
    symbol: user,
  }));
}

Deno.test("reference entries: Serena's own text where it costs no more than grep's lines", () => {
  // One reference, and many lines naming Store that are no reference (grep prints them too).
  const text = "  new Store(0);\n" +
    Array.from({ length: 12 }, (_, i) => `  // Store ${i}: a long comment about the store`)
      .join("\n");
  const file = { relPath: "src/a.ts", text, roots: [], cached: false };
  const hits: ReferenceHit[] = [{
    relPath: "src/a.ts",
    position: { line: 0, character: 6 },
    file,
    symbol: { ...fileSymbol("src/a.ts", text), name: "user", kind: SymbolKind.Function },
  }];
  const answer = referenceEntriesJson(hits, "Store");
  assert(answer.length <= grepChars(hits, "Store"));
  const [entry] = JSON.parse(answer)["src/a.ts"].Function;
  assertEquals(
    entry.content_around_reference,
    "  >   0:  new Store(0);\n...   1:  // Store 0: a long comment about the store",
  );
  assertEquals(entry.body_location, { start_line: 0, end_line: 13 });
});

Deno.test("reference entries: a small answer past grep's cost keeps Serena's keys, merged", () => {
  const hits = hitsIn("src/a.ts", 3);
  const text = referenceEntriesJson(hits, "Store");
  assert(text.length <= SERENA_SHAPE_CHARS);
  const answer = JSON.parse(text);
  // One entry for the containing symbol, the reference lines only, no body_location (all
  // Serena's forms cost more than grep's three lines here: the smallest of them is given).
  assertEquals(answer, {
    "src/a.ts": {
      Function: [{
        name_path: "user",
        content_around_reference: "  >   0:  new Store(0); // a long comment 0\n" +
          "  >   1:  new Store(1); // a long comment 1\n" +
          "  >   2:  new Store(2); // a long comment 2",
      }],
    },
  });
});

Deno.test("reference entries: a large answer costs no more than grep's lines", () => {
  const hits = [...hitsIn("src/a.ts", 200), ...hitsIn("src/b.ts", 120)];
  const text = referenceEntriesJson(hits, "Store");
  assert(text.length > SERENA_SHAPE_CHARS);
  assert(text.length <= grepChars(hits, "Store"), `${text.length} > ${grepChars(hits, "Store")}`);
  // Still Serena's shape: one merged entry per containing symbol, every reference line marked.
  const answer = JSON.parse(text);
  const [entry] = answer["src/a.ts"].Function;
  assertEquals(answer["src/a.ts"].Function.length, 1);
  assertEquals(
    entry.content_around_reference.split("\n").filter((l: string) => l.startsWith("  >")).length,
    200,
  );
});

Deno.test("grepChars: what grep -nw prints, line by line", () => {
  const file = { relPath: "a.ts", text: "Store\nStores\nx Store y\n", roots: [], cached: false };
  const hit = {
    relPath: "a.ts",
    position: { line: 0, character: 0 },
    file,
    symbol: fileSymbol("a.ts", file.text),
  };
  // "a.ts:1:Store\n" and "a.ts:3:x Store y\n"
  assertEquals(grepChars([hit], "Store"), 13 + 17);
});

Deno.test("reference entries: many symbols of one reference each: name path to lines", () => {
  const text = Array.from({ length: 400 }, (_, i) => `const f${i} = (s: Store) => s;`).join("\n");
  const file = { relPath: "src/many.ts", text, roots: [], cached: false };
  const hits: ReferenceHit[] = Array.from({ length: 400 }, (_, line) => ({
    relPath: "src/many.ts",
    position: { line, character: 15 },
    file,
    symbol: { ...fileSymbol("src/many.ts", text), name: `f${line}`, kind: SymbolKind.Constant },
  }));
  const answer = referenceEntriesJson(hits, "Store");
  assert(
    answer.length <= grepChars(hits, "Store"),
    `${answer.length} > ${grepChars(hits, "Store")}`,
  );
  const constants = JSON.parse(answer)["src/many.ts"].Constant;
  assertEquals(constants.f7, "7:const f7 = (s: Store) => s;");
  assertEquals(Object.keys(constants).length, 400);
});

Deno.test("grepLinesChars: grep's line per line holding the word", () => {
  // "a.ts:1:Store" and "a.ts:3:x Store y", each with its line break.
  assertEquals(grepLinesChars("a.ts", ["Store", "Stores", "x Store y"], "Store"), 13 + 17);
});

Deno.test("reference entries: a repeated question reuses its text, a changed file does not", () => {
  const owner = {};
  const hits = hitsIn("src/a.ts", 3);
  const first = referenceEntriesJson(hits, "Store", owner);
  assertEquals(referenceEntriesJson(hitsIn("src/a.ts", 3), "Store", owner), first);
  const edited = hitsIn("src/a.ts", 3).map((h) => ({
    ...h,
    file: { ...h.file, text: h.file.text.replace("comment 1", "remark 1") },
  }));
  const changed = referenceEntriesJson(edited, "Store", owner);
  assert(changed.includes("remark 1") && !first.includes("remark 1"));
});

/**
 * `count` modules that import Core at their top and use it in one symbol each: a function of
 * `uses` lines, or (`nested`) a constant in a function, as the generated bench tree does.
 */
function importers(count: number, options: { uses: number; nested: boolean }): ReferenceHit[] {
  return Array.from({ length: count }, (_, i) => {
    const relPath = `src/pkg${i % 7}/mod${i}.ts`;
    const uses = Array.from(
      { length: options.uses },
      (_, j) =>
        options.nested ? `  const core = new Core("m${i}");` : `    const c${j} = new Core(${j});`,
    );
    const text = [
      'import { Core } from "../core.ts";',
      `export function useCore${i}() {`,
      ...uses,
      "}",
    ]
      .join("\n");
    const file = { relPath, text, roots: [], cached: false };
    const outer = { ...fileSymbol(relPath, text), name: `useCore${i}`, kind: SymbolKind.Function };
    const user = options.nested
      ? { ...fileSymbol(relPath, text), name: "core", kind: SymbolKind.Constant, parent: outer }
      : outer;
    return [
      { relPath, position: { line: 0, character: 9 }, file, symbol: fileSymbol(relPath, text) },
      ...uses.map((_, j) => ({
        relPath,
        position: { line: 2 + j, character: 20 },
        file,
        symbol: user,
      })),
    ];
  }).flat();
}

Deno.test("reference entries: a reference or two per file: a listing within grep's cost", () => {
  // Every other module's user is a Variable: the kinds are named symbol by symbol.
  const hits = importers(100, { uses: 1, nested: false }).map((h, i) =>
    i % 4 === 3 ? { ...h, symbol: { ...h.symbol, kind: SymbolKind.Variable } } : h
  );
  const text = referenceEntriesJson(hits, "Core");
  assert(text.length > SERENA_SHAPE_CHARS);
  assert(text.length <= grepChars(hits, "Core"), `${text.length} > ${grepChars(hits, "Core")}`);
  // JSON's quotes and braces cost more than grep's second path: a listing, kinds named.
  assert(text.startsWith(listingLegend("each") + "\n\nsrc/pkg0/mod0.ts\n"), text.slice(0, 300));
  assert(
    text.includes(
      '\n\nsrc/pkg1/mod1.ts\n0:import { Core } from "../core.ts";\nVariable useCore1\n' +
        "2:const c0 = new Core(0);\n\n",
    ),
    text.slice(0, 600),
  );
  const listed = referenceLines(text);
  assertEquals(listed.length, 200);
  assert(listed.includes('src/pkg1/mod1.ts|File|mod1|0:import { Core } from "../core.ts";'));
  assert(listed.includes("src/pkg1/mod1.ts|Variable|useCore1|2:const c0 = new Core(0);"));
  assert(listed.includes("src/pkg2/mod2.ts|Function|useCore2|2:const c0 = new Core(0);"));
});

Deno.test("reference entries: long name paths on short lines: the listing names their one kind once", () => {
  const hits = importers(300, { uses: 1, nested: true });
  const text = referenceEntriesJson(hits, "Core");
  assert(text.length <= grepChars(hits, "Core"), `${text.length} > ${grepChars(hits, "Core")}`);
  // Every containing symbol is a Constant: its legend says so once.
  assert(text.startsWith(listingLegend("Constant") + "\n\n"), text.slice(0, 300));
  assert(text.includes("name path, each a Constant;"), text.slice(0, 300));
  const listed = referenceLines(text);
  assertEquals(listed.length, 600);
  assert(listed.includes('src/pkg3/mod10.ts|File|mod10|0:import { Core } from "../core.ts";'));
  assert(
    listed.includes('src/pkg3/mod10.ts|Constant|useCore10/core|2:const core = new Core("m10");'),
  );
});

Deno.test("reference entries: the listing without kinds, of symbols of several kinds", () => {
  // Every third module's user is a Variable: no one kind to name.
  const hits = importers(300, { uses: 1, nested: true }).map((h, i) =>
    i % 6 === 1 ? { ...h, symbol: { ...h.symbol, kind: SymbolKind.Variable } } : h
  );
  const text = referenceEntriesJson(hits, "Core");
  assert(text.length <= grepChars(hits, "Core"), `${text.length} > ${grepChars(hits, "Core")}`);
  assert(text.startsWith(listingLegend(null) + "\n\nsrc/pkg0/mod0.ts\n"), text.slice(0, 300));
  const listed = referenceLines(text);
  assertEquals(listed.length, 600);
  assert(listed.includes('src/pkg3/mod10.ts||useCore10/core|2:const core = new Core("m10");'));
});

Deno.test("reference entries: name paths sharing long prefixes: the listing as a tree", () => {
  // Test files: references in the callbacks of one suite, whose name each path repeats.
  const suite = "describe('the store, with every option a user may give it') callback";
  const hits: ReferenceHit[] = [];
  for (let f = 0; f < 20; f++) {
    const relPath = `src/store${f}.test.ts`;
    const lines = ['import { Core } from "./core.ts";'];
    for (let t = 0; t < 5; t++) {
      lines.push(`  const a = new Core(${t});`, `  const b = new Core(${t});`);
    }
    const text = lines.join("\n");
    const file = { relPath, text, roots: [], cached: false };
    const describe = { ...fileSymbol(relPath, text), name: suite, kind: SymbolKind.Function };
    hits.push({
      relPath,
      position: { line: 0, character: 9 },
      file,
      symbol: fileSymbol(relPath, text),
    });
    for (let t = 0; t < 5; t++) {
      const test = { ...describe, name: `it('case ${t}') callback`, parent: describe };
      for (const line of [1 + 2 * t, 2 + 2 * t]) {
        hits.push({ relPath, position: { line, character: 16 }, file, symbol: test });
      }
    }
  }
  const text = referenceEntriesJson(hits, "Core");
  assert(text.length <= grepChars(hits, "Core"), `${text.length} > ${grepChars(hits, "Core")}`);
  assert(text.startsWith(TREE_LISTING_LEGEND + "\n\nsrc/store0.test.ts\n"), text.slice(0, 400));
  // The suite is named once per file, each test below it.
  assert(
    text.includes(
      `\n\nsrc/store1.test.ts\n0:import { Core } from "./core.ts";\n${suite}\n it('case 0') ` +
        "callback\n1:const a = new Core(0);\n2:const b = new Core(0);\n it('case 1') callback\n",
    ),
    text.slice(0, 900),
  );
  // Read back, every reference under its whole name path, as in the other forms.
  const listed = referenceLines(text);
  assertEquals(listed.length, 220);
  assert(
    listed.includes(`src/store1.test.ts||${suite}/it('case 4') callback|10:const b = new Core(4);`),
    listed.slice(0, 4).join("\n"),
  );
});
