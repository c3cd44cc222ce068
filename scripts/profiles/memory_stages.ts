/**
 * Where the service's memory goes, stage by stage, in one process: a session (the service's
 * engine, no MCP transport) runs the steps of scripts/profiles/memory.ts's session, and after each
 * step this process's RSS and PSS, V8's heap (used and total), and the heap still used after a
 * full garbage collection (what the step left alive, as opposed to garbage not collected yet)
 * are printed, beside the sizes of the structures that hold it.
 *
 *     deno run -A --v8-flags=--expose-gc,--liftoff-only,--optimize-for-size \
 *       scripts/profiles/memory_stages.ts [--project typeorm|generated] [--files 20000]
 *
 * Run it under `MALLOC_ARENA_MAX=2`, as `deno task start` runs Sextant. It imports no bench or
 * test helper that the service does not load (the MCP SDK's client, in bench/scale.ts), so its
 * first row is the service's modules.
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { Project } from "../../src/project/project.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { Session } from "../../src/session/session.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import type { Tool, ToolContext } from "../../src/tools/tool.ts";
import { z } from "../../src/deps.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";
import { CORE, generatedTree, modPath, REPO, typeormTree } from "../bench/lib/project.ts";

const MB = 1024 * 1024;

/** V8's full collection, when the process runs with `--expose-gc`. */
function collect(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  gc();
  gc();
  return true;
}

function line(step: string, ms: number): string {
  const before = Deno.memoryUsage();
  const collected = collect();
  const after = Deno.memoryUsage();
  const f = (n: number) => (n / MB).toFixed(1);
  const rollup = Deno.readTextFileSync("/proc/self/smaps_rollup");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? 0);
  return `| ${step} | ${ms.toFixed(0)} | ${f(before.rss)} | ${(kb("Pss") / 1024).toFixed(1)} | ` +
    `${(kb("Pss_Anon") / 1024).toFixed(1)} | ${(kb("Pss_File") / 1024).toFixed(1)} | ` +
    `${f(before.heapUsed)} / ${f(before.heapTotal)} | ${collected ? f(after.heapUsed) : "n/a"} | ` +
    `${f(after.external)} |`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      project: { type: "string", default: "generated" },
      files: { type: "string", default: "20000" },
    },
  });
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const files = Number(values.files);
  const generated = values.project !== "typeorm";
  const tree = generated ? await generatedTree(files) : await typeormTree();
  await Deno.remove(join(tree.root, ".sextant"), { recursive: true }).catch(() => {});
  await linkTypeScript7(tree.root);
  console.log(`\n${tree.name}: this process after each step (MB)`);
  console.log(
    "| step | ms | RSS | PSS | PSS anonymous | PSS of files | heap used / total | " +
      "heap used after GC | external |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  console.log(line("modules loaded", 0));
  const settings = await loadSettings({ projectRoot: tree.root, globalFile: null });
  const project = Project.open(tree.root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project,
  });
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  const tools = new Map(ALL_TOOLS.map((t) => [t.name, t]));
  const call = async (name: string, args: Record<string, unknown>) => {
    let tool: Tool = tools.get(name)!;
    if (tool.load) tool = await tool.load();
    const parsed = z.object(tool.params).parse(args);
    return await tool.handler(parsed, ctx);
  };
  const overview = generated
    ? Array.from({ length: Math.min(200, files) }, (_, i) => modPath(i))
    : [];
  const steps: Array<[string, () => Promise<unknown>]> = [
    ["global find_symbol (index build)", () =>
      call("find_symbol", {
        name_path_pattern: generated ? `Widget${files >> 1}` : "EntityManager",
      })],
    [`find_referencing_symbols ${tree.symbol}`, () =>
      call("find_referencing_symbols", {
        name_path: tree.symbol,
        relative_path: generated ? CORE : tree.file,
      })],
    [`get_symbols_overview × ${overview.length}`, async () => {
      for (const f of overview) await call("get_symbols_overview", { relative_path: f });
    }],
    [
      `find_symbol ${generated ? "render" : "find"} (methods, every file)`,
      () =>
        call("find_symbol", {
          name_path_pattern: generated ? "render" : "find",
          include_kinds: [6],
        }),
    ],
  ];
  try {
    for (const [step, run] of steps) {
      const t0 = performance.now();
      await run();
      console.log(line(step, performance.now() - t0));
    }
    // What a step leaves behind for a while (timers, pending saves) shows as it goes.
    for (const s of [1, 2, 5, 10]) {
      await new Promise((r) => setTimeout(r, 1000 * (s - [0, 1, 2, 5][[1, 2, 5, 10].indexOf(s)]!)));
      console.log(line(`idle ${s} s`, 0));
    }
  } finally {
    await session.dispose();
    await tree.dispose();
  }
}
