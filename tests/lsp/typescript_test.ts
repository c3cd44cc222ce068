/**
 * The engine against both TypeScript server generations on fixtures/typescript
 * (typescript-language-server over tsserver, and TypeScript 7's own `tsc --lsp`): complete
 * references on the first call, outside edits seen, versioned diagnostics, crash recovery,
 * cancellation, and no process left behind. One server start per generation.
 * @module
 */
import type { Diagnostic } from "../../src/deps.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  fixtureProject,
  hasTypeScriptGeneration,
  liveInGroup,
  positionOf,
  processAlive,
  skipUnless,
  toLocs,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { basename } from "node:path";
import type { ManagedServer } from "../../src/lsp/managed_server.ts";

/** References to class Circle in fixtures/typescript, declaration included, by file. */
const CIRCLE_REFERENCES: Record<string, number> = {
  "src/shapes.ts": 3,
  "src/geometry.ts": 7,
  "src/registry.ts": 4,
  "src/main.ts": 4,
  "src/broken.ts": 2,
};

function countByFile(server: ManagedServer, result: unknown): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const loc of toLocs(result)) {
    const rel = server.relPathOf(loc.uri) ?? loc.uri;
    counts[rel] = (counts[rel] ?? 0) + 1;
  }
  return counts;
}

