import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { DeclarationTables } from "./declaration_tables.ts";
import { applyParseResult } from "./parse_results.ts";
import type { StoredFile } from "./store.ts";
import type { ParseResult } from "./worker_messages.ts";

const SYMBOLS = JSON.stringify([["Shape", 5, 0, 0, 2, 1, 0, 6, 0, 11]]);

function parsed(relPath: string, hash = "h1", mtime = 1): ParseResult {
  return {
    relPath,
    status: "parsed",
    hash,
    size: 10,
    mtime,
    symbols: SYMBOLS,
    names: JSON.stringify(["Shape"]),
    count: 1,
    exact: true,
  };
}

function stored(result: ParseResult): StoredFile {
  return {
    hash: result.hash,
    size: result.size,
    mtime: result.mtime,
    symbols: result.symbols!,
    names: result.names!,
    count: result.count!,
    exact: result.exact!,
  };
}

Deno.test("applyParseResult: new declarations go in, and the store is then out of date", () => {
  const tables = new DeclarationTables();
  assert(applyParseResult(tables, parsed("a.ts"), undefined));
  assertEquals(tables.candidates("Shape", ".", false), ["a.ts"]);
  // The same answer again changes nothing.
  assert(!applyParseResult(tables, parsed("a.ts"), stored(parsed("a.ts"))));
  // A new modification time of the same content is saved, the tables kept.
  const generation = tables.generation;
  assert(applyParseResult(tables, parsed("a.ts", "h1", 2), stored(parsed("a.ts"))));
  assertEquals(tables.generation, generation);
});

Deno.test("applyParseResult: a start from disk that finds a file unchanged saves nothing", () => {
  const tables = new DeclarationTables();
  const known = stored(parsed("a.ts"));
  const same: ParseResult = { relPath: "a.ts", status: "same", hash: "h1", size: 10, mtime: 1 };
  assert(!applyParseResult(tables, same, known));
  assertEquals(tables.candidates("Shape", ".", false), ["a.ts"]);
  // "same" for a file the store does not know: nothing to take in.
  assert(!applyParseResult(tables, { ...same, relPath: "b.ts" }, undefined));
  assertEquals(tables.indexedFiles("."), ["a.ts"]);
});

Deno.test("applyParseResult: gone, failed and untrusted files leave the name table", () => {
  const tables = new DeclarationTables();
  for (const path of ["gone.ts", "failed.ts", "untrusted.ts"]) {
    applyParseResult(tables, parsed(path), undefined);
  }
  const base = { hash: "", size: 0, mtime: 0 };
  assert(applyParseResult(tables, { relPath: "gone.ts", status: "gone", ...base }, undefined));
  assert(applyParseResult(tables, { relPath: "failed.ts", status: "failed", ...base }, undefined));
  assert(
    applyParseResult(tables, { relPath: "untrusted.ts", status: "untrusted", ...base }, undefined),
  );
  assertEquals(tables.indexedFiles("."), []);
  // Failed and untrusted files are read by every search, as files the index does not parse.
  assertEquals(tables.otherFiles("."), ["failed.ts", "untrusted.ts"]);
  // A deferred file (lacking a search's needle) is left as it was.
  assert(!applyParseResult(tables, { relPath: "x.ts", status: "deferred", ...base }, undefined));
});
