/**
 * Where Sextant's own memory goes: Sextant started as `deno task start` starts it (plus any
 * `--v8-flags` given here), over MCP, on a generated project; its RSS (VmRSS, VmHWM; servers
 * excluded) sampled every 50 ms and read after each step of a typical session: initialize, a
 * global find_symbol (index build, server start), references, a symbols overview of 200 files,
 * then idle (parse workers stop 1 s after a build). Used to choose the V8 flags and the environment
 * of the start task.
 *
 *     deno run -A scripts/bench_memory.ts [--files 3000] [--v8=--max-semi-space-size=1]...
 *
 * Each `--v8` value is one variant, added to the start task's own V8 flags (an empty value: the
 * start task as it is; `none`: the start task without its V8 flags). Each `--env` value is one
 * too (`NAME=value,NAME2=value`, added to the environment the start task sets; empty: as the
 * task; `none`: without the task's environment); every `--v8` variant runs with every `--env`.
 *
 *     deno run -A scripts/bench_memory.ts --env=none --env=   # MALLOC_ARENA_MAX's effect
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LSP_PATH_ENV } from "../src/lsp/registry.ts";
import { Client, StdioClientTransport, withLspPath } from "../tests/helpers/mcp.ts";
import { CORE, generatedTree, modPath, REPO } from "./bench_project.ts";
import { memoryOf, startTaskArgs, startTaskEnv } from "./bench_scale.ts";

interface Step {
  step: string;
  rss: number;
  hwm: number;
  /** Time of the step (ms). */
  ms: number;
}

/** The environment of an `--env` variant (see the module's documentation). */
function variantEnv(variant: string): Record<string, string> {
  if (variant === "none") return {};
  const env = startTaskEnv();
  for (const pair of variant.split(",").filter(Boolean)) {
    const [name, ...value] = pair.split("=");
    env[name!] = value.join("=");
  }
  return env;
}

/** One session on `root` with extra V8 flags; the steps' memory. */
export async function memorySession(
  root: string,
  files: number,
  v8: string,
  envVariant = "",
): Promise<Step[]> {
  await Deno.remove(join(root, ".sextant"), { recursive: true }).catch(() => {});
  const args = startTaskArgs();
  const flagAt = args.findIndex((a) => a.startsWith("--v8-flags="));
  if (v8 === "none") {
    if (flagAt >= 0) args.splice(flagAt, 1);
  } else if (v8) {
    if (flagAt >= 0) args[flagAt] = `${args[flagAt]},${v8}`;
    else args.splice(1, 0, `--v8-flags=${v8}`);
  }
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [...args, "--standalone", "--project", root, "--log-level", "warn"],
    env: withLspPath({
      ...Deno.env.toObject(),
      ...variantEnv(envVariant),
      XDG_CONFIG_HOME: join(root, ".sextant", "xdg"),
    }),
    stderr: "inherit",
  });
  const client = new Client({ name: "sextant-memory", version: "0" });
  const t0 = performance.now();
  await client.connect(transport);
  const startMs = performance.now() - t0;
  const pid = transport.pid!;
  const steps: Step[] = [];
  let peak = 0;
  const sampler = setInterval(() => peak = Math.max(peak, memoryOf(pid).rss), 50);
  let since = performance.now();
  const mark = (step: string) => {
    const m = memoryOf(pid);
    const now = performance.now();
    steps.push({ step, rss: m.rss, hwm: m.hwm, ms: now - since });
    since = now;
  };
  const call = async (name: string, a: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: a }, undefined, { timeout: 900_000 });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
  try {
    mark("after initialize");
    steps[0]!.ms = startMs;
    await call("find_symbol", { name_path_pattern: `Widget${files >> 1}` });
    mark("after first global find_symbol");
    await call("find_referencing_symbols", { name_path: "Core", relative_path: CORE });
    mark("after find_referencing_symbols Core");
    for (let i = 0; i < Math.min(200, files); i++) {
      await call("get_symbols_overview", { relative_path: modPath(i) });
    }
    mark("after 200 get_symbols_overview");
    await call("find_symbol", { name_path_pattern: "render", include_kinds: [6] });
    mark("after find_symbol render (every file)");
    await new Promise((r) => setTimeout(r, 25_000));
    mark("after 25 s idle");
  } finally {
    clearInterval(sampler);
    await client.close();
  }
  steps.push({ step: "sampled peak", rss: peak, hwm: peak, ms: NaN });
  return steps;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "3000" },
      v8: { type: "string", multiple: true, default: [""] },
      env: { type: "string", multiple: true, default: [""] },
    },
  });
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const files = Number(values.files);
  const tree = await generatedTree(files);
  try {
    for (const v8 of values.v8) {
      for (const env of values.env) {
        const steps = await memorySession(tree.root, files, v8, env);
        console.log(
          `\nV8 flags added: ${v8 || "(as the task)"}; environment: ${
            env === "none" ? "(none)" : JSON.stringify(variantEnv(env))
          }; start task: ${startTaskArgs().join(" ")}`,
        );
        console.log("| step | VmRSS MB | VmHWM MB | step ms |\n|---|---|---|---|");
        for (const s of steps) {
          console.log(
            `| ${s.step} | ${s.rss.toFixed(0)} | ${s.hwm.toFixed(0)} | ${s.ms.toFixed(0)} |`,
          );
        }
      }
    }
  } finally {
    await tree.dispose();
  }
}
