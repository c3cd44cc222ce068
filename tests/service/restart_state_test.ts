/**
 * A restart of the shared service keeps the session's state: after kill -9, the front starts a
 * new service, replays `initialize` and then the calls that changed the session (the active
 * project, the modes), so the next write lands in the project the agent activated. Real fronts
 * and services, in a runtime folder of the test's own.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
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
  name: "restart: the session keeps the project it activated",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using rt = await serviceRuntime();
    await using p = await tempProject({ "p.txt": "p\n" });
    await using q = await tempProject({ "q.txt": "q\n" });
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: frontArgs(["--project", p.root, "--log-level", "warn"]),
      env: { ...Deno.env.toObject(), ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") },
      cwd: REPO_ROOT,
      stderr: "pipe",
    });
    const client = new Client({ name: "restart-test", version: "0" });
    await client.connect(transport);
    try {
      const activated = await call(client, "activate_project", { project: q.root });
      assert(!activated.isError, activated.text);

      const pid = servicePid(rt.dir);
      Deno.kill(pid, "SIGKILL");
      // The first call may meet the dead service; the front answers it and restarts one.
      const create = () =>
        call(client, "create_text_file", { relative_path: "after-restart.txt", content: "x\n" });
      let created = await create().catch((error: Error) => ({
        text: error.message,
        isError: true,
      }));
      if (created.isError && created.text.includes("restarted")) created = await create();
      assert(servicePid(rt.dir) !== pid, "the service was not restarted");
      const inQ = await Deno.stat(join(q.root, "after-restart.txt")).then(() => true, () => false);
      const inP = await Deno.stat(join(p.root, "after-restart.txt")).then(() => true, () => false);
      assertEquals({ inQ, inP }, { inQ: true, inP: false }, created.text);
      const config = await call(client, "get_current_config");
      assertStringIncludes(config.text, q.root);
    } finally {
      await client.close();
    }
  },
});
