/**
 * The service guards its door, with real processes: a local process that sends a huge line
 * before any token is cut off without growing the service, one that sends nothing is dropped,
 * and a session that floods requests gets errors for those beyond its bound while its own
 * earlier requests and another session are answered.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
  type Client,
  connectFront,
  frontArgs,
  REPO_ROOT,
  serviceRuntime,
  tempProject,
} from "../helpers/mcp.ts";

function front(project: string, env: Record<string, string>): Promise<Client> {
  return connectFront(project, env, { name: "door-test" });
}

function endpoint(runtime: string): { pid: number; port: number } {
  const folder = join(runtime, "sextant");
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.name.endsWith(".json")) {
      return JSON.parse(Deno.readTextFileSync(join(folder, entry.name)));
    }
  }
  throw new Error(`no endpoint in ${folder}`);
}

/**
 * Send up to `total` bytes without a newline, for at most a minute; whether the service hung up
 * on it.
 */
async function flood(port: number, total: number): Promise<boolean> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const chunk = new Uint8Array(1 << 20).fill(0x61);
  const deadline = Date.now() + 60_000;
  let sent = 0;
  let reset = false;
  try {
    while (sent < total && Date.now() < deadline) sent += await conn.write(chunk);
  } catch {
    reset = true;
  }
  try {
    conn.close();
  } catch { /* closed */ }
  return reset;
}

Deno.test({
  name: "service door: a huge line before the token is cut off; a silent connection is dropped",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using rt = await serviceRuntime();
    await using project = await tempProject({ "a.txt": "a\n" });
    const env = { ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") };
    const client = await front(project.root, env);
    try {
      const { port } = endpoint(rt.dir);
      assert(await flood(port, 64 << 20), "the service kept reading a line without a token");
      const listed = await call(client, "list_dir", { relative_path: ".", recursive: false });
      assert(!listed.isError, listed.text);

      // Nothing at all: the service hangs up after its wait, however long we keep quiet.
      const quiet = await Deno.connect({ hostname: "127.0.0.1", port });
      const read = await Promise.race([
        quiet.read(new Uint8Array(16)).catch(() => null),
        new Promise<"still open">((r) => setTimeout(() => r("still open"), 60_000)),
      ]);
      assertEquals(read, null, "a connection that never sent a hello was kept");
      quiet.close();
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "service door: a session's flood of requests gets errors beyond its bound",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using rt = await serviceRuntime();
    await using project = await tempProject({ "a.txt": "a\n" });
    const env = { ...Deno.env.toObject(), ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") };
    const other = await front(project.root, rt.env);
    const child = new Deno.Command(Deno.execPath(), {
      args: frontArgs(["--project", project.root, "--log-level", "warn"]),
      env,
      cwd: REPO_ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    const line = (value: unknown) => new TextEncoder().encode(JSON.stringify(value) + "\n");
    try {
      await writer.write(line({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "flood", version: "0" },
        },
      }));
      await writer.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
      const count = 2000;
      const batch: Uint8Array[] = [];
      for (let id = 1; id <= count; id++) {
        batch.push(line({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "list_dir", arguments: { relative_path: ".", recursive: false } },
        }));
      }
      const all = new Uint8Array(batch.reduce((n, b) => n + b.length, 0));
      let at = 0;
      for (const b of batch) {
        all.set(b, at);
        at += b.length;
      }
      await writer.write(all);
      // Every request gets an answer: an answer or the refusal.
      const answers = new Map<number, { error?: { message: string } }>();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      while (answers.size < count + 1) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        let newline: number;
        while ((newline = buffered.indexOf("\n")) !== -1) {
          const message = JSON.parse(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          if (typeof message.id === "number") answers.set(message.id, message);
        }
      }
      await reader.cancel();
      assertEquals(answers.size, count + 1);
      const refused = [...answers.values()].filter((a) =>
        a.error?.message.includes("Too many requests in flight")
      );
      assert(refused.length > 0, "no request of the flood was refused");
      assert(refused.length < count, "every request was refused");
      // The other session is served meanwhile and after.
      const listed = await call(other, "list_dir", { relative_path: ".", recursive: false });
      assert(!listed.isError, listed.text);
      assertStringIncludes(listed.text, "a.txt");
    } finally {
      await writer.close().catch(() => {});
      await child.status;
      await other.close();
    }
  },
});
