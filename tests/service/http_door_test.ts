/**
 * `sextant --http` guards its door, with a real server run as users run it and requests written
 * by hand:
 * - it compares the `Host` and `Origin` it is sent as whole names: a DNS name that only starts
 *   like a loopback address (`127.evil.example`, which a rebinding attacker can point at
 *   127.0.0.1) is another host and gets 403, while loopback addresses and `localhost` are served;
 * - slow headers (slowloris) from hundreds of connections without the token, against a server
 *   with few file descriptors (`ulimit -n`, Linux only), neither end it nor lock a client with the
 *   token out: connections past the cap are closed, the oldest first, and each has a short wait
 *   for its whole head.
 * @module
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { frontArgs, REPO_ROOT, tempProject } from "../helpers/mcp.ts";

const TOKEN = "fedcba9876543210fedcba9876543210";

/** `sextant --http` on `project`, with at most `descriptors` open files when given. */
async function startHttp(project: string, descriptors?: number) {
  const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  const args = frontArgs(["--http", "127.0.0.1:0", "--project", project, "--log-level", "warn"]);
  const child = new Deno.Command(descriptors === undefined ? Deno.execPath() : "sh", {
    args: descriptors === undefined
      ? args
      : ["-c", `ulimit -n ${descriptors} && exec "$0" "$@"`, Deno.execPath(), ...args],
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
    if (done) throw new Error(`the server did not start: ${seen}`);
    seen += value;
    url = /serving MCP at (http:\/\/\S+\/mcp)/.exec(seen)?.[1] ?? null;
  }
  const drained = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  })();
  return {
    url,
    child,
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
    clientInfo: { name: "http-door-test", version: "0" },
  },
});

/** The status line of an initialize sent by hand with these extra header lines. */
async function statusLine(url: string, headers: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const body = new TextEncoder().encode(INITIALIZE);
  const head = `POST ${pathname} HTTP/1.1\r\n${headers}` +
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

Deno.test("HTTP door: Host and Origin are compared as names, not as prefixes", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  await using http = await startHttp(project.root);
  const { port } = new URL(http.url);
  const host = (name: string) => `Host: ${name}:${port}\r\n`;
  for (const name of ["127.evil.example", "127.0.0.1.evil.example", "127.0.0.1.nip.io"]) {
    assertStringIncludes(await statusLine(http.url, host(name)), " 403 ", `Host ${name}`);
    assertStringIncludes(
      await statusLine(http.url, `${host("127.0.0.1")}Origin: http://${name}:${port}\r\n`),
      " 403 ",
      `Origin ${name}`,
    );
  }
  for (const name of ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "[::1]"]) {
    assertStringIncludes(await statusLine(http.url, host(name)), " 200 ", `Host ${name}`);
  }
  assertStringIncludes(
    await statusLine(http.url, `${host("127.0.0.1")}Origin: http://localhost:${port}\r\n`),
    " 200 ",
  );
});

/** Resolves when the server has closed `conn` (its read ends). */
async function closedByServer(conn: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(256);
  try {
    while ((await conn.read(buffer)) !== null) { /* an answer, if any */ }
  } catch {
    // reset: closed as well
  }
}

Deno.test({
  name: "HTTP door: slow headers from many connections neither end the server nor lock it",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using project = await tempProject({ "a.txt": "a\n" });
    await using http = await startHttp(project.root, 64);
    let exited = false;
    http.child.status.then(() => exited = true);
    const { hostname, port } = new URL(http.url);
    const slow: Deno.Conn[] = [];
    for (let i = 0; i < 400; i++) {
      try {
        const conn = await Deno.connect({ hostname, port: Number(port) });
        await conn.write(new TextEncoder().encode(`POST /mcp HTTP/1.1\r\nHost: ${hostname}\r\n`));
        slow.push(conn);
      } catch {
        // refused while the listen queue is full: the server is checked below
      }
    }
    try {
      // A client with the token gets in while the slow connections are still open on our side.
      const host = `Host: 127.0.0.1:${port}\r\n`;
      assertStringIncludes(await statusLine(http.url, host), " 200 ");
      // Each slow connection is closed by the server in the end: turned away, or past its wait.
      await Promise.all(slow.map(closedByServer));
      assertStringIncludes(await statusLine(http.url, host), " 200 ");
      assertEquals(exited, false, "the server exited");
    } finally {
      for (const conn of slow) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
    }
  },
});
