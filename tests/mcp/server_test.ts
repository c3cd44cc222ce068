/**
 * The MCP server in-process (SDK client over an in-memory transport): tool listing and
 * annotations, argument validation, errors, timeouts, cancellation, progress, answer limits;
 * plus the stdio transport and limitAnswer as units.
 * @module
 */
// The SDK's client side is only needed by tests: imported here, pinned like src/deps.ts.
// deno-lint-ignore-file no-import-prefix
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/inMemory"
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { type JSONRPCMessage, z } from "../../src/deps.ts";
import { createServer, describeTool } from "../../src/mcp/server.ts";
import { limitAnswer, tooLongMessage } from "../../src/tools/limit.ts";
import { DenoStdioTransport } from "../../src/mcp/stdio.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { DEFAULT_SETTINGS, type Settings } from "../../src/config/schema.ts";
import { defineTool, type Tool } from "../../src/tools/tool.ts";
import { ToolError } from "../../src/errors.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { editTool } from "../../src/tools/files/edit.ts";
import { maxAnswerChars } from "../../src/tools/shared/params.ts";
import { createTextFile } from "../../src/tools/files/create_text_file.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

// --- test tools -------------------------------------------------------------------------------

let lastSignal: AbortSignal | null = null;

const echo = defineTool({
  name: "echo",
  description: "Echo text.",
  params: {
    text: z.string().describe("What to echo."),
    times: z.number().int().min(1).default(1),
    max_answer_chars: maxAnswerChars,
  },
  readOnly: true,
  handler: (args) => Promise.resolve(args.text.repeat(args.times)),
});

const boom = defineTool({
  name: "boom",
  description: "Throws.",
  params: { kind: z.enum(["tool", "bare", "type"]) },
  readOnly: true,
  handler(args) {
    if (args.kind === "tool") throw new ToolError("You asked for it.");
    if (args.kind === "bare") throw new ToolError('{"error":"json"}', { bare: true });
    throw new TypeError("cannot read properties of undefined");
  },
});

const slow = defineTool({
  name: "slow",
  description: "Waits until aborted, reporting progress.",
  params: {},
  readOnly: true,
  async handler(_args, ctx) {
    lastSignal = ctx.signal;
    await ctx.progress(1, 2, "halfway");
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    return "stopped";
  },
});

const needsProject = defineTool({
  name: "needs_project",
  description: "Uses the project.",
  params: {},
  readOnly: true,
  handler: (_args, ctx) => Promise.resolve(ctx.project().name),
});

const hidden = defineTool({
  name: "hidden",
  description: "Optional, not exposed by default.",
  params: {},
  markers: ["optional"],
  readOnly: true,
  handler: () => Promise.resolve("x"),
});

const TEST_TOOLS: Tool[] = [echo, boom, slow, needsProject, hidden, editTool];

async function connectTo(
  session: Session<Tool>,
): Promise<{ client: Client; [Symbol.asyncDispose](): Promise<void> }> {
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

function settings(over: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS) as Settings, ...over };
}

function text(result: Record<string, unknown>): string {
  return (result.content as Array<{ text: string }>).map((c) => c.text).join("");
}

// --- listing ----------------------------------------------------------------------------------

Deno.test("server: tools/list exposes active tools with schemas and annotations", async () => {
  // The ada context hides none of these (desktop-app and agent hide edit, as Serena's lists have
  // no such tool).
  const session = new Session({ settings: settings({ context: "ada" }), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const { tools } = await c.client.listTools();
  assertEquals(tools.map((t) => t.name), ["echo", "boom", "slow", "needs_project", "edit"]);
  const e = tools.find((t) => t.name === "echo")!;
  assertEquals(e.annotations?.readOnlyHint, true);
  assertEquals(e.annotations?.destructiveHint, false);
  assertEquals(e.inputSchema.required, ["text"]);
  assertEquals(e.inputSchema.additionalProperties, false);
  const props = e.inputSchema.properties as Record<string, Record<string, unknown>>;
  assertEquals(props.text, { type: "string", description: "What to echo." });
  assertEquals(props.times, { type: "integer", minimum: 1, default: 1 });
  assertEquals(props.max_answer_chars!.default, -1);
  assert(!("maximum" in props.max_answer_chars!), "implicit safe-integer bounds are dropped");
  const ed = tools.find((t) => t.name === "edit")!;
  assertEquals(ed.annotations?.readOnlyHint, false);
  assertEquals(ed.annotations?.destructiveHint, true);
});

Deno.test("server: describeTool annotations for the real file tools", () => {
  assertEquals(describeTool(readFile).annotations, {
    readOnlyHint: true,
    destructiveHint: false,
    openWorldHint: false,
  });
  assertEquals(describeTool(createTextFile).annotations?.destructiveHint, true);
  assertEquals(describeTool(editTool).annotations?.readOnlyHint, false);
  for (const tool of ALL_TOOLS) {
    const d = describeTool(tool);
    assertEquals(d.inputSchema.type, "object", tool.name);
    // Code mode's one tool carries the API overview (issue 18), within the list's 6,000 chars.
    const max = tool.name === "repl" ? 3072 : 1024;
    assert(d.description!.length < max, `${tool.name}: description under ${max} characters`);
    assertEquals(d.annotations?.readOnlyHint, tool.readOnly, tool.name);
  }
});

Deno.test("server: a tools/list_changed notification follows a tool-set change", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  let changed = 0;
  c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++;
  });
  session.onToolsChanged();
  for (let i = 0; i < 50 && changed === 0; i++) await new Promise((r) => setTimeout(r, 5));
  assertEquals(changed, 1);
});

