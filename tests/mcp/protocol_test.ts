/**
 * Sextant's own MCP server protocol (src/mcp/protocol.ts, jsonrpc.ts) as units: initialize's
 * version negotiation, ping, unknown methods, bad params, cancellation, the logging level,
 * requests to the client, closing; the line framing. Then the SDK's client against it, the
 * conformance check.
 * @module
 */
// The SDK's client side is only needed by tests: imported here, pinned like src/deps.ts.
// deno-lint-ignore-file no-import-prefix
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/inMemory"
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import * as sdk from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../helpers/assert.ts";
import type { JSONRPCMessage, Transport, TransportSendOptions } from "../../src/deps_start.ts";
import { LineBuffer, McpError, parseMessage, serializeMessage } from "../../src/mcp/jsonrpc.ts";
import { DenoStdioTransport } from "../../src/mcp/stdio.ts";
import {
  LATEST_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  McpServer,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../../src/mcp/protocol.ts";

/** A transport that keeps what the server sends and delivers what the test says. */
class FakeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly sent: Array<{ message: JSONRPCMessage; options?: TransportSendOptions | undefined }> =
    [];
  #waiters: Array<() => void> = [];

  start(): Promise<void> {
    return Promise.resolve();
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent.push({ message, options });
    for (const wake of this.#waiters.splice(0)) wake();
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
  deliver(message: Record<string, unknown>): void {
    this.onmessage?.({ jsonrpc: "2.0", ...message } as JSONRPCMessage);
  }
  /** The wire text of what was sent, one line each. */
  lines(): string[] {
    return this.sent.map((s) => JSON.stringify(s.message));
  }
  /** Wait until `count` messages were sent. */
  async until(count: number): Promise<void> {
    while (this.sent.length < count) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

const CAPABILITIES = { tools: { listChanged: true }, logging: {} };

async function served(
  instructions?: string,
): Promise<{ server: McpServer; transport: FakeTransport }> {
  const server = new McpServer(
    { name: "sextant", version: "9.9.9" },
    { capabilities: CAPABILITIES, ...(instructions === undefined ? {} : { instructions }) },
  );
  const transport = new FakeTransport();
  await server.connect(transport);
  return { server, transport };
}

/** Settle the handlers' promise chains. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("protocol: the versions are the SDK's", () => {
  assertEquals(LATEST_PROTOCOL_VERSION, sdk.LATEST_PROTOCOL_VERSION);
  assertEquals([...SUPPORTED_PROTOCOL_VERSIONS], sdk.SUPPORTED_PROTOCOL_VERSIONS);
  assertEquals([...LOGGING_LEVELS], sdk.LoggingLevelSchema.options);
});

Deno.test("protocol: initialize answers the client's version if supported, else the latest", async () => {
  const { server, transport } = await served("Use the tools.");
  transport.deliver({
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-03-26",
      capabilities: { roots: { listChanged: true } },
      clientInfo: { name: "agent", version: "2" },
    },
  });
  transport.deliver({
    id: 2,
    method: "initialize",
    params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "old" } },
  });
  await transport.until(2);
  const capabilities = JSON.stringify(CAPABILITIES);
  assertEquals(transport.lines(), [
    `{"result":{"protocolVersion":"2025-03-26","capabilities":${capabilities},"serverInfo":` +
    `{"name":"sextant","version":"9.9.9"},"instructions":"Use the tools."},"jsonrpc":"2.0","id":1}`,
    `{"result":{"protocolVersion":"${LATEST_PROTOCOL_VERSION}","capabilities":${capabilities},` +
    `"serverInfo":{"name":"sextant","version":"9.9.9"},"instructions":"Use the tools."},` +
    `"jsonrpc":"2.0","id":2}`,
  ]);
  assertEquals(server.getClientVersion(), { name: "old" });
  assertEquals(server.getClientCapabilities(), {});

  // Without instructions the field is left out; a version that is no string is refused.
  const bare = await served();
  bare.transport.deliver({
    id: 3,
    method: "initialize",
    params: { protocolVersion: "2025-06-18" },
  });
  bare.transport.deliver({ id: 4, method: "initialize", params: { protocolVersion: 7 } });
  await bare.transport.until(2);
  assertEquals(
    (bare.transport.sent[0]!.message as { result: Record<string, unknown> }).result.instructions,
    undefined,
  );
  assertEquals(
    bare.transport.lines()[1],
    '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"MCP error -32602: ' +
      "Invalid params for initialize: 'protocolVersion' must be a string.\"}}",
  );
});

Deno.test("protocol: initialized, ping, an unknown method and params that are no object", async () => {
  const { server, transport } = await served();
  let initialized = 0;
  server.oninitialized = () => initialized++;
  transport.deliver({ method: "notifications/initialized" });
  transport.deliver({ id: "p", method: "ping" });
  transport.deliver({ id: 5, method: "no/such" });
  server.setRequestHandler("echo", (params) => params);
  transport.deliver({ id: 6, method: "echo", params: [1, 2] });
  transport.deliver({ id: 7, method: "echo" });
  await transport.until(4);
  assertEquals(initialized, 1);
  assertEquals(transport.lines().sort(), [
    '{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}',
    '{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"MCP error -32602: ' +
    'Invalid params for echo: params must be an object."}}',
    '{"result":{},"jsonrpc":"2.0","id":"p"}',
    '{"result":{},"jsonrpc":"2.0","id":7}',
  ]);
});

Deno.test("protocol: a handler's error is answered with its code, message and data", async () => {
  const { server, transport } = await served();
  server.setRequestHandler("missing", () => {
    throw new McpError(-32002, "Resource not found: x", { uri: "x" });
  });
  server.setRequestHandler("broken", () => Promise.reject(new TypeError("no")));
  server.setRequestHandler("odd", () => {
    throw "a string";
  });
  transport.deliver({ id: 1, method: "missing" });
  transport.deliver({ id: 2, method: "broken" });
  transport.deliver({ id: 3, method: "odd" });
  await transport.until(3);
  assertEquals(transport.lines().sort(), [
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"MCP error -32002: ' +
    'Resource not found: x","data":{"uri":"x"}}}',
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no"}}',
    '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}',
  ]);
});

Deno.test("protocol: cancellation aborts the request's signal and leaves it unanswered", async () => {
  const { server, transport } = await served();
  let signal: AbortSignal | null = null;
  let release!: () => void;
  server.setRequestHandler("slow", async (_params, extra) => {
    signal = extra.signal;
    await extra.sendNotification({ method: "notifications/progress", params: { progress: 1 } });
    await new Promise<void>((resolve) => release = resolve);
    await extra.sendNotification({ method: "notifications/progress", params: { progress: 2 } });
    return { done: true };
  });
  transport.deliver({ id: 0, method: "slow" });
  await transport.until(1);
  assertEquals(transport.sent[0]!.options, { relatedRequestId: 0 });
  transport.deliver({
    method: "notifications/cancelled",
    params: { requestId: 0, reason: "user" },
  });
  await settle();
  assert(signal!.aborted);
  assertEquals(signal!.reason, "user");
  release();
  await settle();
  transport.deliver({ id: 1, method: "ping" });
  await transport.until(2);
  assertEquals(transport.lines(), [
    '{"method":"notifications/progress","params":{"progress":1},"jsonrpc":"2.0"}',
    '{"result":{},"jsonrpc":"2.0","id":1}',
  ]);
});

Deno.test("protocol: logging/setLevel filters the logging notifications", async () => {
  const { server, transport } = await served();
  await server.sendLoggingMessage({ level: "debug", data: "before" });
  transport.deliver({ id: 1, method: "logging/setLevel", params: { level: "warning" } });
  transport.deliver({ id: 2, method: "logging/setLevel", params: { level: "loud" } });
  await transport.until(3);
  await server.sendLoggingMessage({ level: "info", data: "dropped" });
  await server.sendLoggingMessage({ level: "warning", logger: "x", data: "kept" });
  await server.sendLoggingMessage({ level: "emergency", data: "kept too" });
  const lines = transport.lines();
  assertEquals(
    lines[0],
    '{"method":"notifications/message","params":{"level":"debug","data":"before"},"jsonrpc":"2.0"}',
  );
  assertEquals(lines[1], '{"result":{},"jsonrpc":"2.0","id":1}');
  assertStringIncludes(lines[2]!, '"code":-32602');
  assertStringIncludes(lines[2]!, "'level' must be one of debug, info");
  assertEquals(lines.slice(3).map((l) => JSON.parse(l).params.data), ["kept", "kept too"]);
});

Deno.test("protocol: requests to the client: answered, failed, timed out, cut by close", async () => {
  const { server, transport } = await served();
  const roots = server.listRoots();
  await transport.until(1);
  assertEquals(transport.lines()[0], '{"method":"roots/list","jsonrpc":"2.0","id":0}');
  transport.deliver({ id: 0, result: { roots: [{ uri: "file:///a", name: "a" }] } });
  assertEquals(await roots, [{ uri: "file:///a", name: "a" }]);

  const refused = server.request("roots/list", undefined);
  await transport.until(2);
  transport.deliver({ id: 1, error: { code: -32601, message: "Method not found" } });
  const error = await assertRejects(() => refused, "Method not found");
  assert(error instanceof McpError);
  assertEquals(error.code, -32601);

  const malformed = server.listRoots();
  transport.deliver({ id: 2, result: { roots: "no" } });
  await assertRejects(() => malformed, "without a list of roots");

  await assertRejects(() => server.listRoots({ timeout: 1 }), "Request timed out");
  assertEquals(
    transport.lines().at(-1),
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,' +
      '"reason":"McpError: MCP error -32001: Request timed out"}}',
  );

  let closed = 0;
  server.onclose = () => closed++;
  const cut = server.request("roots/list", undefined);
  let running: AbortSignal | null = null;
  server.setRequestHandler("hang", (_params, extra) => {
    running = extra.signal;
    return new Promise(() => {});
  });
  transport.deliver({ id: 9, method: "hang" });
  await settle();
  await server.close();
  const closedError = await assertRejects(() => cut, "Connection closed");
  assertEquals((closedError as McpError).code, -32000);
  assert(running!.aborted, "a running handler is aborted on close");
  assertEquals(closed, 1);
  await assertRejects(() => server.sendToolListChanged(), "Not connected");
});

Deno.test("protocol: notifications reach their handler or the fallback; callbacks set first run first", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { capabilities: {} });
  const transport = new FakeTransport();
  const order: string[] = [];
  transport.onclose = () => order.push("transport closed");
  server.onclose = () => order.push("server closed");
  const errors: Error[] = [];
  server.onerror = (error) => errors.push(error);
  await server.connect(transport);
  const seen: unknown[] = [];
  server.setNotificationHandler("notifications/roots/list_changed", (params) => {
    seen.push(params);
  });
  server.fallbackNotificationHandler = (notification) => {
    seen.push(notification);
    if (notification.method === "bad") throw new Error("handler failed");
  };
  transport.deliver({ method: "notifications/roots/list_changed" });
  transport.deliver({ method: "notifications/sextant/front", params: { restarted: true } });
  transport.deliver({ method: "bad" });
  transport.deliver({ id: 77, result: {} });
  await settle();
  assertEquals(seen, [
    {},
    { method: "notifications/sextant/front", params: { restarted: true } },
    { method: "bad", params: {} },
  ]);
  assertEquals(errors.map((e) => e.message.split(":")[0]), [
    "Received a response for an unknown message ID",
    "Uncaught error in notification handler",
  ]);
  // Logging is not among these capabilities: no notification, and no setLevel.
  await server.sendLoggingMessage({ level: "error", data: "x" });
  transport.deliver({ id: 1, method: "logging/setLevel", params: { level: "info" } });
  await transport.until(1);
  assertStringIncludes(transport.lines()[0]!, '"code":-32601');
  await server.close();
  assertEquals(order, ["transport closed", "server closed"]);
  await assertRejects(() => server.connect(transport).then(() => server.connect(transport)));
});

Deno.test("jsonrpc: lines across chunks, CRLF, split characters; an overlong line throws", () => {
  const buffer = new LineBuffer(16);
  const enc = new TextEncoder();
  assertEquals(buffer.push(enc.encode('{"a":')), []);
  assertEquals(buffer.push(enc.encode('1}\r\n{"b":2}\n{"c"')), ['{"a":1}', '{"b":2}']);
  assertEquals(buffer.push(enc.encode(":3}\n")), ['{"c":3}']);
  // A character split between chunks is decoded whole.
  const bytes = enc.encode("é\n");
  assertEquals(buffer.push(bytes.subarray(0, 1)), []);
  assertEquals(buffer.push(bytes.subarray(1)), ["é"]);
  // Complete lines of any length pass; an unfinished one over 16 bytes, even across chunks, throws.
  assertEquals(buffer.push(enc.encode("x".repeat(20) + "\n")), ["x".repeat(20)]);
  assertEquals(buffer.push(enc.encode("x".repeat(10))), []);
  assertThrows(() => buffer.push(enc.encode("x".repeat(10))), "passed 16 bytes (20 bytes");
});

Deno.test("stdio: a line over the limit closes the transport, saying why", async () => {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  const transport = new DenoStdioTransport({
    input,
    output: new WritableStream<Uint8Array>(),
    maxLineBytes: 64,
  });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  await transport.start();
  feed.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
  feed.enqueue(new TextEncoder().encode("y".repeat(100)));
  await closed;
  assertEquals(messages.length, 1);
  assertEquals(errors.length, 1);
  assertStringIncludes(errors[0]!.message, "passed 64 bytes");
});

Deno.test("jsonrpc: messages are checked as envelopes and serialized as lines", () => {
  const request = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } };
  assertEquals(parseMessage(JSON.stringify(request)), request as JSONRPCMessage);
  assertEquals(serializeMessage(request as JSONRPCMessage), JSON.stringify(request) + "\n");
  for (
    const [line, problem] of [
      ["{", "JSON"],
      ["[1]", "not an object"],
      ['{"jsonrpc":"1.0","method":"x"}', "'jsonrpc'"],
      ['{"jsonrpc":"2.0","id":1.5,"method":"x"}', "'id'"],
      ['{"jsonrpc":"2.0","id":1,"result":3}', "'result'"],
      ['{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}', "'error'"],
      ['{"jsonrpc":"2.0","id":1}', "no 'method'"],
    ]
  ) {
    assertThrows(() => parseMessage(line!), problem!);
  }
});

Deno.test("protocol: the SDK's client talks to it (initialize, ping, logging, roots, tools)", async () => {
  const server = new McpServer(
    { name: "sextant", version: "1" },
    { capabilities: CAPABILITIES, instructions: "hello" },
  );
  server.setRequestHandler("tools/list", () => ({
    tools: [{ name: "t", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler("tools/call", async (params, extra) => {
    const token = extra.meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: 1, total: 2 },
      });
    }
    return { content: [{ type: "text", text: `called ${params.name}` }] };
  });
  let initialized = false;
  server.oninitialized = () => initialized = true;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "unit", version: "3" }, { capabilities: { roots: {} } });
  client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///r" }] }));
  const logged: unknown[] = [];
  client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (n) => {
    logged.push(n.params.data);
  });
  await client.connect(clientSide);
  try {
    assertEquals(client.getServerVersion(), { name: "sextant", version: "1" });
    assertEquals(client.getInstructions(), "hello");
    assertEquals(client.getServerCapabilities(), CAPABILITIES);
    assertEquals(server.getClientVersion(), { name: "unit", version: "3" });
    for (let i = 0; i < 50 && !initialized; i++) await settle();
    assert(initialized);
    await client.ping();
    assertEquals((await client.listTools()).tools.map((t) => t.name), ["t"]);
    const progress: number[] = [];
    const result = await client.callTool({ name: "t", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    assertEquals(result.content, [{ type: "text", text: "called t" }]);
    assertEquals(progress, [1]);
    await client.setLoggingLevel("error");
    await server.sendLoggingMessage({ level: "info", data: "quiet" });
    await server.sendLoggingMessage({ level: "error", data: "loud" });
    assertEquals(await server.listRoots(), [{ uri: "file:///r" }]);
    assertEquals(logged, ["loud"]);
    const unknown = await assertRejects(() =>
      client.request({ method: "nope" }, sdk.EmptyResultSchema)
    );
    assertEquals((unknown as McpError).code, -32601);
  } finally {
    await client.close();
    await server.close();
  }
});
