/**
 * Does find_symbol answered with a SCIP index agree with the live language server, on a real
 * project?
 *
 *     deno run -A scripts/checks/scip_symbol_agreement.ts <project dir> [--names 60] [--index PATH]
 *
 * The project is copied to a temporary folder and indexed there by `sextant index build`'s own
 * code, unless `--index` names an index built from the same content (its manifest beside it).
 * N names are picked from the index's global definitions (distinct names, spread evenly over
 * them in path order, the same every run). find_symbol is asked about each across the project,
 * by name, and, for every third, with bodies: once with the index, once without it (the live
 * server). Per question it prints "equal" with where the answer came from, or both answers.
 * @module
 */
import { inProcessSession } from "../bench/lib/in_process.ts";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "../../src/deps.ts";
import { applyParamAliases } from "../../src/tools/tool.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { ScipIndex } from "../../src/symbols/scip/scip_index.ts";
import { buildIndex } from "../../src/symbols/scip/build.ts";
import { manifestPath } from "../../src/symbols/scip/freshness.ts";
import { namePathOfSymbol } from "../../src/symbols/scip/descriptors.ts";

const REPO = new URL("../..", import.meta.url).pathname;

type Question = Record<string, unknown>;

/** One question's two answers. */
export interface SymbolRow {
  question: Question;
  equal: boolean;
  /** The index answered (some files at least). */
  fromIndex: boolean;
  indexed: string;
  live: string;
}

/** Distinct names of the index's global definitions, `count` of them spread evenly. */
export function pickNames(index: ScipIndex, count: number): string[] {
  const names = new Set<string>();
  for (const relPath of [...index.paths()].sort()) {
    for (const d of index.definitionsIn(relPath)) {
      const segments = namePathOfSymbol(index.symbolName(d.symbol));
      const last = segments?.[segments.length - 1];
      if (last && /^[A-Za-z_$][\w$]*$/.test(last) && last !== "default") names.add(last);
    }
  }
  const all = [...names];
  const step = Math.max(1, all.length / count);
  const out: string[] = [];
  for (let i = 0; out.length < count && Math.floor(i) < all.length; i += step) {
    out.push(all[Math.floor(i)]!);
  }
  return out;
}

async function openSession(root: string) {
  const { ctx, dispose } = await inProcessSession(root);
  const ask = async (question: Question): Promise<{ text: string; notes: readonly string[] }> => {
    const args = z.strictObject(findSymbol.params).parse(
      applyParamAliases(findSymbol, question),
    ) as Parameters<typeof findSymbol.handler>[0];
    try {
      const answer = await findSymbol.handler(args, ctx);
      return typeof answer === "string"
        ? { text: answer, notes: [] }
        : { text: answer.text, notes: answer.notes ?? [] };
    } catch (error) {
      return { text: `Error: ${error instanceof Error ? error.message : error}`, notes: [] };
    }
  };
  return { ask, dispose };
}

/** Asks each question with the index and without it (the index moved aside meanwhile). */
export async function symbolAgreement(root: string, names: number): Promise<SymbolRow[]> {
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const indexFile = join(root, ".sextant", "index.scip");
  const picked = pickNames(await ScipIndex.load(indexFile), names);
  const questions: Question[] = picked.flatMap((name, i) =>
    i % 3 === 0
      ? [{ name_path_pattern: name }, { name_path_pattern: name, include_body: true }]
      : [{ name_path_pattern: name }]
  );
  const indexed: Array<{ text: string; notes: readonly string[] }> = [];
  {
    const session = await openSession(root);
    try {
      for (const q of questions) indexed.push(await session.ask(q));
    } finally {
      await session.dispose();
    }
  }
  const aside = join(root, ".sextant", "index.scip.aside");
  await Deno.rename(indexFile, aside);
  const rows: SymbolRow[] = [];
  try {
    const session = await openSession(root);
    try {
      for (const [i, q] of questions.entries()) {
        const live = await session.ask(q);
        rows.push({
          question: q,
          equal: live.text === indexed[i]!.text,
          fromIndex: indexed[i]!.notes.some((n) => n.startsWith("Answered from the SCIP index")),
          indexed: indexed[i]!.text,
          live: live.text,
        });
      }
    } finally {
      await session.dispose();
    }
  } finally {
    await Deno.rename(aside, indexFile);
  }
  return rows;
}

async function copyProject(from: string): Promise<{ root: string; dispose: () => Promise<void> }> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-scip-symbols-" }));
  const root = join(parent, "project");
  const out = await new Deno.Command("cp", { args: ["-a", from, root] }).output();
  if (!out.success) throw new Error(`cannot copy ${from}`);
  await new Deno.Command("chmod", { args: ["-R", "u+w", root] }).output();
  return { root, dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}) };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { names: { type: "string", default: "60" }, index: { type: "string" } },
  });
  const source = positionals[0];
  if (!source) {
    console.error("usage: scip_symbol_agreement.ts <project dir> [--names 60] [--index PATH]");
    Deno.exit(2);
  }
  const copy = await copyProject(source);
  try {
    await Deno.mkdir(join(copy.root, ".sextant"), { recursive: true });
    const target = join(copy.root, ".sextant", "index.scip");
    if (values.index) {
      await Deno.copyFile(values.index, target);
      await Deno.copyFile(manifestPath(values.index), manifestPath(target));
    } else {
      console.error(`indexing ${source} ...`);
      const built = await buildIndex(copy.root, { onStep: (m) => console.error(m) });
      if (built.runs.some((r) => !r.ok)) console.error(JSON.stringify(built.runs));
    }
    const rows = await symbolAgreement(copy.root, Number(values.names));
    for (const row of rows) {
      const question = JSON.stringify(row.question);
      if (row.equal) console.log(`equal (${row.fromIndex ? "index" : "live"}) ${question}`);
      else console.log(`DIFFERENT ${question}\n  index: ${row.indexed}\n  live:  ${row.live}`);
    }
    const equal = rows.filter((r) => r.equal).length;
    const fromIndex = rows.filter((r) => r.fromIndex).length;
    console.log(`\n${equal} equal of ${rows.length}; ${fromIndex} answered with the index`);
  } finally {
    await copy.dispose();
  }
}