// --- calling ------------------------------------------------------------------------------

Deno.test("server: a call returns the handler's text; defaults apply", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "echo", arguments: { text: "ab" } });
  assertEquals(r.isError, undefined);
  assertEquals(text(r), "ab");
  assertEquals(
    text(await c.client.callTool({ name: "echo", arguments: { text: "ab", times: 3 } })),
    "ababab",
  );
});

Deno.test("server: structured output as Serena's: outputSchema on every tool, {result: text}", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const { tools } = await c.client.listTools();
  for (const tool of tools) {
    assertEquals(tool.outputSchema, {
      type: "object",
      properties: { result: { type: "string" } },
      required: ["result"],
    }, tool.name);
  }
  // The SDK client checks structuredContent against the tool's outputSchema.
  const r = await c.client.callTool({ name: "echo", arguments: { text: "ab" } });
  assertEquals(r.structuredContent, { result: "ab" });
  assertEquals(r.content, [{ type: "text", text: "ab" }]);
  const failed = await c.client.callTool({ name: "boom", arguments: { kind: "tool" } });
  assertEquals(failed.isError, true);
  assertEquals(failed.structuredContent, undefined);
});

Deno.test("server: notes about earlier calls come in a content block of their own", async () => {
  const noted = defineTool({
    name: "noted",
    description: "Answers JSON with a note beside it.",
    params: {},
    readOnly: true,
    handler: () => Promise.resolve({ text: '{"a.ts":["x"]}', notes: ["Your previous edit..."] }),
  });
  const session = new Session({ settings: settings(), tools: [noted] });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "noted", arguments: {} });
  assertEquals(r.content, [
    { type: "text", text: '{"a.ts":["x"]}' },
    { type: "text", text: "Your previous edit..." },
  ]);
  assertEquals(r.structuredContent, { result: '{"a.ts":["x"]}' });
});

Deno.test("server: workflow prompts, memories as resources, completion of their names", async () => {
  await using h = await toolHarness({
    ".sextant/memories/notes/architecture.md": "layers\n",
    ".sextant/memories/build.md": "deno task test\n",
  });
  await using c = await connectTo(h.session);
  const name = h.project.name;

  const { prompts } = await c.client.listPrompts();
  assertEquals(prompts.map((p) => p.name), [
    "onboarding",
    "devtools_workflow",
    "ada_workflow",
    "summarize_changes",
    "prepare_for_new_conversation",
  ]);
  const onboarding = await c.client.getPrompt({ name: "onboarding" });
  assertEquals(onboarding.messages[0]!.role, "user");
  assertStringIncludes((onboarding.messages[0]!.content as { text: string }).text, name);
  await assertRejects(() => c.client.getPrompt({ name: "nope" }), "Unknown prompt");

  const { resources: all } = await c.client.listResources();
  // Each project's diagnostics come first (tests/mcp/diagnostics_resource_test.ts), then memories.
  assertEquals(all[0]!.uri, `sextant://diagnostics/${encodeURIComponent(name)}`);
  const resources = all.slice(1);
  assertEquals(resources.map((r) => r.uri), [
    `sextant://memories/${encodeURIComponent(name)}/build`,
    `sextant://memories/${encodeURIComponent(name)}/notes/architecture`,
  ]);
  assertEquals(await c.client.readResource({ uri: resources[1]!.uri }), {
    contents: [{ uri: resources[1]!.uri, mimeType: "text/markdown", text: "layers\n" }],
  });
  await assertRejects(
    () => c.client.readResource({ uri: `sextant://memories/${name}/nope` }),
    "Resource not found",
  );
  const { resourceTemplates } = await c.client.listResourceTemplates();
  assertEquals(resourceTemplates.map((t) => t.uriTemplate), [
    "sextant://memories/{project}/{name}",
    "sextant://diagnostics/{project}",
  ]);

  const complete = async (argument: string, value: string, context = {}) =>
    (await c.client.complete({
      ref: { type: "ref/resource", uri: "sextant://memories/{project}/{name}" },
      argument: { name: argument, value },
      context: { arguments: context },
    })).completion.values;
  assertEquals(await complete("name", "no"), ["notes/architecture"]);
  assertEquals(await complete("name", "", { project: name }), ["build", "notes/architecture"]);
  assertEquals(await complete("project", name.slice(0, 3)), [name]);
  assertEquals(await complete("project", "zz"), []);

  // A subscribed memory changed by a tool is announced once, after that call.
  const updated: string[] = [];
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
  });
  await c.client.subscribeResource({ uri: resources[0]!.uri });
  await c.client.callTool({
    name: "read_file",
    arguments: { relative_path: ".sextant/memories/build.md" },
  });
  await Deno.writeTextFile(h.path(".sextant/memories/build.md"), "deno task ok\n");
  await c.client.callTool({ name: "list_memories", arguments: {} });
  await c.client.callTool({ name: "list_memories", arguments: {} });
  assertEquals(updated, [resources[0]!.uri]);
  await c.client.unsubscribeResource({ uri: resources[0]!.uri });
});

