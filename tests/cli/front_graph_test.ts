/**
 * The front's module graph: `deno run main.ts` loads the modules main.ts reaches through code
 * imports (dynamic ones with a literal specifier included) before it runs anything, so main.ts
 * must not reach the session, the tools or the MCP SDK that way: they load when a command needs
 * them (src/cli/lazy.ts). The bundled program's entry, main_bundle.ts, must reach every one of
 * them, or the bundler leaves them out.
 * @module
 */
import { assert } from "../helpers/assert.ts";
import { codeGraph, moduleUrl as url } from "../helpers/module_graph.ts";
import { LAZY_MODULES } from "../../src/cli/lazy.ts";

Deno.test("main.ts loads neither the session, the tools nor any npm package before a command needs them", async () => {
  const graph = await codeGraph("main.ts");
  for (const path of LAZY_MODULES) assert(!graph.has(url(path)), `main.ts reaches ${path}`);
  const npm = [...graph].filter((s) => s.startsWith("npm:"));
  assert(npm.length === 0, `main.ts reaches ${npm.join(", ")}`);
  assert(!graph.has(url("src/session/session.ts")), "main.ts reaches src/session/session.ts");
});

Deno.test("the relay loads no session, tool or npm package either", async () => {
  const graph = await codeGraph("src/cli/relay.ts");
  const npm = [...graph].filter((s) => s.startsWith("npm:"));
  assert(npm.length === 0, `the relay reaches ${npm.join(", ")}`);
  assert(!graph.has(url("src/session/session.ts")), "the relay reaches src/session/session.ts");
  assert(!graph.has(url("src/service/sessions.ts")), "the relay reaches src/service/sessions.ts");
});

Deno.test("a front that finds its service running loads no node: module", async () => {
  // Any `node:` module starts Deno's Node layer: 8 ms of CPU at each start (src/plain_path.ts).
  for (const entry of ["main.ts", "src/cli/serve.ts", "src/cli/relay.ts"]) {
    const node = [...await codeGraph(entry)].filter((s) => s.startsWith("node:"));
    assert(node.length === 0, `${entry} reaches ${node.join(", ")}`);
  }
});

Deno.test("main_bundle.ts reaches every lazily loaded module, for the bundler", async () => {
  const graph = await codeGraph("main_bundle.ts");
  for (const path of LAZY_MODULES) assert(graph.has(url(path)), `main_bundle.ts misses ${path}`);
  assert(graph.has(url("main.ts")));
});
