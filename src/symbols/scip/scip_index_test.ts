import { assertEquals, assertRejects } from "../../../tests/helpers/assert.ts";
import { BinaryWriter } from "../../deps.ts";
import { SymbolRole } from "./decode.ts";
import { ScipIndex } from "./scip_index.ts";
import { matchesNamePath, namePathOfSymbol } from "./descriptors.ts";
import { formatManifest, gitBlobId, parseManifest } from "./freshness.ts";

const PKG = "scip-typescript npm demo 1.0 ";

interface Occ {
  range: number[];
  symbol: string;
  roles?: number;
}

/** One `Index` message with the given documents, encoded as scip.proto numbers its fields. */
function encodeIndex(
  documents: Array<{
    path: string;
    occurrences: Occ[];
    implementations?: [string, string][];
    /** Implementations that are also references (a method implementing another). */
    overrides?: [string, string][];
  }>,
): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, 2).fork().tag(3, 2).string("file:///demo").join();
  for (const d of documents) {
    w.tag(2, 2).fork().tag(1, 2).string(d.path).tag(4, 2).string("typescript");
    for (const o of d.occurrences) {
      w.tag(2, 2).fork().tag(1, 2).fork();
      for (const n of o.range) w.int32(n);
      w.join().tag(2, 2).string(o.symbol).tag(3, 0).int32(o.roles ?? 0).join();
    }
    for (const [from, to] of d.implementations ?? []) {
      w.tag(3, 2).fork().tag(1, 2).string(from)
        .tag(4, 2).fork().tag(1, 2).string(to).tag(3, 0).bool(true).join()
        .join();
    }
    for (const [from, to] of d.overrides ?? []) {
      w.tag(3, 2).fork().tag(1, 2).string(from)
        .tag(4, 2).fork().tag(1, 2).string(to).tag(2, 0).bool(true).tag(3, 0).bool(true).join()
        .join();
    }
    w.join();
  }
  return w.finish();
}

async function loadBytes(bytes: Uint8Array): Promise<ScipIndex> {
  const path = await Deno.makeTempFile({ suffix: ".scip" });
  try {
    await Deno.writeFile(path, bytes);
    return await ScipIndex.load(path);
  } finally {
    await Deno.remove(path);
  }
}

const SHAPE = `${PKG}src/\`shapes.ts\`/Shape#`;
const CIRCLE = `${PKG}src/\`shapes.ts\`/Circle#`;

Deno.test("two partial indexes written one after the other load as one index", async () => {
  const first = encodeIndex([{
    path: "src/shapes.ts",
    occurrences: [
      { range: [2, 17, 22], symbol: SHAPE, roles: SymbolRole.Definition },
      { range: [8, 13, 19], symbol: CIRCLE, roles: SymbolRole.Definition },
      { range: [9, 4, 9, 9], symbol: "local 1", roles: SymbolRole.Definition },
      { range: [10, 4, 9], symbol: "local 1" },
    ],
    implementations: [[CIRCLE, SHAPE]],
  }]);
  const second = encodeIndex([{
    path: "src/main.ts",
    occurrences: [
      { range: [0, 9, 15], symbol: CIRCLE },
      { range: [3, 2, 7], symbol: "local 1", roles: SymbolRole.Definition },
    ],
  }]);
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  const index = await loadBytes(joined);
  assertEquals(index.documentCount, 2);
  const circle = index.symbolAt("src/main.ts", 0, 12)!;
  assertEquals(index.symbolName(circle), CIRCLE);
  assertEquals(index.occurrencesOf(circle).map((o) => `${o.relPath}:${o.range.join(",")}`), [
    "src/shapes.ts:8,13,8,19",
    "src/main.ts:0,9,0,15",
  ]);
  assertEquals(index.definitionsOf(circle).map((o) => o.relPath), ["src/shapes.ts"]);
  // `local 1` of one document is not `local 1` of another.
  const local = index.symbolAt("src/shapes.ts", 10, 5)!;
  assertEquals(index.documentsOf(local), ["src/shapes.ts"]);
  // Implementations follow the relationship.
  const shape = index.idOf(SHAPE)!;
  assertEquals(index.implementationsOf(shape).map((s) => index.symbolName(s)), [CIRCLE]);
  assertEquals(index.supertypesOf(circle).map((s) => index.symbolName(s)), [SHAPE]);
  // A position between occurrences, or on a line before the occurrence's end, has none.
  assertEquals(index.symbolAt("src/main.ts", 0, 20), null);
  assertEquals(index.symbolAt("src/main.ts", 1, 12), null);
});

