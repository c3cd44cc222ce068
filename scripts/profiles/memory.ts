/**
 * Where Sextant's own memory goes, in the default mode: fronts started as `deno task start`
 * starts them (no `--standalone`), each relaying its MCP session to one shared service that the
 * first front starts, on a project of its own (a private `XDG_RUNTIME_DIR`, so no other service
 * is reused). Every process is sampled every 50 ms (VmRSS; and VmHWM, the kernel's own peak,
 * after each step; PSS from smaps_rollup after each step, and every 50 ms for the fronts and the
 * service: "own PSS, peak"), by role:
 *
 * - `front`: the processes the client started (one per session);
 * - `service`: the shared service (its parse workers are threads of it);
 * - `children`: its own child processes (code-mode children, regex children);
 * - `servers`: the language servers and their children.
 *
 * The steps of a typical session, run by every session at once: initialize, a global
 * find_symbol (index build, server start), references, a symbols overview of 200 files, a
 * find_symbol matching every file, then idle (parse workers stop 1 s after a build).
 *
 *     deno run -A scripts/profiles/memory.ts [--project typeorm|generated] [--files 3000]
 *       [--ts 7|5] [--sessions 1,4] [--idle 15] [--env=NAME=value,...]
 *
 * `--ts 7` gives the project TypeScript 7 as its own dependency, so its native server runs (the
 * comparison the memory targets name); `--ts 5` leaves it to typescript-language-server.
 * `--env` adds to the environment the start task sets (`none`: without it).
 *
 * `deno task bench` calls {@linkcode runMemoryRows}: Sextant's own peak (front + service) on
 * typeorm beside TypeScript 7's server on the same run and beside 100 MB, and 4 sessions
 * against 1 (every process summed).
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { Client, StdioClientTransport, withLspPath } from "../../tests/helpers/mcp.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";
import {
  type BenchTree,
  CORE,
  generatedTree,
  modPath,
  REPO,
  typeormTree,
} from "../bench/lib/project.ts";
import { memoryOf, processTree, pssOf, startTaskArgs, startTaskEnv } from "../bench/scale.ts";

/** A process's role in the measurement (see the module documentation). */
export type Role = "front" | "service" | "children" | "servers";
const ROLES: readonly Role[] = ["front", "service", "children", "servers"];

/** Memory of one role after a step, in MB. */
export interface RoleMemory {
  /** VmRSS summed over the role's processes now. */
  rss: number;
  /** VmHWM summed over the role's live processes (each one's own peak). */
  hwm: number;
  /** The highest sampled VmRSS sum of the role so far (covers processes that have exited). */
  peak: number;
  /** The largest VmHWM of one live process of the role (for servers: the server itself). */
  top: number;
  /** Proportional set size summed over the role's processes now (shared pages split). */
  pss: number;
}

/** One step of the session and every role's memory after it. */
export interface StepMemory {
  step: string;
  /** Wall time of the step (ms; every session's share of it at once). */
  ms: number;
  roles: Record<Role, RoleMemory>;
  /** The highest sampled sum of every process so far. */
  allPeak: number;
  /** The highest sampled PSS of Sextant's own processes (fronts + service) so far, MB. */
  ownPssPeak: number;
  /**
   * Every process's proportional set size now, summed (MB): pages shared between processes
   * (the deno executable's, mapped by every front and the service) are counted once in all.
   */
  allPss: number;
}

/** What one run measured. */
export interface MemoryRun {
  project: string;
  sessions: number;
  typescript: 5 | 7;
  steps: StepMemory[];
}

/** Options of {@linkcode measureMemory}. */
export interface MemoryOptions {
  /** `typeorm` (the npm package) or `generated` (files + core.ts). */
  project: "typeorm" | "generated";
  /** Generated modules (project `generated` only; default 3000). */
  files?: number;
  /** Fronts on the one service, running the steps at once (default 1). */
  sessions?: number;
  /** 7: the project gets TypeScript 7 as its dependency (native server); 5: tsserver (default 7). */
  typescript?: 5 | 7;
  /** Idle time at the end (ms; default 15,000). */
  idleMs?: number;
  /** Environment added to the start task's (`none`: without the start task's). */
  env?: string;
  /** V8 flags added to the fronts' (the start task's; `none`: without its V8 flags). */
  v8?: string;
  /** A tree to use instead of preparing one (the caller disposes of it). */
  tree?: BenchTree;
}

function descendants(pid: number, tree: Map<number, number[]>): number[] {
  const out: number[] = [];
  for (const child of tree.get(pid) ?? []) out.push(child, ...descendants(child, tree));
  return out;
}

