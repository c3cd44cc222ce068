/**
 * check_project and test_project over MCP, with `main.ts` run under the `sextant` permission
 * set: progress notifications, the reported error, and no process left behind on cancellation.
 * @module
 */
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { alive, fixtureTree, hasPytest, skipWithout, waitFor } from "../helpers/toolchain.ts";

Deno.test({
  name: "check_project over MCP: progress notifications and the Rust error (sextant permissions)",
  ignore: skipWithout("cargo"),
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using h = await toolHarness(fixtureTree("rust/broken"));
    const server = await connect(h.root, ["--tools", "check_project"]);
    try {
      const progress: string[] = [];
      const result = await server.client.callTool(
        { name: "check_project", arguments: {} },
        undefined,
        {
          onprogress: (p: { message?: string | undefined }) => progress.push(p.message ?? ""),
          timeout: 120_000,
        },
      );
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      assert(result.isError !== true, text);
      const parsed = JSON.parse(text);
      assertEquals(parsed.diagnostics[0].file, "src/shapes.rs");
      assert(progress.length >= 1, "at least the start is reported");
    } finally {
      await server.close();
    }
  },
});

Deno.test({
  name: "test_project over MCP: a cancelled run leaves no process behind (sextant permissions)",
  ignore: !hasPytest && (console.log("skipping: no Python with pytest"), true),
  async fn() {
    const { connect } = await import("../helpers/mcp.ts");
    await using h = await toolHarness({
      "pyproject.toml": '[project]\nname = "slow"\nversion = "0"\n',
      "tests/test_slow.py": `import os, subprocess, time

def test_sleeps():
    child = subprocess.Popen(["sleep", "60"])
    with open("pids.txt", "w") as f:
        f.write(f"{os.getpid()} {child.pid}")
    time.sleep(60)
`,
    });
    const server = await connect(h.root, ["--tools", "test_project"]);
    try {
      const controller = new AbortController();
      const call = server.client.callTool({ name: "test_project", arguments: {} }, undefined, {
        signal: controller.signal,
        timeout: 120_000,
      });
      call.catch(() => {});
      const started = await waitFor(() => {
        try {
          return Deno.readTextFileSync(h.path("pids.txt")).includes(" ");
        } catch {
          return false;
        }
      }, 60_000);
      assert(started, "the test must start");
      const pids = Deno.readTextFileSync(h.path("pids.txt")).split(" ").map(Number);
      controller.abort();
      await assertRejects(() => call);
      for (const pid of pids) {
        assert(await waitFor(() => !alive(pid), 10_000), `process ${pid} must be gone`);
      }
      // The server survives the cancelled call and still answers.
      await new Promise((r) => setTimeout(r, 500));
      const tools = await server.client.listTools();
      assertEquals(tools.tools.map((t) => t.name), ["test_project"]);
    } finally {
      await server.close();
    }
  },
});
