/**
 * Latency of `sextant hook pre-tool-use` as a client runs it: a new process per call, the
 * payload on stdin. Reports p50 and p95 under `deno run` (the `sextant` permission set), and for
 * a compiled binary when `SEXTANT_BIN` names one. Called by scripts/bench/bench.ts; runs alone too:
 *
 * ```sh
 * deno run -A scripts/bench/hook.ts [--runs 40]
 * ```
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** p50 and p95 of `runs` hook calls of `command`, in ms. */
export async function hookLatency(
  command: string,
  args: string[],
  runs: number,
): Promise<{ p50: number; p95: number }> {
  const runtime = await Deno.makeTempDir({ prefix: "sextant-hook-bench-" });
  const payload = new TextEncoder().encode(JSON.stringify({
    session_id: "bench",
    cwd: REPO,
    hook_event_name: "PreToolUse",
    tool_name: "Grep",
    tool_input: { pattern: "ServerPool" },
  }));
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const child = new Deno.Command(command, {
        args: [...args, "hook", "pre-tool-use", "--client", "claude-code"],
        env: { XDG_RUNTIME_DIR: runtime, SEXTANT_HOOK_SEARCH_LIMIT: "1000000" },
        stdin: "piped",
        stdout: "null",
        stderr: "null",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(payload);
      await writer.close();
      await child.status;
      times.push(performance.now() - started);
    }
  } finally {
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** The table rows: `deno run`, and the compiled binary when SEXTANT_BIN is set. */
export async function hookBenchRows(runs: number): Promise<string[]> {
  const rows: string[] = [];
  const denoRun = await hookLatency(
    Deno.execPath(),
    ["run", "--quiet", "-P=sextant", "--config", join(REPO, "deno.json"), join(REPO, "main.ts")],
    runs,
  );
  rows.push(
    `| sextant hook pre-tool-use, deno run | ${denoRun.p50.toFixed(0)} | ${
      denoRun.p95.toFixed(0)
    } |`,
  );
  const bin = Deno.env.get("SEXTANT_BIN");
  if (bin) {
    const compiled = await hookLatency(bin, [], runs);
    rows.push(
      `| sextant hook pre-tool-use, compiled | ${compiled.p50.toFixed(0)} | ${
        compiled.p95.toFixed(0)
      } |`,
    );
  }
  return rows;
}

/** Print the hook latency table. */
export async function printHookBench(runs = 40): Promise<void> {
  console.log(
    `\nHook latency, a new process per call (${runs} calls; target p95 <= 50 ms compiled)\n`,
  );
  console.log("| measurement | p50 ms | p95 ms |");
  console.log("|---|---|---|");
  for (const row of await hookBenchRows(runs)) console.log(row);
  if (!Deno.env.get("SEXTANT_BIN")) {
    console.log("(set SEXTANT_BIN=dist/sextant-<target> to add the compiled binary)");
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string", default: "40" } },
  });
  await printHookBench(Number(values.runs));
}