/** Whether a child of the service is Sextant's own (code mode, regexes), not a server. */
function isOwnChild(pid: number): boolean {
  try {
    const argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    return /regex[-_]child|__repl-child|repl[/\\]child/.test(argv);
  } catch {
    return false;
  }
}

/** The environment of an `env` option (see the module's documentation). */
function variantEnv(variant: string): Record<string, string> {
  if (variant === "none") return {};
  const env = startTaskEnv();
  for (const pair of variant.split(",").filter(Boolean)) {
    const [name, ...value] = pair.split("=");
    env[name!] = value.join("=");
  }
  return env;
}

/** The start task's arguments with a `v8` option's flags (see the module's documentation). */
function frontArgs(v8: string): string[] {
  const args = startTaskArgs();
  const flagAt = args.findIndex((a) => a.startsWith("--v8-flags="));
  if (v8 === "none") {
    if (flagAt >= 0) args.splice(flagAt, 1);
  } else if (v8) {
    if (flagAt >= 0) args[flagAt] = `${args[flagAt]},${v8}`;
    else args.splice(1, 0, `--v8-flags=${v8}`);
  }
  return args;
}

/** The files the overview step asks about: up to 200, the same ones every run. */
async function overviewFiles(tree: BenchTree, generatedFiles: number): Promise<string[]> {
  if (tree.symbol === "Core") {
    return Array.from({ length: Math.min(200, generatedFiles) }, (_, i) => modPath(i));
  }
  const found: string[] = [];
  const walk = async (dir: string, rel: string) => {
    const entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const e of entries) {
      if (found.length >= 200) return;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory && e.name !== "node_modules" && !e.name.startsWith(".")) {
        await walk(join(dir, e.name), path);
      } else if (e.isFile && e.name.endsWith(".d.ts")) found.push(path);
    }
  };
  await walk(tree.root, "");
  return found;
}

/** The steps' names and calls on a tree (the first global find_symbol asks a name not asked before). */
function sessionSteps(
  tree: BenchTree,
  files: string[],
  generatedFiles: number,
): Array<{ step: string; calls: Array<[string, Record<string, unknown>]> }> {
  const generated = tree.symbol === "Core";
  return [
    {
      step: "global find_symbol (index build)",
      calls: [["find_symbol", {
        name_path_pattern: generated ? `Widget${generatedFiles >> 1}` : "EntityManager",
      }]],
    },
    {
      step: `find_referencing_symbols ${tree.symbol}`,
      calls: [["find_referencing_symbols", {
        name_path: tree.symbol,
        relative_path: generated ? CORE : tree.file,
      }]],
    },
    {
      step: `get_symbols_overview × ${files.length}`,
      calls: files.map((f) => ["get_symbols_overview", { relative_path: f }]),
    },
    {
      step: `find_symbol ${generated ? "render" : "find"} (methods, every file)`,
      calls: [["find_symbol", {
        name_path_pattern: generated ? "render" : "find",
        include_kinds: [6],
      }]],
    },
  ];
}

