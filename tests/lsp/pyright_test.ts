/**
 * The engine against the real pyright language server on fixtures/python: complete references
 * on the first call, diagnostics that follow edits, a crash in the middle of a request, and no
 * process left behind.
 * @module
 */
import type { Diagnostic } from "../../src/deps.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  fixtureProject,
  hasServer,
  liveInGroup,
  positionOf,
  skipUnless,
  toLocs,
} from "../helpers/lsp.ts";
import type { ManagedServer } from "../../src/lsp/managed_server.ts";

const available = hasServer("pyright-langserver");

/** References to class Circle in fixtures/python, declaration included, by file. */
const CIRCLE_REFERENCES: Record<string, number> = {
  "shapes/__init__.py": 2,
  "shapes/circle.py": 3,
  "shapes/registry.py": 3,
  "app.py": 4,
  "broken.py": 2,
};

function errors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 1);
}

Deno.test({
  name: "pyright through the engine",
  ignore: skipUnless(available, "pyright tests"),
  async fn(t) {
    await using fx = await fixtureProject("python", { timeouts: { requestMs: 30_000 } });
    let server = await fx.pool.serverFor("shapes/circle.py") as ManagedServer;
    assertEquals(server.id, "python");
    const at = await positionOf(fx.path("shapes/circle.py"), "Circle(Shape)");
    const references = () =>
      server.request("textDocument/references", {
        textDocument: { uri: server.uriOf("shapes/circle.py") },
        position: at,
        context: { includeDeclaration: true },
      }, { sync: ["shapes/circle.py"] });
    const byFile = (result: unknown) => {
      const counts: Record<string, number> = {};
      for (const loc of toLocs(result)) {
        const rel = server.relPathOf(loc.uri) ?? loc.uri;
        counts[rel] = (counts[rel] ?? 0) + 1;
      }
      return counts;
    };

    await t.step("the first references request on a fresh server is complete", async () => {
      const result = await references();
      assertEquals(byFile(result), CIRCLE_REFERENCES);
      assertEquals(toLocs(result).length, 14);
    });

    await t.step("diagnostics follow edits", async () => {
      const before = errors(await server.diagnostics("broken.py"));
      assertEquals(before.length, 1);
      assertEquals(before[0]!.range.start.line, 3);
      assertMatch(before[0]!.message, /"Literal\['three'\]" is not assignable to "int"/);
      const text = await Deno.readTextFile(fx.path("broken.py"));
      await Deno.writeTextFile(fx.path("broken.py"), text.replace('"three"', "3"));
      await fx.pool.filesChanged([fx.path("broken.py")]);
      assertEquals(errors(await server.diagnostics("broken.py")), []);
      // Outside edit, not announced: the next query sees it.
      await Deno.writeTextFile(
        fx.path("broken.py"),
        text.replace('"three"', "3") + "\nx: str = 1\n",
      );
      const after = errors(await server.diagnostics("broken.py"));
      assertEquals(after.map((d) => d.range.start.line), [9]);
    });

    await t.step("a file created outside Sextant reaches the server (file watching)", async () => {
      await Deno.writeTextFile(
        fx.path("shapes/extra.py"),
        "from shapes.circle import Circle\n\nEXTRA = Circle(2.0)\n",
      );
      // Watching is asynchronous by nature: ask until the new file shows up (bounded).
      let count = 0;
      for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
        count = toLocs(await references()).length;
        if (count === 16) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assertEquals(count, 16);
    });

    await t.step(
      "a server killed during a request is restarted and the request retried",
      async () => {
        // A fresh process, so the request is slow enough (project analysis) to be interrupted.
        await fx.pool.restartAll();
        server = await fx.pool.serverFor("shapes/circle.py") as ManagedServer;
        const pid = server.pid!;
        const pending = references();
        // Kill as soon as the server has the request (our didOpen precedes it on the pipe).
        await server.syncFiles(["shapes/circle.py"]);
        Deno.kill(pid, "SIGKILL");
        const result = await pending;
        assertEquals(toLocs(result).length, 16);
        assertEquals(server.restarts, 1);
        assert(server.pid !== pid);
      },
    );

    await t.step("dispose leaves no process of the server's group", async () => {
      const pgid = server.pid!;
      await fx.pool.dispose();
      if (liveInGroup(pgid) >= 0) assertEquals(liveInGroup(pgid), 0);
    });
  },
});
