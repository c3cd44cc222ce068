import { assert, assertEquals, assertStringIncludes } from "../tests/helpers/assert.ts";
import {
  CappedOutput,
  groupAlive,
  groupMembers,
  readStream,
  runGroup,
  signalGroup,
  spawnGroup,
  stopGroup,
} from "./process.ts";

const linux = Deno.build.os === "linux";

/** Pids of the live (not zombie) processes of group `pgid`, read from /proc. */
function pidsInGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) pids.push(Number(entry.name));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

/** Whether process `pid` is alive (not a zombie). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return condition();
}

/** Sleeps with a distinct duration, so that /proc shows which sleeps are this test's. */
function sleepPids(seconds: number): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (argv[0]?.endsWith("sleep") && argv[1] === String(seconds) && alive(Number(entry.name))) {
        pids.push(Number(entry.name));
      }
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

let nextSleep = 3000 + (Deno.pid % 1000) * 7;
const uniqueSleep = () => nextSleep++;

Deno.test({
  name: "spawnGroup puts the program in a group of its own; stopGroup ends all of it",
  ignore: !linux,
  async fn() {
    const child = spawnGroup("sh", ["-c", "sleep 30 & sleep 30"], {
      cwd: "/",
      stdout: "null",
      stderr: "null",
    });
    assert(await waitFor(() => pidsInGroup(child.pid).length >= 2), "the sleeps should start");
    const members = pidsInGroup(child.pid);
    assert(members.includes(child.pid), "the child leads its group");
    assertEquals(groupMembers(child.pid), members.length);
    assert(groupAlive(child.pid));
    assert(!pidsInGroup(Deno.pid).includes(child.pid), "not in the test's own group");

    await stopGroup(child.pid);
    const status = await child.status;
    assertEquals(status.signal, "SIGTERM");
    assert(await waitFor(() => members.every((pid) => !alive(pid))), "nothing may be left");
    assertEquals(groupMembers(child.pid), 0);
    assert(!groupAlive(child.pid));
    // Signalling or stopping a group that is gone is fine.
    await signalGroup(child.pid, "SIGTERM");
    await stopGroup(child.pid);
  },
});

Deno.test({
  name: "stopGroup sends SIGKILL to a group that ignores SIGTERM",
  ignore: !linux,
  async fn() {
    // An ignored signal stays ignored across fork and exec: the sleeps ignore TERM too.
    const child = spawnGroup("sh", ["-c", "trap '' TERM; sleep 30 & sleep 30"], {
      cwd: "/",
      stdout: "null",
      stderr: "null",
    });
    assert(await waitFor(() => pidsInGroup(child.pid).length >= 2));
    const members = pidsInGroup(child.pid);
    const started = Date.now();
    await stopGroup(child.pid, { graceMs: 300 });
    assertEquals((await child.status).signal, "SIGKILL");
    assert(Date.now() - started < 2000, "the grace period bounds the wait");
    assert(await waitFor(() => members.every((pid) => !alive(pid))));
  },
});

Deno.test("spawnGroup throws NotFound for a program that does not exist", () => {
  let thrown: unknown;
  try {
    spawnGroup("/nonexistent/program", [], { cwd: "/" });
  } catch (error) {
    thrown = error;
  }
  assert(thrown instanceof Deno.errors.NotFound, String(thrown));
});

Deno.test("runGroup reads both streams and reports the exit status", async () => {
  const out = new CappedOutput(1000);
  const err = new CappedOutput(1000);
  const run = runGroup("sh", ["-c", "echo out; echo err >&2; exit 3"], {
    cwd: "/",
    onStdout: (c) => out.push(c),
    onStderr: (c) => err.push(c),
  });
  const { status, stopped } = await run.exit;
  assertEquals(status.code, 3);
  assertEquals(stopped, null);
  assertEquals(out.text(), "out\n");
  assertEquals(err.text(), "err\n");
});

Deno.test({
  name: "runGroup stops what the program left running when it exits",
  ignore: !linux,
  async fn() {
    const seconds = uniqueSleep();
    const out = new CappedOutput(1000);
    const started = Date.now();
    const run = runGroup("sh", ["-c", `sleep ${seconds} & echo done`], {
      cwd: "/",
      onStdout: (c) => out.push(c),
    });
    const { status } = await run.exit;
    assertEquals(status.code, 0);
    assertEquals(out.text(), "done\n");
    assert(Date.now() - started < 2000, "the left-over job must not hold the run back");
    assertEquals(groupMembers(run.pid), 0, "the group is gone when the run resolves");
    assertEquals(sleepPids(seconds), []);
  },
});

