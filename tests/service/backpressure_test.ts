/**
 * A client that does not read its answers cannot grow the shared service: its requests stop
 * being read, and once its unread answers pass the session's budget (src/mcp/stdio.ts
 * MAX_UNREAD_BYTES) the service cuts that session off and logs why; other sessions go on. Real
 * service, reached as a front reaches it (its endpoint file, token and hello), by a client that
 * sends many requests in one write and never reads.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { processAlive } from "../helpers/lsp.ts";
import { call, connectFront, serviceRuntime, tempProject } from "../helpers/mcp.ts";
import { MAX_UNREAD_BYTES } from "../../src/mcp/stdio.ts";
import { VERSION } from "../../src/version.ts";

function endpointOf(runtime: string): { pid: number; port: number; token: string; log: string } {
  const folder = join(runtime, "sextant");
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.name.endsWith(".json")) {
      const endpoint = JSON.parse(Deno.readTextFileSync(join(folder, entry.name)));
      return { ...endpoint, log: join(folder, entry.name.replace(/\.json$/, ".log")) };
    }
  }
  throw new Error(`no endpoint in ${folder}`);
}

const line = (value: unknown) => new TextEncoder().encode(JSON.stringify(value) + "\n");

Deno.test({
  name: "backpressure: a session that does not read is cut off past its budget; others go on",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using runtime = await serviceRuntime();
    // Each answer is about 1 MB: more of them than the budget holds are asked for at once.
    const big = "0123456789abcdef\n".repeat(60_000);
    await using project = await tempProject({ "big.txt": big, "small.txt": "small\n" });
    const env = { ...runtime.env, XDG_CONFIG_HOME: join(project.root, ".xdg-test") };
    const other = await connectFront(project.root, env, { name: "backpressure-other" });
    const conn = await (async () => {
      const { port } = endpointOf(runtime.dir);
      return await Deno.connect({ hostname: "127.0.0.1", port });
    })();
    try {
      const { pid, token, log } = endpointOf(runtime.dir);
      const writer = conn.writable.getWriter();
      await writer.write(line({
        sextant: VERSION,
        token,
        op: "session",
        options: { project: project.root },
        place: { cwd: project.root },
      }));
      const count = Math.ceil(MAX_UNREAD_BYTES / big.length) + 40;
      const requests = [
        line({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "never-reads", version: "0" },
          },
        }),
        line({ jsonrpc: "2.0", method: "notifications/initialized" }),
        ...Array.from({ length: count }, (_, i) =>
          line({
            jsonrpc: "2.0",
            id: i + 1,
            method: "tools/call",
            params: {
              name: "read_file",
              arguments: { relative_path: "big.txt", max_answer_chars: 2 * big.length },
            },
          })),
      ];
      const all = new Uint8Array(requests.reduce((n, r) => n + r.length, 0));
      let at = 0;
      for (const request of requests) {
        all.set(request, at);
        at += request.length;
      }
      // One write: the service reads them all before the first answer waits.
      await writer.write(all);
      // Never read: the service must cut this session off, and say why in its log.
      const deadline = Date.now() + 120_000;
      let logged = "";
      while (Date.now() < deadline) {
        logged = await Deno.readTextFile(log).catch(() => "");
        if (logged.includes("a session was cut off")) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert(logged.includes("the client did not read its answers"), logged.slice(-2000));
      // The service lives on, and another session is answered.
      assert(processAlive(pid), "the service died");
      assertEquals(endpointOf(runtime.dir).pid, pid);
      const answer = await call(other, "read_file", { relative_path: "small.txt" });
      assertEquals(answer.isError, false, answer.text);
    } finally {
      try {
        conn.close();
      } catch { /* closed by the service */ }
      await other.close();
    }
  },
});
