/**
 * A restart of the shared service under a code-mode session: modes switched inside `repl` stay
 * switched (the service tells the front of such calls, which repeats them to the new service),
 * and the first answer after it says that the session's code-mode variables were reset. Real
 * fronts and services, in a runtime folder of the test's own.
 * @module
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  Client,
  frontArgs,
  REPO_ROOT,
  serviceRuntime,
  StdioClientTransport,
  tempProject,
} from "../helpers/mcp.ts";

function servicePid(runtime: string): number {
  const folder = join(runtime, "sextant");
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.name.endsWith(".json")) {
      return JSON.parse(Deno.readTextFileSync(join(folder, entry.name))).pid;
    }
  }
  throw new Error(`no endpoint in ${folder}`);
}

Deno.test({
  name: "restart: modes switched inside repl stay switched, and the answer says variables reset",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using rt = await serviceRuntime();
    await using p = await tempProject({ "p.txt": "p\n" });
    // The default context offers switch_modes only when the config adds it.
    const xdg = join(rt.dir, "xdg");
    await Deno.mkdir(join(xdg, "sextant"), { recursive: true });
    await Deno.writeTextFile(
      join(xdg, "sextant", "config.jsonc"),
      JSON.stringify({ included_tools: ["switch_modes"] }),
    );
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: frontArgs(["--project", p.root, "--log-level", "warn", "--agent-interface", "repl"]),
      env: { ...Deno.env.toObject(), ...rt.env, XDG_CONFIG_HOME: xdg },
      cwd: REPO_ROOT,
      stderr: "pipe",
    });
    const client = new Client({ name: "repl-restart-test", version: "0" });
    await client.connect(transport);
    const repl = async (code: string) => {
      const result = await client.callTool({ name: "repl", arguments: { code } });
      const blocks = (result.content as { text: string }[]).map((b) => b.text);
      return { text: blocks[0] ?? "", isError: result.isError === true, notes: blocks.slice(1) };
    };
    try {
      const editing = "'create_text_file' in s.fs";
      assertEquals((await repl(editing)).text, "true");
      const switched = await repl(
        "await s.cfg.switch_modes({modes: ['planning']});\nconst kept = 1;\nkept",
      );
      assertEquals(switched.text, "1");
      assertEquals((await repl(editing)).text, "false");

      const pid = servicePid(rt.dir);
      Deno.kill(pid, "SIGKILL");
      // The first call may meet the dead service; the front answers it and restarts one.
      let after = await repl("typeof kept").catch((error: Error) => ({
        text: error.message,
        isError: true,
        notes: [] as string[],
      }));
      if (after.isError && after.text.includes("restarted")) after = await repl("typeof kept");
      // The variables are gone, and the answer says so, with why.
      assertEquals(after.text, "undefined");
      assertStringIncludes(after.notes.join("\n"), "the Sextant service restarted");
      // Planning mode, switched inside repl, still hides the editing tools.
      assertEquals((await repl(editing)).text, "false");
    } finally {
      await client.close();
    }
  },
});
