/**
 * The language-server generation rows of `deno task bench`: Sextant on TypeScript 7's own server
 * (`tsc --lsp`) and on the Python default (pyright), beside the old TypeScript servers
 * (typescript-language-server over TypeScript 5.9), each row beside its raw baseline measured in
 * the same run, with the target it is held to and PASS or MISS:
 *
 * | part | rows | target |
 * |---|---|---|
 * | `refs` | warm references over MCP, native servers (typeorm, hono, flask, generated 3,001) | ≤ raw + 1 ms (median) |
 * | `refs` | cold references, no service running, no index on disk, native servers | ≤ raw + 200 ms |
 * | `refs` | the same two on the old servers | ≤ 1.1× raw |
 * | `refs` | the characters of the cold answer (notes included) against `grep -rnw <name>` over the files it covers | ≤ grep |
 * | `memory` | Sextant's own peak RSS (front + service), typeorm, default mode | ≤ 100 MB, ≤ the native server's |
 * | `memory` | Sextant's own peak PSS (front + service), typeorm, default mode | ≤ the native server's |
 * | `memory` | 4 sessions against 1, every process | ≤ 1.2× (peak RSS), ≤ 1.15× (PSS) |
 * | `memory-http` | the same session over Streamable HTTP to `sextant --http` (no front): its own peak PSS | ≤ the native server's |
 * | `memory-http` | 4 HTTP sessions against 1, every process's PSS | ≤ 1.15× |
 * | `find-symbol` | find_symbol of a new name while the index builds, from the first second on, 20,000 files | ≤ 100 ms, and complete |
 * | `find-symbol` | warm global find_symbol of a name not asked before, 20,000 files | ≤ 20 ms |
 * | `find-symbol` | Sextant's own peak PSS in that session (standalone), 20,000 files | ≤ 200 MB |
 *
 * How each side is measured:
 * - Sextant runs as `deno task start` runs it (bench/scale.ts's `Sextant`), over MCP on stdio,
 *   from the start bundle, as every start after a user's first does (built before the first).
 *   Cold is spawn to the first answer of `find_referencing_symbols`, standalone (no service), on
 *   a fresh copy of the tree (no `.sextant/`, so no declaration index or symbol cache on disk).
 * - The raw side is one LSP client straight to a second server of the same kind (bench/engine.ts's
 *   `RawServer`), measured two ways. The baseline the targets hold Sextant to is the raw server
 *   shown the files of Sextant's answer (the target's file first, then every file the answer
 *   names: the same question, where Sextant covers files the server's own project does not).
 *   Beside it, for reference, the raw server as started: shown only the target's file. Each
 *   cold is spawn, initialize, open the files, then `textDocument/references` asked at once and
 *   again at once (50 ms after an error) until the answer is complete — as many locations as a
 *   settled server shown the same files gives, learned from an earlier priming start of the same
 *   server, which also loads the server's code into the OS cache for both sides. A real client
 *   cannot know when an answer is complete, so these raw cold figures are lower bounds.
 * - Warm: after one unmeasured call each, Sextant and the raw server shown the same files
 *   alternate (which goes first alternates too), the raw server as started after each pair;
 *   medians.
 * - Memory: VmHWM per process (bench/scale.ts's `memoryOf`), and PSS (`pssOf`, from
 *   `/proc/<pid>/smaps_rollup`: shared pages split between the processes that map them, so the
 *   fronts and the service share the deno executable's pages fairly) sampled every 200 ms; "default mode" is fronts of the
 *   shared service in a service folder of this run's own (`XDG_RUNTIME_DIR`), so a user's
 *   service is never touched; the service is stopped at the end. The HTTP variant starts
 *   `sextant --http` with the start task's command and environment (bench/lib/http_sextant.ts)
 *   and speaks to it with the SDK's Streamable HTTP client, as clients that connect by URL do.
 *
 * Runnable alone:
 *
 *     deno run -A scripts/bench/generations.ts [--runs 5] [--only refs,memory,memory-http,find-symbol]
 *        [--trees typeorm,hono,flask,generated,hono-src] [--files 20000] [--out FILE] [--compare FILE]
 *
 * `hono-src` is hono's sources (eleven tsconfigs, the tests among them), measured only where
 * `SEXTANT_BENCH_HONO_SRC` names a checkout of github.com/honojs/hono (then by default): the
 * registries publish hono compiled only.
 *
 * The parts run in the order `--only` lists them (`--only memory-http,memory` and
 * `--only memory,memory-http` alternate the two transports between runs).
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LSP_PATH_ENV, resolveCommand, serverSpecs } from "../../src/lsp/registry.ts";
import { lookupSection } from "../../src/lsp/settings.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";
import {
  type BenchTree,
  CACHE,
  countFiles,
  declarationPosition,
  generatedTree,
  REPO,
  typeormTree,
} from "./lib/project.ts";
import { compareWith, countEntries, defaultOut, record, saveResults } from "./lib/results.ts";
import {
  childGroups,
  descendants,
  endLeftovers,
  ensureStartBundle,
  median,
  memoryOf,
  processTree,
  pssOf,
  pssPeaks,
  Sextant,
  startTaskArgs,
  startTaskEnv,
  timed,
} from "./scale.ts";
import { RawServer } from "./lib/raw_server.ts";
import { quiet, servicePidIn } from "./lib/quiet.ts";
import { askWhileBuilding, type NewNamesResult } from "./lib/new_names.ts";
import { HttpService, HttpSession } from "./lib/http_sextant.ts";

export const HONO_VERSION = "4.13.19";
export const FLASK_VERSION = "3.1.0";

/** A target: ours at most raw plus `plus`, at most `times` raw, and/or at most `max`. */
interface Target {
  plus?: number;
  times?: number;
  max?: number;
  /** The target as printed. */
  text: string;
}

