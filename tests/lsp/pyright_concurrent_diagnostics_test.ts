/**
 * pyright's pushed diagnostics for several files awaited at once: the engine must not be left
 * believing pyright is still analysing, so a later query answers (a regression test for readiness
 * stuck on pyright's "N files to analyze" progress).
 * @module
 */
import type { Diagnostic } from "../../src/deps.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fixtureProject, hasServer, positionOf, skipUnless, toLocs } from "../helpers/lsp.ts";
import type { ManagedServer } from "../../src/lsp/managed_server.ts";

function countLines(text: string): number {
  return text.split("\n").length - 1;
}

function errorLines(diagnostics: Diagnostic[]): number[] {
  return diagnostics.filter((d) => d.severity === 1).map((d) => d.range.start.line);
}

for (const command of ["pyright-langserver", "basedpyright-langserver"]) {
  Deno.test({
    name: `${command}: diagnostics of two edited files awaited together, then a prompt query`,
    ignore: skipUnless(hasServer(command), `${command} tests`),
    async fn() {
      await using fx = await fixtureProject("python", {
        overrides: { language_servers: { python: { command } } },
      });
      const server = await fx.pool.serverFor("shapes/circle.py") as ManagedServer;
      assertEquals(server.command, command);
      // Both files opened and checked once, as a new-errors report does before a write.
      const [broken, app] = await Promise.all([
        server.diagnostics("broken.py"),
        server.diagnostics("app.py"),
      ]);
      assertEquals(errorLines(broken), [3]);
      assertEquals(errorLines(app), []);
      // Both edited, announced, and their diagnostics awaited together.
      const brokenText = await Deno.readTextFile(fx.path("broken.py"));
      const appText = await Deno.readTextFile(fx.path("app.py"));
      await Deno.writeTextFile(fx.path("broken.py"), brokenText + "\ny: str = 1\n");
      await Deno.writeTextFile(fx.path("app.py"), appText + "\nz: int = 'z'\n");
      await fx.pool.filesChanged([fx.path("broken.py"), fx.path("app.py")]);
      const [brokenAfter, appAfter] = await Promise.all([
        server.diagnostics("broken.py"),
        server.diagnostics("app.py"),
      ]);
      assertEquals(errorLines(brokenAfter), [3, 9]);
      assertEquals(errorLines(appAfter), [countLines(appText) + 1]);
      // Opened only for the check and closed as each answers (transient), four at once, twice:
      // the pattern that left pyright reporting files to analyze after it had gone idle.
      const others = ["shapes/square.py", "shapes/registry.py", "shapes/base.py", "app.py"];
      for (let round = 0; round < 2; round++) {
        const checked = await Promise.all(
          others.map((f) => server.diagnostics(f, { transient: true })),
        );
        assertEquals(checked.map(errorLines), [[], [], [], errorLines(appAfter)]);
      }
      // The engine must see pyright idle again: this query answers (the test timeout is the
      // failure) and completely.
      const at = await positionOf(fx.path("shapes/circle.py"), "Circle(Shape)");
      const result = await server.request("textDocument/references", {
        textDocument: { uri: server.uriOf("shapes/circle.py") },
        position: at,
        context: { includeDeclaration: true },
      }, { sync: ["shapes/circle.py"] });
      assertEquals(toLocs(result).length, 14);
    },
  });
}
