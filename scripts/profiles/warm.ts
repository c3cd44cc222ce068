/**
 * Where a warm `find_referencing_symbols` over MCP spends its time, end to end: an MCP client
 * on a front (`deno task start`'s command line, the shared service behind it, on a runtime
 * folder of its own) and on a standalone server (`--standalone`), beside the raw server's
 * `textDocument/references` (bench/engine.ts's RawServer), in a rotating order. Per call: wall
 * time, and the CPU time of the front and of the service process (language servers excluded):
 * the median per call of their live threads' on-CPU time (/proc, nanoseconds), and the mean over
 * the run with exited threads included (10 ms ticks, summed): Sextant's own work, however
 * loaded the machine. profiles/refs.ts splits the tool's share into stages.
 *
 *     deno run -A scripts/profiles/warm.ts [--size 1000 | --real hono|typeorm] [--runs 21]
 *       [--typescript 7] [--service-cpu-prof DIR] [--answer-out FILE]
 *
 * `--real` takes generations.ts's tree of that name instead of a generated one (the raw server
 * is then shown the target's file only: profiles/refs.ts shows it the answer's files).
 * `--warmup N` makes N calls to each before the measured ones, `--pause S` waits S seconds
 * before them (the index builds after the first call, held back while questions come).
 * `--answer-out FILE` writes the last warm answer's text, to compare two versions' answers.
 *
 * `--service-cpu-prof DIR` starts the service itself under `--cpu-prof` (written to DIR when it
 * stops), for a flame graph of its warm calls; `--front-cpu-prof DIR` the front.
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client, frontArgs, StdioClientTransport } from "../../tests/helpers/mcp.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";
import {
  type BenchTree,
  declarationPosition,
  generatedTree,
  REPO,
  typeormTree,
} from "../bench/lib/project.ts";
import { honoTree, startRaw } from "../bench/generations.ts";
import { privateServiceEnv } from "../bench/service.ts";
import { servicePidIn } from "../bench/lib/quiet.ts";
import { SEXTANT_V8_FLAGS } from "../../src/cli/permission_flags.ts";

/** On-CPU time (ms) of every thread of one process (not its children); 0 when it is gone. */
export function threadCpu(pid: number): number {
  let ns = 0;
  try {
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/schedstat`).split(" ")[0]);
      } catch { /* thread gone */ }
    }
  } catch { /* process gone */ }
  return ns / 1e6;
}

/**
 * CPU time (ms) of a process, exited threads included, from /proc/<pid>/stat (10 ms ticks: for
 * totals over many calls).
 */
function processCpu(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Mcp {
  client: Client;
  pid: number;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string", default: "1000" },
      real: { type: "string" },
      "answer-out": { type: "string" },
      /** Calls to each before the measured ones (the index's build and the first calls' JIT). */
      warmup: { type: "string", default: "0" },
      /**
       * Seconds to wait after the first calls, before the warm-up: the index builds while no
       * question holds it back (typeorm's npm package, whose questions walk its files before).
       */
      pause: { type: "string", default: "0" },
      runs: { type: "string", default: "21" },
      typescript: { type: "string", default: "7" },
      "service-cpu-prof": { type: "string" },
      /** The front (not the standalone) under `--cpu-prof`, written to this folder. */
      "front-cpu-prof": { type: "string" },
      /** With --service-cpu-prof: the service's V8 flags instead of Sextant's (an experiment). */
      "service-v8-flags": { type: "string" },
      /** Only the calls through the front (profiling: the service's samples are then all warm). */
      "front-only": { type: "boolean", default: false },
    },
  });
  const runs = Number(values.runs);
  const tree: BenchTree = values.real === "hono"
    ? await honoTree()
    : values.real === "typeorm"
    ? await typeormTree()
    : await generatedTree(Number(values.size));
  const native = values.typescript === "7";
  if (native) await linkTypeScript7(tree.root);
  const runtime = await Deno.makeTempDir({ prefix: "sextant-warm-rt-" });
  const env = privateServiceEnv(runtime);
  const clients: Mcp[] = [];
  const connect = async (extra: string[], profile?: string): Promise<Mcp> => {
    const args = frontArgs(["--project", tree.root, "--log-level", "error", ...extra]);
    args.splice(1, 0, SEXTANT_V8_FLAGS); // as `deno task start`
    if (profile) args.splice(1, 0, "--cpu-prof", `--cpu-prof-dir=${profile}`);
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args,
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "warm-profile", version: "0" });
    await client.connect(transport);
    const made = { client, pid: transport.pid! };
    clients.push(made);
    return made;
  };
  const servicePid = (): number => {
    const pid = servicePidIn(runtime);
    if (pid === null) throw new Error("no service running");
    return pid;
  };
  let profiled: Deno.ChildProcess | null = null;
  const profileDir = values["service-cpu-prof"];
  if (profileDir) {
    // The service as the front would start it, with the profiler on.
    profiled = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "-P=sextant",
        values["service-v8-flags"] === undefined
          ? SEXTANT_V8_FLAGS
          : `--v8-flags=${values["service-v8-flags"]}`,
        "--cpu-prof",
        `--cpu-prof-dir=${profileDir}`,
        "--config",
        join(REPO, "deno.json"),
        join(REPO, "main.ts"),
        "service",
        "run",
        "--log-level",
        "error",
      ],
      env: { ...env, MALLOC_ARENA_MAX: "2" },
      stdin: "null",
      stdout: "inherit", // V8's own traces, when asked for
      stderr: "inherit",
    }).spawn();
    for (let i = 0; i < 100; i++) {
      try {
        servicePid();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  const args = { name_path: tree.symbol, relative_path: tree.file };
  let lastAnswer: unknown = null;
  const call = async (m: Mcp) => {
    const result = await m.client.callTool({ name: "find_referencing_symbols", arguments: args });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    lastAnswer = result.content;
    return result;
  };
  const pos = declarationPosition(await Deno.readTextFile(join(tree.root, tree.file)), tree.symbol);
  const raw = await startRaw(tree.root, tree);
  try {
    const front = await connect([], values["front-cpu-prof"]);
    const standalone = await connect(["--standalone"]);
    await raw.openFile(tree.file);
    for (;;) {
      try {
        await raw.references(tree.file, pos, native);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const first = await call(front);
    await call(standalone);
    await new Promise((r) => setTimeout(r, Number(values.pause) * 1000));
    for (let i = 0; i < Number(values.warmup); i++) {
      await call(front);
      await call(standalone);
    }
    const chars = (first.content as Array<{ text?: string }>).reduce(
      (n, c) => n + (c.text?.length ?? 0),
      0,
    );
    const service = servicePid();
    console.log(
      `${tree.name}${native ? " (TypeScript 7)" : ""}: find_referencing_symbols ${tree.symbol}, ` +
        `${chars} characters; service pid ${service}`,
    );
    const rows = {
      front: [] as number[],
      frontCpu: [] as number[],
      serviceCpu: [] as number[],
      standalone: [] as number[],
      standaloneCpu: [] as number[],
      raw: [] as number[],
    };
    const steps = [
      async () => {
        const f0 = threadCpu(front.pid);
        const s0 = threadCpu(service);
        const t0 = performance.now();
        await call(front);
        rows.front.push(performance.now() - t0);
        rows.frontCpu.push(threadCpu(front.pid) - f0);
        rows.serviceCpu.push(threadCpu(service) - s0);
      },
      async () => {
        const c0 = threadCpu(standalone.pid);
        const t0 = performance.now();
        await call(standalone);
        rows.standalone.push(performance.now() - t0);
        rows.standaloneCpu.push(threadCpu(standalone.pid) - c0);
      },
      async () => {
        const t0 = performance.now();
        await raw.references(tree.file, pos, native);
        rows.raw.push(performance.now() - t0);
      },
    ];
    if (values["front-only"]) steps.length = 1;
    const totals0 = [front.pid, service, standalone.pid].map(processCpu);
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]!();
    }
    // Per call on average, exited threads included (the medians above count live threads only).
    const [frontMean, serviceMean, standaloneMean] = [front.pid, service, standalone.pid].map(
      (pid, i) => (processCpu(pid) - totals0[i]!) / runs,
    );
    const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
    const ms = (v: number[]) => `${median(v).toFixed(2)} ms (min ${Math.min(...v).toFixed(2)})`;
    console.log(`warm, median of ${runs} (load ${load}):`);
    if (rows.raw.length) console.log(`  raw references                ${ms(rows.raw)}`);
    console.log(`  MCP via front + service       ${ms(rows.front)}`);
    console.log(
      `    CPU of the front            ${ms(rows.frontCpu)}; mean ${frontMean!.toFixed(2)}`,
    );
    console.log(
      `    CPU of the service          ${ms(rows.serviceCpu)}; mean ${serviceMean!.toFixed(2)}`,
    );
    if (rows.standalone.length) {
      console.log(`  MCP standalone                ${ms(rows.standalone)}`);
      console.log(
        `    CPU of the standalone       ${ms(rows.standaloneCpu)}; mean ` +
          standaloneMean!.toFixed(2),
      );
      const gap = median(rows.front) - median(rows.raw);
      console.log(`  front + service over raw: +${gap.toFixed(2)} ms`);
    }
    const answerOut = values["answer-out"];
    if (answerOut) await Deno.writeTextFile(answerOut, JSON.stringify(lastAnswer, null, 1));
  } finally {
    for (const c of clients) await c.client.close().catch(() => {});
    await raw.stop();
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", join(REPO, "main.ts"), "service", "stop"],
      env,
      stdout: "null",
      stderr: "null",
    }).output();
    await profiled?.status;
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
    await tree.dispose();
  }
}
