/**
 * The rows of `deno task bench`, saved as JSON and compared with an earlier run. Every row
 * carries the baseline measured in the same run and their ratio.
 *
 * File format: `{ date, deno, host, args, rows: BenchRow[] }`.
 * @module
 */
import { dirname } from "node:path";

/** One measured row. */
export interface BenchRow {
  /** The project measured ("generated 3001", "typeorm@0.3.20", ...). */
  project: string;
  row: string;
  value: number;
  /** "ms" or "MB". */
  unit: string;
  baseline: string;
  baselineValue: number;
  /** value / baselineValue (NaN when the baseline could not be measured). */
  ratio: number;
  note?: string;
}

/**
 * Entries in a tool's JSON answer: a list's length, or, for answers grouped in objects (file →
 * kind → list), the summed lengths of the lists inside, a text standing for one entry (the
 * compacted answers group a symbol's references in one text); null when the answer is not JSON.
 */
export function countEntries(answer: string): number | null {
  const count = (value: unknown): number =>
    Array.isArray(value)
      ? value.length
      : value && typeof value === "object"
      ? Object.values(value).reduce<number>((n, v) => n + count(v), 0)
      : typeof value === "string"
      ? 1
      : 0;
  try {
    return count(JSON.parse(answer));
  } catch {
    return null;
  }
}

/** The rows of this run, in order. */
export const results: BenchRow[] = [];

/** Record one row, and print it as a table row unless `quiet`. */
export function record(
  project: string,
  row: string,
  value: number,
  unit: string,
  baseline: string,
  baselineValue: number,
  note?: string,
  options: { quiet?: boolean } = {},
): BenchRow {
  const r: BenchRow = {
    project,
    row,
    value,
    unit,
    baseline,
    baselineValue,
    ratio: value / baselineValue,
    ...(note ? { note } : {}),
  };
  results.push(r);
  if (!options.quiet) printRow(r);
  return r;
}

/** Print one row as a Markdown table row (see {@linkcode printHeader}). */
export function printRow(r: BenchRow): void {
  const n = (v: number) => Number.isNaN(v) ? "n/a" : v >= 100 ? v.toFixed(0) : v.toFixed(2);
  console.log(
    `| ${r.project} | ${r.row} | ${n(r.value)} ${r.unit} | ${r.baseline}: ` +
      `${n(r.baselineValue)} ${r.unit} | ${
        Number.isFinite(r.ratio) ? r.ratio.toFixed(2) + "x" : "n/a"
      } | ` +
      `${r.note ?? ""} |`,
  );
}

/** The header of the printed row table. */
export function printHeader(title: string): void {
  console.log(`\n${title}\n`);
  console.log("| project | measurement | value | baseline (same run) | ratio | note |");
  console.log("|---|---|---|---|---|---|");
}

/** The default file of this run's rows. */
export function defaultOut(): string {
  return `bench-results/${new Date().toISOString().slice(0, 19).replaceAll(":", "-")}.json`;
}

/** Save the rows. */
export async function saveResults(path: string, args: string[]): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(
    path,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        deno: Deno.version.deno,
        host: `${Deno.build.os} ${Deno.build.arch}, ${navigator.hardwareConcurrency} cores`,
        args,
        rows: results,
      },
      null,
      1,
    ) + "\n",
  );
  console.log(`\nSaved ${results.length} rows to ${path}`);
}

/** Print this run's rows beside the same rows of a saved run. */
export async function compareWith(path: string): Promise<void> {
  const old = JSON.parse(await Deno.readTextFile(path)) as { date: string; rows: BenchRow[] };
  const key = (r: BenchRow) => `${r.project}\u0000${r.row}`;
  const before = new Map(old.rows.map((r) => [key(r), r]));
  console.log(`\nCompared with ${path} (${old.date}):\n`);
  console.log("| project | measurement | then | now | now/then | ratio then | ratio now |");
  console.log("|---|---|---|---|---|---|---|");
  const n = (v: number | undefined) =>
    v === undefined || Number.isNaN(v) ? "n/a" : v >= 100 ? v.toFixed(0) : v.toFixed(2);
  for (const r of results) {
    const o = before.get(key(r));
    if (!o) continue;
    console.log(
      `| ${r.project} | ${r.row} | ${n(o.value)} ${o.unit} | ${n(r.value)} ${r.unit} | ` +
        `${n(r.value / o.value)} | ${n(o.ratio)} | ${n(r.ratio)} |`,
    );
  }
  const gone = old.rows.filter((r) => !results.some((x) => key(x) === key(r)));
  if (gone.length) console.log(`\n${gone.length} saved rows were not measured in this run.`);
}
