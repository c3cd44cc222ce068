/**
 * The statistics of the dashboard's tool-call panel: per tool, how many calls and their median
 * and 95th-percentile durations; and per minute of the last hour, the same for the chart.
 * @module
 */

/** One finished call as the statistics see it. */
export interface TimedCall {
  tool: string;
  /** When it ended, ms since the epoch. */
  ended: number;
  /** How long it took, ms. */
  ms: number;
  isError: boolean;
}

/** One tool's line of the statistics table. */
export interface ToolStats {
  tool: string;
  count: number;
  errors: number;
  p50: number;
  p95: number;
}

/** One minute of the latency chart; `minute` counts back from now (0 = the current minute). */
export interface MinuteStats {
  minute: number;
  count: number;
  p50: number;
  p95: number;
}

/** How far back the statistics look (ms). */
export const STATS_WINDOW_MS = 60 * 60 * 1000;

/** The value below which `q` (0..1) of the sorted `values` lie (nearest rank); 0 for none. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function summary(durations: number[]): { p50: number; p95: number } {
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) };
}

/** Per-tool statistics of the calls that ended in the last hour, the busiest tool first. */
export function toolStats(calls: readonly TimedCall[], now: number): ToolStats[] {
  const byTool = new Map<string, { durations: number[]; errors: number }>();
  for (const call of calls) {
    if (now - call.ended > STATS_WINDOW_MS) continue;
    const entry = byTool.get(call.tool) ?? { durations: [], errors: 0 };
    entry.durations.push(call.ms);
    if (call.isError) entry.errors++;
    byTool.set(call.tool, entry);
  }
  return [...byTool].map(([tool, { durations, errors }]) => ({
    tool,
    count: durations.length,
    errors,
    ...summary(durations),
  })).sort((a, b) => b.count - a.count || a.tool.localeCompare(b.tool));
}

/** Per-minute statistics of the last hour, oldest first; minutes without calls are left out. */
export function minuteStats(calls: readonly TimedCall[], now: number): MinuteStats[] {
  const byMinute = new Map<number, number[]>();
  for (const call of calls) {
    const minute = Math.floor((now - call.ended) / 60_000);
    if (minute < 0 || minute >= STATS_WINDOW_MS / 60_000) continue;
    const list = byMinute.get(minute) ?? [];
    list.push(call.ms);
    byMinute.set(minute, list);
  }
  return [...byMinute].map(([minute, durations]) => ({
    minute,
    count: durations.length,
    ...summary(durations),
  })).sort((a, b) => b.minute - a.minute);
}
