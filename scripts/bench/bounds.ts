/**
 * The service's bounds in `deno task bench` (docs/security.md "Bounds"): what they cost on a
 * normal warm call, and what they hold under a flood. Rows:
 *
 * - an answer through the session transport, whose unread-bytes budget and backpressure are
 *   counted on every send, beside the same bytes written straight to the stream (target: at
 *   most 0.1 ms more);
 * - a warm `repl` cell `1 + 1` on a process under the caps (src/repl/pool.ts) beside one without
 *   them (target: at most 0.1 ms more);
 * - a flood of 200,000 API calls from one session's code on a `--standalone` process: how much
 *   the process grew (its peak RSS over its RSS before; it grew by 540 MB when the calls waited
 *   in the process, not in the pipe). Linux only (/proc).
 *
 * `deno run -A scripts/bench/bounds.ts` runs it alone; `deno task bench --only bounds` too.
 * @module
 */
import { join } from "node:path";
import { serializeMessage } from "../../src/mcp/jsonrpc.ts";
import { DenoStdioTransport } from "../../src/mcp/stdio.ts";
import { ReplProcess, type RunOptions } from "../../src/repl/host.ts";
import { ReplPool } from "../../src/repl/pool.ts";
import { call, connect, tempProject } from "../../tests/helpers/mcp.ts";
import { printHeader, record } from "./lib/results.ts";

const PROJECT = "bounds";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A stream that takes every chunk at once, as a reading client does. */
function discarding(): WritableStream<Uint8Array> {
  return new WritableStream({ write() {} });
}

/** Per-answer time of the transport's send beside a plain write of the same message. */
async function transportRow(rounds: number, perRound: number): Promise<void> {
  const message = {
    jsonrpc: "2.0" as const,
    id: 1,
    result: { content: [{ type: "text", text: "x".repeat(2000) }] },
  };
  const transport = new DenoStdioTransport({
    input: new ReadableStream<Uint8Array>(),
    output: discarding(),
  });
  const writer = discarding().getWriter();
  const encoder = new TextEncoder();
  const withBudget: number[] = [];
  const plain: number[] = [];
  // Alternated rounds, so that both see the same machine.
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    for (let i = 0; i < perRound; i++) await transport.send(message);
    withBudget.push((performance.now() - started) / perRound);
    started = performance.now();
    for (let i = 0; i < perRound; i++) {
      await writer.write(encoder.encode(serializeMessage(message)));
    }
    plain.push((performance.now() - started) / perRound);
  }
  const value = median(withBudget);
  const baseline = median(plain);
  record(
    PROJECT,
    "an answer through the session transport (unread budget, backpressure)",
    value,
    "ms",
    "the same bytes written straight",
    baseline,
    `${(value - baseline).toFixed(4)} ms more per answer (target ≤ 0.1 ms)`,
  );
}

/** A warm `1 + 1` on a process under the caps, beside one that has none. */
async function replRow(runs: number): Promise<void> {
  const options: RunOptions = {
    facades: {},
    call: () => Promise.resolve({ text: "", isError: false }),
    info: () => "",
    timeoutSeconds: 60,
    maxChars: 10_000,
    signal: new AbortController().signal,
  };
  const capped = new ReplPool().process({ own() {} }, "bench");
  const free = new ReplProcess();
  try {
    const timed = async (process: ReplProcess) => {
      const started = performance.now();
      await process.run("1 + 1", options);
      return performance.now() - started;
    };
    for (let i = 0; i < 50; i++) {
      await timed(capped);
      await timed(free);
    }
    const withCaps: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < runs; i++) {
      withCaps.push(await timed(capped));
      without.push(await timed(free));
    }
    const value = median(withCaps);
    const baseline = median(without);
    record(
      PROJECT,
      "repl `1 + 1`, warm, under the caps",
      value,
      "ms",
      "the same without caps",
      baseline,
      `${(value - baseline).toFixed(3)} ms more (target ≤ 0.1 ms)`,
    );
  } finally {
    await capped.terminate();
    await free.terminate();
  }
}

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM). */
function statusMb(pid: number, field: string): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]) / 1024;
}

/** How much a process grows under one session's flood of API calls from its code. */
async function floodRow(): Promise<void> {
  if (Deno.build.os !== "linux") {
    console.log("(the flood row reads /proc: Linux only)");
    return;
  }
  await using project = await tempProject({ "notes.txt": "hello\n" });
  const server = await connect(project.root, ["--agent-interface", "repl"], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-bench"),
  });
  try {
    const pid = server.pid!;
    await call(server.client, "repl", { code: "1 + 1" });
    const before = statusMb(pid, "VmRSS");
    await call(server.client, "repl", {
      code: "for (let i = 0; i < 200000; i++) " +
        "void s.fs.read_file({relative_path: 'notes.txt'}).catch(() => {});\n" +
        "await new Promise(() => {})",
      timeout_s: 8,
    });
    const grown = statusMb(pid, "VmHWM") - before;
    record(
      PROJECT,
      "repl flood of 200,000 API calls: the process's growth",
      grown,
      "MB",
      "its RSS before",
      before,
      "target < 150 MB (540 MB when the calls waited in the process)",
    );
  } finally {
    await server.close();
  }
}

/** Print the bounds rows. */
export async function printBoundsBench(runs = 200): Promise<void> {
  printHeader("The service's bounds: their cost on a warm call, and a flood");
  await transportRow(20, 2000);
  await replRow(runs);
  await floodRow();
}

if (import.meta.main) await printBoundsBench();
