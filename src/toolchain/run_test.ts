/**
 * The toolchain's process runner: output, exit code and tail; no process outlives a run, its
 * timeout or its cancellation.
 * @module
 */
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
} from "../../tests/helpers/assert.ts";
import { alive, waitFor } from "../../tests/helpers/toolchain.ts";
import { runCommand } from "./run.ts";

Deno.test("runCommand collects output, exit code and a tail", async () => {
  const result = await runCommand([
    "sh",
    "-c",
    "for i in 1 2 3 4 5; do echo line$i; done; echo err >&2; exit 3",
  ], {
    cwd: "/",
    tailLines: 3,
  });
  assertEquals(result.code, 3);
  assertStringIncludes(result.stdout, "line1\n");
  assertEquals(result.stderr, "err\n");
  assertEquals(result.lines, 6);
  assertEquals(result.tail.length, 3);
  assertEquals(result.timedOut, false);
});

Deno.test("runCommand kills what the process left behind when it exits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = await runCommand(["sh", "-c", `sleep 30 & echo $! > ${dir}/pid`], { cwd: dir });
    assertEquals(result.code, 0);
    const pid = Number(await Deno.readTextFile(`${dir}/pid`));
    assert(await waitFor(() => !alive(pid), 3000), "the background sleep must not outlive the run");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCommand's timeout kills the whole process group", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const started = Date.now();
    const result = await runCommand(["sh", "-c", `sleep 30 & echo $! > ${dir}/pid; sleep 30`], {
      cwd: dir,
      timeoutMs: 500,
    });
    assert(result.timedOut);
    assert(Date.now() - started < 5000, "the timeout must stop the run promptly");
    const pid = Number(await Deno.readTextFile(`${dir}/pid`));
    assert(await waitFor(() => !alive(pid), 3000));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCommand rejects with the abort reason and kills the group when aborted", async () => {
  const controller = new AbortController();
  const progress: number[] = [];
  const run = runCommand(["sh", "-c", "echo started; sleep 30"], {
    cwd: "/",
    signal: controller.signal,
    onProgress: (p) => progress.push(p.lines),
  });
  await new Promise((r) => setTimeout(r, 1300));
  controller.abort(new Error("cancelled by test"));
  await assertRejects(() => run, "cancelled by test");
  assert(progress.length >= 1 && progress[0] === 1, "progress reports lines seen while running");
});

Deno.test("runCommand reports a program that does not exist", async () => {
  await assertRejects(() => runCommand(["/nonexistent/tool"], { cwd: "/" }), "was not found");
});
