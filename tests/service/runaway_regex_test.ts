/**
 * A user regex that backtracks for hours ends at `tool_timeout`, its process killed, and another
 * session's call on the same shared service is answered meanwhile. Real fronts and a real
 * service, in a runtime folder of the test's own.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
  type Client,
  connectFront,
  REPO_ROOT,
  serviceRuntime,
  tempProject,
} from "../helpers/mcp.ts";

/** `(a+)+!?$` on this line takes V8's backtracking engine longer than any test will wait. */
const RUNAWAY_LINE = "a".repeat(40) + "!!\n";
const PATTERN = "(a+)+!?$";
/** The most a test waits for an answer due after tool_timeout (2 s); not a speed claim. */
const BOUND_MS = 60_000;

function front(project: string, env: Record<string, string>): Promise<Client> {
  return connectFront(project, env, { name: "regex-test" });
}

/** Process ids of this checkout's regex processes. */
function regexProcesses(): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes(join(REPO_ROOT, "src/tools/shared/regex_child.ts"))) {
        found.push(Number(entry.name));
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A process's state letter (R running, S sleeping, Z zombie), or null once it is reaped. */
function state(pid: number): string | null {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]?.[0] ?? null;
  } catch {
    return null;
  }
}

function gone(pid: number): boolean {
  const now = state(pid);
  return now === null || now === "Z" || now === "X";
}

async function within<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} in ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test({
  name: "regex: a runaway pattern ends at tool_timeout, killed, and never holds up another session",
  // The service and its fronts are stopped by the runtime's dispose; the SDK's stdio pipes
  // close asynchronously after that.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    if (Deno.build.os !== "linux") return;
    await using rt = await serviceRuntime();
    await using slow = await tempProject({
      "a.txt": RUNAWAY_LINE,
      ".sextant/project.jsonc": JSON.stringify({ tool_timeout: 2 }),
    });
    await using other = await tempProject({ "b.txt": "b\n" });
    const env = { ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") };
    const a = await front(slow.root, env);
    const b = await front(other.root, env);
    try {
      const calls: [string, Record<string, unknown>][] = [
        ["search_for_pattern", { substring_pattern: PATTERN }],
        ["replace_content", { relative_path: "a.txt", needle: PATTERN, repl: "x", mode: "regex" }],
        ["replace_in_files", { needle: PATTERN, repl: "x", mode: "regex" }],
      ];
      for (const [tool, args] of calls) {
        await t.step(tool, async () => {
          let settled = false;
          const slowCall = call(a, tool, args).finally(() => settled = true);
          // The pattern is running in a process of its own...
          let runner = 0;
          await until("the regex process", () => {
            runner = regexProcesses().find((pid) => state(pid) === "R") ?? 0;
            return runner !== 0 && !settled;
          });
          // ...while the other session is answered.
          const listed = await within(
            "list_dir",
            call(b, "list_dir", { relative_path: ".", recursive: false }),
          );
          assert(!listed.isError, listed.text);
          assertStringIncludes(listed.text, "b.txt");
          assertEquals(settled, false, "the runaway call ended before the other was answered");
          const answer = await within(tool, slowCall);
          assert(answer.isError, answer.text);
          assertStringIncludes(answer.text, "tool_timeout");
          await until("the regex process to be killed", () => gone(runner));
          assertEquals(await Deno.readTextFile(join(slow.root, "a.txt")), RUNAWAY_LINE);
        });
      }
    } finally {
      await a.close();
      await b.close();
    }
  },
});