/** One printed row. */
export interface GenerationRow {
  row: string;
  tree: string;
  server: string;
  ours: number;
  raw: number;
  /** What the raw column is. */
  rawName: string;
  /**
   * The raw server as started (shown only the target's file), where the raw column is the
   * server shown the files of Sextant's answer: printed beside it, for reference.
   */
  started?: number;
  unit: "ms" | "MB" | "chars";
  target: Target;
  note?: string;
}

const WARM_NATIVE: Target = { plus: 1, text: "≤ raw + 1 ms" };
const COLD_NATIVE: Target = { plus: 200, text: "≤ raw + 200 ms" };
const OLD: Target = { times: 1.1, text: "≤ 1.1× raw" };
const GREP: Target = { times: 1, text: "≤ grep -rnw" };

/** Whether a row meets its target (a row that could not be measured does not). */
export function passes(r: GenerationRow): boolean {
  const t = r.target;
  if (!Number.isFinite(r.ours)) return false;
  if (t.plus !== undefined && !(r.ours <= r.raw + t.plus)) return false;
  if (t.times !== undefined && !(r.ours <= r.raw * t.times)) return false;
  if (t.max !== undefined && !(r.ours <= t.max)) return false;
  return true;
}

const rows: GenerationRow[] = [];

function add(r: GenerationRow): void {
  rows.push(r);
  console.error(`[generations] ${r.tree} ${r.server}: ${r.row}: ${fmt(r.ours)} vs ${fmt(r.raw)}`);
  record(
    r.tree,
    `generations: ${r.row} [${r.server}]`,
    r.ours,
    r.unit,
    r.rawName,
    r.raw,
    `target ${r.target.text}: ${passes(r) ? "PASS" : "MISS"}` +
      (r.started === undefined ? "" : `; raw as started ${fmt(r.started)} ${r.unit}`) +
      (r.note ? `; ${r.note}` : ""),
    { quiet: true },
  );
}

function fmt(v: number): string {
  return Number.isNaN(v) ? "n/a" : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1);
}

