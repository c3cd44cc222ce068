/**
 * Engine benchmark (docs/ARCHITECTURE.md §8), runnable on its own:
 *
 *     deno run -A scripts/bench/engine.ts [--files 3000] [--runs 15] [--scan 300] [--cold-runs 3]
 *        [--typescript 7]
 *
 * On a generated TypeScript project (classes with methods, cross-file imports) it measures,
 * through {@linkcode ServerPool} / {@linkcode ManagedServer}, against a second
 * typescript-language-server spoken to over a bare vscode-jsonrpc connection in the same run
 * (same initialize parameters, same documents open): cold start to the first correct
 * `references` answer against the server's own load-and-answer time; warm `references` and
 * `documentSymbol` latency, fresh and after symbol scans; `documentSymbol` over `--scan` files
 * (serial and 8 in flight, kept open and transient). Then, in child processes that hold only
 * the engine (`--memory-of`), RSS and heap after GC around a transient scan of every file.
 * `--keep` keeps the generated project. `--typescript 7` gives the project TypeScript 7 (from the
 * test setup's cache), so that both the engine and the raw client run its own server.
 *
 * One file past the usual size: a developer benchmark whose steps share one generated project.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import type { ManagedServer } from "../../src/lsp/managed_server.ts";
import { Project } from "../../src/project/project.ts";
import { CORE, CORE_POS, generate, modPath, REPO } from "./lib/project.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";
import { record } from "./lib/results.ts";
import { RawServer } from "./lib/raw_server.ts";

/**
 * Whether references are asked with the declaration: TypeScript 7 counts an import as a
 * declaration and leaves imports out without it (tsserver lists them); with it, both list the
 * imports, and the tools leave the declaration out themselves (symbols/queries.ts).
 */
let withDeclaration = false;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

/** Run `fn` over `items` with at most `limit` in flight. */
async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface Row {
  what: string;
  ours: number;
  raw?: number;
  note?: string;
}