function errors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 1);
}

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `${generation.name} through the engine`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    async fn(t) {
      await using fx = await fixtureProject("typescript", {
        timeouts: { requestMs: 30_000 },
        typescript: generation.typescript,
      });
      const server = await fx.pool.serverFor("src/shapes.ts") as ManagedServer;
      assertEquals(server.id, "typescript");
      assertEquals(basename(server.command), generation.command);
      const circleAt = await positionOf(fx.path("src/shapes.ts"), "Circle implements");
      const references = (sync: string[] = ["src/shapes.ts"], signal?: AbortSignal) =>
        server.request("textDocument/references", {
          textDocument: { uri: server.uriOf("src/shapes.ts") },
          position: circleAt,
          context: { includeDeclaration: true },
        }, { sync, signal });

      await t.step("the first references request on a fresh server is complete", async () => {
        const progress: string[] = [];
        const result = await server.request("textDocument/references", {
          textDocument: { uri: server.uriOf("src/shapes.ts") },
          position: circleAt,
          context: { includeDeclaration: true },
        }, { sync: ["src/shapes.ts"], onProgress: (m) => progress.push(m) });
        assertEquals(countByFile(server, result), CIRCLE_REFERENCES);
        assertEquals(toLocs(result).length, 20);
      });

      await t.step("implementations of an interface", async () => {
        const at = await positionOf(fx.path("src/shapes.ts"), "Shape {");
        const result = await server.request("textDocument/implementation", {
          textDocument: { uri: server.uriOf("src/shapes.ts") },
          position: at,
        }, { sync: ["src/shapes.ts"] });
        const found = toLocs(result).map((l) => `${server.relPathOf(l.uri)}:${l.line + 1}`);
        // Both classes; tsserver also lists a `Circle[]` array literal in registry.ts.
        assert(found.includes("src/shapes.ts:9"), `Circle missing: ${found}`);
        assert(found.includes("src/shapes.ts:27"), `Square missing: ${found}`);
      });

      await t.step("hierarchical document symbols include nested functions", async () => {
        const result = await server.request<Array<{ name: string; children?: unknown[] }>>(
          "textDocument/documentSymbol",
          { textDocument: { uri: server.uriOf("src/geometry.ts") } },
          { sync: ["src/geometry.ts"] },
        );
        const names = JSON.stringify(result);
        for (const name of ["totalArea", "areaOf", "rounded", "scale", "largest"]) {
          assert(names.includes(`"${name}"`), `${name} missing from ${names}`);
        }
        const total = result.find((s) => s.name === "totalArea");
        assert(total?.children?.length, "totalArea has no children: not hierarchical");
      });

      await t.step("diagnostics match the content on disk", async () => {
        const before = errors(await server.diagnostics("src/broken.ts"));
        assertEquals(before.length, 1);
        assertEquals(before[0]!.range.start.line, 3);
        assertMatch(before[0]!.message, /not assignable to type 'number'/);
        // Our own edit, announced the way tools do it: fixed at once.
        const fixed = (await Deno.readTextFile(fx.path("src/broken.ts"))).replace('"three"', "3");
        await Deno.writeTextFile(fx.path("src/broken.ts"), fixed);
        await fx.pool.filesChanged([fx.path("src/broken.ts")]);
        assertEquals(errors(await server.diagnostics("src/broken.ts")), []);
        // An edit from outside, not announced: seen on the next query all the same.
        await Deno.writeTextFile(
          fx.path("src/broken.ts"),
          fixed + "\nexport const wrong: string = 42;\n",
        );
        const after = errors(await server.diagnostics("src/broken.ts"));
        assertEquals(after.length, 1);
        assertEquals(after[0]!.range.start.line, 9);
      });

      await t.step("a file edited outside the server is seen by the next query", async () => {
        const main = await Deno.readTextFile(fx.path("src/main.ts"));
        await Deno.writeTextFile(
          fx.path("src/main.ts"),
          main + "\nexport const extra: Circle = new Circle(5);\n",
        );
        // The query names main.ts: it is synced (opened with its disk content) before the request.
        const result = await references(["src/shapes.ts", "src/main.ts"]);
        assertEquals(countByFile(server, result)["src/main.ts"], 6);
        assertEquals(toLocs(result).length, 22);
      });

      await t.step(
        "an outside edit of an open document the query does not name is seen",
        async () => {
          // main.ts is open (the step before synced it); this query names only shapes.ts.
          assert(server.openDocuments().includes("src/main.ts"));
          const before = await Deno.readTextFile(fx.path("src/main.ts"));
          for (const [extra, expected] of [[1, 23], [2, 24]] as const) {
            await Deno.writeTextFile(
              fx.path("src/main.ts"),
              before + "\nexport const more = [\n" + "  new Circle(6),\n".repeat(extra) + "];\n",
            );
            // No wait of any kind between the write and the query.
            assertEquals(toLocs(await references()).length, expected);
          }
          await Deno.writeTextFile(fx.path("src/main.ts"), before);
          assertEquals(toLocs(await references()).length, 22);
        },
      );

      await t.step("a transient open answers, then closes the document again", async () => {
        const opened = server.openDocuments();
        assert(!opened.includes("src/registry.ts"), `registry.ts open already: ${opened}`);
        const symbols = (relPath: string) =>
          server.request<Array<{ name: string }>>("textDocument/documentSymbol", {
            textDocument: { uri: server.uriOf(relPath) },
          }, { sync: [relPath], transient: true });
        // typescript-language-server answers documentSymbol only for open documents.
        const result = await symbols("src/registry.ts");
        assert(result.some((s) => s.name === "ShapeRegistry"), JSON.stringify(result));
        assert(!server.openDocuments().includes("src/registry.ts"), "closed after the answer");
        // Eight at once on the same file: one open, closed when the last one is answered.
        const all = await Promise.all(Array.from({ length: 8 }, () => symbols("src/registry.ts")));
        assert(all.every((r) => r.some((s) => s.name === "ShapeRegistry")));
        assert(!server.openDocuments().includes("src/registry.ts"));
        // A document that was open stays open.
        await symbols("src/shapes.ts");
        assert(server.openDocuments().includes("src/shapes.ts"));
        assertEquals(server.openDocuments().sort(), [...opened].sort());
      });

      await t.step("an aborted request rejects with the signal's reason", async () => {
        const controller = new AbortController();
        controller.abort(new Error("caller gave up"));
        let message = "";
        try {
          await references(undefined, controller.signal);
        } catch (error) {
          message = (error as Error).message;
        }
        assertEquals(message, "caller gave up");
      });

      await t.step("a killed server is restarted and the call succeeds", async () => {
        const pid = server.pid;
        assert(pid !== null);
        Deno.kill(pid, "SIGKILL");
        const result = await references();
        assertEquals(toLocs(result).length, 22);
        assertEquals(server.restarts, 1);
        assert(server.pid !== null && server.pid !== pid, "expected a new process");
        assert(!processAlive(pid));
      });

      await t.step("dispose leaves no process of the server's group", async () => {
        const pgid = server.pid!;
        assert(liveInGroup(pgid) !== 0, "the server should run before dispose");
        await fx.pool.dispose();
        assertEquals(server.pid, null);
        if (liveInGroup(pgid) >= 0) assertEquals(liveInGroup(pgid), 0);
      });
    },
  });
}