Deno.test("server: an unknown tool is a JSON-RPC error, not a tool result", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const error = await assertRejects(() => c.client.callTool({ name: "nope", arguments: {} }));
  assertStringIncludes(error.message, "Unknown tool 'nope'");
  assertEquals((error as Error & { code: number }).code, -32602);
  const inactive = await assertRejects(() => c.client.callTool({ name: "hidden", arguments: {} }));
  assertStringIncludes(inactive.message, "not active");
});

Deno.test("server: invalid arguments are isError results naming the parameter", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const missing = await c.client.callTool({ name: "echo", arguments: {} });
  assertEquals(missing.isError, true);
  assertMatch(
    text(missing),
    /^Error: invalid arguments for echo: 'text': .*Parameters: text, times, max_answer_chars\.$/,
  );
  const unknown = await c.client.callTool({
    name: "echo",
    arguments: { text: "a", colour: "red" },
  });
  assertEquals(unknown.isError, true);
  assertStringIncludes(text(unknown), "unknown parameter(s) 'colour'");
  const wrongType = await c.client.callTool({ name: "echo", arguments: { text: "a", times: "2" } });
  assertEquals(wrongType.isError, true);
  assertMatch(text(wrongType), /'times': .*number/);
  const badEnum = await c.client.callTool({ name: "boom", arguments: { kind: "other" } });
  assertMatch(text(badEnum), /'kind'/);
  const badLimit = await c.client.callTool({
    name: "echo",
    arguments: { text: "a", max_answer_chars: 0 },
  });
  assertEquals(badLimit.isError, true);
  assertStringIncludes(text(badLimit), "'max_answer_chars': must be positive or -1");
});

Deno.test("server: failures are isError results with a message and no stack trace", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const tool = await c.client.callTool({ name: "boom", arguments: { kind: "tool" } });
  assertEquals(tool.isError, true);
  assertEquals(text(tool), "Error: You asked for it.");
  const bare = await c.client.callTool({ name: "boom", arguments: { kind: "bare" } });
  assertEquals(text(bare), '{"error":"json"}');
  const bug = await c.client.callTool({ name: "boom", arguments: { kind: "type" } });
  assertEquals(bug.isError, true);
  assertEquals(text(bug), "Error: TypeError: cannot read properties of undefined");
  assert(!text(bug).includes("    at "), "no stack trace");
});

Deno.test("server: a tool that needs a project says to activate one", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "needs_project", arguments: {} });
  assertEquals(r.isError, true);
  assertStringIncludes(text(r), "No active project");
});

Deno.test("server: answers are limited with the contract's message", async () => {
  const session = new Session({
    settings: settings({ default_max_tool_answer_chars: 10 }),
    tools: TEST_TOOLS,
  });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "echo", arguments: { text: "x", times: 11 } });
  assertEquals(text(r), tooLongMessage(11));
  const raised = await c.client.callTool({
    name: "echo",
    arguments: { text: "x", times: 11, max_answer_chars: 11 },
  });
  assertEquals(text(raised), "x".repeat(11));
});