function printTable(title: string, rows: Row[], project: string): void {
  for (const r of rows) {
    record(project, `engine: ${r.what}`, r.ours, "ms", "raw server", r.raw ?? NaN, r.note, {
      quiet: true,
    });
  }
  const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
  const header = ["measurement", "ours ms", "raw ms", "ratio", "overhead ms", "note"];
  const body = rows.map((r) => [
    r.what,
    f(r.ours),
    r.raw === undefined ? "" : f(r.raw),
    r.raw === undefined ? "" : (r.ours / r.raw).toFixed(2),
    r.raw === undefined ? "" : f(r.ours - r.raw),
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    "| " + cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ") + " |";
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const b of body) console.log(line(b));
}

const gc = (globalThis as { gc?: () => void }).gc;
function memory(): { rss: number; heap: number } {
  gc?.();
  gc?.();
  const usage = Deno.memoryUsage();
  return { rss: usage.rss / 2 ** 20, heap: usage.heapUsed / 2 ** 20 };
}

interface MemoryReport {
  start: { rss: number; heap: number };
  scanned: { rss: number; heap: number };
  stopped: { rss: number; heap: number };
  scanMs: number;
  files: number;
}

/**
 * The memory phase, in a child process that holds nothing but the engine: RSS and heap (after
 * GC) at start, after a transient documentSymbol scan of every file, and after stopping.
 */
async function memoryPhase(root: string, files: number): Promise<MemoryReport> {
  const start = memory();
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const pool = new ServerPool(project, undefined, { requestMs: 120_000 });
  try {
    const server = await pool.serverFor(CORE);
    const all = [CORE, ...Array.from({ length: files }, (_, i) => modPath(i))];
    const [scanMs] = await timed(() =>
      mapLimit(all, 8, (rel) =>
        server.request("textDocument/documentSymbol", {
          textDocument: { uri: server.uriOf(rel) },
        }, { sync: [rel], transient: true }))
    );
    const scanned = memory();
    await pool.restartAll();
    return { start, scanned, stopped: memory(), scanMs, files: all.length };
  } finally {
    await pool.dispose();
  }
}

/** Run {@linkcode memoryPhase} in a fresh Deno process with extra V8 flags. */
async function memoryChild(root: string, files: number, v8Flags: string): Promise<MemoryReport> {
  const { success, stdout } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--v8-flags=--expose-gc${v8Flags ? "," + v8Flags : ""}`,
      fileURLToPath(import.meta.url),
      "--memory-of",
      root,
      "--files",
      String(files),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!success) throw new Error("the memory phase failed");
  return JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").pop()!);
}

/** Open documents of our server (the engine's own list when it offers one). */
function openOf(server: ManagedServer): string[] | null {
  const s = server as unknown as { openDocuments?: () => string[] };
  return typeof s.openDocuments === "function" ? s.openDocuments() : null;
}

/** Make the raw server's open documents the same as ours. */
async function mirrorOpen(server: ManagedServer, raw: RawServer, fallback: string[]) {
  // The references query opens core.ts in ours first; the raw server needs it open to answer.
  const want = new Set([CORE, ...(openOf(server) ?? fallback)]);
  for (const rel of [...raw.open]) if (!want.has(rel)) await raw.closeFile(rel);
  for (const rel of want) await raw.openFile(rel);
}

/**
 * The engine rows on a generated project (`args` as on the command line), printed as a table
 * and recorded in bench/lib/results.ts (the memory table is printed only).
 */
export async function runEngineBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      files: { type: "string", default: "3000" },
      runs: { type: "string", default: "15" },
      scan: { type: "string", default: "300" },
      "cold-runs": { type: "string", default: "3" },
      keep: { type: "boolean", default: false },
      "memory-of": { type: "string" },
      // 7: the generated project depends on TypeScript 7, so both sides run its own server.
      typescript: { type: "string", default: "5" },
    },
  });
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const files = Number(values.files);
  const runs = Number(values.runs);
  const scan = Number(values.scan);
  const coldRuns = Number(values["cold-runs"]);
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-engine-bench-" }));
  const root = join(parent, "project");
  const rows: Row[] = [];
  await generate(root, files);
  const native = values.typescript === "7";
  withDeclaration = native;
  if (native) await linkTypeScript7(root);
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const pool = new ServerPool(project, undefined, { requestMs: 120_000 });
  let raw: RawServer | null = null;
  try {
    // Load the servers' own code into the OS cache once, so neither cold run pays alone for it.
    const primer = await RawServer.start(root);
    await primer.stop();

    // 1. Cold: spawn to the first complete references answer, `coldRuns` times each in the order
    // raw ours, ours raw, raw ours, ... (so neither gains from going second); the last raw server
    // and the last of ours stay for the warm runs.
    const coldRaw = async () => {
      await (raw as RawServer | null)?.stop();
      const [ms, answer] = await timed(async () => {
        raw = await RawServer.start(root);
        await raw.openFile(CORE);
        return await raw.references(undefined, undefined, withDeclaration);
      });
      return { ms, count: answer.length };
    };
    const coldOurs = async (into: ServerPool) => {
      const [ms, answer] = await timed(async () => {
        const s = await into.serverFor(CORE);
        return await s.request<unknown[]>("textDocument/references", {
          textDocument: { uri: s.uriOf(CORE) },
          position: CORE_POS,
          context: { includeDeclaration: withDeclaration },
        }, { sync: [CORE] });
      });
      return { ms, count: answer.length };
    };
    const coldTimes = { ours: [] as number[], raw: [] as number[] };
    const counts = new Set<string>();
    for (let k = 0; k < 2 * coldRuns; k++) {
      const rawTurn = (k % 2 === 0) === ((k >> 1) % 2 === 0);
      const lastOurs = k >= 2 * coldRuns - 2 && !rawTurn;
      if (rawTurn) {
        const run = await coldRaw();
        coldTimes.raw.push(run.ms);
        counts.add(`raw ${run.count}`);
      } else {
        const into = lastOurs ? pool : new ServerPool(project, undefined, { requestMs: 120_000 });
        const run = await coldOurs(into);
        if (!lastOurs) await into.dispose();
        coldTimes.ours.push(run.ms);
        counts.add(`ours ${run.count}`);
      }
    }
    // The import and the `new Core` of each user (and the declaration when asked with it).
    const expected = Math.ceil(files / 10) * 2 + (withDeclaration ? 1 : 0);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    rows.push({
      what: `cold: spawn to first references answer (mean of ${coldRuns})`,
      ours: mean(coldTimes.ours),
      raw: mean(coldTimes.raw),
      note: `refs: ${[...counts].join(", ")}; expected ${expected}; ms: ours ${
        coldTimes.ours.map((t) => t.toFixed(0)).join("/")
      }, raw ${coldTimes.raw.map((t) => t.toFixed(0)).join("/")}`,
    });
    const server = await pool.serverFor(CORE) as ManagedServer;
    const rawServer = raw! as RawServer;
    const refs = () =>
      server.request<unknown[]>("textDocument/references", {
        textDocument: { uri: server.uriOf(CORE) },
        position: CORE_POS,
        context: { includeDeclaration: withDeclaration },
      }, { sync: [CORE] });
    const coreSymbols = () =>
      server.request<unknown[]>("textDocument/documentSymbol", {
        textDocument: { uri: server.uriOf(CORE) },
      }, { sync: [CORE] });
    /** Medians of a request through the engine and straight to the raw server, alternating. */
    const paired = async (
      label: string,
      ours: () => Promise<unknown[]>,
      base: () => Promise<unknown[]>,
    ) => {
      const mine: number[] = [];
      const theirs: number[] = [];
      const counts = new Set<string>();
      for (let i = 0; i < runs; i++) {
        const [rawMs, rawAnswer] = await timed(base);
        const [ourMs, ourAnswer] = await timed(ours);
        theirs.push(rawMs);
        mine.push(ourMs);
        counts.add(`ours ${ourAnswer.length}, raw ${rawAnswer.length}`);
      }
      rows.push({
        what: label,
        ours: median(mine),
        raw: median(theirs),
        note: [...counts].join("; "),
      });
    };
    const warmRefs = async (label: string) => {
      await delay(1_500); // both servers finish the diagnostics their opens scheduled
      await paired(
        `warm references, ${label}`,
        refs,
        () => rawServer.references(undefined, undefined, withDeclaration),
      );
      await paired(
        `warm documentSymbol (open file), ${label}`,
        coreSymbols,
        () => rawServer.symbols(CORE) as Promise<unknown[]>,
      );
    };
    await warmRefs("fresh session");

    // 2. documentSymbol over `scan` files, each variant on files the server has not seen open.
    let range = 0;
    const nextFiles = () => {
      const from = (range++ * scan) % files;
      return Array.from({ length: scan }, (_, k) => modPath((from + k) % files));
    };
    const symbols = (transient: boolean) => (rel: string) =>
      server.request("textDocument/documentSymbol", { textDocument: { uri: server.uriOf(rel) } }, {
        sync: [rel],
        ...(transient ? { transient: true } : {}),
      });
    /**
     * `scan` files through ours and `scan` others straight to the raw server, in alternating
     * chunks of 24 (so both see the same machine load), `limit` requests in flight.
     */
    const scanRow = async (what: string, limit: number, transient: boolean, rawKeeps: boolean) => {
      const mine = nextFiles();
      const theirs = nextFiles();
      let ours = 0;
      let base = 0;
      for (let from = 0; from < scan; from += 24) {
        ours += (await timed(() =>
          mapLimit(mine.slice(from, from + 24), limit, symbols(transient))
        ))[0];
        base += (await timed(() =>
          mapLimit(theirs.slice(from, from + 24), limit, (rel) =>
            rawServer.symbols(rel, rawKeeps))
        ))[0];
      }
      rows.push({
        what,
        ours,
        raw: base,
        note: `${(ours / scan).toFixed(2)} ms/file; raw ${
          rawKeeps ? "keeps them open" : "closes them"
        }`,
      });
      return mine;
    };
    const kept = await scanRow(`documentSymbol x${scan}, serial, kept open`, 1, false, true);
    await scanRow(`documentSymbol x${scan}, 8 in flight, kept open`, 8, false, true);
    await mirrorOpen(server, rawServer, [CORE, ...kept.slice(-99)]);
    await warmRefs(`after ${2 * scan} files were read (kept open)`);
    await scanRow(`documentSymbol x${scan}, serial, transient`, 1, true, false);
    await scanRow(`documentSymbol x${scan}, 8 in flight, transient`, 8, true, false);
    await mirrorOpen(server, rawServer, [CORE, ...kept.slice(-99)]);
    await warmRefs(`after ${4 * scan} files were read`);

    await rawServer.stop();
    await pool.dispose();
    raw = null;

    // 3. Memory, in child processes holding only the engine (default V8 flags, then a small
    // young generation, which is what makes RSS grow during a scan).
    const memoryRuns: Array<[string, MemoryReport]> = [];
    for (const flags of ["", "--max-semi-space-size=1"]) {
      memoryRuns.push([flags || "default V8 flags", await memoryChild(root, files, flags)]);
    }
    printTable(
      `Engine on ${files + 1} generated TypeScript files (medians of ${runs} warm runs)` +
        (native ? ", TypeScript 7's own server" : ""),
      rows,
      `generated ${files + 1}${native ? ", TypeScript 7" : ""}`,
    );
    const mb = (n: number) => n.toFixed(1);
    console.log(
      `\nMemory of a process holding only the engine (MB, heap used after GC), around a ` +
        `transient documentSymbol scan of all ${files + 1} files (8 in flight):\n`,
    );
    console.log(
      "| V8 flags | RSS start | RSS after scan | RSS stopped | heap start | " +
        "heap after scan | heap stopped | held by server state | scan ms |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const [flags, m] of memoryRuns) {
      console.log(
        `| ${flags} | ${mb(m.start.rss)} | ${mb(m.scanned.rss)} | ${mb(m.stopped.rss)} | ` +
          `${mb(m.start.heap)} | ${mb(m.scanned.heap)} | ${mb(m.stopped.heap)} | ` +
          `${mb(m.scanned.heap - m.stopped.heap)} | ${m.scanMs.toFixed(0)} |`,
      );
    }
  } finally {
    await (raw as RawServer | null)?.stop();
    await pool.dispose();
    if (values.keep) console.error(`kept ${root}`);
    else await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const memoryOf = Deno.args.indexOf("--memory-of");
  if (memoryOf >= 0) {
    const { values } = parseArgs({
      args: Deno.args,
      options: { files: { type: "string", default: "3000" }, "memory-of": { type: "string" } },
    });
    if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
    console.log(JSON.stringify(await memoryPhase(values["memory-of"]!, Number(values.files))));
    Deno.exit(0);
  }
  await runEngineBench(Deno.args);
}
