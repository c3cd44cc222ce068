/**
 * The service's log survives: a new service appends to what a killed one wrote, a log past its
 * size limit moves to `<log>.1`, and the service's stderr is the log file, so what the runtime
 * prints as it dies is kept. Real fronts and services, in a runtime folder of the test's own.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type Client, connectFront, serviceRuntime, tempProject } from "../helpers/mcp.ts";

/** The service's log limit (src/service/log_file.ts), stated here so the test reads alone. */
const LOG_MAX_BYTES = 10 * 1024 * 1024;

function front(project: string, env: Record<string, string>): Promise<Client> {
  return connectFront(project, env, { name: "log-test", logLevel: "info" });
}

/** The service's folder in the runtime folder, and its endpoint (pid) and log path. */
function endpoint(runtime: string): { pid: number; log: string } {
  const folder = join(runtime, "sextant");
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.name.endsWith(".json")) {
      const endpoint = JSON.parse(Deno.readTextFileSync(join(folder, entry.name)));
      return { pid: endpoint.pid, log: join(folder, entry.name.replace(/\.json$/, ".log")) };
    }
  }
  throw new Error(`no endpoint in ${folder}`);
}

/**
 * The service a front just connected to. A killed service leaves its endpoint file behind, and a
 * front answers `initialize` before it has started a new service, so the test waits for an
 * endpoint that names another process than the one it killed.
 */
async function service(runtime: string, killed?: number): Promise<{ pid: number; log: string }> {
  let found: { pid: number; log: string } | undefined;
  await until("a new service's endpoint", () => {
    try {
      found = endpoint(runtime);
    } catch {
      return false;
    }
    return found.pid !== killed;
  }, runtime);
  return found!;
}

async function until(what: string, check: () => boolean, runtime?: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${runtime ? `\n${folderState(runtime)}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The service folder's files, its endpoint and its log's last lines: what a timeout saw. */
function folderState(runtime: string): string {
  const folder = join(runtime, "sextant");
  const lines: string[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      lines.push(`${entry.name}`);
      const path = join(folder, entry.name);
      if (entry.name.endsWith(".json")) lines.push(`  ${Deno.readTextFileSync(path)}`);
      if (entry.name.endsWith(".log")) {
        const text = Deno.readTextFileSync(path).replace(/x{80,}\n?/g, "");
        lines.push(...text.split("\n").slice(-15).map((line) => `  ${line}`));
      }
    }
  } catch (error) {
    lines.push(`(${(error as Error).message})`);
  }
  return lines.join("\n");
}

Deno.test({
  name: "service log: appended across a crash, rotated by size, and the service's stderr",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using rt = await serviceRuntime();
    await using project = await tempProject({ "a.txt": "a\n" });
    const env = { ...rt.env, XDG_CONFIG_HOME: join(rt.dir, "xdg") };
    const first = await front(project.root, env);
    const crashed = await service(rt.dir);
    // The runtime's own messages go where the log lines go.
    assertEquals(Deno.readLinkSync(`/proc/${crashed.pid}/fd/2`), crashed.log);
    Deno.writeTextFileSync(crashed.log, "[test] last words of the first service\n", {
      append: true,
    });
    Deno.kill(crashed.pid, "SIGKILL");
    await first.close();

    const second = await front(project.root, env);
    const restarted = await service(rt.dir, crashed.pid);
    assert(restarted.pid !== crashed.pid);
    let text = "";
    await until("the second service's start in the log", () => {
      text = Deno.readTextFileSync(restarted.log);
      return text.includes(`(pid ${restarted.pid}) listening`);
    });
    assertStringIncludes(text, "last words of the first service");
    assertStringIncludes(text, `(pid ${crashed.pid}) listening`);

    // A log past its limit moves aside when the next service starts.
    Deno.writeTextFileSync(restarted.log, "x".repeat(LOG_MAX_BYTES) + "\n", { append: true });
    Deno.kill(restarted.pid, "SIGKILL");
    await second.close();
    const third = await front(project.root, env);
    const rotated = await service(rt.dir, restarted.pid);
    await until("the third service's start in the log", () => {
      text = Deno.readTextFileSync(rotated.log);
      return text.includes(`(pid ${rotated.pid}) listening`);
    });
    assert(text.length < LOG_MAX_BYTES, `${text.length} bytes`);
    assertStringIncludes(Deno.readTextFileSync(`${rotated.log}.1`), "last words");
    await third.close();
  },
});
