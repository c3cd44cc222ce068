/**
 * The pool with real servers: a missing binary gives a clear error while another language of the
 * same project keeps working; `session.services` ties the pool to the session (our edits synced, servers
 * stopped with the session).
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { fixtureProject, hasServer, liveInGroup, skipUnless } from "../helpers/lsp.ts";
import type { ManagedServer } from "../../src/lsp/managed_server.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
// A session makes its project host from here (the tools' registry loads it in Sextant).

const pyright = hasServer("pyright-langserver");

Deno.test({
  name: "a missing server binary fails alone with a clear message",
  ignore: skipUnless(pyright, "pyright pool tests"),
  async fn() {
    await using fx = await fixtureProject("python", {
      overrides: {
        language_servers: {
          // A second language in the same project whose server is not installed.
          lua: { command: "no-such-lua-language-server", extensions: [".lua"] },
        },
      },
    });
    await Deno.writeTextFile(fx.path("init.lua"), "local x = 1\n");
    let message = "";
    try {
      await fx.pool.serverFor("init.lua");
    } catch (error) {
      message = (error as Error).message;
    }
    assertStringIncludes(message, "'no-such-lua-language-server' was not found");
    assertStringIncludes(message, "SEXTANT_LSP_PATH");
    assertStringIncludes(message, "Install it:");

    // Python still works, also when both languages are asked for at once.
    const servers = await fx.pool.serversForProject();
    assertEquals(servers.map((s) => s.id), ["python"]);
    const symbols = await servers[0]!.request<Array<{ name: string }>>(
      "textDocument/documentSymbol",
      { textDocument: { uri: servers[0]!.uriOf("shapes/base.py") } },
      { sync: ["shapes/base.py"] },
    );
    assertEquals(symbols.map((s) => s.name), ["Shape"]);
  },
});

Deno.test({
  name: "session.services: one pool per project, edits synced, servers stopped with the session",
  ignore: skipUnless(pyright, "pyright pool tests"),
  async fn() {
    await using fx = await fixtureProject("python");
    const session = new Session({
      host: () => new ProjectHost(),
      settings: fx.project.settings,
      tools: [],
      project: fx.project,
    });
    const pool = session.services(fx.project).pool;
    assert(session.services(fx.project).pool === pool, "the same pool for the same project");
    assert(pool.handles("app.py") && !pool.handles("README"));
    const server = await pool.serverFor("broken.py") as ManagedServer;
    const errorsOf = async () =>
      (await server.diagnostics("broken.py")).filter((d) => d.severity === 1).length;
    assertEquals(await errorsOf(), 1);
    const file = join(fx.root, "broken.py");
    await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace('"three"', "3"));
    await session.filesChanged([file]);
    assertEquals(await errorsOf(), 0);
    const pgid = server.pid!;
    await session.dispose();
    assertEquals(server.pid, null);
    if (liveInGroup(pgid) >= 0) assertEquals(liveInGroup(pgid), 0);
    // A disposed pool is replaced by a fresh one on the next use.
    assert(session.services(fx.project).pool !== pool);
    await session.dispose();
  },
});

Deno.test("serverIdFor names the server serverFor would pick, without starting it", async () => {
  await using fx = await fixtureProject("typescript");
  assertEquals(fx.pool.serverIdFor("src/shapes.ts"), "typescript");
  assertEquals(fx.pool.serverIdFor("lib/widget.TSX"), "typescript");
  assertEquals(fx.pool.serverIdFor("tools/gen.py"), "python");
  assertEquals(fx.pool.serverIdFor("README.md"), null);
  assertEquals(fx.pool.serverIdFor("Makefile"), null);
  assertEquals(fx.pool.running().length, 0, "nothing was started");
  await using deno = await fixtureProject("deno");
  assertEquals(deno.pool.serverIdFor("src/math.ts"), "deno");
  assertEquals(deno.pool.running().length, 0);
});
