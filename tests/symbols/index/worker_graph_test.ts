/**
 * What a parse worker loads at its start (each worker is a new isolate that loads its module
 * graph again): the parser and the rules, not the symbol cache and its node:crypto, nor the
 * language-server client, the MCP SDK or zod. Their load once cost every worker's start tens of
 * milliseconds of CPU before its first file.
 * @module
 */
import { assert } from "../../helpers/assert.ts";
import { codeGraph, moduleUrl } from "../../helpers/module_graph.ts";

Deno.test("a parse worker loads the parser alone", async () => {
  const graph = await codeGraph("src/symbols/index/parse_worker.ts");
  assert(graph.has(moduleUrl("src/symbols/index/parser.ts")), "the worker reaches the parser");
  for (const path of ["src/symbols/cache.ts", "src/deps.ts", "src/deps_start.ts", "src/log.ts"]) {
    assert(!graph.has(moduleUrl(path)), `the parse worker reaches ${path}`);
  }
  const heavy = [...graph].filter((s) =>
    s === "node:crypto" || (s.startsWith("npm:") && !/tree-sitter/.test(s))
  );
  assert(heavy.length === 0, `the parse worker reaches ${heavy.join(", ")}`);
});
