/**
 * The symbol-index rows of `deno task bench` (also runnable alone):
 *
 *     deno run -A scripts/bench/declaration_index.ts [--sizes 3000,20000] [--large] [--runs 20]
 *        [--out FILE (default bench-results/index-<date>.json)] [--no-server] [--symbol NAME]
 *        [--real typeorm (the real tree instead of the generated sizes)]
 *
 * On projects from engine_bench's generator (one per size; `--large` adds 50,000 files) it
 * measures: the index build cold (no cache) against reading every file once (the least any
 * scan must do); the build warm from disk against the cold one; a lookup against the text scan
 * a search without the index makes; warm global `find_symbol` by exact name (through
 * SymbolLookup.find) against the raw `workspace/symbol` request to the same server; the first
 * global `find_symbol` on the never-seen project (index build included, server start
 * included), and again after a restart with the index on disk; and this process's peak RSS.
 * Every row carries its baseline and ratio; the rows are saved as JSON.
 * @module
 */
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { DeclarationIndex, ParseWorkers } from "../../src/symbols/index/mod.ts";
import { parseNamePath } from "../../src/symbols/name_path.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { SymbolLookup } from "../../src/symbols/lookup.ts";
import { Project } from "../../src/project/project.ts";
import { generate, typeormTree } from "./lib/project.ts";

/** One measured row. */
export interface IndexBenchRow {
  files: number;
  row: string;
  ms: number;
  baseline: string;
  baselineMs: number;
  ratio: number;
}

let peakRss = 0;
function sampleRss(): void {
  peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  sampleRss();
  return performance.now() - start;
}

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await time(fn));
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

async function openProject(root: string): Promise<Project> {
  return Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
}

async function readAll(project: Project): Promise<number> {
  let bytes = 0;
  for await (const e of project.walk(".")) {
    if (!e.isDirectory) bytes += (await Deno.readFile(project.absolute(e.path))).length;
  }
  return bytes;
}

async function textScan(project: Project, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for await (const e of project.walk(".")) {
    if (e.isDirectory) continue;
    if ((await Deno.readTextFile(project.absolute(e.path))).includes(needle)) hits.push(e.path);
  }
  return hits;
}

/** Measure one project size (a generated project, removed afterwards). */
export async function benchSize(
  files: number,
  options: {
    runs: number;
    server: boolean;
    log: (line: string) => void;
    symbol?: string | undefined;
  },
): Promise<IndexBenchRow[]> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-index-bench-" }));
  const root = join(parent, "project");
  await Deno.mkdir(root);
  try {
    await generate(root, files);
    const target = options.symbol ?? `Widget${Math.floor(files / 2)}`;
    return await benchRoot(root, files, target, "src/core.ts", options);
  } finally {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
}

/**
 * Measure the project at `root` (any tree: generated or real), looking up `target` (a name
 * declared once); `anyFile` is a file of the project's language (to reach its server).
 */
