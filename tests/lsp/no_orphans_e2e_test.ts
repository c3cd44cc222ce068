/**
 * End to end: `main.ts` run with the `start` task's permissions spawns the project's language
 * server before its first call (src/lsp/prestart.ts), a symbol tool uses that process, and stdin
 * EOF (how MCP clients stop a stdio server) leaves no language-server process behind, used or
 * not. Raw JSON-RPC lines keep the EOF ours to send.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { FIXTURES, hasServer, liveInGroup, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { startArgs, withLspPath } from "../helpers/mcp.ts";
import { serverGroupsOf } from "../helpers/lang.ts";

const available = hasServer("typescript-language-server") && Deno.build.os === "linux";

/** The command lines of process groups, for a failure message. */
function describeGroups(groups: number[]): string {
  return groups.map((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim();
    } catch {
      return `${pid} (gone)`;
    }
  }).join("; ");
}

/** main.ts on `root`, spoken to in raw JSON-RPC lines, so that the EOF is ours to send. */
function startRaw(root: string, parent: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: startArgs(["--project", root, "--log-level", "error"]),
    env: withLspPath({
      ...Deno.env.toObject(),
      SEXTANT_LSP_PATH: LSP_CACHE,
      XDG_CONFIG_HOME: join(parent, "xdg"),
    }),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const send = (message: unknown) =>
    writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  const receive = async (id: number): Promise<Record<string, unknown>> => {
    while (true) {
      const newline = buffered.indexOf("\n");
      if (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message.id === id) return message;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("main.ts closed stdout");
      buffered += value;
    }
  };

  /** Send EOF; the exit code. */
  const close = async (): Promise<number> => {
    await writer.close();
    const status = await child.status;
    await lines.cancel().catch(() => {});
    return status.code;
  };
  /** `initialize`, answered, then `initialized`. */
  const initialize = async (): Promise<void> => {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "lsp-e2e", version: "0" },
      },
    });
    await receive(1);
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  };
  return { child, send, receive, close, initialize };
}

/** A copy of fixture `name` in a temporary folder; the folder and the copy's root. */
async function fixtureCopy(name: string): Promise<{ parent: string; root: string }> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-e2e-lsp-" }));
  const root = join(parent, name);
  await new Deno.Command("cp", { args: ["-r", join(FIXTURES, name), root] }).output();
  return { parent, root };
}

/** Ask get_symbols_overview of `path` as request `id`; the answer's text. */
async function overview(raw: ReturnType<typeof startRaw>, id: number, path: string) {
  await raw.send({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "get_symbols_overview", arguments: { relative_path: path } },
  });
  return JSON.stringify((await raw.receive(id)).result);
}

for (const used of [true, false]) {
  Deno.test({
    name: used
      ? "stdin EOF of main.ts leaves no language-server process; the first call used the one " +
        "spawned ahead"
      : "a server spawned ahead that no call used is stopped with the session",
    ignore: skipUnless(available, "the end-to-end language-server test"),
    async fn() {
      const { parent, root } = await fixtureCopy("typescript");
      try {
        const raw = startRaw(root, parent);
        await raw.initialize();
        // Spawned before the session's modules loaded (lsp/prestart.ts): there by `initialize`.
        const ahead = serverGroupsOf(raw.child.pid);
        assertEquals(ahead.length, 1, `one server spawned ahead: ${describeGroups(ahead)}`);
        if (used) {
          const text = await overview(raw, 2, "src/shapes.ts");
          assert(text.includes("Circle"), `no symbols from the language server: ${text}`);
          // The call took the process spawned ahead rather than starting a second one.
          const now = serverGroupsOf(raw.child.pid);
          assertEquals(now, ahead, describeGroups(now));
        }
        assertEquals(await raw.close(), 0);
        assertEquals(liveInGroup(ahead[0]!), 0, `group ${ahead[0]} survived`);
      } finally {
        await Deno.remove(parent, { recursive: true }).catch(() => {});
      }
    },
  });
}
