/**
 * The scale rows of `deno task bench`: per project (generated sizes, real trees; see
 * bench/lib/project.ts), Sextant as users run it — `deno task start`'s own command line, a separate
 * process spoken to over MCP on stdio (`--standalone`, so its language servers are its own
 * children) — beside a second language server spoken to over a bare vscode-jsonrpc connection
 * (the raw server, bench/engine.ts's RawServer), in the same run:
 *
 * - the declaration index (bench/declaration_index.ts, in this process): build cold, warm from disk, lookup;
 * - start-up: spawn to the `initialize` answer, against `deno run` of an empty module;
 * - `find_referencing_symbols` cold (server start, project load, answer) and warm, against the
 *   raw `textDocument/references` cold and warm;
 * - global `find_symbol` by exact name: first call of a session, warm, against the raw
 *   `workspace/symbol`;
 * - peak RSS (VmHWM): Sextant's process alone, each of its language servers (the server's
 *   process and its descendants, summed: an upper bound of their joint peak), the raw server.
 *
 * Runnable alone: `deno run -A scripts/bench/scale.ts [--sizes 3000] [--real typeorm,aws]
 * [--runs 5] [--only refs] [--out FILE] [--compare FILE]`.
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { startBundle } from "../../src/cli/start_bundle.ts";
import { Client, StdioClientTransport, withLspPath } from "../../tests/helpers/mcp.ts";
import {
  awsTree,
  type BenchTree,
  declarationPosition,
  generatedTree,
  GOMODCACHE,
  REPO,
  typeormTree,
} from "./lib/project.ts";
import {
  compareWith,
  countEntries,
  defaultOut,
  printHeader,
  record,
  saveResults,
} from "./lib/results.ts";
import { RawServer } from "./lib/raw_server.ts";
import { benchRoot } from "./declaration_index.ts";

const LONG = { timeout: 1_800_000, maxTotalTimeout: 1_800_000 };

/** `deno task start`'s words: its environment assignments (`NAME=value`), then the command. */
function startTaskWords(repo = REPO): { env: Record<string, string>; words: string[] } {
  const config = JSON.parse(Deno.readTextFileSync(join(repo, "deno.json"))) as {
    tasks: { start: string };
  };
  const words = config.tasks.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? "")) {
    const [name, ...value] = words.shift()!.split("=");
    env[name!] = value.join("=");
  }
  return { env, words };
}

let bundleBuilt: Promise<unknown> | null = null;

/**
 * Build this checkout's start bundle if it lacks one (src/cli/start_bundle.ts), and start Sextant
 * once from it in a folder of its own: Sextant as users run it after their first start, the
 * build (once per change of the sources) and V8's first compilation of the bundle (its code cache,
 * ~0.2 s) kept out of the first measured start. Before this, the build fell inside the first cold
 * row of a run (its `initialize` 1.1-1.2 s against 0.1-0.2 s).
 */
export function ensureStartBundle(): Promise<unknown> {
  bundleBuilt ??= (async () => {
    await startBundle();
    const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-start-" }));
    try {
      const root = join(parent, "project");
      await Deno.mkdir(root);
      const first = await Sextant.startBuilt(root, {});
      await first.close();
    } finally {
      await Deno.remove(parent, { recursive: true }).catch(() => {});
    }
  })();
  return bundleBuilt;
}

/** The environment `deno task start` sets (deno.json), to spawn Sextant as it does. */
export function startTaskEnv(repo = REPO): Record<string, string> {
  return startTaskWords(repo).env;
}

/**
 * `deno task start`'s arguments (after `deno`), with the config and main.ts of `repo` (this
 * checkout unless another is given).
 */
export function startTaskArgs(repo = REPO): string[] {
  const { words } = startTaskWords(repo);
  if (words[0] !== "deno" || words.at(-1) !== "main.ts") {
    throw new Error(`unexpected start task: ${words.join(" ")}`);
  }
  return [...words.slice(1, 2), "--config", join(repo, "deno.json"), ...words.slice(2, -1)]
    .concat(join(repo, "main.ts"));
}

