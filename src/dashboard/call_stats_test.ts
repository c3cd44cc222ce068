import { assertEquals } from "../../tests/helpers/assert.ts";
import { minuteStats, percentile, type TimedCall, toolStats } from "./call_stats.ts";

Deno.test("percentile takes the nearest rank", () => {
  const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  assertEquals(percentile(values, 0.5), 5);
  assertEquals(percentile(values, 0.95), 10);
  assertEquals(percentile([7], 0.95), 7);
  assertEquals(percentile([], 0.5), 0);
});

const NOW = 10 * 60 * 60 * 1000;

function call(tool: string, ms: number, minutesAgo: number, isError = false): TimedCall {
  return { tool, ms, ended: NOW - minutesAgo * 60_000 - 1000, isError };
}

Deno.test("toolStats counts each tool's calls of the last hour, busiest first", () => {
  const calls = [
    ...Array.from({ length: 20 }, (_, i) => call("find_symbol", i + 1, 1)),
    call("read_file", 3, 2),
    call("read_file", 9, 3, true),
    call("read_file", 1000, 61), // older than the hour: left out
  ];
  assertEquals(toolStats(calls, NOW), [
    { tool: "find_symbol", count: 20, errors: 0, p50: 10, p95: 19 },
    { tool: "read_file", count: 2, errors: 1, p50: 3, p95: 9 },
  ]);
});

Deno.test("minuteStats buckets the last hour by minute, oldest first", () => {
  const calls = [call("a", 5, 0), call("a", 15, 0), call("b", 40, 10), call("b", 1, 60)];
  assertEquals(minuteStats(calls, NOW), [
    { minute: 10, count: 1, p50: 40, p95: 40 },
    { minute: 0, count: 2, p50: 5, p95: 15 },
  ]);
});
