/**
 * `sextant --http`: MCP over Streamable HTTP, run as users run it (`-P=sextant`), checked with
 * plain requests (token, origin, session ids) and with the SDK's HTTP client for a whole tool call.
 * @module
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
import { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, Client, frontArgs, REPO_ROOT, tempProject } from "../helpers/mcp.ts";

const TOKEN = "test-token-0123456789abcdef0123456789";

async function startHttp(project: string, address = "127.0.0.1:0") {
  const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: frontArgs(["--http", address, "--project", project, "--log-level", "warn"]),
    env: { ...Deno.env.toObject(), SEXTANT_TOKEN: TOKEN, XDG_RUNTIME_DIR: runtime },
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let url: string | null = null;
  while (url === null) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
    url = /serving MCP at (http:\/\/\S+\/mcp)/.exec(seen)?.[1] ?? null;
  }
  const stderr = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  })();
  return {
    url,
    stderr: () => seen,
    child,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* exited */ }
      await child.status;
      await stderr;
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    },
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "http-test", version: "0" },
  },
});

function post(url: string, headers: Record<string, string>, body = INITIALIZE) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

Deno.test("HTTP: 401 without the token, 403 for a foreign origin, 404 for an unknown session", async () => {
  await using project = await tempProject({ "a.txt": "hello\n" });
  await using http = await startHttp(project.root);
  assert(http.url !== null, http.stderr());
  const url = http.url!;

  const noToken = await post(url, {});
  assertEquals(noToken.status, 401);
  assertStringIncludes(await noToken.text(), "Bearer");
  const wrongToken = await post(url, { authorization: "Bearer nope" });
  assertEquals(wrongToken.status, 401);
  await wrongToken.body?.cancel();

  const foreign = await post(url, {
    authorization: `Bearer ${TOKEN}`,
    origin: "https://evil.example",
  });
  assertEquals(foreign.status, 403);
  await foreign.body?.cancel();

  const unknown = await post(url, {
    authorization: `Bearer ${TOKEN}`,
    "mcp-session-id": "no-such-session",
  });
  assertEquals(unknown.status, 404);
  assertStringIncludes(await unknown.text(), "Unknown or expired session");
});

Deno.test("HTTP: a whole tool call with the token, through the SDK client", async () => {
  await using project = await tempProject({ "notes/a.txt": "hello\n" });
  await using http = await startHttp(project.root);
  assert(http.url !== null, http.stderr());
  const transport = new StreamableHTTPClientTransport(new URL(http.url!), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: "http-test", version: "0" });
  await client.connect(transport);
  try {
    assert(typeof transport.sessionId === "string" && transport.sessionId.length > 0);
    const answer = await call(client, "read_file", { relative_path: "notes/a.txt" });
    assertEquals(answer, { text: "hello\n", isError: false });
  } finally {
    await client.close();
  }
});

Deno.test("HTTP: binding beyond loopback needs --allow-remote, and says why", async () => {
  await using project = await tempProject({ "a.txt": "x\n" });
  const out = await new Deno.Command(Deno.execPath(), {
    args: frontArgs(["--http", "0.0.0.0:0", "--project", project.root]),
    env: { ...Deno.env.toObject(), SEXTANT_TOKEN: TOKEN },
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 2);
  const stderr = new TextDecoder().decode(out.stderr);
  assertStringIncludes(stderr, "would accept connections from other machines");
  assertStringIncludes(stderr, "--allow-remote");
});