Deno.test({
  name: "runGroup's timeout stops the whole group",
  ignore: !linux,
  async fn() {
    const seconds = uniqueSleep();
    const started = Date.now();
    const run = runGroup("sh", ["-c", `sleep ${seconds} & sleep ${seconds}`], {
      cwd: "/",
      timeoutMs: 300,
    });
    const { status, stopped } = await run.exit;
    assertEquals(stopped, "timeout");
    assertEquals(status.signal, "SIGTERM");
    assert(Date.now() - started < 2000);
    assertEquals(groupMembers(run.pid), 0);
    assertEquals(sleepPids(seconds), []);
  },
});

Deno.test({
  name: "runGroup: an AbortSignal cancels the run and stops the group",
  ignore: !linux,
  async fn() {
    const seconds = uniqueSleep();
    const controller = new AbortController();
    const out = new CappedOutput(1000);
    const run = runGroup("sh", ["-c", `echo started; sleep ${seconds} & sleep ${seconds}`], {
      cwd: "/",
      onStdout: (c) => out.push(c),
      signal: controller.signal,
    });
    assert(await waitFor(() => sleepPids(seconds).length === 2), "both sleeps should start");
    controller.abort();
    const { stopped } = await run.exit;
    assertEquals(stopped, "cancelled");
    assertEquals(out.text(), "started\n");
    assertEquals(sleepPids(seconds), []);

    // A signal aborted before the start stops the program at once.
    const again = runGroup("sleep", [String(seconds)], { cwd: "/", signal: controller.signal });
    assertEquals((await again.exit).stopped, "cancelled");
    assertEquals(sleepPids(seconds), []);
  },
});

Deno.test({
  name: "runGroup: cancel() stops the group and the run says it was cancelled",
  ignore: !linux,
  async fn() {
    const seconds = uniqueSleep();
    const run = runGroup("sleep", [String(seconds)], { cwd: "/", timeoutMs: 5_000 });
    assert(await waitFor(() => sleepPids(seconds).length === 1));
    await run.cancel();
    assertEquals(sleepPids(seconds), []);
    assertEquals((await run.exit).stopped, "cancelled");
  },
});

Deno.test({
  name: "runGroup does not wait past drainMs for a process that left the group",
  ignore: !linux,
  async fn() {
    const seconds = uniqueSleep();
    const out = new CappedOutput(1000);
    const started = Date.now();
    try {
      const run = runGroup("sh", ["-c", `setsid sleep ${seconds} & sleep 0.2; echo hi`], {
        cwd: "/",
        onStdout: (c) => out.push(c),
        drainMs: 300,
      });
      await run.exit;
      assertEquals(out.text(), "hi\n");
      assert(Date.now() - started < 2000, "reading stops after drainMs");
      assertEquals(sleepPids(seconds).length, 1, "the escaped process is not ours to stop");
    } finally {
      for (const pid of sleepPids(seconds)) Deno.kill(pid, "SIGKILL");
    }
  },
});

Deno.test("CappedOutput keeps everything under the cap", () => {
  const out = new CappedOutput(100);
  const bytes = new TextEncoder().encode("hello, world\n");
  out.push(bytes.subarray(0, 5));
  out.push(bytes.subarray(5));
  assertEquals(out.text(), "hello, world\n");
  assertEquals(out.dropped, 0);
});

Deno.test("CappedOutput keeps a quarter of head and three quarters of tail", () => {
  const out = new CappedOutput(40);
  const encoder = new TextEncoder();
  for (let i = 0; i < 100; i++) out.push(encoder.encode(`${String(i).padStart(2, "0")}\n`));
  const text = out.text();
  assert(text.startsWith("00\n01\n02\n0"), text);
  assert(text.endsWith("97\n98\n99\n"), text);
  assertEquals(out.dropped, 300 - 40);
  assertStringIncludes(text, "[... 260 bytes of output omitted ...]");
});

Deno.test("CappedOutput decodes characters split across chunks", () => {
  const out = new CappedOutput(1000);
  const bytes = new TextEncoder().encode("größe ✓");
  for (let i = 0; i < bytes.length; i++) out.push(bytes.subarray(i, i + 1));
  assertEquals(out.text(), "größe ✓");
});

Deno.test("readStream hands over every chunk, and cancel() stops waiting", async () => {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const ended = readStream(
    ReadableStream.from([new Uint8Array([104, 105]), new Uint8Array([33])]),
    (c) => chunks.push(decoder.decode(c)),
  );
  await ended.done;
  assertEquals(chunks, ["hi", "!"]);

  const never = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1]));
    },
  });
  let count = 0;
  const open = readStream(never, () => count++);
  await new Promise((r) => setTimeout(r, 20));
  await open.cancel();
  await open.done;
  assertEquals(count, 1);
});
