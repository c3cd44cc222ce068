/**
 * Does find_referencing_symbols answered from a SCIP index agree with the live language server, on
 * a real project? The same symbols as scripts/checks/scip_agreement.ts picks (classes, interfaces,
 * type aliases, functions and methods in turn), each asked by its name path in its file, once with
 * the index (the references of unchanged files from the index, their containing symbols from the
 * files' trees) and once without it (the live server). The answers are compared entry by entry in
 * the form that names each reference's file, containing symbol (kind and name path) and line.
 *
 *     deno run -A scripts/checks/scip_referencing_agreement.ts <project dir> [--symbols 30] [--index PATH]
 *
 * Prints each symbol's verdict and the entries only one side has.
 * @module
 */
import { inProcessSession } from "../bench/lib/in_process.ts";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { referencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { ScipIndex } from "../../src/symbols/scip/scip_index.ts";
import { buildIndex } from "../../src/symbols/scip/build.ts";
import { manifestPath } from "../../src/symbols/scip/freshness.ts";
import { copyProject, type PickedSymbol, pickSymbols } from "./scip_agreement.ts";

const REPO = new URL("../..", import.meta.url).pathname;

/** One symbol's comparison. */
export interface ReferencingAgreement {
  symbol: PickedSymbol;
  /** Entries `file kind name_path line`, or the error the question got. */
  index: string[] | string;
  server: string[] | string;
  /** The index's answer came from the index (its note says so). */
  fromIndex: boolean;
  onlyIndex: string[];
  onlyServer: string[];
}

/** A session on `root` asking find_referencing_symbols. */
async function openSession(root: string) {
  const { ctx, dispose } = await inProcessSession(root);
  const ask = async (s: PickedSymbol): Promise<{ entries: string[] | string; note: boolean }> => {
    try {
      const raw = await referencingSymbols(ctx, {
        name_path: s.name,
        relative_path: s.file,
        include_kinds: [],
        exclude_kinds: [],
      });
      if (typeof raw === "string") throw new Error(raw);
      const answer = raw;
      // The form without context lines: file → kind → [{name_path, reference_line}].
      const grouped = JSON.parse(answer.shorter![0]!.text()) as Record<
        string,
        Record<string, Array<{ name_path: string; reference_line: number }>>
      >;
      const entries = Object.entries(grouped).flatMap(([file, kinds]) =>
        Object.entries(kinds).flatMap(([kind, list]) =>
          list.map((e) => `${file} ${kind} ${e.name_path} ${e.reference_line + 1}`)
        )
      ).sort();
      const note = (answer.notes ?? []).some((n) => n.startsWith("Answered from the SCIP index"));
      return { entries, note };
    } catch (error) {
      return {
        entries: error instanceof Error ? error.message.split("\n")[0]! : `${error}`,
        note: false,
      };
    }
  };
  return { ask, dispose };
}

/** The agreement on `root`, which has its index in `.sextant/`. */
export async function referencingAgreement(
  root: string,
  options: { symbols: number; log?: (line: string) => void },
): Promise<ReferencingAgreement[]> {
  const log = options.log ?? (() => {});
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const indexFile = join(root, ".sextant", "index.scip");
  const picked = await pickSymbols(root, await ScipIndex.load(indexFile), options.symbols);
  const fromIndex = new Map<PickedSymbol, { entries: string[] | string; note: boolean }>();
  {
    const session = await openSession(root);
    try {
      for (const s of picked) fromIndex.set(s, await session.ask(s));
    } finally {
      await session.dispose();
    }
  }
  const aside = join(root, ".sextant", "index.scip.aside");
  await Deno.rename(indexFile, aside);
  const out: ReferencingAgreement[] = [];
  try {
    const session = await openSession(root);
    try {
      for (const s of picked) {
        const live = (await session.ask(s)).entries;
        const indexed = fromIndex.get(s)!;
        const a = new Set(Array.isArray(indexed.entries) ? indexed.entries : []);
        const b = new Set(Array.isArray(live) ? live : []);
        const row: ReferencingAgreement = {
          symbol: s,
          index: indexed.entries,
          server: live,
          fromIndex: indexed.note,
          onlyIndex: [...a].filter((e) => !b.has(e)),
          onlyServer: [...b].filter((e) => !a.has(e)),
        };
        log(describeRow(row));
        out.push(row);
      }
    } finally {
      await session.dispose();
    }
  } finally {
    await Deno.rename(aside, indexFile);
  }
  return out;
}

/** True when both sides gave the same entries (or the same error). */
export function agrees(row: ReferencingAgreement): boolean {
  if (typeof row.index === "string" || typeof row.server === "string") {
    return row.index === row.server;
  }
  return row.onlyIndex.length === 0 && row.onlyServer.length === 0;
}

function describeRow(row: ReferencingAgreement): string {
  const s = row.symbol;
  const head = `${s.kind} ${s.name} (${s.file}:${s.line}): `;
  if (typeof row.index === "string" || typeof row.server === "string") {
    return `${head}${agrees(row) ? "the same error" : "errors differ"}: index: ${
      typeof row.index === "string" ? row.index : `${row.index.length} entries`
    }; server: ${typeof row.server === "string" ? row.server : `${row.server.length} entries`}`;
  }
  const source = row.fromIndex ? "" : " [NOT from the index]";
  if (agrees(row)) return `${head}equal (${row.index.length} entries)${source}`;
  return `${head}index ${row.index.length}, server ${row.server.length}${source}\n` +
    [
      ...row.onlyIndex.map((e) => `    only-index  ${e}`),
      ...row.onlyServer.map((e) => `    only-server ${e}`),
    ]
      .join("\n");
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { symbols: { type: "string", default: "30" }, index: { type: "string" } },
  });
  const source = positionals[0];
  if (!source) {
    console.error(
      "usage: scip_referencing_agreement.ts <project dir> [--symbols 30] [--index PATH]",
    );
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
    const started = performance.now();
    const rows = await referencingAgreement(copy.root, {
      symbols: Number(values.symbols),
      log: (line) => console.log(line),
    });
    // A name path both sides refuse (the indexer's name for a nested function) compares nothing.
    const asked = rows.filter((r) => typeof r.index !== "string" || typeof r.server !== "string");
    const equal = asked.filter(agrees).length;
    const indexed = rows.filter((r) => r.fromIndex).length;
    console.log(
      `\n${equal} equal of ${asked.length} compared (${rows.length - asked.length} name paths ` +
        `refused by both); ${indexed} answered from the index ` +
        `(${Math.round((performance.now() - started) / 1000)} s)`,
    );
  } finally {
    await copy.dispose();
  }
}
