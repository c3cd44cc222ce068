/**
 * Where the time of one `find_referencing_symbols` goes, stage by stage, in this process (no
 * MCP): locating the target, the server's `references`, naming the containing symbols, grouping
 * with context lines, JSON, `max_answer_chars` limiting. Beside it the raw server's
 * `textDocument/references` (engine_bench.ts's RawServer) in the same run, cold then warm.
 * The MCP framing is what bench_scale.ts's rows add on top (`--only refs`).
 *
 *     deno run -A scripts/refs_profile.ts [--size 3000 | --real typeorm] [--runs 7] [--no-raw]
 *       [--no-index-build]
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../src/config/load.ts";
import { LSP_PATH_ENV } from "../src/lsp/registry.ts";
import { limitAnswer } from "../src/mcp/limit.ts";
import { Project } from "../src/project/project.ts";
import { Session } from "../src/session.ts";
import { ALL_TOOLS } from "../src/tools/mod.ts";
import { referencingSymbols } from "../src/tools/symbols/find_referencing_symbols.ts";
import type { ToolContext } from "../src/tools/tool.ts";
import {
  type BenchTree,
  declarationPosition,
  generatedTree,
  REPO,
  typeormTree,
} from "./bench_project.ts";
import { RawServer } from "./engine_bench.ts";

/** Stage durations of one call (ms), in stage order, with the total. */
type Stages = Map<string, number>;

async function profiledCall(ctx: ToolContext, args: Parameters<typeof referencingSymbols>[1]) {
  const stages: Stages = new Map();
  const t0 = performance.now();
  let last = t0;
  const mark = (stage: string) => {
    const now = performance.now();
    stages.set(stage, (stages.get(stage) ?? 0) + now - last);
    last = now;
  };
  const answer = await referencingSymbols(ctx, args, mark);
  const text = limitAnswer(answer, -1, ctx.session.settings.default_max_tool_answer_chars);
  mark("limit");
  stages.set("total", performance.now() - t0);
  return { stages, text };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

function print(title: string, runs: Stages[], raw: number[]): void {
  console.log(`\n${title} (median of ${runs.length}; load ${load()})`);
  for (const stage of runs[0]!.keys()) {
    const ms = median(runs.map((r) => r.get(stage) ?? 0));
    console.log(`  ${stage.padEnd(24)} ${ms.toFixed(2).padStart(9)} ms`);
  }
  if (raw.length > 0) {
    const ours = median(runs.map((r) => r.get("total")!));
    const theirs = median(raw);
    console.log(
      `  ${"raw references".padEnd(24)} ${theirs.toFixed(2).padStart(9)} ms   ` +
        `ratio ${(ours / theirs).toFixed(2)}×, +${(ours - theirs).toFixed(1)} ms`,
    );
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string" },
      real: { type: "string" },
      runs: { type: "string", default: "7" },
      "no-raw": { type: "boolean", default: false },
      /** Keep the declaration index from building during the cold call (an experiment). */
      "no-index-build": { type: "boolean", default: false },
    },
  });
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const runs = Number(values.runs);
  const tree: BenchTree = values.real === "typeorm"
    ? await typeormTree()
    : await generatedTree(Number(values.size ?? "3000"));
  const settings = await loadSettings({ projectRoot: tree.root, globalFile: null });
  const project = Project.open(tree.root, settings);
  const session = new Session({ settings, tools: ALL_TOOLS, project });
  if (values["no-index-build"]) session.services(project).symbols.startDeclarations = () => {};
  const controller = new AbortController();
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: controller.signal,
    progress: () => Promise.resolve(),
  };
  const args = {
    name_path: tree.symbol,
    relative_path: tree.file,
    include_kinds: [],
    exclude_kinds: [],
  };
  const pos = declarationPosition(await Deno.readTextFile(join(tree.root, tree.file)), tree.symbol);
  let raw: RawServer | null = null;
  try {
    console.log(`${tree.name}: find_referencing_symbols ${tree.symbol} (${tree.file})`);
    const rawCold: number[] = [];
    if (!values["no-raw"]) {
      const [ms] = await timed(async () => {
        raw = await RawServer.start(tree.root, tree.server);
        await raw.openFile(tree.file);
        for (;;) {
          try {
            return await raw.references(tree.file, pos);
          } catch {
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      });
      rawCold.push(ms);
    }
    const cold = await profiledCall(ctx, args);
    console.log(`answer: ${cold.text.length} characters`);
    print("cold (server start + load + answer)", [cold.stages], rawCold);
    const warm: Stages[] = [];
    const rawWarm: number[] = [];
    const rawServer = raw as RawServer | null;
    for (let i = 0; i < runs; i++) {
      // Alternating which goes first: the other server may still be busy after its answer.
      const rawRun = async () => {
        if (rawServer) rawWarm.push((await timed(() => rawServer.references(tree.file, pos)))[0]);
      };
      if (i % 2 === 0) await rawRun();
      warm.push((await profiledCall(ctx, args)).stages);
      if (i % 2 === 1) await rawRun();
    }
    print("warm", warm, rawWarm);
    // The engine alone: the document sync before each request, and the request through it.
    const index = session.services(project).symbols;
    const server = await index.pool.serverFor(tree.file);
    const syncMs: number[] = [];
    const requestMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (rawServer) rawMs.push((await timed(() => rawServer.references(tree.file, pos)))[0]);
      syncMs.push((await timed(() => server.syncFiles([tree.file])))[0]);
      requestMs.push(
        (await timed(() =>
          server.request("textDocument/references", {
            textDocument: { uri: server.uriOf(tree.file) },
            position: pos,
            context: { includeDeclaration: false },
          }, { sync: [tree.file] })
        ))[0],
      );
    }
    const open = (server as { openDocuments?: () => string[] }).openDocuments?.() ?? [];
    console.log(
      `\nengine: ${open.length} documents open; sync alone ${median(syncMs).toFixed(2)} ms, ` +
        `references through the engine ${median(requestMs).toFixed(2)} ms ` +
        `(raw ${median(rawMs).toFixed(2)} ms; open: ${open.join(", ")})`,
    );
    console.log(`warm totals: ${warm.map((w) => w.get("total")!.toFixed(0)).join(" ")}`);
    console.log(`raw warm: ${rawWarm.map((w) => w.toFixed(0)).join(" ")}`);
  } finally {
    controller.abort();
    await session.dispose();
    await (raw as RawServer | null)?.stop();
    await tree.dispose();
  }
}
