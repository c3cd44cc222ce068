/**
 * The SCIP symbol rows of `deno task bench --only scip` (docs/scale.md): on scip.ts's monorepo
 * and its index (the TypeScript server switched off, so the index answers alone), in a fresh
 * process of its own:
 *
 * - find_symbol by name across the project, the index loaded, before the declaration index is
 *   built (every file's text is searched for the name);
 * - the same, warm, once the declaration index is built (only the files declaring the name);
 * - type_hierarchy of a widget (its supertypes), warm.
 *
 * Runnable alone: `deno run -A scripts/bench/scip_symbols.ts [--files 50000] [--runs 5]`.
 * @module
 */
import { parseArgs } from "node:util";
import { preparedTree } from "./scip.ts";
import { modPath } from "./lib/project.ts";
import { printHeader, record } from "./lib/results.ts";
import type { Session } from "../../src/session/session.ts";
import type { Tool } from "../../src/tools/tool.ts";

interface ChildReport {
  firstMs: number;
  declarationsMs: number;
  warmMs: number[];
  hierarchyMs: number;
  matches: string[];
  notes: string[];
  supertypes: string[];
  documents: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/** The measuring side, in a process of its own: `--child ROOT`. */
async function child(root: string, runs: number): Promise<ChildReport> {
  const { toolHarnessAt } = await import("./lib/scip_session.ts");
  const { callTool } = await import("../../src/tools/call.ts");
  const { findSymbol } = await import("../../src/tools/symbols/find_symbol.ts");
  const { typeHierarchy } = await import("../../src/tools/ide/type_hierarchy.ts");
  const h = await toolHarnessAt(root);
  // The bench session holds every tool (ALL_TOOLS); its type names only what selects them.
  const session = h.session as Session<Tool>;
  try {
    const services = h.session.services(h.project);
    const state = await services.scip.state();
    if (state === null) throw new Error("the index did not load");
    const middle = Math.floor((state.index.documentCount - 1) / 2);
    const ask = async () => {
      const result = await callTool(session, findSymbol, {
        name_path_pattern: `Widget${middle}`,
      });
      if (result.isError) throw new Error(result.text);
      return result;
    };
    let started = performance.now();
    const first = await ask();
    const firstMs = performance.now() - started;
    started = performance.now();
    await services.symbols.declarations?.ready();
    const declarationsMs = performance.now() - started;
    const warmMs: number[] = [];
    let last = first;
    for (let i = 0; i < runs; i++) {
      started = performance.now();
      last = await ask();
      warmMs.push(performance.now() - started);
    }
    const hierarchyArgs = {
      relative_path: modPath(middle),
      name_path: `Widget${middle}`,
      direction: "super",
    };
    await callTool(session, typeHierarchy, hierarchyArgs);
    started = performance.now();
    const hierarchy = await callTool(session, typeHierarchy, hierarchyArgs);
    const hierarchyMs = performance.now() - started;
    if (hierarchy.isError) throw new Error(hierarchy.text);
    return {
      firstMs,
      declarationsMs,
      warmMs,
      hierarchyMs,
      matches: JSON.parse(last.text).map((m: { relative_path: string; name_path: string }) =>
        `${m.relative_path} ${m.name_path}`
      ),
      notes: [...(first.notes ?? []), ...(last.notes ?? [])],
      supertypes: JSON.parse(hierarchy.text).supertypes.map((s: { name: string }) => s.name),
      documents: state.index.documentCount,
    };
  } finally {
    await h.dispose();
  }
}

/** Runs the rows for scip.ts's monorepo of `files` modules. */
export async function runScipSymbolBench(options: { files: number; runs: number }): Promise<void> {
  const root = await preparedTree(options.files);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--liftoff-only,--optimize-for-size",
      new URL(import.meta.url).pathname,
      "--child",
      root,
      "--runs",
      String(options.runs),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("the SCIP symbol bench's measuring process failed");
  const r: ChildReport = JSON.parse(new TextDecoder().decode(out.stdout));
  const project = `monorepo ${r.documents} (SCIP)`;
  const fromIndex = r.notes.length > 0 &&
    r.notes.every((n) => n.startsWith("Answered from the SCIP index"));
  const found = `${r.matches.join(", ")}${fromIndex ? ", from the index" : `; ${r.notes}`}`;
  printHeader("SCIP symbol rows (scripts/bench/scip_symbols.ts)");
  record(
    project,
    "find_symbol by name, project-wide, before the declaration index",
    r.firstMs,
    "ms",
    "declaration index build (after it)",
    r.declarationsMs,
    found,
  );
  record(
    project,
    "find_symbol by name, project-wide, warm (median)",
    median(r.warmMs),
    "ms",
    "target (DESIGN §8, 20k files)",
    20,
    median(r.warmMs) <= 20 ? "PASS" : "MISS",
  );
  record(
    project,
    "type_hierarchy of a widget (supertypes), warm",
    r.hierarchyMs,
    "ms",
    "find_symbol, warm",
    median(r.warmMs),
    `${r.supertypes.join(", ")}: its definition is found among the occurrences of the ` +
      "50,000 files that implement it",
  );
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "50000" },
      runs: { type: "string", default: "5" },
      child: { type: "string" },
    },
  });
  if (values.child) {
    console.log(JSON.stringify(await child(values.child, Number(values.runs))));
  } else {
    await runScipSymbolBench({ files: Number(values.files), runs: Number(values.runs) });
  }
}
