/**
 * `sextant --http` guards its door: a short SEXTANT_TOKEN is refused at start, a request with
 * `Origin: null` or a `Host` that names another machine gets 403, and sessions are bounded (the
 * least recently used closes when too many are open). A real server, run as users run it.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { frontArgs, REPO_ROOT, tempProject } from "../helpers/mcp.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";
/** The server's bound on open sessions (src/service/http.ts), stated so the test reads alone. */
const MAX_SESSIONS = 64;

function command(project: string, runtime: string, token: string): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: frontArgs(["--http", "127.0.0.1:0", "--project", project, "--log-level", "warn"]),
    env: { ...Deno.env.toObject(), SEXTANT_TOKEN: token, XDG_RUNTIME_DIR: runtime },
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  });
}

async function startHttp(project: string) {
  const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  const child = command(project, runtime, TOKEN).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let url: string | null = null;
  while (url === null) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server did not start: ${seen}`);
    seen += value;
    url = /serving MCP at (http:\/\/\S+\/mcp)/.exec(seen)?.[1] ?? null;
  }
  const drained = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  })();
  return {
    url,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* exited */ }
      await child.status;
      await drained;
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
    clientInfo: { name: "http-guard-test", version: "0" },
  },
});

function post(url: string, headers: Record<string, string> = {}, body = INITIALIZE) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${TOKEN}`,
      ...headers,
    },
    body,
  });
}

/** The status line of a request sent by hand, with a `Host` header fetch would not send. */
async function statusWithHost(url: string, host: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const body = new TextEncoder().encode(INITIALIZE);
  const head = `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n` +
    `Authorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n` +
    "Connection: close\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
  await conn.write(body);
  let text = "";
  const buffer = new Uint8Array(4096);
  for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
    text += new TextDecoder().decode(buffer.subarray(0, n));
    if (text.includes("\r\n")) break;
  }
  conn.close();
  return text.split("\r\n")[0]!;
}

Deno.test("HTTP guard: a token under 128 bits is refused at start, saying why", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  const child = command(project.root, runtime, "x").spawn();
  let stderr = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    // It must end with an error; a server that starts serving instead has failed the test.
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      stderr += r.value;
      if (stderr.includes("serving MCP at")) break;
    }
    assert(!stderr.includes("serving MCP at"), "it served with a one-letter token");
    assert(!(await child.status).success);
    assertStringIncludes(stderr, "128 bits");
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* exited */ }
    await child.status;
    await reader.cancel().catch(() => {});
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
  }
});

Deno.test("HTTP guard: Origin null and a foreign Host get 403; loopback names are served", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  await using http = await startHttp(project.root);
  const opaque = await post(http.url, { origin: "null" });
  assertEquals(opaque.status, 403);
  await opaque.body?.cancel();
  const { port } = new URL(http.url);
  assertStringIncludes(await statusWithHost(http.url, `attacker.example:${port}`), " 403 ");
  assertStringIncludes(await statusWithHost(http.url, `localhost:${port}`), " 200 ");
  assertStringIncludes(await statusWithHost(http.url, `127.0.0.1:${port}`), " 200 ");
});

Deno.test("HTTP guard: sessions are bounded; the least recently used one closes", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  await using http = await startHttp(project.root);
  const ids: string[] = [];
  for (let i = 0; i <= MAX_SESSIONS; i++) {
    const response = await post(http.url);
    assertEquals(response.status, 200);
    await response.body?.cancel();
    ids.push(response.headers.get("mcp-session-id")!);
  }
  const ping = (id: string) =>
    post(
      http.url,
      { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "ping",
      }),
    );
  const first = await ping(ids[0]!);
  assertEquals(first.status, 404);
  assertStringIncludes(await first.text(), "Unknown or expired session");
  const last = await ping(ids.at(-1)!);
  assertEquals(last.status, 200);
  await last.body?.cancel();
});
