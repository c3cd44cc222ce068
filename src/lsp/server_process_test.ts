import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { liveInGroup } from "../../tests/helpers/lsp.ts";
import { spawnAhead, stopSpawnedAhead, takeSpawnedAhead } from "./server_process.ts";

const linux = Deno.build.os === "linux";
// Stands for a server that neither reads stdin nor ends on its EOF, and starts a helper.
const SERVER = ["-c", "sleep 30 & sleep 30"];

Deno.test({
  name: "a process spawned ahead goes once to the spawn of the same command, args and folder",
  ignore: !linux,
  async fn() {
    const cwd = Deno.cwd();
    try {
      const pid = spawnAhead("sh", SERVER, { cwd, label: "test" });
      assert(pid !== undefined);
      assertEquals(spawnAhead("sh", SERVER, { cwd, label: "test" }), pid, "not spawned twice");
      assertEquals(takeSpawnedAhead("sh", ["-c", "sleep 29"], cwd), undefined, "other args");
      assertEquals(takeSpawnedAhead("sh", SERVER, "/"), undefined, "another folder");
      const taken = takeSpawnedAhead("sh", SERVER, cwd);
      assertEquals(taken?.pid, pid);
      assertEquals(takeSpawnedAhead("sh", SERVER, cwd), undefined, "taken once");
      // Taken, it is its taker's: shutdown leaves it alone.
      await stopSpawnedAhead();
      assert(liveInGroup(pid) > 0, "the taken process was stopped");
      await taken!.killGroup(0);
      assertEquals(liveInGroup(pid), 0);
    } finally {
      await stopSpawnedAhead();
    }
  },
});

Deno.test({
  name: "stopSpawnedAhead stops the processes nobody took, with everything they started",
  ignore: !linux,
  async fn() {
    const pid = spawnAhead("sh", SERVER, { cwd: Deno.cwd(), label: "test" });
    assert(pid !== undefined && liveInGroup(pid) > 0);
    await stopSpawnedAhead();
    assertEquals(liveInGroup(pid), 0);
    assertEquals(takeSpawnedAhead("sh", SERVER, Deno.cwd()), undefined);
  },
});

Deno.test("a program that cannot be spawned is not spawned ahead, and nothing waits", async () => {
  assertEquals(
    spawnAhead("/nonexistent/server", [], { cwd: Deno.cwd(), label: "test" }),
    undefined,
  );
  assertEquals(takeSpawnedAhead("/nonexistent/server", [], Deno.cwd()), undefined);
  await stopSpawnedAhead();
});
