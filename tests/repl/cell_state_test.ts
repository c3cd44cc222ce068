/**
 * Code mode runs what it is given, and what a cell leaves behind ends with its answer: the same
 * text runs again (no module-cache answer), timers stop when the answer is sent, other work left
 * running is stopped between calls, a child that stops reading its answers is stopped, and the
 * number of children per session and per service is capped. Real processes (`--standalone`, or
 * children of a pool of the test's own).
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { processAlive } from "../helpers/lsp.ts";
import { type Client, connect, tempProject } from "../helpers/mcp.ts";
import { REPL_PER_SESSION, ReplPool } from "../../src/repl/pool.ts";
import { MAX_UNREAD_BYTES, type RunOptions } from "../../src/repl/host.ts";

const FILES = { "notes.txt": "hello\n" };
const linux = Deno.build.os === "linux";

type Repl = (
  code: string,
  extra?: Record<string, unknown>,
) => Promise<{ text: string; isError: boolean; notes: string[] }>;

function replOf(client: Client, session?: string): Repl {
  return async (code, extra = {}) => {
    const result = await client.callTool({
      name: "repl",
      arguments: { code, ...(session ? { session } : {}), ...extra },
    });
    const blocks = (result.content as { type: string; text: string }[]).map((b) => b.text);
    return { text: blocks[0] ?? "", isError: result.isError === true, notes: blocks.slice(1) };
  };
}

/** Code-mode children of process `parent` (Linux). */
function replChildren(parent: number): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== parent) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes("data:application/javascript")) found.push(Number(entry.name));
    } catch { /* gone */ }
  }
  return found;
}

async function until(what: string, ok: () => boolean, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test("repl: the same cell text runs again, with its effects", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const repl = replOf(server.client);
    const cell = "const runs = (Reflect.get(globalThis, 'runs') ?? 0) + 1;\n" +
      "Reflect.set(globalThis, 'runs', runs);\n" +
      "await s.fs.create_text_file({relative_path: `run${runs}.txt`, content: 'x\\n'});\n" +
      "runs";
    assertEquals((await repl(cell)).text, "1");
    assertEquals((await repl(cell)).text, "2");
    // The second run really wrote its file: its edit was not skipped.
    assert(Deno.statSync(`${project.root}/run2.txt`).isFile);
  } finally {
    await server.close();
  }
});

Deno.test("repl: a cell's timers stop when its answer is sent", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const repl = replOf(server.client);
    assertEquals(
      (await repl(
        "var ticks = 0;\nsetInterval(() => ticks++, 1);\nsetTimeout(() => ticks++, 5);\n'left'",
      ))
        .text,
      "left",
    );
    // A timer of this cell still runs while the cell does.
    const next = await repl(
      "const before = ticks;\nlet mine = 0;\nconst t = setInterval(() => mine++, 1);\n" +
        "await new Promise((resolve) => setTimeout(resolve, 100));\nclearInterval(t);\n" +
        "[ticks - before, mine > 0]",
    );
    assertEquals(next.text, "[0,true]");
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "repl: work a cell leaves running past its answer is stopped, and the next answer says so",
  ignore: !linux,
  async fn() {
    await using project = await tempProject(FILES);
    const server = await connect(project.root, ["--agent-interface", "repl"]);
    try {
      const repl = replOf(server.client);
      assertEquals((await repl("const kept = 1; kept")).text, "1");
      const [child] = replChildren(server.pid!);
      assert(child !== undefined, "no code-mode child");
      // A ping-pong of messages is no timer: only the host's watch on the process's CPU sees it.
      const left = await repl(
        "const channel = new MessageChannel();\n" +
          "channel.port1.onmessage = () => channel.port2.postMessage(0);\n" +
          "channel.port2.postMessage(0);\n'busy'",
      );
      assertEquals(left.text, "busy");
      await until("the busy child is stopped", () => !processAlive(child));
      const after = await repl("typeof kept");
      assertEquals(after.text, "undefined");
      assertStringIncludes(after.notes.join("\n"), "used more than 1 s of CPU after the answer");
    } finally {
      await server.close();
    }
  },
});

