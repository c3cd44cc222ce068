/**
 * No shared service outlives its test. Fronts started at once each start a service; a later
 * one waits for the first's lock, and when the test's `service stop` ended the first, the later
 * took over, running on for its idle timeout with its runtime folder deleted (it was found after
 * `.ci/run`). The runtime's dispose now ends every service of its folder. Real fronts and services.
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { connectFront, serviceRuntime, servicesOf, tempProject } from "../helpers/mcp.ts";

/** How long a second service waits for the lock (src/service/service.ts LOCK_WAIT_MS), and more. */
const PAST_LOCK_WAIT_MS = 5000;

Deno.test({
  name: "no leftover: fronts started at once leave no service after the runtime is disposed",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using project = await tempProject({ "a.txt": "x\n" });
    let dir = "";
    {
      await using runtime = await serviceRuntime();
      dir = runtime.dir;
      const env = { ...runtime.env, XDG_CONFIG_HOME: join(project.root, ".xdg-test") };
      // Three at once: at least two of them find no service and start one.
      const fronts = await Promise.all(
        ["a", "b", "c"].map((name) =>
          connectFront(project.root, env, { name: `leftover-${name}` })
        ),
      );
      for (const front of fronts) await front.close();
    }
    // A service that waited for the lock would have taken over by now.
    await new Promise((resolve) => setTimeout(resolve, PAST_LOCK_WAIT_MS));
    const left = servicesOf(dir);
    for (const pid of left) Deno.kill(pid, "SIGKILL");
    assertEquals(left, [], `services of ${dir} outlived their test`);
  },
});
