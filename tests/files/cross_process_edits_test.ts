/**
 * Two Sextant processes on one project, a `--standalone` one and the shared service, each
 * firing 30 concurrent edits of different lines of the same file: every edit survives, since
 * the write path's locks hold across processes. Real processes over MCP.
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import {
  call,
  type Client,
  connect,
  connectFront,
  serviceRuntime,
  tempProject,
} from "../helpers/mcp.ts";

const LINES = 60;

function serviceFront(project: string, env: Record<string, string>): Promise<Client> {
  return connectFront(project, env, { name: "lock-test" });
}

Deno.test({
  name: "writes: a standalone process and the service never lose each other's edits",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const text = Array.from({ length: LINES }, (_, i) => `line ${i} = old\n`).join("");
    await using rt = await serviceRuntime();
    await using project = await tempProject({ "shared.txt": text });
    const env = { ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") };
    const standalone = await connect(project.root, [], env);
    const service = await serviceFront(project.root, env);
    try {
      const edit = (client: Client, i: number) =>
        call(client, "replace_content", {
          relative_path: "shared.txt",
          needle: `line ${i} = old`,
          repl: `line ${i} = new`,
          mode: "literal",
        });
      const answers = await Promise.all(
        Array.from({ length: LINES }, (_, i) => edit(i % 2 === 0 ? standalone.client : service, i)),
      );
      assertEquals(answers.filter((a) => a.isError).map((a) => a.text), []);
      const after = await Deno.readTextFile(join(project.root, "shared.txt"));
      const lost = after.split("\n").filter((line) => line.endsWith("= old"));
      assertEquals(lost, [], "edits were lost");
    } finally {
      await standalone.close();
      await service.close();
    }
  },
});
