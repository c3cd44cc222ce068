/**
 * `deno task bench`, the one benchmark (docs/ARCHITECTURE.md §8). In order:
 *
 * 1. the symbol tools on a generated TypeScript project (lib/project.ts), cold and warm,
 *    through the tool handlers, beside the same LSP requests sent straight to the server;
 *    code mode (repl.ts), the shared service (service.ts), user regexes in a process
 *    of their own (regex.ts), the service's bounds on a warm call and under a flood
 *    (bounds.ts), a 20 MB answer through the front (large_answer.ts), hooks
 *    (hook.ts), the dashboard's cost per tool call (dashboard.ts);
 * 2. the engine rows (engine.ts) on a project of the same size;
 * 3. the scale rows (scale.ts): per project — generated sizes and real trees — the
 *    declaration index, start-up, cold and warm references and find_symbol beside the raw
 *    server, and peak RSS of Sextant and of each server.
 * 4. the server-generation rows (generations.ts): TypeScript 7's own server and the Python
 *    default beside the old TypeScript servers on typeorm, hono and flask — cold and warm
 *    references, Sextant's own RSS in the default mode, 4 sessions against 1, and a new name's
 *    warm global find_symbol at 20,000 files — each beside its raw baseline, with its target and
 *    PASS or MISS.
 * 5. the SCIP index rows (scip.ts): a 50,000-module monorepo's index built in CI: load,
 *    memory, references from a fresh session and warm, a file edited after indexing; then
 *    project-wide find_symbol and type_hierarchy from it (scip_symbols.ts).
 *
 * Every recorded row carries its baseline from the same run; the rows are saved as JSON
 * (`--out`, default `bench-results/<date>.json`) and `--compare FILE` prints them beside a saved
 * run's.
 *
 * Options: `--files N` (default 3000), `--runs N` warm repetitions (default 5), `--keep` keeps
 * the generated project, `--sizes 3000,20000,50000` the generated scale rows (default 3000),
 * `--real typeorm,aws` the real trees (default typeorm; `--real ""` none), `--no-engine`,
 * `--no-scale`, `--no-generations`, `--languages rust,go,c` the real-code rows per language
 * (languages.ts; `--languages ""` none), `--out FILE`, `--compare FILE`, `--only new-errors`
 * runs just the new-errors report rows, `--only generations` just the server-generation rows
 * (`--generation-files N` sets their generated project's size, default 20000), `--only scip` just
 * the SCIP index rows (scip.ts; `--scip-files N`, default 50000; `--no-scip` leaves them
 * out; the first run indexes the monorepo with scip-typescript, about 6 minutes, then cached),
 * `--only dashboard` just the dashboard's cost per tool call (dashboard.ts),
 * `--only bounds` just the bounds rows.
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import { Project } from "../../src/project/project.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { limitAnswer } from "../../src/tools/limit.ts";
import { z } from "../../src/deps.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { callTool } from "../../src/tools/call.ts";
import { repl } from "../../src/tools/repl/repl.ts";
import type { Tool, ToolContext } from "../../src/tools/tool.ts";
import type { RealId } from "../../tests/helpers/real_code.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { getSymbolsOverview } from "../../src/tools/symbols/get_symbols_overview.ts";
import { replaceContentTool } from "../../src/tools/files/replace_content.ts";
import { generate, REPO } from "./lib/project.ts";
import {
  compareWith,
  countEntries,
  defaultOut,
  printHeader,
  printRow,
  record,
  results,
  saveResults,
} from "./lib/results.ts";
import { runEngineBench } from "./engine.ts";
import { RawServer } from "./lib/raw_server.ts";
import { runScaleBench } from "./scale.ts";
import { runGenerationBench } from "./generations.ts";
import { runScipBench } from "./scip.ts";
import { runScipSymbolBench } from "./scip_symbols.ts";

/** The generator is lib/project.ts's (one for every benchmark); re-exported for old callers. */
export { generate };

