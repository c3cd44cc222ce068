/**
 * The SCIP rows of `deno task bench` (docs/scale.md): a generated TypeScript monorepo (50,000
 * modules by default, one import chain per package) indexed once by scip-typescript through
 * `sextant index build`'s own code, cached in `.cache/bench/scip-<N>/`; then, in a fresh process
 * of its own (so its memory is the index's):
 *
 * - load: the first question's wait for the index (decode, and every file checked against the
 *   manifest), against reading the index file's bytes;
 * - memory with it loaded: the process's RSS against the same process before the load;
 * - references from a fresh session (another session on the same host), with the index loaded;
 * - warm references (median of `--runs`);
 * - one file edited after indexing: the answer names it (no language server runs here);
 * - find_referencing_symbols from the index, the first question and warm ones (the referencing
 *   files' symbol trees from the declaration index; no language server starts).
 *
 * Each row prints its target and PASS or MISS. Runnable alone:
 * `deno run -A scripts/bench/scip.ts [--files 50000] [--runs 5]`.
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildIndex } from "../../src/symbols/scip/build.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { CORE, generate, modPath, PACKAGES, REPO } from "./lib/project.ts";

/** The generated modules of a tree with `documents` indexed files (core.ts is one). */
const files = (documents: number) => documents - 1;
import { printHeader, record } from "./lib/results.ts";

interface ChildReport {
  readBytesMs: number;
  loadMs: number;
  rssBeforeMb: number;
  rssLoadedMb: number;
  freshSessionMs: number;
  warmMs: number[];
  references: number;
  coreWarmMs: number;
  coreReferences: number;
  editedNamed: boolean;
  editedNote: string;
  documents: number;
  referencingFreshMs: number;
  referencingWarmMs: number[];
  referencingEntries: number;
  referencingServers: number;
}

async function git(root: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd: root, stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/**
 * A checkout, as CI indexes one: the tree committed to git (its `.git/index` records each file's
 * blob, which the load checks against the manifest without reading the file).
 */
async function committed(root: string): Promise<void> {
  try {
    await Deno.stat(join(root, ".git", "index"));
    return;
  } catch {
    // Not a checkout yet.
  }
  await Deno.writeTextFile(join(root, ".gitignore"), ".sextant/\n");
  await git(root, "init", "-q");
  await git(root, "add", ".");
  await git(
    root,
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@localhost",
    "commit",
    "-qm",
    "x",
  );
}

/** The cached tree and index of `files` modules, built when missing. */
export async function preparedTree(files: number): Promise<string> {
  const root = join(REPO, ".cache", "bench", `scip-${files}`);
  const done = join(root, ".sextant", "index.scip.files");
  try {
    await Deno.stat(done);
    await committed(root);
    return root;
  } catch {
    // Not built yet.
  }
  await Deno.remove(root, { recursive: true }).catch(() => {});
  await generate(root, files, { importStep: PACKAGES });
  await committed(root);
  console.error(`scip bench: indexing ${files + 1} files with scip-typescript (once, cached)`);
  const started = performance.now();
  const result = await buildIndex(root, {
    languages: ["typescript"],
    onStep: (m) => console.error(`scip bench: ${m}`),
  });
  if (!result.runs.every((r) => r.ok)) {
    throw new Error(`scip-typescript failed: ${JSON.stringify(result.runs)}`);
  }
  console.error(
    `scip bench: ${result.documents} documents indexed in ` +
      `${Math.round((performance.now() - started) / 1000)} s`,
  );
  return root;
}

function rssMb(): number {
  return Deno.memoryUsage().rss / 1e6;
}

/** The measuring side, in a process of its own: `--child ROOT RUNS`. */
async function child(root: string, runs: number): Promise<ChildReport> {
  const findReferencesRows = await referencesRows(root, runs);
  return { ...findReferencesRows, ...await referencingRows(root, runs, findReferencesRows.args) };
}

type ReferencingRows = Pick<
  ChildReport,
  "referencingFreshMs" | "referencingWarmMs" | "referencingEntries" | "referencingServers"
>;

/**
 * find_referencing_symbols in a host of its own, made after the first one is gone (one index in
 * memory, as in a real service), whose TypeScript server is configured: the referencing files'
 * trees come from the declaration index, parsed for them on the question. The index is loaded
 * first; then the first question, and warm ones once the declaration index is built (its parse
 * workers would otherwise take the machine's cores from the questions measured).
 */
async function referencingRows(
  root: string,
  runs: number,
  args: Record<string, unknown>,
): Promise<ReferencingRows> {
  const { toolHarnessAt } = await import("./lib/scip_session.ts");
  const third = await toolHarnessAt(root, undefined, true);
  const services = third.session.services(third.project);
  try {
    await services.scip.state();
    let started = performance.now();
    const grouped = JSON.parse(await third.findReferencingSymbols(args));
    const referencingFreshMs = performance.now() - started;
    await services.declarations.ready();
    const referencingWarmMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      started = performance.now();
      await third.findReferencingSymbols(args);
      referencingWarmMs.push(performance.now() - started);
    }
    return {
      referencingFreshMs,
      referencingWarmMs,
      referencingEntries: Object.values(grouped as Record<string, Record<string, unknown[]>>)
        .flatMap((kinds) => Object.values(kinds)).flat().length,
      referencingServers: services.pool.running().length,
    };
  } finally {
    // The declaration index's build, started by the question, is let finish: disposing the
    // project in the middle of it leaves a rejected promise of the build's unhandled.
    await services.declarations.ready().catch(() => {});
    await third.dispose();
  }
}

