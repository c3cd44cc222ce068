/**
 * Where the time of one `find_referencing_symbols` goes, stage by stage, in this process (no
 * MCP): locating the target, the server's `references`, naming the containing symbols, grouping
 * with context lines, JSON, `max_answer_chars` limiting. Beside it the raw server's
 * `textDocument/references` (bench/engine.ts's RawServer) in the same run, cold then warm.
 * The MCP framing is what bench/scale.ts's rows add on top (`--only refs`).
 *
 *     deno run -A scripts/profiles/refs.ts [--size 3000 | --real typeorm|hono|flask] [--runs 7] [--no-raw]
 *       [--no-index-build] [--typescript 7] [--python]
 *
 * `--python`: a generated Python tree of the same shape, on the default Python server (pyright).
 *
 * `--typescript 7` gives the generated project TypeScript 7 (from the test setup's cache), so
 * that both the tools and the raw client run its own server.
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { limitAnswer } from "../../src/tools/limit.ts";
import { Project } from "../../src/project/project.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { referencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import {
  type BenchTree,
  declarationPosition,
  generatedTree,
  REPO,
  typeormTree,
} from "../bench/lib/project.ts";
import type { RawServer } from "../bench/lib/raw_server.ts";
import { flaskTree, honoTree, startRaw } from "../bench/generations.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";

/**
 * A generated Python project of `files` modules in 30 packages: `core.py` declares class Core,
 * every tenth module imports and uses it (the TypeScript tree's shape, for pyright).
 */
async function pythonTree(files: number): Promise<BenchTree> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-py-" }));
  const root = join(parent, "project");
  const pkg = (i: number) => `pkg${String(i % 30).padStart(2, "0")}`;
  for (let p = 0; p < 30; p++) {
    await Deno.mkdir(join(root, pkg(p)), { recursive: true });
    await Deno.writeTextFile(join(root, pkg(p), "__init__.py"), "");
  }
  await Deno.writeTextFile(join(root, "pyproject.toml"), '[project]\nname = "bench"\n');
  await Deno.writeTextFile(
    join(root, "core.py"),
    '"""The core every tenth module uses."""\n\n\nclass Core:\n' +
      "    def __init__(self, name: str) -> None:\n        self.name = name\n\n" +
      "    def run(self, value: int) -> int:\n        return value * 2\n",
  );
  for (let i = 0; i < files; i++) {
    const lines = [`"""Generated module ${i}."""`];
    if (i % 10 === 0) lines.push("from core import Core");
    lines.push("", "", `class Widget${i}:`, `    count = ${i}`, "");
    lines.push("    def grow(self, by: int) -> int:", "        self.count += by");
    lines.push("        return self.count");
    if (i % 10 === 0) {
      lines.push("", "", `def use_core${i}() -> int:`, `    core = Core("m${i}")`);
      lines.push(`    return core.run(${i})`);
    }
    await Deno.writeTextFile(join(root, pkg(i), `mod${i}.py`), lines.join("\n") + "\n");
  }
  return {
    name: `generated Python ${files + 1}`,
    root,
    server: "python",
    file: "core.py",
    symbol: "Core",
    files: files + 1,
    dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
  };
}

/** Stage durations of one call (ms), in stage order, with the total. */
type Stages = Map<string, number>;

async function profiledCall(ctx: ToolContext, args: Parameters<typeof referencingSymbols>[1]) {
  const stages: Stages = new Map();
  const t0 = performance.now();
  let last = t0;
  const mark = (stage: string) => {
    const now = performance.now();
    stages.set(stage, (stages.get(stage) ?? 0) + now - last);
    last = now;
  };
  const answer = await referencingSymbols(ctx, args, mark);
  const text = limitAnswer(answer, -1, ctx.session.settings.default_max_tool_answer_chars);
  mark("limit");
  stages.set("total", performance.now() - t0);
  return { stages, text };
}

