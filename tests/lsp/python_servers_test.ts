/**
 * The Python servers Sextant knows, through the engine on fixtures/python: pyright (the default)
 * and ty (selectable with `language_servers.python.command`) find the same references to a class,
 * imports included, on the first request of a fresh server (but for the name in `__all__`, which
 * only pyright lists), and outline a file alike.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { fixtureProject, hasServer, positionOf, skipUnless, toLocs } from "../helpers/lsp.ts";
import type { ManagedServer } from "../../src/lsp/managed_server.ts";

const SERVERS = ["pyright-langserver", "ty"] as const;

async function answers(command: string) {
  await using fx = await fixtureProject("python", {
    overrides: { language_servers: { python: { command } } },
    timeouts: { requestMs: 60_000 },
  });
  const file = "shapes/circle.py";
  const server = await fx.pool.serverFor(file) as ManagedServer;
  assertEquals(server.command, command);
  const declaration = await positionOf(fx.path(file), "class Circle");
  const at = { line: declaration.line, character: declaration.character + "class ".length };
  const references = await server.request("textDocument/references", {
    textDocument: { uri: server.uriOf(file) },
    position: at,
    context: { includeDeclaration: true },
  }, { sync: [file] });
  const symbols = await server.request<Array<{ name: string; kind: number }>>(
    "textDocument/documentSymbol",
    { textDocument: { uri: server.uriOf(file) } },
    { sync: [file] },
  );
  return {
    references: toLocs(references).map((l) => `${server.relPathOf(l.uri)}:${l.line}:${l.character}`)
      .sort(),
    topLevel: symbols.map((s) => s.name),
  };
}

Deno.test({
  name: "pyright and ty: the same references and top-level outline on fixtures/python",
  ignore: skipUnless(SERVERS.every((s) => hasServer(s)), "pyright-langserver and ty"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const pyright = await answers("pyright-langserver");
  const ty = await answers("ty");
  assert(pyright.references.length >= 10, JSON.stringify(pyright));
  // One difference: pyright also lists the name in `__all__ = ["Shape", "Circle", ...]`.
  const inAll = "shapes/__init__.py:5:21";
  assert(pyright.references.includes(inAll), JSON.stringify(pyright));
  assertEquals(ty.references, pyright.references.filter((r) => r !== inAll));
  assertEquals(ty.topLevel, pyright.topLevel);
});