/** The find_references rows, in a host that is disposed before the next rows. */
async function referencesRows(
  root: string,
  runs: number,
): Promise<Omit<ChildReport, keyof ReferencingRows> & { args: Record<string, unknown> }> {
  const { toolHarnessAt } = await import("./lib/scip_session.ts");
  const index = join(root, ".sextant", "index.scip");
  const first = await toolHarnessAt(root);
  const services = first.session.services(first.project);
  const rssBeforeMb = rssMb();
  // The bytes read through once, a chunk at a time (nothing kept): the floor of any load.
  let started = performance.now();
  for await (const _ of (await Deno.open(index)).readable) { /* read only */ }
  const readBytesMs = performance.now() - started;
  started = performance.now();
  const state = await services.scip.state();
  const loadMs = performance.now() - started;
  if (state === null) throw new Error("the index did not load");
  const rssLoadedMb = rssMb();
  // A second session on the same host: the index is the project's, loaded already.
  const second = await toolHarnessAt(root, first.host);
  // A typical symbol: a widget used by the module that imports it (a handful of references).
  const middle = Math.floor(files(state.index.documentCount) / 2);
  const args = { relative_path: modPath(middle), name_path: `Widget${middle}` };
  started = performance.now();
  const answer = JSON.parse(await second.findReferences(args));
  const freshSessionMs = performance.now() - started;
  const warmMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    await second.findReferences(args);
    warmMs.push(performance.now() - started);
  }
  // The widest symbol: Core, used by every tenth module.
  const coreArgs = { relative_path: CORE, name_path: "Core" };
  await second.findReferences(coreArgs);
  started = performance.now();
  const core = JSON.parse(await second.findReferences(coreArgs));
  const coreWarmMs = performance.now() - started;
  const edited = "src/pkg03/mod0003.ts";
  const text = await Deno.readTextFile(join(root, edited));
  try {
    await Deno.writeTextFile(
      join(root, edited),
      text +
        '\nimport { Core as Again } from "../core.ts";\nexport const again = new Again("x");\n',
    );
    const after = JSON.parse(await second.findReferences(coreArgs));
    const named = (after.not_analysed ?? []).some((n: string) => n.startsWith(`${edited}:`));
    return {
      readBytesMs,
      loadMs,
      rssBeforeMb,
      rssLoadedMb,
      freshSessionMs,
      warmMs,
      references: answer.totalCount,
      coreWarmMs,
      coreReferences: core.totalCount,
      editedNamed: named,
      editedNote: after.note ?? "",
      documents: state.index.documentCount,
      args,
    };
  } finally {
    await Deno.writeTextFile(join(root, edited), text);
    await second.dispose();
    await first.dispose();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/** Runs the rows for a monorepo of `files` modules. */
export async function runScipBench(options: { files: number; runs: number }): Promise<void> {
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
  if (!out.success) throw new Error("the SCIP bench's measuring process failed");
  const r: ChildReport = JSON.parse(new TextDecoder().decode(out.stdout));
  const project = `monorepo ${r.documents} (SCIP)`;
  const verdict = (ok: boolean, target: string) => `target ${target}: ${ok ? "PASS" : "MISS"}`;
  printHeader("SCIP index rows (scripts/bench/scip.ts)");
  record(
    project,
    "load the index (decode + check every file)",
    r.loadMs,
    "ms",
    "read its bytes",
    r.readBytesMs,
    verdict(r.loadMs <= 5000, "≤ 5 s"),
  );
  const loaded = r.rssLoadedMb - r.rssBeforeMb;
  record(
    project,
    "memory of the loaded index (RSS growth)",
    loaded,
    "MB",
    "process before the load",
    r.rssBeforeMb,
    verdict(loaded <= 300, `≤ 300 MB (the process: ${Math.round(r.rssLoadedMb)} MB)`),
  );
  record(
    project,
    `references, a fresh session, index loaded (${r.references} refs)`,
    r.freshSessionMs,
    "ms",
    "target",
    50,
    verdict(r.freshSessionMs <= 50, "≤ 50 ms"),
  );
  const warm = median(r.warmMs);
  record(
    project,
    "references, warm (median)",
    warm,
    "ms",
    "target",
    10,
    verdict(warm <= 10, "≤ 10 ms"),
  );
  record(
    project,
    `references to Core, warm (${r.coreReferences} refs in ${r.coreReferences / 2} files)`,
    r.coreWarmMs,
    "ms",
    "read the index's bytes",
    r.readBytesMs,
    "the widest symbol: one entry with a preview line per reference",
  );
  record(
    project,
    `find_referencing_symbols, first question, index loaded (${r.referencingEntries} entries)`,
    r.referencingFreshMs,
    "ms",
    "target",
    50,
    `${verdict(r.referencingFreshMs <= 50, "≤ 50 ms")}; language servers started: ` +
      `${r.referencingServers}`,
  );
  const referencingWarm = median(r.referencingWarmMs);
  record(
    project,
    "find_referencing_symbols, warm, declaration index built (median)",
    referencingWarm,
    "ms",
    "target",
    10,
    verdict(referencingWarm <= 10, "≤ 10 ms"),
  );
  record(
    project,
    "one file edited after indexing: named",
    r.editedNamed ? 1 : 0,
    "yes",
    "expected",
    1,
    `${r.editedNamed ? "PASS" : "MISS"}; ${r.editedNote}`,
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
    // As `deno task bench` does: the language servers installed for the tests.
    if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
    console.log(JSON.stringify(await child(values.child, Number(values.runs))));
  } else {
    await runScipBench({ files: Number(values.files), runs: Number(values.runs) });
  }
}