/** Start and stop a server once on a one-file copy, to load its code into the OS cache. */
async function prime(root: string): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "sextant-bench-prime-" });
  try {
    await Deno.copyFile(join(root, "tsconfig.json"), join(dir, "tsconfig.json"));
    await Deno.mkdir(join(dir, "src"));
    await Deno.copyFile(join(root, "src", "core.ts"), join(dir, "src", "core.ts"));
    const project = Project.open(dir, await loadSettings({ projectRoot: dir, globalFile: null }));
    const pool = new ServerPool(project);
    try {
      const server = await pool.serverFor("src/core.ts");
      await server.request("textDocument/documentSymbol", {
        textDocument: { uri: server.uriOf("src/core.ts") },
      }, { sync: ["src/core.ts"] });
    } finally {
      await pool.dispose();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

interface Harness {
  session: Session<Tool>;
  project: Project;
  ctx: ToolContext;
  call(tool: Tool, args: Record<string, unknown>): Promise<string>;
}

async function harness(root: string): Promise<Harness> {
  const settings = await loadSettings({ projectRoot: root, globalFile: null });
  const project = Project.open(root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project,
  });
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  return {
    session,
    project,
    ctx,
    call: async (tool, raw) => {
      const args = z.strictObject(tool.params).parse(raw) as Record<string, unknown>;
      const answer = await tool.handler(args, ctx);
      return limitAnswer(answer, 10_000_000, 10_000_000);
    },
  };
}

let peakRss = 0;

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
  return { ms, value };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Medians of two operations run alternately (so both see the same server state). */
async function paired(
  runs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    tb.push((await time(b)).ms);
    ta.push((await time(a)).ms);
  }
  return [median(ta), median(tb)];
}

async function warm<T>(runs: number, fn: () => Promise<T>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await time(fn)).ms);
  return median(times);
}