Deno.test("repl: a child that stops reading its answers is stopped", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const repl = replOf(server.client);
    // Requests written straight to the pipe in a loop that never yields: the child never reads
    // the answers, which the host would otherwise keep without end.
    const result = await repl(
      "const out = (await import('node:process')).default.stdout;\n" +
        "const line = JSON.stringify({type: 'info', call: 1, topic: 'fs'}) + '\\n';\n" +
        "for (;;) out.write(line);",
      { timeout_s: 120 },
    );
    assertEquals(result.isError, true, result.text);
    assertStringIncludes(result.text, "stopped reading its answers");
    assertEquals((await repl("1 + 1")).text, "2");
  } finally {
    await server.close();
  }
});

Deno.test("repl: one API answer over the unread budget is refused alone; the child goes on", async () => {
  const big = "z".repeat(MAX_UNREAD_BYTES + 1024);
  await using project = await tempProject({ ...FILES, "big.txt": big });
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const repl = replOf(server.client);
    assertEquals((await repl("const kept = 5; kept")).text, "5");
    const result = await repl(
      "let got = '';\ntry {\n" +
        `  await s.fs.read_file({relative_path: 'big.txt', max_answer_chars: ${
          2 * big.length
        }});\n` +
        "  got = 'read';\n} catch (e) { got = (e as Error).message; }\ngot",
    );
    assertEquals(result.isError, false, result.text.slice(0, 300));
    assertStringIncludes(result.text, "more than code mode takes at once");
    assertEquals((await repl("kept")).text, "5");
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "repl: at most REPL_PER_SESSION children per session; the oldest idle one makes room",
  ignore: !linux,
  async fn() {
    await using project = await tempProject(FILES);
    const server = await connect(project.root, ["--agent-interface", "repl"]);
    try {
      for (let i = 0; i <= REPL_PER_SESSION; i++) {
        assertEquals(
          (await replOf(server.client, `s${i}`)(`const mine = ${i}; mine`)).text,
          `${i}`,
        );
        assert(replChildren(server.pid!).length <= REPL_PER_SESSION, "over the cap");
      }
      await until(
        "the oldest child is stopped",
        () => replChildren(server.pid!).length === REPL_PER_SESSION,
      );
      // The newest keep their variables; the oldest one's next answer says why it lost them.
      assertEquals((await replOf(server.client, `s${REPL_PER_SESSION}`)("mine")).text, "4");
      const oldest = await replOf(server.client, "s0")("typeof mine");
      assertEquals(oldest.text, "undefined");
      assertStringIncludes(oldest.notes.join("\n"), "to make room for another code-mode session");
    } finally {
      await server.close();
    }
  },
});

Deno.test("repl: past the service's cap, another session's oldest idle child makes room", async () => {
  const pool = new ReplPool({ perSession: 4, perService: 2 });
  const owner = () => ({
    disposers: [] as (() => Promise<void>)[],
    own(r: { dispose(): Promise<void> }) {
      this.disposers.push(() => r.dispose());
    },
  });
  const [a, b] = [owner(), owner()];
  const options: RunOptions = {
    facades: {},
    call: () => Promise.resolve({ text: "", isError: false }),
    info: () => "",
    timeoutSeconds: 60,
    maxChars: 1000,
    signal: new AbortController().signal,
  };
  try {
    const a1 = pool.process(a, "a1");
    assertEquals((await a1.run("const mine = 'a1'; mine", options)).text, "a1");
    assertEquals((await pool.process(b, "b1").run("1", options)).text, "1");
    assertEquals(pool.running, 2);
    // A third child: session a's idle one, the least recently used, is stopped for it.
    assertEquals((await pool.process(b, "b2").run("2", options)).text, "2");
    assertEquals(pool.running, 2);
    assertEquals(a1.live, false);
    const again = await a1.run("typeof mine", options);
    assertEquals(again.text, "undefined");
    assertStringIncludes(again.reset ?? "", "at most 2 code-mode processes run in the service");
  } finally {
    for (const o of [a, b]) for (const dispose of o.disposers) await dispose();
  }
});