/** The table of every row measured so far. */
export function printGenerationTable(title: string): void {
  const header = [
    "row",
    "tree",
    "server",
    "ours",
    "raw",
    "raw as started",
    "ratio",
    "overhead",
    "target",
    "result",
  ];
  const body = rows.map((r) => [
    r.row,
    r.tree,
    r.server,
    `${fmt(r.ours)} ${r.unit}`,
    `${fmt(r.raw)} ${r.unit}`,
    r.started === undefined ? "" : `${fmt(r.started)} ${r.unit}`,
    Number.isFinite(r.ours / r.raw) ? `${(r.ours / r.raw).toFixed(2)}×` : "n/a",
    Number.isFinite(r.ours - r.raw) ? `${r.ours >= r.raw ? "+" : ""}${fmt(r.ours - r.raw)}` : "n/a",
    r.target.text,
    passes(r) ? "PASS" : "MISS",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    "| " + cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ") + " |";
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const b of body) console.log(line(b));
  const notes = rows.filter((r) => r.note);
  if (notes.length) {
    console.log("");
    for (const r of notes) console.log(`- ${r.tree}, ${r.server}, ${r.row}: ${r.note}`);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A tree fetched once into the bench cache by `fetch` (into a fresh folder, renamed into place
 * when complete), copied to a temporary folder per use.
 */
async function cachedTree(
  dir: string,
  fetch: (into: string) => Promise<void>,
  tree: Omit<BenchTree, "root" | "files" | "dispose">,
): Promise<BenchTree> {
  if (!await exists(dir)) {
    const partial = `${dir}.tmp-${Deno.pid}`;
    await Deno.remove(partial, { recursive: true }).catch(() => {});
    await Deno.mkdir(partial, { recursive: true });
    try {
      await fetch(partial);
      await Deno.rename(partial, dir);
    } catch (error) {
      await Deno.remove(partial, { recursive: true }).catch(() => {});
      if (!await exists(dir)) throw error;
    }
  }
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-gen-" }));
  const root = join(parent, "project");
  await run("cp", ["-a", dir, root], "/");
  await run("chmod", ["-R", "u+w", root], "/");
  return {
    ...tree,
    root,
    files: await countFiles(root),
    dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
  };
}

/** hono from npm at the pinned version (`npm pack`): its compiled JavaScript and `.d.ts` files. */
export function honoTree(): Promise<BenchTree> {
  return cachedTree(join(CACHE, `hono-${HONO_VERSION}`), async (into) => {
    await run("npm", ["pack", `hono@${HONO_VERSION}`, "--pack-destination", into], into);
    await run("tar", ["xzf", `hono-${HONO_VERSION}.tgz`, "--strip-components=1"], into);
    await Deno.remove(join(into, `hono-${HONO_VERSION}.tgz`));
  }, {
    name: `hono@${HONO_VERSION}`,
    server: "typescript",
    file: "dist/types/context.d.ts",
    symbol: "Context",
  });
}

/** The environment variable naming a checkout of hono's sources for the `hono-src` tree. */
export const HONO_SRC_ENV = "SEXTANT_BENCH_HONO_SRC";

/**
 * hono's sources (github.com/honojs/hono: `src/`, its tests and runtime tests, eleven tsconfigs
 * joined by project references), from a checkout named by {@linkcode HONO_SRC_ENV}: the registries
 * this bench reaches publish hono compiled only, so the tree is measured where a checkout is at
 * hand and left out otherwise. Copied per use without `.git` and `node_modules`.
 */
export async function honoSourceTree(): Promise<BenchTree> {
  const checkout = Deno.env.get(HONO_SRC_ENV);
  if (!checkout || !await exists(join(checkout, "src", "context.ts"))) {
    throw new Error(
      `the hono-src tree needs ${HONO_SRC_ENV} set to a checkout of github.com/honojs/hono` +
        (checkout ? ` (${checkout} has no src/context.ts)` : ""),
    );
  }
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-gen-" }));
  const root = join(parent, "project");
  await run("cp", ["-a", checkout, root], "/");
  for (const own of [".git", "node_modules", ".sextant"]) {
    await Deno.remove(join(root, own), { recursive: true }).catch(() => {});
  }
  return {
    name: "hono sources",
    server: "typescript",
    file: "src/context.ts",
    symbol: "Context",
    root,
    files: await countFiles(root),
    dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
  };
}

/** flask's source distribution from PyPI at the pinned version (`pip download`). */
export function flaskTree(): Promise<BenchTree> {
  return cachedTree(join(CACHE, `flask-${FLASK_VERSION}`), async (into) => {
    const archive = `flask-${FLASK_VERSION}.tar.gz`;
    await run("python3", [
      "-m",
      "pip",
      "download",
      "--no-deps",
      "--no-binary",
      ":all:",
      `flask==${FLASK_VERSION}`,
      "-d",
      into,
    ], into);
    await run("tar", ["xzf", archive, "--strip-components=1"], into);
    await Deno.remove(join(into, archive));
  }, {
    name: `flask@${FLASK_VERSION}`,
    server: "python",
    file: "src/flask/app.py",
    symbol: "Flask",
  });
}

/** A server generation a tree is measured on. */
interface Generation {
  /** Row label. */
  label: string;
  /** The process name Sextant's server child should have (see bench/scale.ts's childGroups). */
  process: string;
  native: boolean;
  /** The registry id of its server. */
  server: string;
  /** Give the copy what makes the registry choose this generation. */
  prepare(root: string): Promise<void>;
  /** Whether references are asked with the declaration (as the tools ask this server). */
  withDeclaration: boolean;
}

const TS7: Generation = {
  server: "typescript",
  label: "TypeScript 7 (tsc --lsp)",
  process: "tsc",
  native: true,
  prepare: linkTypeScript7,
  withDeclaration: true,
};
const TS5: Generation = {
  server: "typescript",
  label: "typescript-language-server + TS 5.9",
  process: "typescript-language-server",
  native: false,
  prepare: async () => {},
  withDeclaration: false,
};
const PYRIGHT: Generation = {
  server: "python",
  label: "pyright (Python default)",
  process: "pyright-langserver",
  native: true,
  prepare: async () => {},
  withDeclaration: false,
};

const TREES: Record<string, { make: () => Promise<BenchTree>; generations: Generation[] }> = {
  typeorm: { make: typeormTree, generations: [TS7, TS5] },
  hono: { make: honoTree, generations: [TS7, TS5] },
  // Only where a checkout is named (HONO_SRC_ENV): measured by default then.
  "hono-src": { make: honoSourceTree, generations: [TS7, TS5] },
  flask: { make: flaskTree, generations: [PYRIGHT] },
  // 300 of its 3,001 files import and use `Core` once each: the answer with the fewest
  // references per file, where naming the containing symbols costs most against grep's lines.
  generated: { make: () => generatedTree(3000), generations: [TS7] },
};

type Position = { line: number; character: number };

/**
 * A raw server that also answers the refresh requests a server may send (RawServer leaves them
 * unanswered as "method not found", and pyright exits on that about a second after an open),
 * and answers `workspace/configuration` with the settings Sextant gives the same server (without
 * them pyright resolves `import flask` to an installed copy, not the project's).
 */
export async function startRaw(root: string, g: { server: string }): Promise<RawServer> {
  const resolved = resolveCommand(serverSpecs(root).find((s) => s.id === g.server)!, root);
  const settings = "error" in resolved ? undefined : resolved.command.settings;
  const raw = await RawServer.start(root, g.server);
  // Registered before any message of the server is read (they come in a later task than this).
  raw.connection.onRequest(
    "workspace/configuration",
    (p: { items?: Array<{ section?: string }> }) =>
      (p.items ?? []).map((item) => lookupSection(settings, item.section) ?? null),
  );
  for (const what of ["diagnostic", "semanticTokens", "inlayHint", "codeLens", "inlineValue"]) {
    raw.connection.onRequest(`workspace/${what}/refresh`, () => null);
  }
  return raw;
}

/**
 * Ask until an answer comes (a server still loading may fail a request), up to `ms`; a server
 * that answers null is given none (an empty list), and a closed connection ends it at once.
 */
async function answer(raw: RawServer, file: string, pos: Position, g: Generation, ms = 120_000) {
  const deadline = performance.now() + ms;
  let first: unknown = null;
  for (;;) {
    try {
      return (await raw.references(file, pos, g.withDeclaration)) ?? [];
    } catch (error) {
      first ??= error;
      if (/closed|disposed/i.test(String(error))) {
        throw new Error(`the raw server's connection closed (first error: ${first})`);
      }
      if (performance.now() > deadline) throw error;
      await delay(50);
    }
  }
}

/**
 * A raw server started and stopped once: loads its code into the OS cache, and gives the
 * number of locations a settled server answers (asked again 2 s after its first answer).
 */
async function completeCount(
  root: string,
  files: readonly string[],
  pos: Position,
  g: Generation,
) {
  const file = files[0]!;
  const raw = await startRaw(root, g);
  try {
    for (const shown of files) await raw.openFile(shown);
    const first = await answer(raw, file, pos, g);
    await delay(2_000);
    const settled = await answer(raw, file, pos, g);
    return Math.max(first.length, settled.length);
  } finally {
    await raw.stop();
  }
}

/**
 * The JSON answer at the start of a tool's text (the notes a call may have come after it, in
 * blocks of their own that the client joins), or undefined.
 */
function leadingJson(text: string): unknown {
  let end = text.length;
  while (end > 0 && text.length - end < 100_000) {
    try {
      return JSON.parse(text.slice(0, end));
    } catch { /* try the text up to the previous closing bracket */ }
    end = Math.max(text.lastIndexOf("}", end - 2), text.lastIndexOf("]", end - 2)) + 1;
  }
  return undefined;
}

/** Files and entries of a find_referencing_symbols answer. */
function describeAnswer(text: string): string {
  try {
    const value = leadingJson(text) as
      | Record<string, unknown>
      | Array<{ relative_path?: string } | null>
      | undefined;
    if (value === undefined) throw new Error("not JSON");
    const files = Array.isArray(value) ? new Set(value.map((v) => v?.relative_path)).size : Object
      .keys(value).length;
    return `${countEntries(JSON.stringify(value))} referencing symbols in ${files} files`;
  } catch {
    return `${text.length} chars`;
  }
}

function filesOf(locations: unknown[]): number {
  return new Set(locations.map((l) => (l as { uri?: string; targetUri?: string }).uri)).size;
}

/** The files holding `tree.symbol` as a word, and those of them that `answer` names. */
async function answerFiles(
  tree: BenchTree,
  answer: string,
): Promise<{ holding: string[]; covered: string[] }> {
  const out = await new Deno.Command("grep", {
    args: ["-rlw", "--exclude-dir=node_modules", "--exclude-dir=.sextant", "--", tree.symbol, "."],
    cwd: tree.root,
    stdout: "piped",
  }).output();
  const holding = new TextDecoder().decode(out.stdout)
    .split("\n").filter(Boolean).map((f) => f.replace(/^\.\//, ""));
  return { holding, covered: holding.filter((f) => answer.includes(f)).sort() };
}

/**
 * The characters of an answer (with its notes) beside what `grep -rnw <name>` prints over the
 * files it covers: the files holding the name as a word that the answer names.
 */
async function charactersRow(
  tree: BenchTree,
  g: Generation,
  answer: string,
  files: { holding: string[]; covered: string[] },
): Promise<GenerationRow> {
  const { holding, covered } = files;
  let grepped = "";
  for (let i = 0; i < covered.length; i += 500) {
    const out = await new Deno.Command("grep", {
      args: ["-nwH", "--", tree.symbol, ...covered.slice(i, i + 500)],
      cwd: tree.root,
      stdout: "piped",
    }).output();
    grepped += new TextDecoder().decode(out.stdout);
  }
  return {
    row: `answer characters ${tree.symbol} (find_referencing_symbols, notes included)`,
    tree: tree.name,
    server: g.label,
    ours: answer.length,
    raw: grepped.length,
    rawName: "grep -rnw over the files the answer covers",
    unit: "chars",
    target: GREP,
    note: `${covered.length} of the ${holding.length} files holding '${tree.symbol}' covered; ` +
      `grep prints ${grepped.split("\n").filter(Boolean).length} lines`,
  };
}

/**
 * A raw server's cold answer: spawn, initialize, open `files` (the target's first), then
 * references asked until the answer has `complete` locations (or two minutes pass).
 */
async function coldRaw(
  tree: BenchTree,
  files: readonly string[],
  pos: Position,
  g: Generation,
  complete: number,
): Promise<{ ms: number; server: RawServer; answer: unknown[]; asks: number }> {
  let server: RawServer | null = null;
  let asks = 0;
  const [ms, got] = await timed(async () => {
    server = await startRaw(tree.root, g);
    for (const file of files) await server.openFile(file);
    const deadline = performance.now() + 120_000;
    for (;;) {
      asks++;
      const got = await answer(server, tree.file, pos, g);
      if (got.length >= complete || performance.now() > deadline) return got;
    }
  });
  return { ms, server: server!, answer: got, asks };
}

/** A raw cold answer as a row's note says it. */
function rawNote(cold: { answer: unknown[]; asks: number }, complete: number): string {
  return `${cold.answer.length} locations in ${filesOf(cold.answer)} files after ${cold.asks} ` +
    `asks` + (cold.answer.length < complete ? ` (INCOMPLETE: settled ${complete})` : "");
}

/**
 * The cold and warm references rows of one tree on one generation, each beside two raw
 * baselines of the same run: the raw server shown the files Sextant's answer lists (the same
 * question; the target is held to it), and the raw server as started, shown only the target's
 * file (for reference: it answers a smaller question where the server's own project does not
 * cover every file).
 */
async function referenceRows(make: () => Promise<BenchTree>, g: Generation, runs: number) {
  const tree = await make();
  const raws: RawServer[] = [];
  let ours: Sextant | null = null;
  try {
    await g.prepare(tree.root);
    const pos = declarationPosition(
      await Deno.readTextFile(join(tree.root, tree.file)),
      tree.symbol,
    );
    const complete = await completeCount(tree.root, [tree.file], pos, g);

    // Cold, raw as started: spawn to the first complete answer.
    const started = await coldRaw(tree, [tree.file], pos, g, complete);
    raws.push(started.server);
    // Cold, ours: spawn to the answer, standalone, nothing on disk.
    await Deno.remove(join(tree.root, ".sextant"), { recursive: true }).catch(() => {});
    const args = { name_path: tree.symbol, relative_path: tree.file };
    let initMs = 0;
    const [oursCold, oursAnswer] = await timed(async () => {
      [initMs, ours] = await timed(() => Sextant.start(tree.root));
      return await ours.call("find_referencing_symbols", args);
    });
    const sextant = ours! as Sextant;
    const servers = childGroups(sextant.pid).map((c) => c.name);
    // The project's own tsc may run through `npm exec` (the permission set names programs on
    // PATH): the name is then part of a longer command line.
    const wrong = servers.some((name) => name.includes(g.process))
      ? ""
      : `; Sextant's server is ${servers.join(", ") || "none"}, not ${g.process}`;
    // Cold, raw shown the files of our answer: the same question.
    const files = await answerFiles(tree, oursAnswer);
    const shownFiles = [tree.file, ...files.covered.filter((f) => f !== tree.file)];
    const completeShown = await completeCount(tree.root, shownFiles, pos, g);
    const shown = await coldRaw(tree, shownFiles, pos, g, completeShown);
    raws.push(shown.server);
    add({
      row: `cold references ${tree.symbol} (spawn to first complete answer)`,
      tree: tree.name,
      server: g.label,
      ours: oursCold,
      raw: shown.ms,
      rawName: "raw references, cold, shown the files of Sextant's answer",
      started: started.ms,
      unit: "ms",
      target: g.native ? COLD_NATIVE : OLD,
      note: `ours ${describeAnswer(oursAnswer)} (initialize ${fmt(initMs)} ms; its server ` +
        `${servers.join(", ")}); raw shown ${shownFiles.length} files: ` +
        `${rawNote(shown, completeShown)}; raw as started ${fmt(started.ms)} ms: ` +
        `${rawNote(started, complete)}` + wrong,
    });

    add(await charactersRow(tree, g, oursAnswer, files));

    // Warm: alternating, medians.
    // Warm once Sextant and its servers are quiet (the index built, the servers' diagnostics
    // done), as a session is after its first answer; the raw servers are given as long.
    const settledMs = await quiet(sextant.pid);
    const mine: number[] = [];
    const theirs: number[] = [];
    const theirsStarted: number[] = [];
    const rawRun = async (server: RawServer, into: number[]) => {
      into.push((await timed(() => server.references(tree.file, pos, g.withDeclaration)))[0]);
    };
    // One unmeasured call each: what the cold call left running (the index build, candidate
    // files being checked) is finished by the time a session is warm.
    for (const server of raws) await server.references(tree.file, pos, g.withDeclaration);
    await sextant.call("find_referencing_symbols", args);
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) await rawRun(shown.server, theirs);
      mine.push((await timed(() => sextant.call("find_referencing_symbols", args)))[0]);
      if (i % 2 === 1) await rawRun(shown.server, theirs);
      await rawRun(started.server, theirsStarted);
    }
    add({
      row: `warm references ${tree.symbol} (median)`,
      tree: tree.name,
      server: g.label,
      ours: median(mine),
      raw: median(theirs),
      rawName: "raw references, warm, shown the files of Sextant's answer",
      started: median(theirsStarted),
      unit: "ms",
      target: g.native ? WARM_NATIVE : OLD,
      note:
        `${runs} runs, from ${(settledMs / 1000).toFixed(1)} s after the cold answer (Sextant ` +
        `quiet): ours ${mine.map(fmt).join("/")} ms, raw shown ${theirs.map(fmt).join("/")} ms, ` +
        `raw as started ${theirsStarted.map(fmt).join("/")} ms` + wrong,
    });
  } finally {
    await (ours as Sextant | null)?.close();
    for (const raw of raws) await raw.stop();
    await tree.dispose();
  }
}

/** The shared service of a service folder of our own: its pid, and how to stop it. */
async function privateService() {
  const runtime = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bench-rt-" }));
  const env = { XDG_RUNTIME_DIR: runtime };
  const servicePid = () => servicePidIn(runtime);
  const stop = async () => {
    const pid = servicePid();
    const below = pid === null ? [] : descendants(pid, processTree());
    await new Deno.Command(Deno.execPath(), {
      args: [...startTaskArgs(), "service", "stop"],
      env: { ...Deno.env.toObject(), ...startTaskEnv(), ...env },
      stdout: "null",
      stderr: "null",
    }).output();
    // What `service stop` left (it should leave nothing) is ended here, by pid.
    await endLeftovers(below, "generations", "'service stop'");
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
  };
  return { env, servicePid, stop };
}

/**
 * The pid of TypeScript 7's native program below `pid` (its `tsc` executable; the node scripts
 * that start it, and `npm exec` when the service runs it so, are left out), or null.
 */
function nativePid(pid: number): number | null {
  for (const p of descendants(pid, processTree())) {
    try {
      if (Deno.readLinkSync(`/proc/${p}/exe`).split("/").pop() === "tsc") return p;
    } catch { /* gone, or not ours to read */ }
  }
  return null;
}

/** VmHWM (MB) of TypeScript 7's native program below `pid` ({@linkcode nativePid}), or NaN. */
function nativePeak(pid: number): number {
  const p = nativePid(pid);
  return p === null ? NaN : memoryOf(p).hwm;
}

/** Summed VmHWM (MB) of distinct processes. */
function peakOf(pids: Iterable<number>): number {
  let sum = 0;
  for (const pid of new Set(pids)) sum += memoryOf(pid).hwm;
  return sum;
}

/** What a memory row's session calls tools with: a stdio Sextant, or an HTTP session. */
interface Caller {
  call(name: string, args: Record<string, unknown>): Promise<string>;
}

/** The first 20 `.d.ts` files of typeorm's `repository/`, for the sessions' overviews. */
async function overviewFiles(tree: BenchTree): Promise<string[]> {
  const files: string[] = [];
  for await (const e of Deno.readDir(join(tree.root, "repository"))) {
    if (e.name.endsWith(".d.ts")) files.push(`repository/${e.name}`);
  }
  return files.sort().slice(0, 20);
}

/**
 * A typical short session on typeorm, the same over either transport: a global find_symbol,
 * references, 20 overviews, another find_symbol (session `i` > 0 asks for its body).
 */
async function typeormSession(s: Caller, tree: BenchTree, overviews: string[], i: number) {
  await s.call("find_symbol", { name_path_pattern: "EntityManager", include_body: false });
  await s.call("find_referencing_symbols", { name_path: tree.symbol, relative_path: tree.file });
  for (const file of overviews) await s.call("get_symbols_overview", { relative_path: file });
  await s.call("find_symbol", { name_path_pattern: `DataSource`, include_body: i > 0 });
}

/**
 * Default mode on typeorm with TypeScript 7: one session (a front and the service it starts),
 * then three more fronts on the same project. Rows: the front and service's peak beside the
 * native server's, and every process with four sessions against one.
 */
async function memoryRows(): Promise<void> {
  const tree = await typeormTree();
  const service = await privateService();
  const fronts: Sextant[] = [];
  try {
    await linkTypeScript7(tree.root);
    const overviews = await overviewFiles(tree);
    const session = (s: Sextant, i: number) => typeormSession(s, tree, overviews, i);
    const start = async () => {
      const s = await Sextant.start(tree.root, { standalone: false, env: service.env });
      fronts.push(s);
      return s;
    };
    const first = await start();
    const servicePid = service.servicePid();
    if (servicePid === null) throw new Error("no service endpoint in the private service folder");
    const all = () => [
      ...fronts.map((f) => f.pid),
      ...descendants(servicePid, processTree()),
    ];
    // PSS, sampled through the sessions: Sextant's own processes (the first front and the
    // service), the native server, and every process.
    let native: number | null = null;
    const pss = pssPeaks(() => ({
      own: [first.pid, servicePid],
      native: (native ??= nativePid(servicePid)) === null ? [] : [native],
      all: all(),
    }));
    await session(first, 0);
    const afterOne = pss.now();
    const onePeaks = pss.stop();
    const groups = childGroups(servicePid);
    const nativeHwm = nativePeak(servicePid);
    const own = memoryOf(fronts[0]!.pid).hwm + memoryOf(servicePid).hwm;
    add({
      row: "Sextant's own peak RSS (front + service), default mode",
      tree: tree.name,
      server: TS7.label,
      ours: own,
      raw: nativeHwm,
      rawName: "the native server's peak RSS (the service's own native tsc, same session)",
      unit: "MB",
      target: { times: 1, max: 100, text: "≤ 100 MB and ≤ raw" },
      note: `VmHWM: front ${fmt(memoryOf(fronts[0]!.pid).hwm)} MB, service ` +
        `${fmt(memoryOf(servicePid).hwm)} MB; the service's children: ` +
        (groups.map((g) => `${g.name} ${fmt(g.hwm)} MB`).join(", ") || "none"),
    });
    add({
      row: "Sextant's own peak PSS (front + service), default mode",
      tree: tree.name,
      server: TS7.label,
      ours: onePeaks.own,
      raw: onePeaks.native,
      rawName: "the native server's peak PSS (the service's own native tsc, same session)",
      unit: "MB",
      target: { times: 1, text: "≤ raw" },
      note: `PSS from /proc/<pid>/smaps_rollup every 200 ms; after the session: Sextant ` +
        `${fmt(afterOne.own)} MB (front ${fmt(pssOf(first.pid))}, service ` +
        `${fmt(pssOf(servicePid))}), native server ${fmt(afterOne.native)} MB`,
    });
    const one = peakOf(all());
    for (let i = 1; i < 4; i++) await session(await start(), i);
    const four = peakOf(all());
    const afterFour = pss.now();
    add({
      row: "4 sessions against 1, every process (fronts, service, servers)",
      tree: tree.name,
      server: TS7.label,
      ours: four,
      raw: one,
      rawName: "1 session, every process",
      unit: "MB",
      target: { times: 1.2, text: "≤ 1.2× raw" },
      note: `summed VmHWM; fronts ${
        fronts.map((f) => fmt(memoryOf(f.pid).hwm)).join("/")
      } MB, service ${fmt(memoryOf(servicePid).hwm)} MB`,
    });
    add({
      row: "4 sessions against 1, every process's PSS after the sessions",
      tree: tree.name,
      server: TS7.label,
      ours: afterFour.all,
      raw: afterOne.all,
      rawName: "1 session, every process's PSS after it",
      unit: "MB",
      target: { times: 1.15, text: "≤ 1.15× raw" },
      note: `fronts' PSS ${fronts.map((f) => fmt(pssOf(f.pid))).join("/")} MB, service ` +
        `${fmt(pssOf(servicePid))} MB, native server ${fmt(afterFour.native)} MB`,
    });
  } finally {
    for (const f of fronts) await f.close().catch(() => {});
    await service.stop();
    await tree.dispose();
  }
}

/**
 * The memory rows' HTTP variant: the same sessions on typeorm with TypeScript 7, spoken over
 * Streamable HTTP to `sextant --http` (bench/lib/http_sextant.ts), as clients that connect by URL
 * do: no front per session, so Sextant's own memory is the service's process alone. Rows: its
 * peak PSS beside the native server's, and every process's PSS with four sessions against one.
 */
async function memoryHttpRows(): Promise<void> {
  const tree = await typeormTree();
  let http: HttpService | null = null;
  const sessions: HttpSession[] = [];
  try {
    await linkTypeScript7(tree.root);
    const overviews = await overviewFiles(tree);
    const service = http = await HttpService.start(tree.root);
    const start = async () => {
      const s = await HttpSession.connect(service);
      sessions.push(s);
      return s;
    };
    const first = await start();
    let native: number | null = null;
    const pss = pssPeaks(() => ({
      own: [service.pid],
      native: (native ??= nativePid(service.pid)) === null ? [] : [native],
      all: service.processes(),
    }));
    await typeormSession(first, tree, overviews, 0);
    const afterOne = pss.now();
    const onePeaks = pss.stop();
    const groups = childGroups(service.pid);
    add({
      row: "HTTP: Sextant's own peak PSS (sextant --http, no front)",
      tree: tree.name,
      server: TS7.label,
      ours: onePeaks.own,
      raw: onePeaks.native,
      rawName: "the native server's peak PSS (the HTTP service's own native tsc, same session)",
      unit: "MB",
      target: { times: 1, text: "≤ raw" },
      note: `the session of the stdio row over Streamable HTTP; PSS every 200 ms; after the ` +
        `session: Sextant ${fmt(afterOne.own)} MB, native server ${fmt(afterOne.native)} MB; ` +
        `VmHWM: service ${fmt(memoryOf(service.pid).hwm)} MB; its children: ` +
        (groups.map((g) => `${g.name} ${fmt(g.hwm)} MB`).join(", ") || "none"),
    });
    const one = peakOf(service.processes());
    for (let i = 1; i < 4; i++) await typeormSession(await start(), tree, overviews, i);
    const afterFour = pss.now();
    add({
      row: "HTTP: 4 sessions against 1, every process's PSS after the sessions",
      tree: tree.name,
      server: TS7.label,
      ours: afterFour.all,
      raw: afterOne.all,
      rawName: "1 HTTP session, every process's PSS after it",
      unit: "MB",
      target: { times: 1.15, text: "≤ 1.15× raw" },
      note: `service's PSS ${fmt(pssOf(service.pid))} MB, native server ` +
        `${fmt(afterFour.native)} MB; summed VmHWM of every process ` +
        `${fmt(peakOf(service.processes()))} MB against ${fmt(one)} MB with 1 session`,
    });
  } finally {
    for (const s of sessions) await s.close().catch(() => {});
    await (http as HttpService | null)?.stop();
    await tree.dispose();
  }
}

/**
 * Warm global find_symbol of a name not asked before, on a generated project of `files` modules
 * with TypeScript 7: Sextant standalone, its index built and its server up (a find_symbol and a
 * references call first), then one new `Widget<n>` per run; against the raw server's
 * `workspace/symbol` of the same name.
 */
async function findSymbolRows(files: number, runs: number): Promise<void> {
  const tree = await generatedTree(files);
  let raw: RawServer | null = null;
  let ours: Sextant | null = null;
  try {
    await linkTypeScript7(tree.root);
    raw = await startRaw(tree.root, TS7);
    await raw.openFile(tree.file);
    const pos = declarationPosition(await Deno.readTextFile(join(tree.root, tree.file)), "Core");
    await answer(raw, tree.file, pos, TS7);
    ours = await Sextant.start(tree.root);
    const sextant = ours;
    const rawPid = nativePid(raw.pid) ?? raw.pid;
    // Sextant's own process (standalone: front and service in one) beside the raw native server.
    const pss = pssPeaks(() => ({ own: [sextant.pid], raw: [rawPid] }));
    const building = await askWhileBuilding(sextant, tree.root, { files });
    const firstMs = building.firstMs;
    newNameRow(tree.name, building);
    await sextant.call("find_referencing_symbols", { name_path: "Core", relative_path: tree.file });
    const rawServer = raw;
    const mine: number[] = [];
    const theirs: number[] = [];
    const counts = new Set<string>();
    for (let i = 0; i < runs; i++) {
      // Spread over the project, and never asked before in this session.
      const name = `Widget${Math.floor(((i + 0.5) * files) / runs) + 2}`;
      const [ms, text] = await timed(() =>
        sextant.call("find_symbol", { name_path_pattern: name, include_body: false })
      );
      mine.push(ms);
      const [rawMs, found] = await timed(() =>
        rawServer.connection.sendRequest<unknown[] | null>("workspace/symbol", { query: name })
      );
      theirs.push(rawMs);
      counts.add(`ours ${countEntries(text)}, raw ${found?.length ?? 0}`);
    }
    add({
      row: "warm global find_symbol, a name not asked before (median)",
      tree: tree.name,
      server: TS7.label,
      ours: median(mine),
      raw: median(theirs),
      rawName: "raw workspace/symbol, same name",
      unit: "ms",
      target: { max: 20, text: "≤ 20 ms" },
      note:
        `${runs} runs: ours ${mine.map(fmt).join("/")} ms; matches: ${[...counts].join("; ")} ` +
        `(workspace/symbol matches by substring, with no name paths or bodies); first ` +
        `find_symbol of the session (index build) ${fmt(firstMs)} ms`,
    });
    const after = pss.now();
    const peaks = pss.stop();
    add({
      row: "Sextant's own peak PSS (standalone), the session above",
      tree: tree.name,
      server: TS7.label,
      ours: peaks.own,
      raw: peaks.raw,
      rawName: "the raw native server's peak PSS",
      unit: "MB",
      target: { max: 200, text: "≤ 200 MB" },
      note: `PSS every 200 ms; after the session: Sextant ${fmt(after.own)} MB, raw server ` +
        `${fmt(after.raw)} MB`,
    });
  } finally {
    await ours?.close();
    await (raw as RawServer | null)?.stop();
    await tree.dispose();
  }
}

/**
 * New names asked while the index builds (bench/lib/new_names.ts): the slowest answer asked from
 * the first second on, against the same names asked after the build; an answer that differed from
 * the one after the build makes the row fail.
 */
function newNameRow(treeName: string, r: NewNamesResult): void {
  const late = r.samples.filter((s) => s.at >= 1000);
  const slowest = late.length === 0 ? NaN : Math.max(...late.map((s) => s.ms));
  const during = r.samples.map((s) => s.ms);
  const complete = r.incomplete.length === 0
    ? "every answer equal to the one after the build"
    : `INCOMPLETE, differing after the build: ${r.incomplete.join(", ")}`;
  add({
    row: "find_symbol of a new name while the index builds, slowest from the first second on",
    tree: treeName,
    server: TS7.label,
    ours: r.incomplete.length === 0 ? slowest : NaN,
    raw: median(r.afterMs),
    rawName: "the same names after the build (median)",
    unit: "ms",
    target: { max: 100, text: "≤ 100 ms" },
    note: `first find_symbol (starts the build) ${fmt(r.firstMs)} ms; ${r.samples.length} ` +
      `names during the build (index on disk after ${fmt(r.storedAt / 1000)} s), median ` +
      `${fmt(median(during))} ms, slowest ${fmt(Math.max(...during))} ms; by second: ` +
      bySecond(r.samples) + `; ${complete}`,
  });
}

/** The slowest answer per second of the build, e.g. "0: 900, 1: 45, 2: 30". */
function bySecond(samples: NewNamesResult["samples"]): string {
  const slowest = new Map<number, number>();
  for (const s of samples) {
    const second = Math.floor(s.at / 1000);
    slowest.set(second, Math.max(slowest.get(second) ?? 0, s.ms));
  }
  return [...slowest].map(([second, ms]) => `${second}s ${fmt(ms)}`).join(", ");
}

/** The parts of the generation rows. */
export const GENERATION_PARTS = ["refs", "memory", "memory-http", "find-symbol"] as const;

/** Options of {@linkcode runGenerationBench}, as strings from the command line. */
export interface GenerationOptions {
  runs?: string | undefined;
  only?: string | undefined;
  trees?: string | undefined;
  files?: string | undefined;
}

/** Measure and print the generation rows; each part's failure is printed and the next runs. */
export async function runGenerationBench(values: GenerationOptions): Promise<GenerationRow[]> {
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const runs = Number(values.runs ?? "5");
  const files = Number(values.files ?? "20000");
  const parts = (values.only ?? GENERATION_PARTS.join(",")).split(",").filter(Boolean);
  const unknownParts = parts.filter((p) => !(GENERATION_PARTS as readonly string[]).includes(p));
  if (unknownParts.length) {
    throw new Error(`--only: unknown ${unknownParts.join(", ")} (${GENERATION_PARTS.join(", ")})`);
  }
  const byDefault = Object.keys(TREES).filter((t) =>
    t !== "hono-src" || Deno.env.get(HONO_SRC_ENV)
  );
  const trees = (values.trees ?? byDefault.join(",")).split(",").filter(Boolean);
  const unknownTrees = trees.filter((t) => !(t in TREES));
  if (unknownTrees.length) {
    throw new Error(`--trees: unknown ${unknownTrees.join(", ")} (${Object.keys(TREES)})`);
  }
  // The start bundle built and compiled once before any measured start.
  await ensureStartBundle();
  const t0 = performance.now();
  const step = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (error) {
      console.error(`[generations] ${what} failed: ${(error as Error).stack}`);
      record(what, "generations: FAILED", NaN, "", "", NaN, (error as Error).message.slice(0, 300));
    }
  };
  const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
  const loadBefore = load();
  // Parts run in the order given, so that two of them can be alternated between runs.
  for (const part of parts) {
    if (part === "refs") {
      for (const name of trees) {
        for (const g of TREES[name]!.generations) {
          await step(`${name} ${g.label}`, () => referenceRows(TREES[name]!.make, g, runs));
        }
      }
    } else if (part === "memory") {
      await step("memory (typeorm, default mode)", memoryRows);
    } else if (part === "memory-http") {
      await step("memory (typeorm, sextant --http)", memoryHttpRows);
    } else if (part === "find-symbol") {
      await step(`find_symbol (generated ${files + 1})`, () => findSymbolRows(files, runs));
    }
  }
  const minutes = (performance.now() - t0) / 60_000;
  printGenerationTable(
    `Server generations: Sextant beside the raw server, same run (${runs} warm runs; load ` +
      `average ${loadBefore} before, ${load()} after; ${minutes.toFixed(1)} min)`,
  );
  return rows;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "5" },
      only: { type: "string" },
      trees: { type: "string" },
      files: { type: "string", default: "20000" },
      out: { type: "string" },
      compare: { type: "string" },
    },
  });
  await runGenerationBench(values);
  await saveResults(values.out ?? defaultOut(), Deno.args);
  if (values.compare) await compareWith(values.compare);
}