interface Row {
  what: string;
  ours: number;
  baseline?: number;
  baselineName?: string;
  note?: string;
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

function printTable(rows: Row[], project: string): void {
  for (const r of rows) {
    record(
      project,
      `tools: ${r.what}`,
      r.ours,
      "ms",
      r.baselineName ?? "none",
      r.baseline ?? NaN,
      r.note,
      {
        quiet: true,
      },
    );
  }
  const header = ["measurement", "ours ms", "baseline ms", "ratio", "overhead ms", "note"];
  const body = rows.map((r) => [
    r.what,
    fmt(r.ours),
    r.baseline === undefined ? "" : `${fmt(r.baseline)} (${r.baselineName})`,
    r.baseline === undefined ? "" : (r.ours / r.baseline).toFixed(2),
    r.baseline === undefined ? "" : fmt(r.ours - r.baseline),
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    "| " + cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const b of body) console.log(line(b));
}

/** Think time between the edits of the new-errors rows: an agent's next call comes later. */
const NEW_ERRORS_PAUSE_MS = 600;

/**
 * The time the new-diagnostics report (tools/new_errors.ts) adds to a warm edit:
 * replace_content in a file one other module imports, a run of edits with the report on, then
 * a run with it off, in one session on the warm server, each edit followed by a pause as an
 * agent's next call would be (alternating them would charge each report with the server's
 * re-check of the unreported edit before it). The edit answers once its report is ready or
 * after a quarter of its own time, whichever is first; the second row times the edit until its
 * report is ready, against the edit alone plus the raw floor: a bare connection to
 * typescript-language-server sending the same change, then syntactic and semantic diagnostics
 * of the changed file and its importer, all in flight at once.
 */
async function newDiagnosticsRows(
  h: Harness,
  file: string,
  importer: string,
  runs: number,
): Promise<Row[]> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, NEW_ERRORS_PAUSE_MS));
  /** The project's record of the checks: the time until a report is ready is until it settles. */
  const editChecks = h.session.services(h.project).editChecks;
  const settings = h.project.settings as { report_new_diagnostics: boolean };
  const original = await Deno.readTextFile(h.project.absolute(file));
  const toggled = (text: string) =>
    text.includes("by * 1;")
      ? text.replace("this.count += by * 1;", "this.count += by;")
      : text.replace("this.count += by;", "this.count += by * 1;");
  /** A file another module imports, edited in turn with `file` (its errors are not known). */
  const other = "src/pkg15/mod0105.ts";
  const edit = async (target: string, report: boolean) => {
    settings.report_new_diagnostics = report;
    const text = Deno.readTextFileSync(h.project.absolute(target));
    const needle = text.includes("by * 1;") ? "this.count += by * 1;" : "this.count += by;";
    const answer = await h.call(replaceContentTool, {
      relative_path: target,
      needle,
      repl: toggled(needle),
      mode: "literal",
    });
    if (answer !== "OK") throw new Error(`unexpected answer: ${answer}`);
  };
  /** Edits with pauses: the edit's own time, and the time until its report was ready. */
  const series = async (targets: string[], report: boolean) => {
    const answered: number[] = [];
    const ready: number[] = [];
    let inline = 0;
    for (let i = 0; i < runs * 2; i++) {
      const t0 = performance.now();
      await edit(targets[i % targets.length]!, report);
      const t1 = performance.now();
      await editChecks.settled();
      const t2 = performance.now();
      answered.push(t1 - t0);
      ready.push(t2 - t0);
      if (t2 - t1 < 0.5) inline++;
      await pause();
    }
    return { answered: median(answered), ready: median(ready), inline };
  };
  // Warm both paths (the importer scan lists and reads every file the first time).
  await edit(file, false);
  await pause();
  for (let i = 0; i < 4; i++) {
    await edit(i % 2 ? other : file, true);
    await editChecks.settled();
    await pause();
  }
  const on = await series([file], true);
  const off = await series([file], false);
  const onBoth = await series([file, other], true);
  const offBoth = await series([file, other], false);
  // Leave the files as generated (the persistent-cache row below expects no change).
  for (const target of [file, other]) {
    if (Deno.readTextFileSync(h.project.absolute(target)).includes("by * 1;")) {
      await edit(target, false);
    }
  }
  settings.report_new_diagnostics = true;

  // The raw floor, on a bare connection to a second server on the same project.
  const raw = await RawServer.start(h.project.root);
  let floor: number;
  try {
    await raw.openFile(file);
    await raw.openFile(importer);
    const tsserver = (command: string, rel: string) =>
      raw.connection.sendRequest("workspace/executeCommand", {
        command: "typescript.tsserverRequest",
        arguments: [command, { file: raw.uri(rel) }],
      });
    await tsserver("semanticDiagnosticsSync", file); // waits for the project load
    let text = original;
    let version = 1_000;
    const floorTimes: number[] = [];
    for (let i = 0; i < runs * 2 + 2; i++) {
      text = toggled(text);
      const t0 = performance.now();
      await raw.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri: raw.uri(file), version: ++version },
        contentChanges: [{ text }],
      });
      await Promise.all(
        [file, importer].flatMap((rel) => [
          tsserver("syntacticDiagnosticsSync", rel),
          tsserver("semanticDiagnosticsSync", rel),
        ]),
      );
      if (i >= 2) floorTimes.push(performance.now() - t0); // the first two warm it up
      await pause();
    }
    floor = median(floorTimes);
  } finally {
    await raw.stop();
  }
  const adds = (a: { answered: number; inline: number }, b: { answered: number }) =>
    `report adds ${fmt(a.answered - b.answered)} ms ` +
    `(${((a.answered - b.answered) / b.answered * 100).toFixed(0)}% of the edit; target < 25%); ` +
    `report in the edit's answer ${a.inline}/${runs * 2}, else in the next`;
  return [{
    what: "replace_content, warm, with the new-errors report",
    ours: on.answered,
    baseline: off.answered,
    baselineName: "the same edit, report off",
    note: adds(on, off),
  }, {
    what: "replace_content, two files in turn, with the report",
    ours: onBoth.answered,
    baseline: offBoth.answered,
    baselineName: "the same edits, report off",
    note: `${adds(onBoth, offBoth)}; each edit takes its files' errors before writing`,
  }, {
    what: "replace_content, warm, until its new-errors report is ready",
    ours: on.ready,
    baseline: off.answered + floor,
    baselineName: "edit alone + raw floor",
    note: `raw floor ${fmt(floor)} ms: didChange, then syntactic + semantic diagnostics of ` +
      "the file and its importer on a bare connection",
  }];
}

