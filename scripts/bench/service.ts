/**
 * The shared service in `deno task bench`: fronts started as clients start them (`deno run
 * -P=sextant main.ts`) against one service of the bench's own, on the generated project.
 *
 * - Session 2's first `find_referencing_symbols` against session 1's warm answer (target ≤ 1.5×):
 *   the second session finds the language server warm; and from the front's spawn to that
 *   answer (target ≤ 80 ms), with the `initialize` part of it, beside what the warm answer alone
 *   costs: the median of three new sessions (fronts 2 to 4), each beside a warm call of session 1
 *   just before it. Warm: measured once the service and its servers are quiet after session 1's
 *   first answer (its index built, its server's project loaded: {@linkcode quiet}). Where the
 *   stages go: scripts/profiles/second_session.ts.
 *
 *       deno run -A scripts/bench/service.ts [--files 3000] [--runs 5] [--typescript 5,7]
 *          [--transports stdio,http]
 *
 *   Both on typescript-language-server (TypeScript 5) and on TypeScript 7's own server, linked
 *   into a second generated project when the test set-up installed it.
 * - Memory of everything Sextant runs (the service and every process under it, language servers
 *   included, plus the fronts) with 1 and with 4 sessions (target: 4 ≤ 1.2× 1).
 * - The same rows over Streamable HTTP (`--transports`, in the order given): sessions that speak
 *   MCP over HTTP to `sextant --http` on the same project, as clients that connect by URL do. No
 *   front: a new session is `initialize` over HTTP, timed from the client's connect to its first
 *   answer, and the memory is the HTTP service's process tree.
 * @module
 */
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { processTree, quiet, servicePidIn } from "./lib/quiet.ts";
import { HttpService, HttpSession } from "./lib/http_sextant.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Resident memory of one process, bytes (0 when it is gone). */
function rss(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional memory of one process (pages shared with others split between them), bytes. */
function pss(pid: number): number {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
    const kb = /^Pss:\s+(\d+)\s+kB/m.exec(text)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

interface Front {
  client: Client;
  pid: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The environment of fronts that share a service of their own: its folder below `runtime`
 * (`XDG_RUNTIME_DIR`), so a user's service is never touched; the test set-up's servers first on
 * PATH.
 */
export function privateServiceEnv(runtime: string): Record<string, string> {
  const lsp = Deno.env.get("SEXTANT_LSP_PATH") ?? join(REPO, ".cache", "lsp");
  return {
    ...Deno.env.toObject(),
    XDG_RUNTIME_DIR: runtime,
    SEXTANT_LSP_PATH: lsp,
    PATH: [join(lsp, "node_modules", ".bin"), Deno.env.get("PATH") ?? ""].join(delimiter),
  };
}

/** How sessions reach Sextant in a run of the service rows. */
export type Transport = "stdio" | "http";

/** The transports, in the order a run measures them unless told otherwise. */
export const TRANSPORTS: readonly Transport[] = ["stdio", "http"];

/** The sessions of one run: how a new one is opened, and the processes Sextant runs for them. */
interface Sessions {
  /** A new session as a client opens it; resolves once `initialize` is answered. */
  open(): Promise<Front>;
  /** The process that serves the sessions (the shared service, or `sextant --http`). */
  servicePid(): number;
  /** Every process Sextant runs for the sessions: the service's tree, and the fronts. */
  processes(): number[];
  close(): Promise<void>;
}

/**
 * Fronts started as clients start them (`deno run -P=sextant main.ts`), sharing a service of
 * their own in a folder below `runtime`.
 */
function frontSessions(root: string): Sessions {
  const runtime = Deno.makeTempDirSync({ prefix: "sextant-bench-rt-" });
  const env = privateServiceEnv(runtime);
  const fronts: Front[] = [];
  const servicePid = (): number => {
    const pid = servicePidIn(runtime);
    if (pid === null) throw new Error("no service running");
    return pid;
  };
  return {
    async open() {
      const transport = new StdioClientTransport({
        command: Deno.execPath(),
        args: [
          "run",
          "--quiet",
          "-P=sextant",
          "--config",
          join(REPO, "deno.json"),
          join(REPO, "main.ts"),
          "--project",
          root,
          "--log-level",
          "error",
        ],
        env,
        stderr: "pipe",
      });
      const client = new Client({ name: "bench", version: "0" });
      await client.connect(transport);
      const made = { client, pid: transport.pid! };
      fronts.push(made);
      return made;
    },
    servicePid,
    processes: () => [...processTree(servicePid()), ...fronts.map((f) => f.pid)],
    async close() {
      for (const f of fronts) await f.client.close().catch(() => {});
      await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-config", join(REPO, "main.ts"), "service", "stop"],
        env,
        stdout: "null",
        stderr: "null",
      }).output();
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Sessions that speak MCP over Streamable HTTP to `sextant --http` (bench/lib/http_sextant.ts),
 * as clients that connect by URL do: no front, so a new session is `initialize` over HTTP.
 */
async function httpSessions(root: string): Promise<Sessions> {
  const lsp = Deno.env.get("SEXTANT_LSP_PATH") ?? join(REPO, ".cache", "lsp");
  const service = await HttpService.start(root, { env: { SEXTANT_LSP_PATH: lsp } });
  const sessions: HttpSession[] = [];
  return {
    async open() {
      const session = await HttpSession.connect(service);
      sessions.push(session);
      return { client: session.client, pid: service.pid };
    },
    servicePid: () => service.pid,
    processes: () => processTree(service.pid),
    async close() {
      for (const s of sessions) await s.close().catch(() => {});
      await service.stop();
    },
  };
}

/**
 * Run the service rows on `root` (a generated project whose `src/core.ts` has class Core), whose
 * TypeScript server is `server` (the project's own TypeScript 7 when it has one linked), once per
 * transport in `transports`, in that order: fronts of the shared service over stdio, and MCP over
 * Streamable HTTP to `sextant --http` (no front).
 */
export async function printServiceBench(
  root: string,
  runs: number,
  server = "typescript-language-server",
  transports: readonly Transport[] = TRANSPORTS,
): Promise<void> {
  for (const transport of transports) {
    const sessions = transport === "stdio" ? frontSessions(root) : await httpSessions(root);
    try {
      await measureSessions(sessions, transport, runs, server);
    } finally {
      await sessions.close();
    }
  }
}

async function measureSessions(
  sessions: Sessions,
  transport: Transport,
  runs: number,
  server: string,
): Promise<void> {
  const http = transport === "http";
  const fronts: Front[] = [];
  const front = async (): Promise<Front> => {
    const made = await sessions.open();
    fronts.push(made);
    return made;
  };
  const refs = async (f: Front) => {
    const started = performance.now();
    const result = await f.client.callTool({
      name: "find_referencing_symbols",
      arguments: { name_path: "Core", relative_path: "src/core.ts" },
    });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    // An answer without references would time other work (a tree whose imports do not resolve).
    if (!JSON.stringify(result.content).includes("src/pkg")) {
      throw new Error(`no reference to Core in the answer: ${JSON.stringify(result.content)}`);
    }
    return performance.now() - started;
  };
  const servicePid = () => sessions.servicePid();
  const totalMemory = () => sessions.processes().reduce((sum, pid) => sum + rss(pid), 0);
  const fmt = (ms: number) => ms < 10 ? ms.toFixed(2) : ms.toFixed(0);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const first = await front();
  const cold = await refs(first);
  // Warm: what the cold answer started (the index build, the server's load) has finished.
  const settledMs = await quiet(servicePid());
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) warm.push(await refs(first));
  const warmMs = median(warm);
  const oneSession = totalMemory();

  // New sessions as a client starts them: spawn (over HTTP: connect) → `initialize` → the first
  // answer, each beside a warm call of session 1 just before it (the machine's load moves
  // between them).
  const seconds: Array<{ warm: number; initialize: number; first: number; total: number }> = [];
  for (let i = 0; i < 3; i++) {
    const warmNow = await refs(first);
    const spawned = performance.now();
    const next = await front();
    const initialize = performance.now() - spawned;
    const firstCall = await refs(next);
    seconds.push({
      warm: warmNow,
      initialize,
      first: firstCall,
      total: performance.now() - spawned,
    });
  }
  const pick = (key: keyof typeof seconds[number]) => median(seconds.map((s) => s[key]));
  const secondFirst = pick("first");
  const secondTotal = pick("total");
  const connected = pick("initialize");
  const warmBeside = pick("warm");
  const fourSessions = totalMemory();

  const session = http ? "a new HTTP session" : "a new session";
  console.log(
    http
      ? `\nStreamable HTTP: 4 sessions on one \`sextant --http\`, no fronts (the generated ` +
        `project, ${server})\n`
      : `\nShared service: 4 fronts on one project (the generated one, ${server})\n`,
  );
  console.log("| measurement | value | baseline (same run) | ratio | target |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| session 1: first find_referencing_symbols Core (cold service and server) | ` +
      `${fmt(cold)} ms (the service quiet ${(settledMs / 1000).toFixed(1)} s later) | | | |`,
  );
  console.log(
    `| session 1: warm find_referencing_symbols Core (median of ${runs}) | ${fmt(warmMs)} ms ` +
      "| | | |",
  );
  console.log(
    `| ${session}: first find_referencing_symbols Core (median of 3) | ${fmt(secondFirst)} ms | ` +
      `session 1 warm ${fmt(warmBeside)} ms | ${(secondFirst / warmBeside).toFixed(2)} | ≤ 1.5 |`,
  );
  console.log(
    `| ${session}: ${http ? "connect" : "spawn"} → first complete answer (service warm; ` +
      `median of 3) | ${fmt(secondTotal)} ms (initialize ${fmt(connected)} ms; ` +
      `${fmt(secondTotal - warmBeside)} ms above the warm answer) | ` +
      `session 1 warm ${fmt(warmBeside)} ms | ${(secondTotal / warmBeside).toFixed(2)} | ` +
      `≤ 80 ms: ${secondTotal <= 80 ? "PASS" : "MISS"} |`,
  );
  console.log(
    `| memory: service + language servers${http ? "" : " + fronts"}, 4 sessions | ` +
      `${mb(fourSessions)} | 1 session ${mb(oneSession)} | ` +
      `${(fourSessions / oneSession).toFixed(2)} | ≤ 1.2 |`,
  );
  const service = `${mb(rss(servicePid()))} RSS, ${mb(pss(servicePid()))} PSS`;
  if (http) {
    console.log(
      `\nNo fronts: the HTTP service process alone holds ${service}. Load average: ` +
        `${Deno.loadavg().join(" ")}.`,
    );
  } else {
    const frontRss = fronts.map((f) => rss(f.pid));
    const frontPss = fronts.map((f) => pss(f.pid));
    console.log(
      `\nEach front (relay) holds ${mb(median(frontRss))} RSS, ${mb(median(frontPss))} PSS ` +
        `(median of ${fronts.length}); the service process alone ${service}. Load average: ` +
        `${Deno.loadavg().join(" ")}.`,
    );
  }
}

/**
 * The same rows on a generated project of `files` modules with TypeScript 7 linked in (its own
 * server, `tsc --lsp`), when the test set-up installed it; a note otherwise.
 */
export async function printServiceBenchTypeScript7(
  files: number,
  runs: number,
  transports: readonly Transport[] = TRANSPORTS,
): Promise<void> {
  const { hasTypeScript7, linkTypeScript7 } = await import("../../tests/helpers/lsp.ts");
  if (!hasTypeScript7()) {
    console.log(
      "\nShared service on TypeScript 7: skipped (not installed; scripts/checks/test_setup.ts)",
    );
    return;
  }
  const { generatedTree } = await import("./lib/project.ts");
  const tree = await generatedTree(files);
  try {
    await linkTypeScript7(tree.root);
    await printServiceBench(tree.root, runs, "TypeScript 7's tsc --lsp", transports);
  } finally {
    await tree.dispose();
  }
}

if (import.meta.main) {
  const { parseArgs } = await import("node:util");
  const { generatedTree } = await import("./lib/project.ts");
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "3000" },
      runs: { type: "string", default: "5" },
      typescript: { type: "string", default: "5,7" },
      transports: { type: "string", default: TRANSPORTS.join(",") },
    },
  });
  const generations = values.typescript.split(",");
  const transports = values.transports.split(",").filter(Boolean) as Transport[];
  const unknown = transports.filter((t) => !TRANSPORTS.includes(t));
  if (unknown.length) {
    throw new Error(`--transports: unknown ${unknown.join(", ")} (${TRANSPORTS.join(", ")})`);
  }
  if (generations.includes("5")) {
    const tree = await generatedTree(Number(values.files));
    try {
      await printServiceBench(tree.root, Number(values.runs), undefined, transports);
    } finally {
      await tree.dispose();
    }
  }
  if (generations.includes("7")) {
    await printServiceBenchTypeScript7(Number(values.files), Number(values.runs), transports);
  }
}
