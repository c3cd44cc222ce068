import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { parseStat, ProcessSampler, type ProcessStat, processTree } from "./processes.ts";

Deno.test("parseStat reads pid, parent, CPU ticks and resident pages, names with spaces too", () => {
  const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
  fields[0] = "S";
  fields[1] = "7"; // ppid (field 4)
  fields[11] = "30"; // utime (field 14)
  fields[12] = "12"; // stime (field 15)
  fields[21] = "500"; // rss (field 24)
  const stat = parseStat(`42 (tsserver (x) y) ${fields.join(" ")}`);
  assertEquals(stat, { pid: 42, ppid: 7, ticks: 42, rssPages: 500 });
  assertEquals(parseStat("garbage"), null);
});

Deno.test("processTree follows children, not siblings", () => {
  const table = new Map<number, ProcessStat>(
    [[1, 0], [10, 1], [11, 10], [12, 11], [20, 1]].map(([pid, ppid]) => [
      pid!,
      { pid: pid!, ppid: ppid!, ticks: 0, rssPages: 0 },
    ]),
  );
  assertEquals(processTree(10, table).sort(), [10, 11, 12]);
  assertEquals(processTree(99, table), []);
});

Deno.test({
  name: "ProcessSampler measures a real process: memory, then CPU use between samples",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const sampler = new ProcessSampler();
    const first = (await sampler.sample([Deno.pid])).get(Deno.pid);
    assert(first && first.rss > 1024 * 1024, JSON.stringify(first));
    assertEquals(first.cpuPercent, null);
    const until = performance.now() + 200;
    while (performance.now() < until) { /* use CPU */ }
    const second = (await sampler.sample([Deno.pid])).get(Deno.pid);
    assert(second && second.cpuPercent !== null && second.cpuSeconds >= first.cpuSeconds);
    assertEquals((await sampler.sample([2 ** 30])).get(2 ** 30), null);
  },
});
