import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { DeclarationTables, inScope } from "./declaration_tables.ts";
import type { StoredFile } from "./store.ts";

function entry(names: string[], hash = "h"): StoredFile {
  return {
    hash,
    size: 1,
    mtime: 1,
    symbols: "[]",
    names: JSON.stringify(names),
    count: names.length,
    exact: false,
  };
}

Deno.test("DeclarationTables: the name table follows adds and removes, in scope", () => {
  const t = new DeclarationTables();
  t.add("src/a.ts", entry(["Shape", "area"]));
  t.add("src/b.ts", entry(["Shape"]));
  t.add("lib/c.ts", entry(["ShapeKind"]));
  t.addOther("README.md");
  assertEquals(t.candidates("Shape", ".", false), ["src/a.ts", "src/b.ts"]);
  assertEquals(t.candidates("Shape", "src/b.ts", false), ["src/b.ts"]);
  assertEquals(t.candidates("Shape", ".", true), ["lib/c.ts", "src/a.ts", "src/b.ts"]);
  assertEquals(t.stats(), { files: 3, declarations: 4, names: 3, otherFiles: 1 });
  const before = t.generation;
  assert(t.remove("src/a.ts"));
  assert(t.generation !== before, "a removal changes the generation");
  assertEquals(t.candidates("area", ".", false), []);
  assertEquals(t.stats().names, 2, "a name no file declares any more is gone");
  assert(t.removeUnder("src"));
  assert(!t.removeUnder("docs"), "nothing indexed there");
  assertEquals(t.indexedFiles("."), ["lib/c.ts"]);
  assertEquals(t.allFiles().sort(), ["README.md", "lib/c.ts"]);
  assert(t.clear());
  assertEquals(t.stats(), { files: 0, declarations: 0, names: 0, otherFiles: 0 });
});

Deno.test("DeclarationTables: a refreshed entry keeps the generation; scopes are folders", () => {
  const t = new DeclarationTables();
  t.add("a.ts", entry(["x"]));
  const generation = t.generation;
  t.refresh("a.ts", { ...entry(["x"]), mtime: 2 });
  assertEquals(t.generation, generation);
  assertEquals(t.files.get("a.ts")?.mtime, 2);
  assert(inScope("src/a.ts", "src") && inScope("src/a.ts", ".") && inScope("src", "src"));
  assert(!inScope("srcx/a.ts", "src"));
});
