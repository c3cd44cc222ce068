/**
 * The temporary file of a write killed mid-way is removed by the next Sextant to start, however
 * fresh it is, while a live writer's is kept. Real processes: a server edits a file (so its
 * journal names the folder) and is killed with SIGKILL; its leftover (a temporary file named with
 * its pid, as the write it was killed in left it) is then there; a second server's first write
 * removes it.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

const skip = Deno.build.os === "windows";
if (skip) console.log("dead writer temps test skipped: Windows has no kill -0 to ask for a pid");

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "writes: a killed writer's temporary file is removed at the next start, whatever its age",
  ignore: skip,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using project = await tempProject({ "a.txt": "alpha\n", "b.txt": "one\n" });
    const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
    const env = { XDG_RUNTIME_DIR: runtime };
    try {
      const first = await connect(project.root, [], env);
      const edited = await call(first.client, "replace_content", {
        relative_path: "a.txt",
        needle: "alpha",
        repl: "beta",
        mode: "literal",
      });
      assert(!edited.isError, edited.text);
      const pid = first.pid!;
      Deno.kill(pid, "SIGKILL");
      await first.close().catch(() => {});
      // What a write killed between its temporary file and the rename leaves: fresh, by its pid.
      const leftover = join(project.root, `.a.txt.sextant-${pid}-7-1f2e3d.tmp`);
      await Deno.writeTextFile(leftover, "half a write");
      // A live writer's (this process's pid) is not a leftover.
      const live = join(project.root, `.b.txt.sextant-${Deno.pid}-1-abc.tmp`);
      await Deno.writeTextFile(live, "a write in progress");

      const second = await connect(project.root, [], env);
      try {
        const again = await call(second.client, "replace_content", {
          relative_path: "b.txt",
          needle: "one",
          repl: "two",
          mode: "literal",
        });
        assert(!again.isError, again.text);
      } finally {
        await second.close();
      }
      assertEquals(await exists(leftover), false, "the dead writer's temporary file survived");
      assertEquals(await exists(live), true, "a live writer's temporary file was removed");
      assertEquals(await Deno.readTextFile(join(project.root, "a.txt")), "beta\n");
    } finally {
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    }
  },
});