Deno.test("server: the project's default_max_tool_answer_chars applies", async () => {
  await using h = await toolHarness({ "big.txt": "b".repeat(50) }, {
    projectConfig: { default_max_tool_answer_chars: 20 },
  });
  const session = new Session({
    settings: settings(),
    tools: ALL_TOOLS,
    project: h.project,
    host: () => new ProjectHost(),
  });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "read_file", arguments: { relative_path: "big.txt" } });
  assertEquals(text(r), tooLongMessage(50));
});

Deno.test("server: tool_timeout turns a hung tool into an error and aborts its signal", async () => {
  const session = new Session({ settings: settings({ tool_timeout: 0.05 }), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "slow", arguments: {} });
  assertEquals(r.isError, true);
  assertStringIncludes(text(r), "slow timed out after 0.05 s (tool_timeout)");
  assertEquals(lastSignal?.aborted, true);
});

Deno.test("server: the project's tool_timeout applies", async () => {
  await using h = await toolHarness({}, { projectConfig: { tool_timeout: 0.05 } });
  const session = new Session({ settings: settings(), tools: TEST_TOOLS, project: h.project });
  await using c = await connectTo(session);
  const r = await c.client.callTool({ name: "slow", arguments: {} });
  assertStringIncludes(text(r), "slow timed out after 0.05 s (tool_timeout)");
});

Deno.test("server: client cancellation aborts the tool's signal; progress is forwarded", async () => {
  const session = new Session({ settings: settings(), tools: TEST_TOOLS });
  await using c = await connectTo(session);
  const controller = new AbortController();
  const progress: Array<
    { progress: number; total?: number | undefined; message?: string | undefined }
  > = [];
  const call = c.client.callTool({ name: "slow", arguments: {} }, undefined, {
    signal: controller.signal,
    onprogress: (p) => {
      progress.push(p);
      controller.abort("enough");
    },
  });
  await assertRejects(() => call);
  for (let i = 0; i < 100 && !lastSignal?.aborted; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  assertEquals(lastSignal?.aborted, true);
  assertEquals(progress, [{ progress: 1, total: 2, message: "halfway" }]);
});

// --- limitAnswer -----------------------------------------------------------------------------

Deno.test("limit: full text, then the first shorter form that fits, then the message", () => {
  const answer = {
    text: "x".repeat(300),
    shorter: [
      { note: "first", text: () => "y".repeat(50) },
      { note: "second", text: () => "z".repeat(10) },
    ],
  };
  // Serena 2.1's form: its "too long" line, then the stage's header (note), then the stage.
  const first = `${tooLongMessage(300)}\nfirst\n${"y".repeat(50)}`;
  const second = `${tooLongMessage(300)}\nsecond\n${"z".repeat(10)}`;
  assertEquals(limitAnswer(answer, 300, 5), "x".repeat(300));
  assertEquals(limitAnswer(answer, first.length, 5), first);
  assertEquals(limitAnswer(answer, first.length - 1, 5), second);
  assertEquals(limitAnswer(answer, second.length - 1, 5), tooLongMessage(300));
  // A stage without a note is shown right after the "too long" line.
  assertEquals(
    limitAnswer({ text: "x".repeat(200), shorter: [{ note: "", text: () => "n" }] }, 150, 5),
    `${tooLongMessage(200)}\nn`,
  );
  assertEquals(limitAnswer(answer, -1, 1000), "x".repeat(300));
  assertEquals(limitAnswer("abc", -1, 2), tooLongMessage(3));
  assertThrows(() => limitAnswer("a", 0, 10), "positive integer or -1, got: 0");
  assertThrows(() => limitAnswer("a", -5, 10), "got: -5");
});

// --- stdio transport ------------------------------------------------------------------------

Deno.test("stdio: reads framed messages across chunks, reports bad lines, closes on EOF", async () => {
  const enc = new TextEncoder();
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  const written: string[] = [];
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => void written.push(new TextDecoder().decode(chunk)),
  });
  const transport = new DenoStdioTransport({ input, output });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closed = 0;
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  transport.onclose = () => closed++;
  await transport.start();

  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  feed.enqueue(enc.encode(ping.slice(0, 10)));
  feed.enqueue(enc.encode(ping.slice(10) + "\nnot json\n"));
  feed.enqueue(enc.encode(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) + "\n"));
  await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
  feed.close();
  for (let i = 0; i < 100 && closed === 0; i++) await new Promise((r) => setTimeout(r, 5));

  assertEquals(messages.map((m) => (m as { id: number }).id), [1, 2]);
  assertEquals(errors.length, 1);
  assertEquals(closed, 1);
  assertEquals(written, ['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
  await transport.send({ jsonrpc: "2.0", id: 3, result: {} });
  await transport.close();
  assertEquals(written.length, 1, "nothing is sent after close");
  assertEquals(closed, 1, "onclose fires once");
});
