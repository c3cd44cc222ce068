/**
 * What the service's dashboard costs a tool call: `read_file` on a small file through the call
 * pipeline (tools/call.ts) of a session whose calls the dashboard observes, with no page open
 * and with one open (a real dashboard server, its event stream read by another process as a
 * browser reads it). Beside both, the same call with no observer at
 * all. Batches of the three alternate, and which comes first, so a loaded machine slows every
 * variant alike. Called by
 * scripts/bench/bench.ts (`--only dashboard` runs just this row); runs alone too:
 *
 * ```sh
 * deno run -A scripts/bench/dashboard.ts [--calls 250] [--rounds 40]
 * ```
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { DashboardHub } from "../../src/dashboard/hub.ts";
import { Project } from "../../src/project/project.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { Session } from "../../src/session/session.ts";
import { callTool } from "../../src/tools/call.ts";
import { readFile } from "../../src/tools/files/read_file.ts";
import { printHeader, printRow, record } from "./lib/results.ts";

/**
 * Per-call cost in ms of the three variants (the lower quartile of the batches' means: the
 * batches least disturbed by the machine's other work), and the observer's own work per call
 * with a page open, timed alone.
 */
export interface DashboardCost {
  none: number;
  closed: number;
  open: number;
  observerOnly: number;
}

function lowerQuartile(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 4)]!;
}

/**
 * The page's reader, in a process of its own as a browser is: it signs in with the link, reads
 * the event stream, and when its stdin closes prints how many call events it saw once they
 * stop coming.
 */
const READER = `
const link = new URL(Deno.args[0]);
const signIn = await fetch(link, { redirect: "manual" });
await signIn.body?.cancel();
const cookie = signIn.headers.get("set-cookie").split(";")[0];
const response = await fetch(new URL("/events", link), { headers: { cookie } });
const reader = response.body.getReader();
const decoder = new TextDecoder();
let calls = 0, carry = "", last = Date.now(), snapshot = false;
(async () => {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const text = carry + decoder.decode(value, { stream: true });
    calls += text.split("event: call\\n").length - 1;
    if (!snapshot && text.includes("event: snapshot")) {
      snapshot = true;
      console.log("ready");
    }
    carry = text.slice(-11);
    last = Date.now();
  }
})();
for await (const _ of Deno.stdin.readable) { /* until the bench closes it */ }
last = Date.now();
while (Date.now() - last < 300) await new Promise((r) => setTimeout(r, 50));
console.log(String(calls));
Deno.exit(0);
`;

/** A page open on the dashboard, in another process; resolves once its snapshot arrived. */
async function openPage(link: string): Promise<{ close(): Promise<number> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", READER, link],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("ready\n")) {
    const { done, value } = await lines.read();
    if (done) throw new Error("the page's reader ended before the snapshot");
    text += value;
  }
  return {
    close: async () => {
      await child.stdin.close();
      for (let r = await lines.read(); !r.done; r = await lines.read()) text += r.value;
      await child.status;
      return Number(text.trim().split("\n").at(-1));
    },
  };
}

/** Measure the three variants: `rounds` rounds of `calls` calls each. */
export async function measureDashboardCost(calls: number, rounds: number): Promise<DashboardCost> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-dash-bench-" }));
  const host = new ProjectHost();
  const hub = new DashboardHub();
  try {
    await Deno.writeTextFile(join(root, "notes.txt"), "one\ntwo\nthree\n");
    const settings = await loadSettings({ projectRoot: root, globalFile: null });
    const session = new Session({
      settings,
      tools: [readFile],
      project: Project.open(root, settings),
      host,
    });
    const control = {
      version: "bench",
      pid: Deno.pid,
      startedAt: new Date(),
      logPath: join(root, "no.log"),
      host,
      stop: () => {},
    };
    hub.sessionOpened({
      id: 1,
      since: new Date(),
      describe: () => ({ client: "bench", project: root, context: "agent", modes: [] }),
      close: () => Promise.resolve(),
    });
    const args = { relative_path: "notes.txt" };
    const batch = async () => {
      const started = performance.now();
      for (let i = 0; i < calls; i++) {
        const result = await callTool(session, readFile, args);
        if (result.isError) throw new Error(result.text);
      }
      return (performance.now() - started) / calls;
    };
    await batch(); // warm: modules, JIT, the file cache
    const none: number[] = [];
    const closed: number[] = [];
    const open: number[] = [];
    // A page stays open on `hub` throughout; "closed" is the observer of a second hub with no
    // page, so the variants can alternate batch by batch.
    const idle = new DashboardHub();
    const page = await openPage(await hub.openLink(control));
    if (!hub.watching) throw new Error("the page does not watch");
    const observers = [null, idle.callObserver(1), hub.callObserver(1)];
    const results: number[][] = [none, closed, open];
    try {
      for (let round = 0; round < rounds; round++) {
        // Each round starts with another variant, so none always runs after the same one.
        for (let i = 0; i < observers.length; i++) {
          const variant = (round + i) % observers.length;
          session.callObserver = observers[variant]!;
          results[variant]!.push(await batch());
        }
      }
    } catch (error) {
      await page.close();
      throw error;
    }
    // What the observer itself does for a call while the page is open: the record, its summary
    // of the arguments, the event's text; the page's socket is written once per batch of events.
    const observer = hub.callObserver(1);
    const answer = { text: "1\tone\n2\ttwo\n3\tthree\n", isError: false };
    const alone = 20_000;
    const started = performance.now();
    for (let i = 0; i < alone; i++) observer.callStarted("read_file", args).finished(answer);
    const observerOnly = (performance.now() - started) / alone;
    const seen = await page.close();
    // Every call made with the page open reached it.
    const expected = calls * rounds + alone;
    if (seen < expected) throw new Error(`the page saw ${seen} call events of ${expected}`);
    await session.dispose();
    return {
      none: lowerQuartile(none),
      closed: lowerQuartile(closed),
      open: lowerQuartile(open),
      observerOnly,
    };
  } finally {
    await host.dispose();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** The bench rows: a tool call with the dashboard closed and open, beside no observer. */
export async function printDashboardBench(calls = 250, rounds = 40): Promise<void> {
  const cost = await measureDashboardCost(calls, rounds);
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  printHeader("The dashboard's cost per tool call (read_file, 3 lines)");
  const project = "dashboard";
  printRow(record(
    project,
    "tool call, dashboard closed",
    cost.closed,
    "ms",
    "no observer",
    cost.none,
    `added ${us(cost.closed - cost.none)} per call (target: nothing measurable)`,
    { quiet: true },
  ));
  printRow(record(
    project,
    "tool call, dashboard open",
    cost.open,
    "ms",
    "dashboard closed",
    cost.closed,
    `added ${us(cost.open - cost.closed)} per call (target ≤ 50 µs); lower quartile of ` +
      `${rounds} batches of ${calls} calls each`,
    { quiet: true },
  ));
  printRow(record(
    project,
    "the observer's own work per call, page open",
    cost.observerOnly,
    "ms",
    "tool call, no observer",
    cost.none,
    `${us(cost.observerOnly)} per call, timed alone (target ≤ 50 µs)`,
    { quiet: true },
  ));
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      calls: { type: "string", default: "250" },
      rounds: { type: "string", default: "40" },
    },
  });
  await printDashboardBench(Number(values.calls), Number(values.rounds));
  Deno.exit(0);
}
