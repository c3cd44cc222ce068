/**
 * A large answer (read_file of a 20 MB file) through the front and the shared service, beside
 * the same call to a `--standalone` Sextant (target: within 1.2×). Both are driven over raw
 * stdio, timing from the request's last byte to the answer's newline. Called by
 * scripts/bench/bench.ts; runs alone:
 *
 * ```sh
 * deno run -A scripts/bench/large_answer.ts [--mb 20] [--runs 5]
 * ```
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { printHeader, printRow, record } from "./lib/results.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const START = ["run", "--quiet", "-P=sextant", "--config", join(REPO, "deno.json")];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median ms of `runs` read_file calls of `file` through `extra` (front or --standalone). */
async function timeReads(
  project: string,
  extra: string[],
  env: Record<string, string>,
  runs: number,
): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...START, join(REPO, "main.ts"), ...extra, "--project", project, "--log-level", "warn"],
    env: { ...Deno.env.toObject(), ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const send = (value: unknown) =>
    writer.write(new TextEncoder().encode(JSON.stringify(value) + "\n"));
  /** Wait for the next complete line; returns its length. */
  let carry = 0;
  const nextLine = async (): Promise<number> => {
    let length = carry;
    carry = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("Sextant closed its output");
      const newline = value.indexOf(10);
      if (newline >= 0) {
        carry = value.length - newline - 1;
        return length + newline;
      }
      length += value.length;
    }
  };
  try {
    await send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "bench", version: "0" },
      },
    });
    await nextLine();
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      await send({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: {
          name: "read_file",
          arguments: { relative_path: "big.txt", max_answer_chars: 1_000_000_000 },
        },
      });
      const started = performance.now();
      const length = await nextLine();
      if (length < 1_000_000) throw new Error(`a short answer (${length} bytes)`);
      if (i > 0) times.push(performance.now() - started); // the first warms the tools up
    }
    return median(times);
  } finally {
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    await child.status;
  }
}

/** The row: a large answer through the front beside standalone. */
export async function printLargeAnswerBench(mb = 20, runs = 5): Promise<void> {
  const project = await Deno.makeTempDir({ prefix: "sextant-bench-large-" });
  const runtime = await Deno.makeTempDir({ prefix: "sextant-bench-rt-" });
  const env = { XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(runtime, "xdg") };
  try {
    await Deno.writeTextFile(join(project, "big.txt"), ("x".repeat(99) + "\n").repeat(mb * 10_000));
    const standalone = await timeReads(project, ["--standalone"], env, runs);
    const front = await timeReads(project, [], env, runs);
    printHeader(`A ${mb} MB answer through the front (target: within 1.2x of standalone)`);
    printRow(
      record(
        `${mb} MB file`,
        "read_file through the front and the service",
        front,
        "ms",
        "--standalone",
        standalone,
        undefined,
        { quiet: true },
      ),
    );
  } finally {
    await new Deno.Command(Deno.execPath(), {
      args: [...START, join(REPO, "main.ts"), "service", "stop"],
      env: { ...Deno.env.toObject(), ...env },
      stdout: "null",
      stderr: "null",
    }).output();
    await Deno.remove(project, { recursive: true }).catch(() => {});
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { mb: { type: "string", default: "20" }, runs: { type: "string", default: "5" } },
  });
  await printLargeAnswerBench(Number(values.mb), Number(values.runs));
}
