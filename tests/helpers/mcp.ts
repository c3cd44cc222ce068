/**
 * Test helpers: spawn Sextant's `main.ts` with the `start` task's permission set and talk to it
 * with the MCP SDK client over stdio; build throwaway project folders.
 * @module
 */
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";

/** The SDK client classes, for tests that start Sextant their own way. */
export { Client, StdioClientTransport };

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const MAIN = join(REPO_ROOT, "main.ts");
export const DENO_CONFIG = join(REPO_ROOT, "deno.json");

/**
 * `deno run` arguments exactly as `deno task start` uses them (the `sextant` permission set),
 * serving in the test's own process (`--standalone`): each test gets servers of its own and
 * leaves nothing behind. Tests of the shared service use {@linkcode frontArgs}.
 */
export function startArgs(extra: string[] = []): string[] {
  return [...frontArgs(), "--standalone", ...extra];
}

/** `deno run` arguments of `deno task start` as users run it: a front of the shared service. */
export function frontArgs(extra: string[] = []): string[] {
  return ["run", "--quiet", "-P=sextant", "--config", DENO_CONFIG, MAIN, ...extra];
}

/**
 * An MCP client on a front of the shared service (no `--standalone`): `env` is added to this
 * process's environment (a test's runtime folder, its config home), `extra` to the command line.
 */
export async function connectFront(
  project: string,
  env: Record<string, string>,
  options: { name: string; logLevel?: string; extra?: string[] },
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: frontArgs([
      "--project",
      project,
      "--log-level",
      options.logLevel ?? "warn",
      ...(options.extra ?? []),
    ]),
    env: { ...Deno.env.toObject(), ...env },
    cwd: REPO_ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: options.name, version: "0" });
  await client.connect(transport);
  return client;
}

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  /** Server process id. */
  pid: number | null;
  close(): Promise<void>;
}

/** Start Sextant on `project` and connect an MCP client to it. */
export async function connect(
  project: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<Connected> {
  // A session writes its caches under the project's .sextant/; in fixtures/ they would let later
  // tests answer without starting a language server.
  if (resolve(project).startsWith(join(REPO_ROOT, "fixtures"))) {
    throw new Error(`Copy the fixture to a temporary folder first: ${project}`);
  }
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: startArgs(["--project", project, "--log-level", "warn", ...extraArgs]),
    env: withLspPath({
      ...Deno.env.toObject(),
      XDG_CONFIG_HOME: join(project, ".xdg-test"),
      ...env,
    }),
    stderr: "pipe",
  });
  const client = new Client({ name: "sextant-test", version: "0" });
  await client.connect(transport);
  return {
    client,
    transport,
    pid: transport.pid,
    close: async () => {
      await client.close();
    },
  };
}

/**
 * `env` with the folders of `SEXTANT_LSP_PATH` put first on `PATH`, in the order the registry
 * searches them. The `sextant` set allows programs by name, and Deno resolves those names on
 * `PATH` when Sextant starts: a test server is then allowed exactly as a user's server on PATH is.
 */
export function withLspPath(env: Record<string, string>): Record<string, string> {
  const extra = env.SEXTANT_LSP_PATH;
  if (!extra) return env;
  const folders = extra.split(delimiter).filter(Boolean).flatMap((dir) => {
    const abs = resolve(dir);
    return [abs, join(abs, "node_modules", ".bin"), join(abs, "bin")];
  });
  return { ...env, PATH: [...folders, env.PATH ?? ""].filter(Boolean).join(delimiter) };
}

/** Text of a tool result, and whether it was an error. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean; notes?: string[] }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  // The answer is the first block; reports beside it (an earlier edit's errors, what a references
  // answer could not analyse) come as blocks of their own.
  const [answer, ...notes] = content.map((c) => c.text ?? "");
  return {
    text: answer ?? "",
    isError: result.isError === true,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** A fresh project folder with the given files (path → content). Removed by the returned dispose. */
export async function tempProject(
  files: Record<string, string> = {},
): Promise<{ root: string; [Symbol.asyncDispose](): Promise<void> }> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-test-" }));
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    await Deno.mkdir(join(abs, ".."), { recursive: true });
    await Deno.writeTextFile(abs, content);
  }
  return {
    root,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * A runtime folder (`XDG_RUNTIME_DIR`) of its own for a test that starts Sextant as users do,
 * so the shared service it starts is the test's alone; disposing stops that service and removes
 * the folder, so nothing outlives the test.
 */
export async function serviceRuntime(): Promise<{
  dir: string;
  env: { XDG_RUNTIME_DIR: string };
  [Symbol.asyncDispose](): Promise<void>;
}> {
  const dir = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  return {
    dir,
    env: { XDG_RUNTIME_DIR: dir },
    async [Symbol.asyncDispose]() {
      await stopServices(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Stop every shared service of a test's runtime folder, and wait until none is left: `service
 * stop` asks the one its endpoint names, and on Linux any other `service run` of that folder (one
 * a front was still starting, or one whose endpoint was replaced) is found by its environment and
 * ended too, so that no service outlives its test (and its runtime folder).
 */
export async function stopServices(runtimeDir: string): Promise<void> {
  await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", MAIN, "service", "stop"],
    env: { ...Deno.env.toObject(), XDG_RUNTIME_DIR: runtimeDir },
    stdout: "null",
    stderr: "null",
  }).output();
  if (Deno.build.os !== "linux") return;
  const left = () => servicesOf(runtimeDir);
  // A stopped service stops its language servers first: give it time, then insist (SIGTERM stops
  // a service as `service stop` does; one still waiting for the lock just ends).
  for (const [signal, seconds] of [[null, 5], ["SIGTERM", 10], ["SIGKILL", 5]] as const) {
    if (signal) {
      for (const pid of left()) {
        try {
          Deno.kill(pid, signal);
        } catch { /* gone */ }
      }
    }
    const deadline = Date.now() + seconds * 1000;
    while (left().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (left().length === 0) return;
  }
}

/** Live `service run` processes whose XDG_RUNTIME_DIR is `runtimeDir` (Linux). */
export function servicesOf(runtimeDir: string): number[] {
  const found: number[] = [];
  const wanted = `XDG_RUNTIME_DIR=${runtimeDir}`;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue;
      const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      const run = args.indexOf("service");
      if (run === -1 || args[run + 1] !== "run") continue;
      const env = Deno.readTextFileSync(`/proc/${entry.name}/environ`).split("\0");
      if (env.includes(wanted)) found.push(Number(entry.name));
    } catch { /* gone, or not ours to read */ }
  }
  return found;
}