/** VmHWM and VmRSS of a process, in MB (0 when it is gone). */
export function memoryOf(pid: number): { hwm: number; rss: number } {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { hwm: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
  } catch {
    return { hwm: 0, rss: 0 };
  }
}

/**
 * A process's proportional set size in MB (0 when it is gone): its private pages plus its share
 * of pages mapped by several processes (the deno executable's, shared by every front and the
 * service), so summed over processes it counts each page once.
 */
export function pssOf(pid: number): number {
  try {
    const rollup = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Sample the summed PSS of groups of processes every `everyMs` until stopped: each group's
 * highest sum (the pids are asked again at every sample, so processes that start later count).
 */
export function pssPeaks<K extends string>(
  groups: () => Record<K, number[]>,
  everyMs = 200,
): { now(): Record<K, number>; stop(): Record<K, number> } {
  const peaks = {} as Record<K, number>;
  const now = () => {
    const sums = {} as Record<K, number>;
    for (const [key, pids] of Object.entries(groups()) as Array<[K, number[]]>) {
      sums[key] = [...new Set(pids)].reduce((s, p) => s + pssOf(p), 0);
      peaks[key] = Math.max(peaks[key] ?? 0, sums[key]);
    }
    return sums;
  };
  now();
  const timer = setInterval(now, everyMs);
  return {
    now,
    stop() {
      clearInterval(timer);
      now();
      return { ...peaks };
    },
  };
}

/** Children of every process, from /proc. */
export function processTree(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e.name));
      children.set(ppid, list);
    } catch { /* gone */ }
  }
  return children;
}

/** `pid` and every process below it in `tree`. */
export function descendants(pid: number, tree: Map<number, number[]>): number[] {
  const out = [pid];
  for (const child of tree.get(pid) ?? []) out.push(...descendants(child, tree));
  return out;
}

/** Whether a process is alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * After a service was asked to stop: wait up to 5 s for the processes it had (`below`) to end,
 * then kill what is left, by pid, saying so (`who` outlived `how`): it should leave nothing.
 */
export async function endLeftovers(below: readonly number[], who: string, how: string) {
  const deadline = Date.now() + 5_000;
  while (below.some(alive) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const pid of below.filter(alive)) {
    console.error(`[${who}] process ${pid} outlived ${how}; killing it`);
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
}

/** A tool's text over an MCP client; an error answer throws. */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = await client.callTool({ name, arguments: args }, undefined, LONG);
  const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("");
  if (result.isError) throw new Error(`${name}: ${text}`);
  return text;
}

function commandName(pid: number): string {
  try {
    const argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").filter(Boolean);
    const script = argv.find((a) =>
      /language-server|langserver|gopls|rust-analyzer|clangd/.test(a)
    );
    return (script ?? argv[0] ?? String(pid)).split("/").pop()!;
  } catch {
    return String(pid);
  }
}

/** Peak RSS (summed VmHWM of the group) of each direct child of `pid`, by command name. */
export function childGroups(pid: number): Array<{ name: string; hwm: number }> {
  const tree = processTree();
  return (tree.get(pid) ?? []).map((child) => ({
    name: commandName(child),
    hwm: descendants(child, tree).reduce((sum, p) => sum + memoryOf(p).hwm, 0),
  }));
}

/**
 * Sextant in a child process, over MCP: standalone by default; `standalone: false` starts a
 * front of the shared service (give it a service folder of its own with `env.XDG_RUNTIME_DIR`).
 */
export class Sextant {
  private constructor(readonly client: Client, readonly pid: number) {}

  static async start(
    root: string,
    options: { standalone?: boolean; env?: Record<string, string> } = {},
  ): Promise<Sextant> {
    await ensureStartBundle();
    return await Sextant.startBuilt(root, options);
  }

