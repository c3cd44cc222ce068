/**
 * The import-graph proof against the answers without it, on real trees: for each top-level class
 * or function a tree's declaration files export, `find_referencing_symbols`' references and "not
 * analysed" occurrences with the proof and without it (every candidate shown to the server, as
 * before the proof), each side in a session and server of its own. A reference the proof loses,
 * or an occurrence the server leads to the symbol but leaves out ("missed") that the proof
 * explains away, or a question that fails, fails the run (exit 1); what the proof explains
 * instead of leaving "not analysed" is counted.
 *
 *     deno run -A scripts/checks/import_proof_check.ts [--trees typeorm,hono,hono-src] [--symbols 12]
 *       [--skip 0] [--also path:Name,...] [--typescript 7|5]
 *
 * `hono-src`: hono's sources, where `SEXTANT_BENCH_HONO_SRC` names a checkout (bench/generations.ts).
 *
 * `--skip`: pass over the first symbols found (to check others); `--also`: more symbols, by file
 * (each tree takes those whose file it has).
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { Project } from "../../src/project/project.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { Session } from "../../src/session/session.ts";
import { withoutImportProof } from "../../src/symbols/completeness.ts";
import { parseNamePath } from "../../src/symbols/name_path.ts";
import { findReferencesChecked } from "../../src/symbols/queries.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { linkTypeScript7 } from "../../tests/helpers/lsp.ts";
import { type BenchTree, REPO, typeormTree } from "../bench/lib/project.ts";
import { honoSourceTree, honoTree } from "../bench/generations.ts";

const TREES: Record<string, () => Promise<BenchTree>> = {
  typeorm: typeormTree,
  hono: honoTree,
  // hono's sources, from a checkout named by SEXTANT_BENCH_HONO_SRC (bench/generations.ts).
  "hono-src": honoSourceTree,
};

/**
 * Up to `count` exported top-level classes and functions of the tree's declaration files (a
 * package as published), or of its TypeScript files where it is sources (a root tsconfig.json).
 */
async function targets(
  root: string,
  count: number,
  skip = 0,
): Promise<Array<{ file: string; name: string }>> {
  const out: Array<{ file: string; name: string }> = [];
  let skipped = 0;
  const declarations = !await isSources(root);
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(join(root, dir))) {
      if (out.length >= count) return;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory && entry.name !== "node_modules" && !entry.name.startsWith(".")) {
        await walk(rel);
      } else if (declarations ? rel.endsWith(".d.ts") : /(?<!\.d)\.tsx?$/.test(rel)) {
        const text = await Deno.readTextFile(join(root, rel));
        const m =
          /^export (?:declare )?(?:abstract )?(?:async )?(?:class|function) ?\*? ?([A-Za-z_$][\w$]*)/m
            .exec(text);
        if (m && skipped++ >= skip) out.push({ file: rel, name: m[1]! });
      }
    }
  };
  await walk("");
  return out;
}

/** Whether a tree is sources: a `tsconfig.json` at its root (a package as published has none). */
async function isSources(root: string): Promise<boolean> {
  return await Deno.stat(join(root, "tsconfig.json")).then(() => true, () => false);
}

/** One side's answer: references and unexplained occurrences (`path:line:column`), or a failure. */
interface Answer {
  hits: string[];
  notAnalysed: string[];
  /** The occurrences the server leads to the symbol but leaves out of its answer. */
  missed: string[];
  error?: string;
}