Deno.test("a method's reference family: what it implements and the other implementations", async () => {
  const area = (type: string) => `${PKG}src/\`shapes.ts\`/${type}#area().`;
  const index = await loadBytes(encodeIndex([{
    path: "src/shapes.ts",
    occurrences: [
      { range: [1, 2, 6], symbol: area("Shape"), roles: SymbolRole.Definition },
      { range: [5, 2, 6], symbol: area("Circle"), roles: SymbolRole.Definition },
      { range: [9, 2, 6], symbol: area("Square"), roles: SymbolRole.Definition },
      { range: [12, 2, 6], symbol: area("Other"), roles: SymbolRole.Definition },
    ],
    // Classes implement without being references of each other; methods are both.
    implementations: [[CIRCLE, SHAPE]],
    overrides: [[area("Circle"), area("Shape")], [area("Square"), area("Shape")]],
  }]));
  const family = (type: string) =>
    index.referenceFamilyOf(index.idOf(area(type))!).map((id) => index.symbolName(id)).sort();
  const all = [area("Circle"), area("Shape"), area("Square")].sort();
  assertEquals(family("Circle"), all);
  assertEquals(family("Shape"), all);
  assertEquals(family("Other"), [area("Other")]);
  assertEquals(index.referenceFamilyOf(index.idOf(CIRCLE) ?? -1).length, 1);
});

Deno.test("a truncated index is an error, not a partial index", async () => {
  const bytes = encodeIndex([{
    path: "src/a.ts",
    occurrences: [{ range: [0, 0, 1], symbol: CIRCLE }],
  }]);
  await assertRejects(() => loadBytes(bytes.subarray(0, bytes.length - 3)), "ends inside a field");
});

Deno.test("name paths of SCIP symbols", () => {
  assertEquals(namePathOfSymbol(`${PKG}src/\`shapes.ts\`/Circle#area().`), ["Circle", "area"]);
  assertEquals(namePathOfSymbol(`${PKG}src/\`shapes.ts\`/Circle#\`<constructor>\`().`), [
    "Circle",
    "<constructor>",
  ]);
  assertEquals(
    namePathOfSymbol("scip-python python demo 0.1 flaskish/app:Flask#route().(rule)"),
    ["Flask", "route"],
  );
  assertEquals(namePathOfSymbol(`${PKG}src/\`a.ts\`/scale().[T]`), ["scale"]);
  assertEquals(namePathOfSymbol("local 4"), null);
  assertEquals(namePathOfSymbol("cargo  with  spaces"), null);
  assertEquals(matchesNamePath(["Circle", "area"], "area"), true);
  assertEquals(matchesNamePath(["Circle", "area"], "Circle/area"), true);
  assertEquals(matchesNamePath(["Circle", "area"], "/Circle/area"), true);
  assertEquals(matchesNamePath(["Circle", "area"], "/area"), false);
  assertEquals(matchesNamePath(["Circle", "area"], "Square/area"), false);
  assertEquals(matchesNamePath(["Circle", "area"], "area[1]"), true);
});

Deno.test("the manifest: git blob ids, parsed and written", async () => {
  // `printf 'hello\n' | git hash-object --stdin`
  assertEquals(
    await gitBlobId(new TextEncoder().encode("hello\n")),
    "ce013625030ba8dba906f756967f9e9ca394464a",
  );
  const entries = parseManifest(
    "ce013625030ba8dba906f756967f9e9ca394464a src/b.ts\n" +
      "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 src/a b.ts\n",
  );
  assertEquals(entries.get("src/a b.ts"), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  assertEquals(
    formatManifest(entries),
    "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 src/a b.ts\n" +
      "ce013625030ba8dba906f756967f9e9ca394464a src/b.ts\n",
  );
  let error = "";
  try {
    parseManifest("100644 ce01362 0\tsrc/b.ts\n");
  } catch (e) {
    error = (e as Error).message;
  }
  assertEquals(error, 'Line 1 of the index manifest is not "<blob id> <path>"');
});