  /** {@linkcode start}, the start bundle taken as it is (built or not). */
  static async startBuilt(
    root: string,
    options: { standalone?: boolean; env?: Record<string, string> },
  ): Promise<Sextant> {
    const mode = options.standalone === false ? [] : ["--standalone"];
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: [...startTaskArgs(), ...mode, "--project", root, "--log-level", "warn"],
      env: withLspPath({
        ...Deno.env.toObject(),
        ...startTaskEnv(),
        XDG_CONFIG_HOME: join(root, ".sextant", "bench-xdg"),
        GOMODCACHE,
        GOFLAGS: "-modcacherw",
        ...options.env,
      }),
      stderr: "inherit",
    });
    const client = new Client({ name: "sextant-bench", version: "0" });
    await client.connect(transport);
    return new Sextant(client, transport.pid!);
  }

  call(name: string, args: Record<string, unknown>): Promise<string> {
    return callText(this.client, name, args);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds `fn` took, and its value. */
export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

function count(answer: string): string {
  return String(countEntries(answer) ?? `${answer.length} chars`);
}

/** Start-up: spawn to `initialize` answered, against `deno run` of an empty module. */
async function startupRows(tree: BenchTree, runs: number): Promise<void> {
  const empty = join(tree.root, ".sextant", "bench-empty.ts");
  await Deno.mkdir(join(tree.root, ".sextant"), { recursive: true });
  await Deno.writeTextFile(empty, "export {};\n");
  const args = startTaskArgs();
  const bare = [...args.slice(0, -1), empty];
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < runs; i++) {
    const env = startTaskEnv();
    base.push(
      (await timed(() => new Deno.Command(Deno.execPath(), { args: bare, env }).output()))[0],
    );
    const [ms, s] = await timed(() => Sextant.start(tree.root));
    ours.push(ms);
    await s.close();
  }
  record(
    tree.name,
    "start-up: initialize answered (deno task start's command)",
    median(ours),
    "ms",
    "deno run of an empty module, same flags",
    median(base),
    `median of ${runs}; target <= 300 ms`,
  );
}