/** Each target's references and unexplained occurrences, as sorted `path:line:column` keys. */
async function answers(
  root: string,
  list: ReadonlyArray<{ file: string; name: string }>,
  proof: boolean,
): Promise<Map<string, Answer>> {
  const settings = await loadSettings({ projectRoot: root, globalFile: null });
  const project = Project.open(root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project,
  });
  const index = session.services(project).symbols;
  if (!proof) withoutImportProof(index);
  const out = new Map<string, Answer>();
  try {
    for (const { file, name } of list) {
      try {
        const target = await index.resolveUnique(parseNamePath(name), file);
        const checked = await findReferencesChecked(index, target);
        out.set(`${file} ${name}`, {
          hits: checked.hits.map((h) => `${h.relPath}:${h.position.line}:${h.position.character}`)
            .sort(),
          notAnalysed: checked.notAnalysed.map((n) => `${n.relPath}:${n.line}:${n.character}`)
            .sort(),
          missed: checked.notAnalysed.filter((n) => n.kind === "missed")
            .map((n) => `${n.relPath}:${n.line}:${n.character}`).sort(),
        });
      } catch (error) {
        out.set(`${file} ${name}`, {
          hits: [],
          notAnalysed: [],
          missed: [],
          error: String(error),
        });
      }
    }
  } finally {
    await session.dispose();
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      trees: { type: "string", default: "typeorm,hono" },
      symbols: { type: "string", default: "12" },
      skip: { type: "string", default: "0" },
      also: { type: "string", default: "" },
      typescript: { type: "string", default: "7" },
    },
  });
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  let lost = 0;
  let failed = 0;
  for (const name of values.trees.split(",")) {
    const make = TREES[name];
    if (!make) throw new Error(`--trees: unknown ${name} (${Object.keys(TREES)})`);
    const [withTree, withoutTree] = [await make(), await make()];
    try {
      for (const tree of [withTree, withoutTree]) {
        if (values.typescript === "7") await linkTypeScript7(tree.root);
      }
      const list = await targets(withTree.root, Number(values.symbols), Number(values.skip));
      for (const extra of values.also.split(",").filter((a) => a !== "")) {
        const [file, name] = extra.split(":");
        // Each tree takes the symbols whose file it has.
        const present = file !== undefined &&
          await Deno.stat(join(withTree.root, file)).then(() => true, () => false);
        if (present && name) list.push({ file: file!, name });
      }
      const withProof = await answers(withTree.root, list, true);
      const without = await answers(withoutTree.root, list, false);
      console.log(`${withTree.name}, TypeScript ${values.typescript}: ${list.length} symbols`);
      for (const [key, a] of without) {
        const b = withProof.get(key)!;
        if (a.error !== undefined || b.error !== undefined) {
          failed++;
          console.log(
            `  FAIL ${key}: ${b.error ? `with the proof: ${b.error.slice(0, 200)}` : ""}` +
              `${a.error ? ` without it: ${a.error.slice(0, 200)}` : ""}`,
          );
          continue;
        }
        // A reference lost: listed without the proof, or led to the symbol by the server, and
        // neither listed nor named "missed" with it.
        const missing = [...a.hits, ...a.missed].filter((h) =>
          !b.hits.includes(h) && !b.missed.includes(h)
        );
        const gained = b.hits.filter((h) => !a.hits.includes(h));
        const explained = a.notAnalysed.filter((n) => !b.notAnalysed.includes(n)).length;
        lost += missing.length;
        console.log(
          `  ${missing.length ? "LOST" : "ok  "} ${key}: ${b.hits.length} references ` +
            `(${a.hits.length} without the proof${
              gained.length ? `, ${gained.length} more` : ""
            }); ` +
            `not analysed ${b.notAnalysed.length} (${a.notAnalysed.length} without)` +
            (explained ? `, ${explained} explained by the graph or now listed` : "") +
            (missing.length ? `; lost: ${missing.slice(0, 5).join(", ")}` : ""),
        );
      }
    } finally {
      await withTree.dispose();
      await withoutTree.dispose();
    }
  }
  console.log(
    (lost === 0 ? "No reference lost." : `${lost} references lost.`) +
      (failed ? ` ${failed} questions failed on one side or both.` : ""),
  );
  Deno.exit(lost === 0 && failed === 0 ? 0 : 1);
}