export async function benchRoot(
  root: string,
  files: number,
  target: string,
  anyFile: string,
  options: { runs: number; server: boolean; log: (line: string) => void },
): Promise<IndexBenchRow[]> {
  const rows: IndexBenchRow[] = [];
  const add = (row: string, ms: number, baseline: string, baselineMs: number, unit = "ms") => {
    const r = { files, row, ms, baseline, baselineMs, ratio: ms / Math.max(baselineMs, 1e-6) };
    rows.push(r);
    const u = unit.padEnd(2);
    options.log(
      `${String(files).padStart(6)}  ${row.padEnd(44)} ${ms.toFixed(3).padStart(10)} ${u}   ` +
        `${baseline.padEnd(34)} ${baselineMs.toFixed(3).padStart(10)} ${u}   ${
          r.ratio.toFixed(2)
        }x`,
    );
  };
  {
    const project = await openProject(root);
    const readMs = await time(() => readAll(project));

    // The first global find_symbol on a never-seen project: index build plus server answer.
    let firstFindMs = NaN;
    const pool = new ServerPool(project);
    const workers = new ParseWorkers();
    let index = new DeclarationIndex(project, { workers });
    const symbols = new SymbolLookup(project, pool, index);
    const pattern = parseNamePath(target);
    const progress: string[] = [];
    const progressAt: number[] = [];
    const find = () =>
      symbols.find(pattern, {}, { relPath: ".", isDirectory: true }, {
        onProgress: (m) => {
          progress.push(m);
          progressAt.push(performance.now());
        },
      });
    if (options.server) {
      const started = performance.now();
      firstFindMs = await time(find);
      add("first global find_symbol (never seen)", firstFindMs, "read every file", readMs);
      // The longest time the client saw no news (from the start to the answer).
      const marks = [started, ...progressAt, started + firstFindMs];
      const gap = Math.max(...marks.slice(1).map((at, i) => at - marks[i]!));
      options.log(
        `        progress shown: ${progress.length} messages, longest gap ${Math.round(gap)} ms, ` +
          `e.g. '${progress.at(-1)}'`,
      );
    }
    // The build (started by the first search, or now) completes and is saved for the restart.
    await index.ready();
    {
      // How many of the files declaring the name a first search still asks the server about.
      const candidates = index.candidates(target);
      const exact = candidates.filter((f) => index.exactDeclarations(f, index.hashOf(f) ?? ""));
      options.log(
        `        '${target}' is declared in ${candidates.length} files: ${exact.length} answered ` +
          `by the index, ${candidates.length - exact.length} by the server`,
      );
    }
    await index.dispose();

    if (options.server) {
      // The same after a restart: a new server, the index read from disk.
      const restartPool = new ServerPool(await openProject(root));
      const restartIndex = new DeclarationIndex(await openProject(root), { workers });
      const restartSymbols = new SymbolLookup(project, restartPool, restartIndex);
      const restartMs = await time(() =>
        restartSymbols.find(pattern, {}, { relPath: ".", isDirectory: true }, {})
      );
      add("first global find_symbol after restart", restartMs, "first (never seen)", firstFindMs);
      await restartIndex.dispose();
      await restartSymbols.dispose();
      await restartPool.dispose();
    }

    // Cold build (no cache on disk) and warm build (cache on disk, files unchanged).
    await Deno.remove(join(root, ".sextant"), { recursive: true }).catch(() => {});
    index = new DeclarationIndex(await openProject(root), { workers, watch: false });
    const coldMs = await time(() => index.ready());
    await index.dispose();
    add("index build, cold", coldMs, "read every file", readMs);
    index = new DeclarationIndex(await openProject(root), { workers, watch: false });
    const warmMs = await time(() => index.ready());
    add("index build, warm from disk", warmMs, "index build, cold", coldMs);
    const stats = index.stats();
    options.log(`        index: ${JSON.stringify(stats)}`);

    // Lookup, against the text scan a search makes without the index.
    const lookups = 1000;
    const lookupStart = performance.now();
    for (let i = 0; i < lookups; i++) index.candidates(target);
    const lookupMs = (performance.now() - lookupStart) / lookups;
    const scanMs = await time(() => textScan(project, target));
    add("index lookup (exact name)", lookupMs, "text scan of every file", scanMs);
    await index.dispose();

    if (options.server) {
      // Warm global find_symbol (watched index, as in a session) against workspace/symbol.
      const live = new DeclarationIndex(await openProject(root), { workers });
      const warmSymbols = new SymbolLookup(project, pool, live);
      const warmFind = () => warmSymbols.find(pattern, {}, { relPath: ".", isDirectory: true }, {});
      await warmFind();
      const findMs = await median(options.runs, warmFind);
      await live.dispose();
      const server = await pool.serverFor(anyFile);
      // The index answered without the server, so nothing is open in it yet: tsserver answers
      // workspace/symbol only for the projects of open files (as the workspace_symbols tool
      // anchors one).
      await server.syncFiles([anyFile]);
      const raw = () => server.request<unknown[]>("workspace/symbol", { query: target });
      // tsserver can fail workspace/symbol while one of its projects is still being set up
      // ("reading 'getSourceFiles'"): a few tries, and the row says so if it never answers.
      let rawMs = Number.NaN;
      for (let attempt = 0; attempt < 5 && Number.isNaN(rawMs); attempt++) {
        try {
          await raw();
          rawMs = await median(options.runs, raw);
        } catch (error) {
          console.error(`workspace/symbol failed (${(error as Error).message.split("\n")[0]})`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
      add("global find_symbol, exact name, warm", findMs, "raw workspace/symbol", rawMs);
    }
    await symbols.dispose();
    await pool.dispose();
    workers.close();
    sampleRss();
    add("peak RSS of this process", peakRss / 2 ** 20, "RSS after start", startRss, "MB");
  }
  return rows;
}

const startRss = Deno.memoryUsage().rss / 2 ** 20;

/** Run the index rows for every size and save them. */
export async function runIndexBench(args: string[]): Promise<IndexBenchRow[]> {
  const { values } = parseArgs({
    args,
    options: {
      sizes: { type: "string", default: "3000,20000" },
      large: { type: "boolean", default: false },
      runs: { type: "string", default: "20" },
      out: { type: "string" },
      "no-server": { type: "boolean", default: false },
      // The name to look up (default: one declared once, Widget<n/2>; `Core` is named in a
      // tenth of the files, so its first search waits for the whole index).
      symbol: { type: "string" },
      // A real tree instead of generated sizes: `typeorm` (bench/lib/project.ts's pinned copy).
      real: { type: "string" },
    },
    strict: false,
  });
  if (!Deno.env.get(LSP_PATH_ENV)) {
    Deno.env.set(LSP_PATH_ENV, join(new URL("../..", import.meta.url).pathname, ".cache", "lsp"));
  }
  const sizes = String(values.sizes).split(",").map(Number).filter((n) => n > 0);
  if (values.large) sizes.push(50_000);
  const rows: IndexBenchRow[] = [];
  console.log(`files   ${"row".padEnd(44)} ${"value".padStart(13)}   baseline`);
  if (values.real === "typeorm") {
    const tree = await typeormTree();
    try {
      const symbol = typeof values.symbol === "string" ? values.symbol : tree.symbol;
      rows.push(
        ...await benchRoot(tree.root, tree.files, symbol, tree.file, {
          runs: Number(values.runs),
          server: !values["no-server"],
          log: console.log,
        }),
      );
    } finally {
      await tree.dispose();
    }
  } else if (values.real !== undefined) throw new Error(`--real: unknown tree "${values.real}"`);
  for (const size of values.real === undefined ? sizes : []) {
    rows.push(
      ...await benchSize(size, {
        runs: Number(values.runs),
        server: !values["no-server"],
        log: console.log,
        symbol: typeof values.symbol === "string" ? values.symbol : undefined,
      }),
    );
  }
  // Beside `deno task bench`'s own results (bench-results/, gitignored).
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "-");
  const out = typeof values.out === "string" ? values.out : `bench-results/index-${stamp}.json`;
  await Deno.mkdir(dirname(out) || ".", { recursive: true });
  await Deno.writeTextFile(
    out,
    JSON.stringify({ date: new Date().toISOString(), deno: Deno.version.deno, rows }, null, 2) +
      "\n",
  );
  console.log(`Saved ${rows.length} rows to ${Deno.realPathSync(out)}`);
  return rows;
}

if (import.meta.main) await runIndexBench(Deno.args);