/** Measure one run (see {@linkcode MemoryOptions}). */
export async function measureMemory(options: MemoryOptions): Promise<MemoryRun> {
  if (Deno.build.os !== "linux") throw new Error("bench_memory reads /proc: Linux only.");
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const generatedFiles = options.files ?? 3000;
  const sessions = options.sessions ?? 1;
  const typescript = options.typescript ?? 7;
  const tree = options.tree ??
    (options.project === "typeorm" ? await typeormTree() : await generatedTree(generatedFiles));
  const runtime = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-mem-run-" }));
  Deno.chmodSync(runtime, 0o700);
  const clients: Client[] = [];
  const fronts: number[] = [];
  let servicePid: number | null = null;
  try {
    await Deno.remove(join(tree.root, ".sextant"), { recursive: true }).catch(() => {});
    if (typescript === 7) {
      const linked = await Deno.lstat(join(tree.root, "node_modules", "typescript"))
        .then(() => true, () => false);
      if (!linked) await linkTypeScript7(tree.root);
    } else {
      await Deno.remove(join(tree.root, "node_modules"), { recursive: true }).catch(() => {});
    }
    const files = await overviewFiles(tree, generatedFiles);
    const steps = sessionSteps(tree, files, generatedFiles);

    // Sampling: the tree of processes every 500 ms, their RSS every 50 ms.
    const peaks: Record<Role, number> = { front: 0, service: 0, children: 0, servers: 0 };
    let allPeak = 0;
    let ownPssPeak = 0;
    let members: Record<Role, number[]> = { front: [], service: [], children: [], servers: [] };
    const classify = () => {
      const t = processTree();
      const under = servicePid === null ? [] : descendants(servicePid, t);
      const own = under.filter(isOwnChild);
      const ownAll = new Set(own.flatMap((p) => [p, ...descendants(p, t)]));
      members = {
        front: [...fronts],
        service: servicePid === null ? [] : [servicePid],
        children: [...ownAll],
        servers: under.filter((p) => !ownAll.has(p)),
      };
    };
    const sample = () => {
      let all = 0;
      for (const role of ROLES) {
        const sum = members[role].reduce((s, p) => s + memoryOf(p).rss, 0);
        peaks[role] = Math.max(peaks[role], sum);
        all += sum;
      }
      allPeak = Math.max(allPeak, all);
      // PSS walks the page tables: sampled for Sextant's own (small) processes only.
      const own = [...members.front, ...members.service].reduce((s, p) => s + pssOf(p), 0);
      ownPssPeak = Math.max(ownPssPeak, own);
    };
    let ticks = 0;
    const sampler = setInterval(() => {
      if (ticks++ % 10 === 0) classify();
      sample();
    }, 50);
    const result: StepMemory[] = [];
    let since = performance.now();
    const mark = (step: string) => {
      classify();
      sample();
      const now = performance.now();
      const roles = {} as Record<Role, RoleMemory>;
      for (const role of ROLES) {
        const mem = members[role].map((p) => memoryOf(p));
        roles[role] = {
          rss: mem.reduce((s, m) => s + m.rss, 0),
          hwm: mem.reduce((s, m) => s + m.hwm, 0),
          peak: peaks[role],
          top: mem.reduce((s, m) => Math.max(s, m.hwm), 0),
          pss: members[role].reduce((s, p) => s + pssOf(p), 0),
        };
      }
      const allPss = ROLES.reduce((sum, role) => sum + roles[role].pss, 0);
      ownPssPeak = Math.max(ownPssPeak, roles.front.pss + roles.service.pss);
      result.push({ step, ms: now - since, roles, allPeak, allPss, ownPssPeak });
      since = now;
    };

    try {
      // The first front starts the service; the others connect to it.
      for (let i = 0; i < sessions; i++) {
        const transport = new StdioClientTransport({
          command: Deno.execPath(),
          args: [...frontArgs(options.v8 ?? ""), "--project", tree.root, "--log-level", "warn"],
          env: withLspPath({
            ...Deno.env.toObject(),
            ...variantEnv(options.env ?? ""),
            XDG_CONFIG_HOME: join(runtime, "xdg-config"),
            XDG_RUNTIME_DIR: runtime,
          }),
          stderr: "inherit",
        });
        const client = new Client({ name: `sextant-memory-${i}`, version: "0" });
        await client.connect(transport);
        clients.push(client);
        fronts.push(transport.pid!);
        servicePid ??= serviceOf(runtime);
      }
      mark("initialize");
      for (const { step, calls } of steps) {
        await Promise.all(clients.map(async (client) => {
          for (const [name, args] of calls) {
            const r = await client.callTool({ name, arguments: args }, undefined, {
              timeout: 900_000,
            });
            if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 500)}`);
          }
        }));
        mark(step);
      }
      await new Promise((r) => setTimeout(r, options.idleMs ?? 15_000));
      mark(`idle ${((options.idleMs ?? 15_000) / 1000).toFixed(0)} s`);
    } finally {
      clearInterval(sampler);
    }
    return { project: tree.name, sessions, typescript, steps: result };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    if (servicePid !== null) await stopService(servicePid);
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
    if (!options.tree) await tree.dispose();
  }
}

/** The pid of the service the fronts started under `runtime` (from its endpoint file). */
function serviceOf(runtime: string): number | null {
  try {
    for (const e of Deno.readDirSync(join(runtime, "sextant"))) {
      if (!e.name.endsWith(".json")) continue;
      const endpoint = JSON.parse(Deno.readTextFileSync(join(runtime, "sextant", e.name)));
      if (typeof endpoint.pid === "number") return endpoint.pid;
    }
  } catch { /* none */ }
  return null;
}

/** Stop the service this run started (SIGTERM: it stops its servers first), and wait for it. */
async function stopService(pid: number): Promise<void> {
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    if (memoryOf(pid).rss === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    Deno.kill(pid, "SIGKILL");
  } catch { /* gone */ }
}

/** A row of `deno task bench`: our figure, its baseline, and their ratio. */
export interface MemoryRow {
  what: string;
  ours: number;
  baseline: number;
  ratio: number;
}

/** Sextant's own peak (front + service, each process's VmHWM) in a run, MB. */
export function ownPeak(run: MemoryRun): number {
  const last = run.steps.at(-1)!;
  return Math.max(last.roles.front.hwm, last.roles.front.peak) +
    Math.max(last.roles.service.hwm, last.roles.service.peak);
}

/**
 * The memory rows of `deno task bench`, on typeorm with TypeScript 7 in the default mode:
 * Sextant's own peak beside the native server's peak in the same run, the same beside 100 MB,
 * and every process summed with 4 sessions against 1.
 */
export async function runMemoryRows(
  opts: { idleMs?: number; log?: (line: string) => void } = {},
): Promise<MemoryRow[]> {
  const log = opts.log ?? (() => {});
  const one = await measureMemory({ project: "typeorm", sessions: 1, idleMs: opts.idleMs ?? 5000 });
  log(renderRun(one));
  const four = await measureMemory({
    project: "typeorm",
    sessions: 4,
    idleMs: opts.idleMs ?? 5000,
  });
  log(renderRun(four));
  const ours = ownPeak(one);
  const last = one.steps.at(-1)!;
  // The server itself, not the launchers in front of it (npm exec, node) or its type installs.
  const server = last.roles.servers.top;
  const row = (what: string, ours: number, baseline: number): MemoryRow => ({
    what,
    ours: round(ours),
    baseline: round(baseline),
    ratio: round(ours / baseline, 2),
  });
  return [
    row(`Sextant's own peak RSS MB (front + service) vs TS 7 server, ${one.project}`, ours, server),
    row(`Sextant's own peak RSS MB (front + service) vs 100 MB, ${one.project}`, ours, 100),
    row(
      `all processes' peak RSS MB, 4 sessions vs 1, ${one.project}`,
      four.steps.at(-1)!.allPeak,
      last.allPeak,
    ),
    row(
      `all processes' PSS MB after the session, 4 sessions vs 1, ${one.project}`,
      four.steps.at(-1)!.allPss,
      last.allPss,
    ),
  ];
}

function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A run as a Markdown table: each role's RSS now / its peak (MB) after every step. */
export function renderRun(run: MemoryRun): string {
  const lines = [
    `\n${run.project}, TypeScript ${
      run.typescript === 7 ? "7 (native server)" : "5 (tsserver)"
    }, ` +
    `${run.sessions} session(s), default mode (fronts + shared service); MB, RSS now / peak ` +
    "(PSS now in brackets)",
    "| step | ms | front | service | children | servers | server process | all, peak | all, PSS | " +
    "own PSS, peak |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const s of run.steps) {
    const cell = (m: RoleMemory) =>
      `${m.rss.toFixed(0)} / ${Math.max(m.hwm, m.peak).toFixed(0)} (${m.pss.toFixed(0)})`;
    lines.push(
      `| ${s.step} | ${s.ms.toFixed(0)} | ${cell(s.roles.front)} | ${cell(s.roles.service)} | ` +
        `${cell(s.roles.children)} | ${cell(s.roles.servers)} | ${
          s.roles.servers.top.toFixed(0)
        } | ` +
        `${s.allPeak.toFixed(0)} | ${s.allPss.toFixed(0)} | ${s.ownPssPeak.toFixed(0)} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      project: { type: "string", default: "" },
      files: { type: "string", default: "3000" },
      ts: { type: "string", default: "7" },
      sessions: { type: "string", default: "1" },
      idle: { type: "string", default: "15" },
      env: { type: "string", multiple: true, default: [""] },
      v8: { type: "string", multiple: true, default: [""] },
      rows: { type: "boolean", default: false },
    },
  });
  if (values.rows || values.project === "") {
    const rows = await runMemoryRows({ log: console.log });
    console.log("\n| row | ours | baseline | ratio |\n|---|---|---|---|");
    for (const r of rows) console.log(`| ${r.what} | ${r.ours} | ${r.baseline} | ${r.ratio} |`);
  } else {
    for (const [env, v8] of values.env.flatMap((e) => values.v8.map((v) => [e, v] as const))) {
      for (const sessions of values.sessions.split(",").map(Number)) {
        const run = await measureMemory({
          project: values.project === "typeorm" ? "typeorm" : "generated",
          files: Number(values.files),
          sessions,
          typescript: values.ts === "5" ? 5 : 7,
          idleMs: Number(values.idle) * 1000,
          env,
          v8,
        });
        if (env) console.log(`\nenvironment: ${JSON.stringify(variantEnv(env))}`);
        if (v8) console.log(`\nfront V8 flags added: ${v8}`);
        console.log(renderRun(run));
      }
    }
  }
}
