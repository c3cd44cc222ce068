/**
 * End to end: `main.ts` run with the `start` task's permissions starts a language server for a
 * symbol tool, and stdin EOF (how MCP clients stop a stdio server) leaves no language-server
 * process behind. Raw JSON-RPC lines keep the EOF ours to send.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { FIXTURES, hasServer, liveInGroup, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { startArgs, withLspPath } from "../helpers/mcp.ts";

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

/** Children of `pid` that lead their own process group (our language servers). */
function serverGroupsOf(pid: number): number[] {
  const groups: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && Number(fields[2]) === Number(entry.name)) {
        groups.push(Number(entry.name));
      }
    } catch { /* process ended meanwhile */ }
  }
  return groups;
}

Deno.test({
  name: "stdin EOF of main.ts leaves no language-server process",
  ignore: skipUnless(available, "the end-to-end language-server test"),
  async fn() {
    const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-e2e-lsp-" }));
    try {
      const root = join(parent, "typescript");
      await new Deno.Command("cp", { args: ["-r", join(FIXTURES, "typescript"), root] }).output();
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
      await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      const tools = (await receive(2)).result as { tools: Array<{ name: string }> };
      const names = tools.tools.map((t) => t.name);
      let groups: number[] = [];
      if (names.includes("get_symbols_overview")) {
        await send({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "get_symbols_overview", arguments: { relative_path: "src/shapes.ts" } },
        });
        const answer = await receive(3);
        const text = JSON.stringify(answer.result);
        assert(text.includes("Circle"), `no symbols from the language server: ${text}`);
        groups = serverGroupsOf(child.pid);
        assertEquals(groups.length, 1, `one language server should run: ${describeGroups(groups)}`);
      } else {
        console.log("get_symbols_overview is not registered yet: only checking a clean exit");
      }

      await writer.close();
      const status = await child.status;
      await lines.cancel().catch(() => {});
      assertEquals(status.code, 0);
      for (const pgid of groups) assertEquals(liveInGroup(pgid), 0, `group ${pgid} survived`);
    } finally {
      await Deno.remove(parent, { recursive: true }).catch(() => {});
    }
  },
});