/** `--only new-errors`: just the new-errors rows, on a fresh generated project. */
async function onlyNewErrors(files: number, runs: number): Promise<void> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-" }));
  const root = join(parent, "project");
  try {
    await generate(root, files);
    await prime(root);
    const h = await harness(root);
    try {
      const target = "src/pkg05/mod0005.ts";
      await h.call(getSymbolsOverview, { relative_path: target }); // starts the server
      const rows = await newDiagnosticsRows(h, target, "src/pkg06/mod0006.ts", runs);
      console.log(`\nThe new-errors report on ${files + 1} TypeScript files\n`);
      printTable(rows, `generated ${files + 1}`);
    } finally {
      await h.session.dispose();
    }
  } finally {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "3000" },
      runs: { type: "string", default: "5" },
      keep: { type: "boolean", default: false },
      sizes: { type: "string", default: "3000" },
      real: { type: "string", default: "typeorm" },
      "no-engine": { type: "boolean", default: false },
      "no-scale": { type: "boolean", default: false },
      "no-generations": { type: "boolean", default: false },
      "generation-files": { type: "string", default: "20000" },
      "no-scip": { type: "boolean", default: false },
      "scip-files": { type: "string", default: "50000" },
      out: { type: "string" },
      compare: { type: "string" },
      only: { type: "string" },
      languages: { type: "string", default: "rust,go,c" },
    },
  });
  console.log(
    `deno task bench: tool rows and engine rows on ${Number(values.files) + 1} generated files; ` +
      `scale rows on generated sizes ${values.sizes} and real trees ${values.real || "(none)"}.\n` +
      "The default run takes about 25 minutes on 2 cores (the server-generation rows about 9 of " +
      "them; --no-generations leaves them out); the large rows are behind flags: " +
      "--sizes 3000,20000,50000 --real typeorm,aws (add about 30 minutes).",
  );
  const startRss = Deno.memoryUsage().rss;
  const files = Number(values.files);
  const runs = Number(values.runs);
  const languages = values.languages ? values.languages.split(",") : [];
  const unknown = languages.filter((l) => !["rust", "go", "c"].includes(l));
  if (unknown.length > 0) {
    console.error(`--languages: unknown ${unknown.join(", ")} (known: rust, go, c)`);
    Deno.exit(2);
  }
  if (
    values.only !== undefined &&
    !["new-errors", "generations", "scip", "dashboard", "bounds"].includes(values.only)
  ) {
    console.error(
      `--only: unknown part '${values.only}' (known: new-errors, generations, scip, dashboard, bounds)`,
    );
    Deno.exit(2);
  }
  if (values.only === "bounds") {
    const { printBoundsBench } = await import("./bounds.ts");
    await printBoundsBench(runs * 40);
    await saveResults(values.out ?? defaultOut(), Deno.args);
    if (values.compare) await compareWith(values.compare);
    Deno.exit(0);
  }
  if (values.only === "dashboard") {
    const { printDashboardBench } = await import("./dashboard.ts");
    await printDashboardBench();
    await saveResults(values.out ?? defaultOut(), Deno.args);
    if (values.compare) await compareWith(values.compare);
    Deno.exit(0);
  }
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  if (values.only === "new-errors") {
    await onlyNewErrors(files, runs);
    Deno.exit(0);
  }
  const generations = () =>
    runGenerationBench({ runs: values.runs, files: values["generation-files"] });
  const scip = async () => {
    await runScipBench({ files: Number(values["scip-files"]), runs });
    await runScipSymbolBench({ files: Number(values["scip-files"]), runs });
  };
  if (values.only === "scip") {
    await scip();
    await saveResults(values.out ?? defaultOut(), Deno.args);
    Deno.exit(0);
  }
  if (values.only === "generations") {
    await generations();
    await saveResults(values.out ?? defaultOut(), Deno.args);
    if (values.compare) await compareWith(values.compare);
    Deno.exit(0);
  }
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-" }));
  const root = join(parent, "project");
  const rows: Row[] = [];
  try {
    const gen = await time(() => generate(root, files));
    console.error(`generated ${files + 1} files in ${fmt(gen.ms)} ms under ${root}`);
    const target = "src/pkg05/mod0005.ts"; // Widget5: used by mod0006
    const core = "src/core.ts";
    // Core's identifier position in core.ts (line 1, "export class Core").
    const corePos = { line: 1, character: 13 };

    const rareName = `Widget${Math.floor(files / 2)}`;
    // 0. Prime the OS file cache with the server's own files (typescript is ~10 MB of JS), so
    // neither cold run below pays for that alone.
    await prime(root);

    // 1. Baseline cold: a bare pool, the references request sent straight to the server.
    const rawProject = Project.open(
      root,
      await loadSettings({ projectRoot: root, globalFile: null }),
    );
    const rawPool = new ServerPool(rawProject);
    let rawRefCount = 0;
    let rawColdMs = 0;
    try {
      const cold = await time(async () => {
        const server = await rawPool.serverFor(core);
        return await server.request<unknown[]>("textDocument/references", {
          textDocument: { uri: server.uriOf(core) },
          position: corePos,
          context: { includeDeclaration: false },
        }, { sync: [core] });
      });
      rawColdMs = cold.ms;
      rawRefCount = cold.value.length;
    } finally {
      await rawPool.dispose();
    }

    // 2. Ours, cold: a new session; the first call starts the server.
    const ours = await harness(root);
    try {
      const coldRefs = await time(() =>
        ours.call(findReferencingSymbols, { name_path: "Core", relative_path: core })
      );
      const refCount = countEntries(coldRefs.value) ?? NaN;
      rows.push({
        what: "find_referencing_symbols Core, cold (server start + load)",
        ours: coldRefs.ms,
        baseline: rawColdMs,
        baselineName: "raw references, cold",
        note: `${refCount} refs (raw: ${rawRefCount} incl. ${rawRefCount - refCount} imports)`,
      });
      const rare = await time(() => ours.call(findSymbol, { name_path_pattern: rareName }));
      rows.push({
        what: `find_symbol ${rareName} (global), cache cold`,
        ours: rare.ms,
        note: `${JSON.parse(rare.value).length} match(es)`,
      });
      const common = await time(() =>
        ours.call(findSymbol, { name_path_pattern: "render", include_kinds: [6] })
      );
      rows.push({
        what: "find_symbol render (global, in every file), cache cold",
        ours: common.ms,
        note: `${JSON.parse(common.value).length} matches; every file asked (no cache yet)`,
      });

      // 3. Warm: ours and the same request sent straight to our session's server, alternating.
      const server = await ours.session.services(ours.project).pool.serverFor(core);
      const refsParams = {
        textDocument: { uri: server.uriOf(core) },
        position: corePos,
        context: { includeDeclaration: false },
      };
      const [refsOurs, refsRaw] = await paired(
        runs,
        () => ours.call(findReferencingSymbols, { name_path: "Core", relative_path: core }),
        () => server.request("textDocument/references", refsParams, { sync: [core] }),
      );
      rows.push({
        what: "find_referencing_symbols Core, warm",
        ours: refsOurs,
        baseline: refsRaw,
        baselineName: "raw references",
      });
      const [overviewOurs, overviewRaw] = await paired(
        runs,
        () => ours.call(getSymbolsOverview, { relative_path: target }),
        () =>
          server.request("textDocument/documentSymbol", {
            textDocument: { uri: server.uriOf(target) },
          }, { sync: [target] }),
      );
      rows.push({
        what: "get_symbols_overview one file, warm",
        ours: overviewOurs,
        baseline: overviewRaw,
        baselineName: "raw documentSymbol",
      });
      rows.push({
        what: `find_symbol ${rareName} (global), warm`,
        ours: await warm(runs, () => ours.call(findSymbol, { name_path_pattern: rareName })),
      });
      const [renderOurs, renderRaw] = await paired(
        runs,
        () => ours.call(findSymbol, { name_path_pattern: "render", include_kinds: [6] }),
        () => server.request("workspace/symbol", { query: "render" }),
      );
      rows.push({
        what: "find_symbol render (global), warm",
        ours: renderOurs,
        baseline: renderRaw,
        baselineName: "raw workspace/symbol",
        note: "workspace/symbol gives no name paths or bodies",
      });
      rows.push(...await newDiagnosticsRows(ours, target, "src/pkg06/mod0006.ts", runs));
    } finally {
      await ours.session.dispose(); // saves the symbol cache
    }

    // 4. A new session on the warm persistent cache: no server needed for find_symbol.
    const next = await harness(root);
    try {
      const fromCache = await time(() =>
        next.call(findSymbol, { name_path_pattern: "render", include_kinds: [6] })
      );
      const pool = next.session.services(next.project).pool as ServerPool;
      rows.push({
        what: "find_symbol render (global), new session, persistent cache",
        ours: fromCache.ms,
        note: `servers started: ${pool.running().length}`,
      });
    } finally {
      await next.session.dispose();
    }

    // 5. Code mode: a warm trivial cell, and one API call through repl against the same call
    // made directly, alternated in one session (the ratio is what counts).
    const modeSession = await harness(root);
    try {
      const session = modeSession.session;
      const cell = (code: string) => callTool(session, repl, { code });
      await cell("1 + 1"); // starts the code's process
      const trivial = await warm(runs * 4, () => cell("1 + 1"));
      rows.push({ what: "repl `1 + 1`, warm process", ours: trivial });
      const args = { name_path_pattern: "Core", relative_path: core };
      const direct = () => callTool(session, findSymbol, args);
      const viaApi = () => cell(`await s.lsp.find_symbol(${JSON.stringify(args)})`);
      await direct();
      await viaApi();
      const [api, plain] = await paired(runs * 4, viaApi, direct);
      rows.push({
        what: "find_symbol Core through repl's API",
        ours: api,
        baseline: plain,
        baselineName: "the same call direct",
        note: `overhead ${fmt(api - plain)} ms`,
      });
    } finally {
      await modeSession.session.dispose();
    }

    const cacheBytes = (await Deno.stat(join(root, ".sextant", "cache", "symbols-typescript.json")))
      .size;
    console.log(
      `\nSextant symbol tools on ${files + 1} TypeScript files (median of ${runs} warm runs)\n`,
    );
    printTable(rows, `generated ${files + 1}`);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    record(
      `generated ${files + 1}`,
      "tools: peak RSS of the bench process (tool handlers, servers excluded)",
      peakRss / 2 ** 20,
      "MB",
      "RSS after loading Sextant's modules",
      startRss / 2 ** 20,
      undefined,
      { quiet: true },
    );
    console.log(
      `\nRSS of this process: ${mb(Deno.memoryUsage().rss)} at the end, ${mb(peakRss)} peak ` +
        `(${mb(startRss)} after loading Sextant's modules; language servers excluded). ` +
        `Symbol cache on disk: ${(cacheBytes / 1024 / 1024).toFixed(1)} MB.`,
    );
    // Code mode on a real repository: one agent task, direct calls against one repl call.
    const { printReplTaskBench } = await import("./repl.ts");
    await printReplTaskBench();
    // The shared service: fronts as clients start them, on the same project.
    const { printServiceBench, printServiceBenchTypeScript7 } = await import("./service.ts");
    await printServiceBench(root, runs);
    await printServiceBenchTypeScript7(files, runs);
    // User regexes run in a process of their own: its cost beside the calling thread's.
    const { printRegexBench } = await import("./regex.ts");
    await printRegexBench(root, `generated ${files + 1}`, runs);
  } finally {
    if (values.keep) console.error(`kept ${root}`);
    else await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
  // A large answer through the front beside standalone: the relay's own cost.
  // The service's bounds: their cost on a warm call, and a flood (bounds.ts).
  const { printBoundsBench } = await import("./bounds.ts");
  await printBoundsBench(runs * 40);
  const { printLargeAnswerBench } = await import("./large_answer.ts");
  await printLargeAnswerBench(20, runs);
  // Client hooks run as a new process per tool call: their own small table.
  const { printHookBench } = await import("./hook.ts");
  await printHookBench();
  // The service's dashboard: a tool call's cost with no page, and with one open.
  const { printDashboardBench } = await import("./dashboard.ts");
  await printDashboardBench();
  if (!values["no-engine"]) await runEngineBench(["--files", values.files, "--runs", values.runs]);
  if (!values["no-scale"]) {
    await runScaleBench({ sizes: values.sizes, real: values.real, runs: values.runs });
  }
  if (!values["no-generations"]) await generations();
  if (!values["no-scip"]) await scip();
  if (languages.length > 0) {
    const { benchLanguages } = await import("./languages.ts");
    await benchLanguages({ runs, only: languages as RealId[] });
  }
  printHeader("Every recorded row");
  for (const r of [...results]) printRow(r);
  await saveResults(values.out ?? defaultOut(), Deno.args);
  if (values.compare) await compareWith(values.compare);
}