/** CPU time (ms) of a process and its descendants, from /proc (0 when gone). */
function cpuOf(pid: number): number {
  let ticks = 0;
  const walk = (p: number) => {
    try {
      const stat = Deno.readTextFileSync(`/proc/${p}/stat`);
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]);
      for (const t of Deno.readDirSync(`/proc/${p}/task`)) {
        const kids = Deno.readTextFileSync(`/proc/${p}/task/${t.name}/children`).trim();
        for (const k of kids.split(" ").filter(Boolean)) walk(Number(k));
      }
    } catch { /* gone */ }
  };
  walk(pid);
  return ticks * 10;
}

/** CPU time (ms) of this process alone (its threads: the parse workers too). */
function ownCpu(): number {
  const stat = Deno.readTextFileSync(`/proc/self/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

function print(title: string, runs: Stages[], raw: number[]): void {
  if (runs.length === 0) return; // `--runs 0`: the cold call alone
  console.log(`\n${title} (median of ${runs.length}; load ${load()})`);
  for (const stage of runs[0]!.keys()) {
    const ms = median(runs.map((r) => r.get(stage) ?? 0));
    console.log(`  ${stage.padEnd(24)} ${ms.toFixed(2).padStart(9)} ms`);
  }
  if (raw.length > 0) {
    const ours = median(runs.map((r) => r.get("total")!));
    const theirs = median(raw);
    console.log(
      `  ${"raw references".padEnd(24)} ${theirs.toFixed(2).padStart(9)} ms   ` +
        `ratio ${(ours / theirs).toFixed(2)}×, +${(ours - theirs).toFixed(1)} ms`,
    );
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

if (import.meta.main) {
  // Time since the process started: what loading Sextant's modules cost.
  const moduleLoad = performance.now();
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string" },
      real: { type: "string" },
      runs: { type: "string", default: "7" },
      "no-raw": { type: "boolean", default: false },
      /** Keep the declaration index from building during the cold call (an experiment). */
      "no-index-build": { type: "boolean", default: false },
      /** Run without a declaration index at all (an experiment: what the build costs the call). */
      "no-index": { type: "boolean", default: false },
      typescript: { type: "string", default: "5" },
      /** A generated Python tree (pyright) instead of the TypeScript one. */
      python: { type: "boolean", default: false },
    },
  });
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const runs = Number(values.runs);
  const size = Number(values.size ?? "3000");
  const tree: BenchTree = values.real === "typeorm"
    ? await typeormTree()
    : values.real === "hono"
    ? await honoTree()
    : values.real === "flask"
    ? await flaskTree()
    : values.python
    ? await pythonTree(size)
    : await generatedTree(size);
  const native = values.typescript === "7" && !values.python;
  if (native) await linkTypeScript7(tree.root);
  const settings = await loadSettings({ projectRoot: tree.root, globalFile: null });
  const project = Project.open(tree.root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project,
  });
  if (values["no-index-build"]) session.services(project).symbols.startDeclarations = () => {};
  if (values["no-index"]) {
    const lookup = session.services(project).symbols;
    await lookup.declarations?.dispose();
    Object.defineProperty(lookup, "declarations", { value: null });
  }
  // When each part of the cold call finished, from the call's start: they run side by side, so
  // the stage marks alone do not show what the wait is made of.
  const events = new Map<string, number>();
  let callStart = 0;
  const event = (name: string) => {
    if (!events.has(name)) events.set(name, performance.now() - callStart);
  };
  const lookup = session.services(project).symbols;
  const declarationIndex = lookup.declarations;
  if (declarationIndex) {
    const prepareFor = declarationIndex.prepareFor.bind(declarationIndex);
    declarationIndex.prepareFor = async (needle, options) => {
      event(`index: search for '${needle}' asked`);
      try {
        return await prepareFor(needle, options);
      } finally {
        event(`index: search for '${needle}' done (${options?.scope ?? "."})`);
      }
    };
  }
  // The requests the tools send their servers, by method: how many outlines a call asks.
  const requests = new Map<string, number>();
  let started: ({ state: { state: string } }) | null = null;
  const pool = session.services(project).pool;
  const serverFor = pool.serverFor.bind(pool);
  const counted = new WeakSet<object>();
  pool.serverFor = async (relPath, options) => {
    const server = await serverFor(relPath, options);
    event("server started and initialized");
    started ??= server as { state: { state: string } } & typeof server;
    if (!counted.has(server)) {
      counted.add(server);
      const request = server.request.bind(server);
      server.request = <R>(
        method: string,
        params: unknown,
        opts?: Parameters<typeof request>[2],
      ) => {
        const n = (requests.get(method) ?? 0) + 1;
        requests.set(method, n);
        const name = `server: ${method.replace(/^textDocument\//, "")} #${n}`;
        event(`${name} sent`);
        const answer = request<R>(method, params, opts);
        answer.finally(() => event(`${name} answered`)).catch(() => {});
        return answer;
      };
    }
    return server;
  };
  const requestCounts = () =>
    [...requests].map(([method, n]) => `${method.replace(/^textDocument\//, "")} ${n}`).join(", ");
  const controller = new AbortController();
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: controller.signal,
    progress: () => Promise.resolve(),
  };
  const args = {
    name_path: tree.symbol,
    relative_path: tree.file,
    include_kinds: [],
    exclude_kinds: [],
  };
  const pos = declarationPosition(await Deno.readTextFile(join(tree.root, tree.file)), tree.symbol);
  let raw: RawServer | null = null;
  try {
    console.log(`${tree.name}: find_referencing_symbols ${tree.symbol} (${tree.file})`);
    const rawCold: number[] = [];
    if (!values["no-raw"]) {
      const [ms] = await timed(async () => {
        raw = await startRaw(tree.root, tree);
        await raw.openFile(tree.file);
        for (;;) {
          try {
            return await raw.references(tree.file, pos, native);
          } catch {
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      });
      rawCold.push(ms);
    }
    const rawCpu = raw ? cpuOf((raw as RawServer).pid) : NaN;
    const cpu0 = ownCpu();
    callStart = performance.now();
    const watchBuild = setInterval(() => {
      if (declarationIndex?.built) event("index: build done");
      // The server's own project load (pyright's "Found N source files"): queries wait for it.
      if (started?.state.state === "ready") event("server: project loaded (queries may go)");
    }, 2);
    const cold = await profiledCall(ctx, args);
    event("answer");
    const ownCold = ownCpu() - cpu0;
    // Our servers are this process's children (the raw server is one too: subtracted).
    const serverCpu = cpuOf(Deno.pid) - ownCpu() - (raw ? cpuOf((raw as RawServer).pid) : 0);
    console.log(`answer: ${cold.text.length} characters`);
    if (Deno.env.get("SHOW")) console.log(cold.text.slice(0, 1500));
    // The whole cold answer, to compare two versions' answers.
    const out = Deno.env.get("ANSWER_OUT");
    if (out) Deno.writeTextFileSync(out, cold.text);
    console.log(`server requests of the cold call: ${requestCounts() || "none"}`);
    requests.clear();
    console.log(
      `cold CPU: raw server ${rawCpu} ms; ours: this process ${ownCold} ms, its server ` +
        `${serverCpu} ms`,
    );
    print("cold (server start + load + answer)", [cold.stages], rawCold);
    console.log(`  module loading before main: ${moduleLoad.toFixed(0)} ms`);
    console.log("  timeline of the cold call (ms from its start):");
    const timeline = () => {
      for (const [name, at] of [...events].sort((a, b) => a[1] - b[1])) {
        console.log(`    ${at.toFixed(0).padStart(7)}  ${name}`);
      }
    };
    if (declarationIndex && !declarationIndex.built) {
      await declarationIndex.ready().catch(() => {});
      event("index: build done");
    }
    clearInterval(watchBuild);
    timeline();
    // Warm: the tool, the same request through the engine alone, and the raw server, in a
    // rotating order (a server may still be busy after its answer). Medians and minimums: on a
    // loaded machine the minimum shows the work itself best.
    const index = session.services(project).symbols;
    const server = await index.pool.serverFor(tree.file);
    const warm: Stages[] = [];
    const engine: number[] = [];
    const rawWarm: number[] = [];
    const rawServer = raw as RawServer | null;
    // The fair floor (issue 35): the raw server shown the files the engine has open, so that it
    // answers the same question (hono's npm package: 144 locations, against 8 with one file).
    const shown = (server as { openDocuments?: () => string[] }).openDocuments?.() ?? [];
    for (const file of shown) await rawServer?.openFile(file);
    if (rawServer) await rawServer.references(tree.file, pos, native);
    // CPU time of this process per call (µs → ms): what Sextant's own work costs, however
    // loaded the machine (the servers' time is not in it).
    const cpuTool: number[] = [];
    const cpuEngine: number[] = [];
    const cpuRaw: number[] = [];
    /** The document sync every request does first (the open documents checked against disk). */
    const syncs: number[] = [];
    /** The declaration index made current (its watcher's barrier), as a warm call could do. */
    const settles: number[] = [];
    const cpuSettle: number[] = [];
    /**
     * The servers' CPU (ms, in 10 ms ticks: summed over the runs) during each kind of call: the
     * server's own work per call where its wall time alone cannot tell (a loaded machine).
     */
    const warmServerCpu = new Map<number[], number>();
    const ourServerPid = (server as { pid?: number | null }).pid ?? null;
    const withCpu = async (into: number[], fn: () => Promise<unknown>) => {
      const pid = into === cpuRaw ? rawServer?.pid ?? null : ourServerPid;
      const serverBefore = pid === null ? 0 : cpuOf(pid);
      const before = process.cpuUsage();
      await fn();
      const used = process.cpuUsage(before);
      into.push((used.user + used.system) / 1000);
      if (pid !== null) {
        warmServerCpu.set(into, (warmServerCpu.get(into) ?? 0) + cpuOf(pid) - serverBefore);
      }
    };
    const steps = [
      () => withCpu(cpuTool, async () => warm.push((await profiledCall(ctx, args)).stages)),
      () =>
        withCpu(cpuEngine, async () =>
          engine.push(
            (await timed(() =>
              server.request("textDocument/references", {
                textDocument: { uri: server.uriOf(tree.file) },
                position: pos,
                context: { includeDeclaration: native },
              }, { sync: [tree.file] })
            ))[0],
          )),
      async () => syncs.push((await timed(() => server.syncFiles([tree.file])))[0]),
      async () => {
        const declarations = index.declarations;
        if (!declarations?.built) return;
        await withCpu(cpuSettle, async () => {
          settles.push((await timed(() => declarations.ready()))[0]);
        });
      },
      async () => {
        if (!rawServer) return;
        await withCpu(cpuRaw, async () => {
          rawWarm.push((await timed(() => rawServer.references(tree.file, pos, native)))[0]);
        });
      },
    ];
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]!();
    }
    print(`warm (the raw server shown the same ${shown.length} files)`, warm, rawWarm);
    const min = (values: number[]) => Math.min(...values);
    const totals = warm.map((w) => w.get("total")!);
    console.log(
      `  minimums: tool ${min(totals).toFixed(2)} ms, engine ${min(engine).toFixed(2)} ms` +
        (rawWarm.length ? `, raw ${min(rawWarm).toFixed(2)} ms` : "") +
        `; engine median ${median(engine).toFixed(2)} ms; document sync alone median ` +
        `${median(syncs).toFixed(2)} ms` +
        (settles.length
          ? `; index settled (barrier) median ${median(settles).toFixed(2)} ms, CPU ` +
            `${median(cpuSettle).toFixed(2)} ms`
          : ""),
    );
    console.log(
      `  CPU of this process per call (median): tool ${median(cpuTool).toFixed(2)} ms, ` +
        `the same request through the engine ${median(cpuEngine).toFixed(2)} ms` +
        (cpuRaw.length ? `, through the raw client ${median(cpuRaw).toFixed(2)} ms` : ""),
    );
    if (runs > 0) {
      const per = (into: number[]) => ((warmServerCpu.get(into) ?? 0) / runs).toFixed(1);
      console.log(
        `  the server's CPU per call (mean of ${runs}, 10 ms ticks): tool ${per(cpuTool)} ms, ` +
          `engine ${per(cpuEngine)} ms` + (cpuRaw.length ? `, raw server ${per(cpuRaw)} ms` : ""),
      );
    }
    const open = (server as { openDocuments?: () => string[] }).openDocuments?.() ?? [];
    console.log(`  open documents: ${open.join(", ")}`);
  } finally {
    controller.abort();
    await session.dispose();
    await (raw as RawServer | null)?.stop();
    await tree.dispose();
  }
}
