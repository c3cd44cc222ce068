/**
 * Each project's diagnostics as a subscribable MCP resource, over MCP with the real
 * typescript-language-server: reading it starts no server; once a tool opened a file its
 * diagnostics are listed; a subscriber hears `notifications/resources/updated` after an edit that
 * introduces an error, and reading again shows that error.
 * @module
 */
// The SDK's client side is only needed by tests: imported here, pinned like src/deps.ts.
// deno-lint-ignore-file no-import-prefix
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/inMemory"
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import { ResourceUpdatedNotificationSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { createServer } from "../../src/mcp/server.ts";
import { diagnosticsUri, parseDiagnosticsUri } from "../../src/mcp/prompts_resources.ts";
import type { Session } from "../../src/session/session.ts";
import type { Tool } from "../../src/tools/tool.ts";

const HAS_TS = hasServer("typescript-language-server");

const FILES = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
  "src/b.ts": "export function count(): number {\n  return 1;\n}\n",
};

async function connectTo(session: Session<Tool>) {
  const server = createServer(session, { instructions: () => "test instructions" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "unit", version: "0" });
  await client.connect(clientSide);
  return {
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

interface DiagnosticsResource {
  diagnostics: Array<Record<string, unknown>>;
  errorCount: number;
  filesChecked: number;
}

Deno.test("diagnostics URIs: the project's name, encoded; other URIs are not", () => {
  assertEquals(diagnosticsUri("my app"), "sextant://diagnostics/my%20app");
  assertEquals(parseDiagnosticsUri("sextant://diagnostics/my%20app"), "my app");
  assertEquals(parseDiagnosticsUri("sextant://diagnostics/"), null);
  assertEquals(parseDiagnosticsUri("sextant://diagnostics/a/b"), null);
  assertEquals(parseDiagnosticsUri("sextant://memories/a/b"), null);
});

Deno.test({
  name: "diagnostics resource: read, subscribe, an edit adds an error, updated, read again",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(FILES);
  await using c = await connectTo(h.session);
  const uri = diagnosticsUri(h.project.name);
  const read = async (): Promise<DiagnosticsResource> => {
    const { contents } = await c.client.readResource({ uri });
    assertEquals(contents[0]!.mimeType, "application/json");
    return JSON.parse((contents[0] as { text: string }).text);
  };

  const { resources } = await c.client.listResources();
  assert(resources.some((r) => r.uri === uri), "listed");
  const { resourceTemplates } = await c.client.listResourceTemplates();
  assert(resourceTemplates.some((t) => t.uriTemplate === "sextant://diagnostics/{project}"));
  const completion = await c.client.complete({
    ref: { type: "ref/resource", uri: "sextant://diagnostics/{project}" },
    argument: { name: "project", value: h.project.name.slice(0, 2) },
  });
  assertEquals(completion.completion.values, [h.project.name]);

  // Nothing runs yet: reading starts no language server.
  assertEquals((await read()).filesChecked, 0);
  assertEquals(h.session.existingServices(h.project)?.pool.running() ?? [], []);

  // A symbolic tool starts the server and opens the file: it is clean.
  await c.client.callTool({
    name: "get_symbols_overview",
    arguments: { relative_path: "src/b.ts" },
  });
  const clean = await read();
  assertEquals(clean.filesChecked, 1);
  assertEquals(clean.errorCount, 0);

  const updated = Promise.withResolvers<string>();
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.resolve(n.params.uri);
  });
  await c.client.subscribeResource({ uri });
  const edit = await c.client.callTool({
    name: "replace_content",
    arguments: {
      relative_path: "src/b.ts",
      needle: "return 1;",
      repl: 'return "one";',
      mode: "literal",
    },
  });
  assert(!edit.isError, JSON.stringify(edit));
  // Bounded, so a regression fails the test instead of hanging the run (not a speed claim).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve("no resources/updated within 120 s"), 120_000);
  });
  assertEquals(await Promise.race([updated.promise, late]), uri);
  clearTimeout(timer);

  const broken = await read();
  assertEquals(broken.errorCount, 1);
  const [error] = broken.diagnostics;
  assertEquals(error!.file, "src/b.ts");
  assertEquals(error!.line, 2);
  assertEquals(error!.severity, "error");
  assertStringIncludes(String(error!.message), "not assignable to type 'number'");
  await c.client.unsubscribeResource({ uri });
});