/** Every scale row of one project; `only: "refs"` runs the references rows alone. */
export async function benchTree(tree: BenchTree, runs: number, only?: string): Promise<void> {
  const all = only === undefined;
  const P = tree.name;
  /** Run one group of rows; a failure is recorded as a row, and the next group runs. */
  const step = async (row: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (error) {
      const message = (error as Error).message.split("\n")[0]!.slice(0, 300);
      console.error(`[bench] ${P}: ${row} failed: ${message}`);
      record(P, `${row}: FAILED`, NaN, "", "", NaN, message);
    }
  };
  console.error(`[bench] ${P}: ${tree.files} files under ${tree.root}`);
  // 1. The declaration index, in this process (no server).
  const indexRows = !all ? [] : await benchRoot(tree.root, tree.files, tree.symbol, tree.file, {
    runs,
    server: false,
    log: (line) => line.startsWith("        ") && console.log(`${P}: ${line.trim()}`),
  });
  for (const r of indexRows) {
    const unit = /\(MB\)|RSS/.test(r.row) ? "MB" : "ms";
    record(
      P,
      `index (in-process): ${r.row.replace(" (MB)", "")}`,
      r.ms,
      unit,
      r.baseline.replace(" (MB)", ""),
      r.baselineMs,
    );
  }
  await Deno.remove(join(tree.root, ".sextant"), { recursive: true }).catch(() => {});

  // 2. Start-up.
  if (all) await startupRows(tree, 3);
  await Deno.remove(join(tree.root, ".sextant"), { recursive: true }).catch(() => {});

  // 3. Cold references: the raw server, then Sextant (a fresh session, no caches on disk).
  const text = await Deno.readTextFile(join(tree.root, tree.file));
  const pos = declarationPosition(text, tree.symbol);
  let raw: RawServer | null = null;
  let ours: Sextant | null = null;
  try {
    // tsserver can fail a request that arrives while a project is being set up ("reading
    // 'getSourceFile'"): asked again until it answers (for up to 10 minutes), all of it counted.
    let rawCold = NaN;
    let rawRefs: unknown[] = [];
    await step("raw references, cold", async () => {
      [rawCold, rawRefs] = await timed(async () => {
        raw = await RawServer.start(tree.root, tree.server);
        await raw.openFile(tree.file);
        const deadline = performance.now() + 600_000;
        for (;;) {
          try {
            return await raw.references(tree.file, pos);
          } catch (error) {
            if (performance.now() > deadline) throw error;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      });
    });
    const rawServer = raw as RawServer | null;
    ours = await Sextant.start(tree.root);
    const sextant = ours;
    const afterInit = memoryOf(sextant.pid).rss;
    const refArgs = { name_path: tree.symbol, relative_path: tree.file };
    await step(`find_referencing_symbols ${tree.symbol}, cold`, async () => {
      const [oursCold, oursRefs] = await timed(() =>
        sextant.call("find_referencing_symbols", refArgs)
      );
      record(
        P,
        `find_referencing_symbols ${tree.symbol}, cold (server start + load)`,
        oursCold,
        "ms",
        "raw references, cold (spawn + load)",
        rawCold,
        `ours ${count(oursRefs)} referencing symbols; raw ${rawRefs.length} locations`,
      );
    });
    // 4. Warm references, alternating.
    await step(`find_referencing_symbols ${tree.symbol}, warm`, async () => {
      const mine: number[] = [];
      const theirs: number[] = [];
      // Which goes first alternates: a server may still be busy (GC) just after its answer.
      const rawRun = async () => {
        if (rawServer) theirs.push((await timed(() => rawServer.references(tree.file, pos)))[0]);
      };
      for (let i = 0; i < runs; i++) {
        if (i % 2 === 0) await rawRun();
        mine.push((await timed(() => sextant.call("find_referencing_symbols", refArgs)))[0]);
        if (i % 2 === 1) await rawRun();
      }
      record(
        P,
        `find_referencing_symbols ${tree.symbol}, warm`,
        median(mine),
        "ms",
        "raw references, warm",
        theirs.length ? median(theirs) : NaN,
        `median of ${runs}`,
      );
    });

    // 5. Global find_symbol by exact name: the session's first, then warm, against the raw
    // workspace/symbol on the raw server.
    await step(`find_symbol ${tree.symbol}`, async () => {
      if (!all) return;
      const findArgs = { name_path_pattern: tree.symbol, include_body: false };
      const [firstFind, found] = await timed(() => sextant.call("find_symbol", findArgs));
      const rawSymbol = () =>
        rawServer!.connection.sendRequest<unknown[] | null>("workspace/symbol", {
          query: tree.symbol,
        });
      let rawSymbolMs = NaN;
      let rawCount = 0;
      for (let attempt = 0; rawServer && attempt < 5 && Number.isNaN(rawSymbolMs); attempt++) {
        try {
          const [ms, answer] = await timed(rawSymbol);
          rawSymbolMs = ms;
          rawCount = answer?.length ?? 0;
        } catch (error) {
          console.error(
            `[bench] workspace/symbol failed: ${(error as Error).message.split("\n")[0]}`,
          );
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
      const findWarm: number[] = [];
      const rawWarm: number[] = [];
      for (let i = 0; i < runs; i++) {
        findWarm.push((await timed(() => sextant.call("find_symbol", findArgs)))[0]);
        if (!Number.isNaN(rawSymbolMs)) rawWarm.push((await timed(rawSymbol))[0]);
      }
      record(
        P,
        `find_symbol ${tree.symbol} (global, exact name), first in the session`,
        firstFind,
        "ms",
        "find_symbol, warm",
        median(findWarm),
        `after the references above (server up); ${count(found)} match(es)`,
      );
      record(
        P,
        `find_symbol ${tree.symbol} (global, exact name), warm`,
        median(findWarm),
        "ms",
        "raw workspace/symbol, warm",
        rawWarm.length ? median(rawWarm) : NaN,
        `median of ${runs}; raw gives ${rawCount} symbols, no name paths or bodies`,
      );
    });

    // 6. Peak memory.
    const sextantPeak = memoryOf(sextant.pid).hwm;
    const rawPeak = rawServer ? childGroupsOfRaw(rawServer.pid) : NaN;
    record(
      P,
      "peak RSS: Sextant's process (servers excluded)",
      sextantPeak,
      "MB",
      "RSS after initialize",
      afterInit,
      "VmHWM; target <= 100 MB at 3.5k files, <= 200 MB at 20k",
    );
    for (const group of childGroups(sextant.pid)) {
      record(
        P,
        `peak RSS: Sextant's server ${group.name}`,
        group.hwm,
        "MB",
        "raw server",
        rawPeak,
        "VmHWM summed over the server's processes",
      );
    }
  } finally {
    await ours?.close();
    await (raw as RawServer | null)?.stop();
  }

  // 7. The first global find_symbol of a new session: on a never-seen project (no .sextant/),
  // then after a restart with the index on disk. Baseline: reading every file once.
  const readAll = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(dir)) {
      if (e.name === ".sextant") continue;
      const path = join(dir, e.name);
      if (e.isDirectory) await readAll(path);
      else if (e.isFile) await Deno.readFile(path);
    }
  };
  if (!all) return;
  const [readMs] = await timed(() => readAll(tree.root));
  await Deno.remove(join(tree.root, ".sextant"), { recursive: true }).catch(() => {});
  for (const when of ["never-seen project", "new session, index on disk"]) {
    await step(`first global find_symbol ${tree.symbol}, ${when}`, async () => {
      const session = await Sextant.start(tree.root);
      try {
        const [ms, answer] = await timed(() =>
          session.call("find_symbol", { name_path_pattern: tree.symbol, include_body: false })
        );
        record(
          P,
          `first global find_symbol ${tree.symbol}, ${when}`,
          ms,
          "ms",
          "read every file",
          readMs,
          `${count(answer)} match(es); target <= 3 s never seen, <= 2 s from disk`,
        );
      } finally {
        await session.close();
      }
    });
  }
}

/** Summed VmHWM of the raw server's process and its descendants (MB). */
function childGroupsOfRaw(pid: number): number {
  const tree = processTree();
  return descendants(pid, tree).reduce((sum, p) => sum + memoryOf(p).hwm, 0);
}

/** The options of the scale rows. */
export const SCALE_OPTIONS = {
  sizes: { type: "string", default: "3000" },
  real: { type: "string", default: "typeorm" },
  runs: { type: "string", default: "5" },
  out: { type: "string" },
  compare: { type: "string" },
  /** `refs`: only the find_referencing_symbols rows (cold, warm) and peak RSS. */
  only: { type: "string" },
} as const;

/** Run the scale rows for every chosen project. */
export async function runScaleBench(values: {
  sizes?: string | undefined;
  real?: string | undefined;
  runs?: string | undefined;
  only?: string | undefined;
}): Promise<void> {
  if (values.only !== undefined && values.only !== "refs") {
    throw new Error(`--only: unknown rows "${values.only}" (refs)`);
  }
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const runs = Number(values.runs ?? "5");
  const sizes = (values.sizes ?? "3000").split(",").map(Number).filter((n) => n > 0);
  const real = (values.real ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const makers: Array<() => Promise<BenchTree>> = sizes.map((n) => () => generatedTree(n));
  for (const name of real) {
    if (name === "typeorm") makers.push(typeormTree);
    else if (name === "aws") makers.push(awsTree);
    else throw new Error(`--real: unknown tree "${name}" (typeorm, aws)`);
  }
  printHeader(`Scale rows (medians of ${runs} warm runs)`);
  for (const make of makers) {
    const tree = await make();
    try {
      await benchTree(tree, runs, values.only);
    } catch (error) {
      console.error(`[bench] ${tree.name} failed: ${(error as Error).stack}`);
      record(tree.name, "FAILED", NaN, "", "", NaN, (error as Error).message.split("\n")[0]);
    } finally {
      await tree.dispose();
    }
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: SCALE_OPTIONS });
  await runScaleBench(values);
  await saveResults(values.out ?? defaultOut(), Deno.args);
  if (values.compare) await compareWith(values.compare);
}
