/**
 * References on real code with dependencies, per language (the pinned projects of
 * tests/helpers/real_code.ts: csv from crates.io, cobra from the Go module proxy, zlib), through
 * Sextant over MCP beside the raw language server on a bare vscode-jsonrpc connection:
 *
 * - cold: start, load the project, first references answer. Sextant's includes starting
 *   `main.ts` (Deno) and the MCP handshake; the raw server's ends when it is ready (rust-analyzer
 *   quiescent, clangd's background index done) and has answered.
 * - warm: median of `--runs` further answers on the same server. Sextant's `find_references` also
 *   asks for the definition (to flag declarations) and reads the previews.
 *
 * Each row runs on a fresh copy; the raw server goes first, then Sextant. For Rust both share
 * one cargo target folder (dependencies and serde's derive macros built once), as copies of the
 * tests do.
 *
 *     deno run -A scripts/bench/languages.ts [--runs 5] [--only rust,go,c]
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import {
  callLong,
  positionOf,
  prepareReal,
  RawServer,
  realCopy,
  type RealId,
  type RealProject,
  sextantKeys,
  type Spot,
} from "../../tests/helpers/real_code.ts";
import { connect } from "../../tests/helpers/mcp.ts";
import { LSP_CACHE } from "../../tests/helpers/lsp.ts";
import { record } from "./lib/results.ts";

/** The symbol each project's references are asked for (as in tests/languages/real_*_test.ts). */
export const TARGETS: Record<RealId, Spot & { namePath: string }> = {
  rust: {
    file: "src/byte_record.rs",
    needle: "pub struct Position",
    offset: 11,
    namePath: "Position",
  },
  go: {
    file: "command.go",
    needle: "func (c *Command) Root()",
    offset: 18,
    namePath: "(*Command).Root",
  },
  c: {
    file: "inftrees.c",
    needle: "int ZLIB_INTERNAL inflate_table(",
    offset: 18,
    namePath: "inflate_table",
  },
};

/** One project's figures (milliseconds) and answer sizes. */
export interface LanguageRow {
  project: string;
  oursCold: number;
  /** Of oursCold: starting main.ts and the MCP handshake. */
  oursStart: number;
  rawCold: number;
  oursWarm: number;
  rawWarm: number;
  oursRefs: number;
  rawRefs: number;
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

async function rawRow(
  real: RealProject,
  target: Spot,
  runs: number,
): Promise<[number, number, number]> {
  await using copy = await realCopy(real);
  const text = await Deno.readTextFile(join(copy.root, target.file));
  const position = positionOf(text, target.needle, target.offset);
  let raw: RawServer | undefined;
  try {
    const [cold, refs] = await timed(async () => {
      raw = await RawServer.start(real, copy.root);
      await raw.open(target.file);
      await raw.waitReady();
      return await raw.references(target.file, position);
    });
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      warm.push((await timed(() => raw!.references(target.file, position)))[0]);
    }
    return [cold, median(warm), refs.length];
  } finally {
    await raw?.stop();
  }
}

async function oursRow(
  real: RealProject,
  target: Spot & { namePath: string },
  runs: number,
): Promise<[number, number, number, number]> {
  await using copy = await realCopy(real);
  await Deno.mkdir(join(copy.root, ".sextant"), { recursive: true });
  await Deno.writeTextFile(
    join(copy.root, ".sextant", "project.jsonc"),
    JSON.stringify({ included_tools: ["find_references"] }),
  );
  const args = { relative_path: target.file, name_path: target.namePath };
  let connected: Awaited<ReturnType<typeof connect>> | undefined;
  let start = 0;
  try {
    const [cold, answer] = await timed(async () => {
      [start, connected] = await timed(() =>
        connect(copy.root, [], {
          ...real.env,
          [LSP_PATH_ENV]: LSP_CACHE,
          XDG_CONFIG_HOME: join(copy.parent, "xdg"),
        })
      );
      return await callLong(connected, "find_references", args);
    });
    if (answer.isError) throw new Error(`find_references failed: ${answer.text}`);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      warm.push((await timed(() => callLong(connected!, "find_references", args)))[0]);
    }
    return [cold, median(warm), sextantKeys(answer.text).length, start];
  } finally {
    await connected?.close();
  }
}

/** Measure the real projects `only` (default all), `runs` warm answers each. */
export async function measureLanguages(
  options: { runs?: number; only?: RealId[] } = {},
): Promise<LanguageRow[]> {
  const runs = options.runs ?? 5;
  const rows: LanguageRow[] = [];
  for (const id of options.only ?? (["rust", "go", "c"] as RealId[])) {
    let real: RealProject;
    try {
      real = await prepareReal(id);
    } catch (error) {
      console.error(`bench_languages: skipping ${id}: ${(error as Error).message}`);
      continue;
    }
    const target = TARGETS[id];
    console.error(`bench_languages: ${real.label}: raw server…`);
    const [rawCold, rawWarm, rawRefs] = await rawRow(real, target, runs);
    console.error(`bench_languages: ${real.label}: Sextant over MCP…`);
    const [oursCold, oursWarm, oursRefs, oursStart] = await oursRow(real, target, runs);
    rows.push({
      project: real.label,
      oursCold,
      oursStart,
      rawCold,
      oursWarm,
      rawWarm,
      oursRefs,
      rawRefs,
    });
  }
  return rows;
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

/** Print `rows` as a table with ratios (ours / raw). */
export function printLanguageRows(rows: LanguageRow[]): void {
  const header = ["real project", "measurement", "ours ms", "raw ms", "ratio", "refs", "note"];
  const body = rows.flatMap((r) => {
    const refs = `${r.oursRefs}/${r.rawRefs}`;
    return [
      [
        r.project,
        "references, cold",
        fmt(r.oursCold),
        fmt(r.rawCold),
        (r.oursCold / r.rawCold).toFixed(2),
        refs,
        `ours incl. ${fmt(r.oursStart)} ms to start main.ts and the MCP handshake`,
      ],
      [
        r.project,
        "references, warm",
        fmt(r.oursWarm),
        fmt(r.rawWarm),
        (r.oursWarm / r.rawWarm).toFixed(2),
        refs,
        "",
      ],
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    "| " + cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const b of body) console.log(line(b));
}

/** Record `rows` as `deno task bench` rows (bench/lib/results.ts), each with its raw baseline. */
export function recordLanguageRows(rows: LanguageRow[]): void {
  for (const r of rows) {
    const refs = `${r.oursRefs}/${r.rawRefs} references`;
    record(
      r.project,
      "find_references, cold (start, load, answer)",
      r.oursCold,
      "ms",
      "raw server, cold",
      r.rawCold,
      `${refs}; ours incl. ${fmt(r.oursStart)} ms to start main.ts and the MCP handshake`,
      { quiet: true },
    );
    record(
      r.project,
      "find_references, warm",
      r.oursWarm,
      "ms",
      "raw server, warm",
      r.rawWarm,
      refs,
      {
        quiet: true,
      },
    );
  }
}

/** Measure, print and record: the entry point `deno task bench` calls. */
export async function benchLanguages(
  options: { runs?: number; only?: RealId[] } = {},
): Promise<LanguageRow[]> {
  const rows = await measureLanguages(options);
  console.log("\nReferences on real code with dependencies, per language (bench/languages.ts)\n");
  printLanguageRows(rows);
  recordLanguageRows(rows);
  return rows;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string", default: "5" }, only: { type: "string" } },
  });
  await benchLanguages({
    runs: Number(values.runs),
    ...(values.only ? { only: values.only.split(",") as RealId[] } : {}),
  });
}
