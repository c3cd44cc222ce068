/**
 * Does the declaration index agree with the real language servers on a whole tree?
 *
 *     deno run -A scripts/checks/index_agreement.ts <project dir> [--ext .ts,.js] [--all]
 *        [--reason R] [--limit N] [--show 5] [--in-place] [--typescript 7]
 *
 * Every file the index parses (and a language server of the registry handles) is parsed with the
 * index's extractor (src/symbols/index/extract.ts), in this process; the file's server (the one the
 * registry picks for it: typescript-language-server for .ts/.d.ts/.js/.tsx, pyright, gopls,
 * rust-analyzer, clangd, bash-language-server, ...) is asked for its documentSymbol through the
 * engine, as the tools ask it. It prints, per kind of file (`.d.ts` apart from `.ts`): the files,
 * those the index marks exact, and those exact files whose tree DISAGREES with the server's (a
 * correctness bug: it must be 0), with the first differing lines of a few; then a histogram of
 * why the other files are not exact (extract.ts's reasons, each counted once per file).
 *
 * `--typescript 7` gives the copy TypeScript 7 as its own dependency (from the test set-up's
 * cache, `.cache/lsp/ts7`), so that its own server (`tsc --lsp`) answers, normalised to
 * tsserver's shape as the tools see it (src/symbols/typescript_native.ts). What that server
 * leaves out of tsserver's outline, and nothing else, is left out of the index's tree before the
 * two are compared ({@linkcode asNativeTypeScriptLists}; the "merged" column counts the exact
 * files that needed it). An exact file whose grammar is not proven against the server that
 * answered (PROVEN_SERVERS: JavaScript on TypeScript 7) is counted as "unproven", with how many
 * of those differ, and is no disagreement: the index never answers for it.
 *
 * With `--all` the files that are not exact are compared too, and the histogram says, per reason,
 * how many of them agree anyway (where widening the rules would pay); `--reason R` prints the
 * differences of a few that do not, among the files not exact for reason R. The tree is copied to a
 * temporary folder first (the engine writes its caches into `.sextant/`) unless `--in-place`.
 * Exit status 1 when an exact file disagrees or could not be compared (its server failed: the
 * files are named on stderr). tests/symbols/index/real_agreement_test.ts runs {@linkcode agreement} on
 * the real trees the test set-up fetches, and on Sextant's own sources with TypeScript 7.
 * @module
 */
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { grammarFor } from "../../src/symbols/index/grammars.ts";
import { PROVEN_SERVERS } from "../../src/symbols/index/mod.ts";
import { parseFile } from "../../src/symbols/index/parser.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import {
  finishSiblings,
  fromCompact,
  namePathOf,
  SymbolKind as K,
  type SymbolNode,
  walkSymbols,
} from "../../src/symbols/model.ts";
import { lineStarts, offsetAt } from "../../src/edit/line_index.ts";
import { SymbolLookup } from "../../src/symbols/lookup.ts";
import { mapLimit } from "../../src/map_limit.ts";
import { isNativeTypeScript } from "../../src/symbols/typescript_native.ts";
import { Project } from "../../src/project/project.ts";

/**
 * What a tool's answer takes from a symbol tree, for every symbol in document order: the name
 * path (with overload indexes), the kind, the body range (lines and characters: `body_location`
 * and the `body` text), and where the name starts (where queries are sent).
 */
export function answerFields(roots: readonly SymbolNode[]): string[] {
  return [...walkSymbols(roots)].map((n) =>
    `${namePathOf(n)} kind=${n.kind} range=${n.range.start.line}:${n.range.start.character}-` +
    `${n.range.end.line}:${n.range.end.character} name=${n.selectionRange.start.line}:` +
    `${n.selectionRange.start.character}`
  );
}

/** Names TypeScript 7 never merges (`isAnonymousName` in its documentSymbol). */
const NATIVE_ANONYMOUS =
  /^(?:<function>|<class>|export=|default|constructor|\(\)|new\(\)|\[\])$|\) callback$/;

/** `name:` after a member's name: a property assignment, which TypeScript 7 lists as a Property. */
const ASSIGNED_MEMBER = /^\s*\??\s*:/;
const ACCESSOR_MEMBER = /^(?:(?:static|public|private|protected|override|abstract)\s+)*[gs]et\s/;

/**
 * Import and export specifiers' names (`import a, { b as c } from`, `import * as d`,
 * `import e = require()`, `export { f as g }`): TypeScript 7 lists each at the top level (the
 * normaliser drops them), where they take part in its merge.
 */
export function topLevelAliases(text: string): Set<string> {
  const names = new Set<string>();
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
  const clause =
    /(?:^|[;\n])\s*(import|export)\s+(?:type\s+)?([\w$]+\s*,\s*)?(\*\s*as\s+[\w$]+|\{[^}]*\}|[\w$]+)?/g;
  for (const m of code.matchAll(clause)) {
    const [, keyword, first, rest] = m;
    if (keyword === "import" && first) names.add(first.replace(/[\s,]/g, ""));
    if (!rest) continue;
    if (rest.startsWith("*")) names.add(rest.replace(/^\*\s*as\s+/, ""));
    else if (rest.startsWith("{")) {
      for (const spec of rest.slice(1, -1).split(",")) {
        const name = /([\w$]+)\s*$/.exec(spec.trim())?.[1];
        if (name) names.add(name);
      }
    } else if (keyword === "import") names.add(rest);
  }
  return names;
}

/**
 * tsserver's outline (the index's tree) as TypeScript 7 lists it after
 * normalizeNativeTypeScript: the one thing the normaliser cannot restore, because TypeScript 7
 * drops it from its answer, is its merge of "expandos". In every list of siblings, a property
 * (a property or spread assignment, a shorthand, a property whose value is a function, an
 * accessor: what TypeScript 7 calls a Property) that has the name of a class, function or
 * variable of the same list (a type alias, an import or export specifier at the top level) is
 * not listed; its children are added to that declaration's, in document order. Members of
 * `export default {...}` are top-level siblings for this, as TypeScript 7 lists them there.
 * Returns a new tree; `roots` are left as they are.
 */
export function asNativeTypeScriptLists(roots: readonly SymbolNode[], text: string): SymbolNode[] {
  const starts = lineStarts(text);
  const after = (n: SymbolNode) => text.slice(offsetAt(text, starts, n.selectionRange.end));
  const source = (n: SymbolNode) =>
    text.slice(offsetAt(text, starts, n.range.start), offsetAt(text, starts, n.range.end));
  const isProperty = (n: SymbolNode) =>
    n.kind === K.Property ||
    n.kind === K.Method && (ASSIGNED_MEMBER.test(after(n)) || ACCESSOR_MEMBER.test(source(n)));
  const isTarget = (n: SymbolNode) =>
    n.kind === K.Class || n.kind === K.Function || n.kind === K.Variable || n.kind === K.Constant;
  const merge = (list: SymbolNode[], aliases: ReadonlySet<string>): SymbolNode[] => {
    const targets = new Map<string, SymbolNode[]>();
    for (const n of list) {
      if (NATIVE_ANONYMOUS.test(n.name) || !isTarget(n)) continue;
      targets.set(n.name, [...targets.get(n.name) ?? [], n]);
    }
    const kept: SymbolNode[] = [];
    for (const n of list) {
      n.children = merge(n.children, new Set());
      const into = NATIVE_ANONYMOUS.test(n.name) || !isProperty(n)
        ? undefined
        : targets.get(n.name);
      if (into) {
        for (const t of into) {
          t.children = merge([...t.children, ...n.children.map(clone)], new Set());
        }
      } else if (!(aliases.has(n.name) && isProperty(n))) {
        kept.push(n);
      }
    }
    return kept;
  };
  const tree = roots.map(clone);
  // TypeScript 7 lists the members of `export default {...}` at the top level.
  const exported = tree.find((n) => n.name === "default" && n.kind === K.Constant);
  const top = exported ? [...tree, ...exported.children] : tree;
  if (exported) exported.children = [];
  const merged = merge(top, topLevelAliases(text));
  const out: SymbolNode[] = [];
  for (const n of merged) {
    if (exported && n !== exported && tree.indexOf(n) < 0) exported.children.push(n);
    else out.push(n);
  }
  return reparent(finishSiblings(out), null);
}

function clone(n: SymbolNode): SymbolNode {
  return { ...n, children: n.children.map(clone) };
}

function reparent(nodes: SymbolNode[], parent: SymbolNode | null): SymbolNode[] {
  for (const n of nodes) {
    n.parent = parent;
    reparent(n.children, n);
  }
  return nodes;
}

/** The kind of file a row counts: its extension, `.d.ts` apart. */
export function fileKind(relPath: string): string {
  const name = basename(relPath);
  if (/\.d\.[mc]?ts$/.test(name)) return ".d.ts";
  const dot = name.lastIndexOf(".");
  return dot < 0 ? name : name.slice(dot);
}

/** The first lines where two answers differ (for the report), or [] when equal. */
export function firstDifferences(ours: string[], theirs: string[], max = 3): string[] {
  const out: string[] = [];
  const n = Math.max(ours.length, theirs.length);
  for (let i = 0; i < n && out.length < max; i++) {
    if (ours[i] !== theirs[i]) {
      out.push(`  index:  ${ours[i] ?? "(nothing)"}`, `  server: ${theirs[i] ?? "(nothing)"}`);
    }
  }
  return out;
}

/** One kind of file's counts. */
export interface Row {
  files: number;
  exact: number;
  disagree: number;
  /** Exact, but the server gave no answer to compare with. */
  failed: number;
  /** Not exact, compared (`--all`), and equal anyway. */
  agreeAnyway: number;
  /** Exact, and equal to TypeScript 7's answer only with what its merge leaves out left out. */
  nativeMerged: number;
  /**
   * Exact, but the file's grammar is not proven against the server that answered
   * (PROVEN_SERVERS): the index never answers for it, so it is compared for information only.
   */
  unproven: number;
  /** Of those, how many differ from the server's answer. */
  unprovenDiffer: number;
}

/** What {@linkcode agreement} found on a tree. */
export interface AgreementResult {
  files: number;
  /** Per kind of file (see {@linkcode fileKind}). */
  rows: Map<string, Row>;
  /** All kinds together. */
  total: Row;
  /** Why files are not exact: files per reason, and with `all`, how many of them agree anyway. */
  reasons: Map<string, { files: number; agree: number; compared: number }>;
  /** Exact files that disagree, each with its first differing lines (at most `show`). */
  disagreements: string[];
  /** Files whose server failed, with its message. */
  failures: string[];
  /** With `reason`: not exact files for that reason that differ (at most `show`). */
  unexplained: string[];
  /**
   * The servers that answered (`serverInfo` name and version, or the command), with how many
   * files each, and which of them answered for TypeScript or JavaScript files.
   */
  servers: Map<string, number>;
  typescriptServers: Set<string>;
  parseMs: number;
  serverMs: number;
}

export interface AgreementOptions {
  /** Only files of these kinds (`.ts`, `.d.ts`, ...). */
  exts?: ReadonlySet<string> | null;
  /** Also compare files that are not exact. */
  all?: boolean;
  reason?: string | undefined;
  limit?: number | undefined;
  show?: number;
  concurrency?: number;
  /** Called with a line of progress now and then. */
  progress?: (line: string) => void;
}

async function copyTree(from: string, to: string): Promise<void> {
  const out = await new Deno.Command("cp", { args: ["-a", from, to] }).output();
  if (!out.success) throw new Error(`cp -a ${from} ${to} failed`);
  await new Deno.Command("chmod", { args: ["-R", "u+w", to] }).output();
}

function emptyRow(): Row {
  return {
    files: 0,
    exact: 0,
    disagree: 0,
    failed: 0,
    agreeAnyway: 0,
    nativeMerged: 0,
    unproven: 0,
    unprovenDiffer: 0,
  };
}

/**
 * Parses every file of `root` the index and a server handle, asks each exact one's server (each
 * one with `all`) for its documentSymbol, and counts. `root` is used as it is: the engine writes
 * its caches into `root/.sextant/`.
 */
export async function agreement(
  root: string,
  options: AgreementOptions = {},
): Promise<AgreementResult> {
  const show = options.show ?? 5;
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const pool = new ServerPool(project);
  const symbols = new SymbolLookup(project, pool);
  try {
    let files: string[] = [];
    for await (const e of project.walk(".")) {
      if (e.isDirectory || grammarFor(e.path) === null || !pool.handles(e.path)) continue;
      if (options.exts && !options.exts.has(fileKind(e.path))) continue;
      files.push(e.path);
    }
    files.sort();
    if (options.limit !== undefined) files = files.slice(0, options.limit);

    const rows = new Map<string, Row>();
    const reasons = new Map<string, { files: number; agree: number; compared: number }>();
    const disagreements: string[] = [];
    const failures: string[] = [];
    const unexplained: string[] = [];
    const servers = new Map<string, number>();
    const typescriptServers = new Set<string>();
    const parseStart = performance.now();
    const parsed = new Map<
      string,
      { exact: boolean; why: Set<string>; fields: string[]; native: () => string[] }
    >();
    for (const relPath of files) {
      const raw = await Deno.readTextFile(project.absolute(relPath));
      const text = raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
      const why = new Set<string>();
      try {
        const found = await parseFile(text, grammarFor(relPath)!, why);
        if (found.untrusted && found.untrusted !== "syntax error") {
          why.add(`untrusted: ${found.untrusted.replace(/'.*'/, "'…'")}`);
        }
        const roots = fromCompact(found.symbols, relPath);
        parsed.set(relPath, {
          exact: found.exact,
          why,
          fields: answerFields(roots),
          native: () => answerFields(asNativeTypeScriptLists(roots, text)),
        });
      } catch {
        // The index leaves such a file to the server too (a grammar's scanner failing).
        parsed.set(relPath, {
          exact: false,
          why: new Set(["the parser failed"]),
          fields: [],
          native: () => [],
        });
      }
    }
    const parseMs = performance.now() - parseStart;
    const serverStart = performance.now();
    let done = 0;
    await mapLimit(files, options.concurrency ?? 8, async (relPath) => {
      const ours = parsed.get(relPath)!;
      const kind = fileKind(relPath);
      let row = rows.get(kind);
      if (!row) rows.set(kind, row = emptyRow());
      row.files++;
      if (ours.exact) row.exact++;
      for (const reason of ours.why) {
        let r = reasons.get(reason);
        if (!r) reasons.set(reason, r = { files: 0, agree: 0, compared: 0 });
        r.files++;
      }
      if (!ours.exact && !options.all) return;
      let theirs: string[];
      try {
        theirs = answerFields((await symbols.fileSymbols(relPath)).roots);
      } catch {
        // A cold server on a busy machine can take longer to load than the engine waits
        // (rust-analyzer building a workspace's dependencies): asked once more, it has loaded.
        try {
          theirs = answerFields((await symbols.fileSymbols(relPath)).roots);
        } catch (error) {
          if (ours.exact) row.failed++;
          failures.push(`${relPath}: the server failed: ${(error as Error).message}`);
          return;
        }
      }
      const running = await pool.serverFor(relPath);
      const info = (running as { serverInfo?: { name?: string; version?: string } }).serverInfo;
      const server = `${info?.name ?? basename(running.command)} ${info?.version ?? ""}`.trim();
      servers.set(server, (servers.get(server) ?? 0) + 1);
      if (/^(?:typescript|tsx|javascript)$/.test(grammarFor(relPath)!)) {
        typescriptServers.add(server);
      }
      let diff = firstDifferences(ours.fields, theirs);
      // TypeScript 7 leaves out what its merge takes (see asNativeTypeScriptLists): the index's
      // tree with exactly that left out must be its answer.
      if (diff.length > 0 && isNativeTypeScript(running)) {
        diff = firstDifferences(ours.native(), theirs);
        if (diff.length === 0 && ours.exact) row.nativeMerged++;
      }
      const proven = PROVEN_SERVERS[grammarFor(relPath)!] ?? [];
      if (ours.exact && !proven.includes(basename(running.command))) {
        row.unproven++;
        if (diff.length > 0) row.unprovenDiffer++;
      } else if (ours.exact) {
        if (diff.length > 0) {
          row.disagree++;
          if (disagreements.length < show) disagreements.push(`${relPath}\n${diff.join("\n")}`);
        }
      } else {
        if (diff.length === 0) row.agreeAnyway++;
        else if (options.reason && ours.why.has(options.reason) && unexplained.length < show) {
          unexplained.push(`${relPath} (${[...ours.why].join(", ")})\n${diff.join("\n")}`);
        }
        for (const reason of ours.why) {
          const r = reasons.get(reason)!;
          r.compared++;
          if (diff.length === 0) r.agree++;
        }
      }
      if (++done % 250 === 0) options.progress?.(`… ${done} files asked`);
    });
    const total = emptyRow();
    for (const r of rows.values()) {
      for (const k of Object.keys(total) as (keyof Row)[]) total[k] += r[k];
    }
    return {
      files: files.length,
      rows,
      total,
      reasons,
      disagreements,
      failures,
      unexplained,
      servers,
      typescriptServers,
      parseMs,
      serverMs: performance.now() - serverStart,
    };
  } finally {
    await symbols.dispose();
    await pool.dispose();
  }
}

/** The report's lines: the table per kind of file, then why files are not exact. */
export function reportLines(source: string, result: AgreementResult, all = false): string[] {
  const out: string[] = [
    `${source}: ${result.files} files (parsed in ${result.parseMs.toFixed(0)} ms, ` +
    `server answers in ${result.serverMs.toFixed(0)} ms)`,
    `servers: ${[...result.servers].map(([s, n]) => `${s} (${n} files)`).join(", ") || "none"}`,
    `${"kind".padEnd(8)} ${"files".padStart(6)} ${"exact".padStart(6)} ${"%".padStart(6)} ` +
    `${"disagree".padStart(8)} ${"failed".padStart(6)} ${"merged".padStart(6)} ` +
    `${"unproven (differ)".padStart(17)}${all ? "  not exact but agree" : ""}`,
  ];
  const line = (name: string, r: Row) =>
    `${name.padEnd(8)} ${String(r.files).padStart(6)} ${String(r.exact).padStart(6)} ${
      (100 * r.exact / Math.max(r.files, 1)).toFixed(1).padStart(6)
    } ${String(r.disagree).padStart(8)} ${String(r.failed).padStart(6)} ${
      String(r.nativeMerged).padStart(6)
    } ${`${r.unproven} (${r.unprovenDiffer})`.padStart(17)}${all ? `  ${r.agreeAnyway}` : ""}`;
  for (const [kind, r] of [...result.rows].sort()) out.push(line(kind, r));
  out.push(line("all", result.total));
  if (result.reasons.size > 0) {
    out.push("", "why files are not exact (files per reason; a file may have several):");
    for (const [reason, r] of [...result.reasons].sort((a, b) => b[1].files - a[1].files)) {
      out.push(
        `${String(r.files).padStart(6)}  ${reason}${
          all ? `  (agree anyway: ${r.agree} of ${r.compared})` : ""
        }`,
      );
    }
  }
  return out;
}

/**
 * Gives a copied tree TypeScript 7 as its own dependency, from the test cache (the registry then
 * runs its `tsc --lsp`). Imported only here: the test helpers set `SEXTANT_LSP_PATH` on load.
 */
async function linkTypeScript7Into(root: string): Promise<void> {
  const lspPath = Deno.env.get(LSP_PATH_ENV);
  const { hasTypeScript7, linkTypeScript7 } = await import("../../tests/helpers/lsp.ts");
  if (lspPath !== undefined) Deno.env.set(LSP_PATH_ENV, lspPath);
  if (!hasTypeScript7()) {
    throw new Error("TypeScript 7 is not in .cache/lsp/ts7: run scripts/checks/test_setup.ts");
  }
  for (const old of ["typescript", ".bin/tsc"]) {
    await Deno.remove(join(root, "node_modules", old), { recursive: true }).catch(() => {});
  }
  await linkTypeScript7(root);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      ext: { type: "string" },
      all: { type: "boolean", default: false },
      limit: { type: "string" },
      show: { type: "string", default: "5" },
      "in-place": { type: "boolean", default: false },
      // With --all: also print the differences of files not exact for this reason.
      reason: { type: "string" },
      concurrency: { type: "string", default: "8" },
      // 7: the copy depends on TypeScript 7 (the test cache's), so its own server answers.
      typescript: { type: "string" },
    },
    allowPositionals: true,
  });
  const dir = positionals[0];
  if (!dir) {
    console.error(
      "usage: deno run -A scripts/checks/index_agreement.ts <project dir> [--ext .ts,.js]",
    );
    return 2;
  }
  const native = values.typescript === "7";
  if (values.typescript !== undefined && !native) {
    console.error("--typescript: only 7 (TypeScript 7's own server) can be chosen");
    return 2;
  }
  if (native && values["in-place"]) {
    console.error("--typescript 7 links TypeScript 7 into the copy: not with --in-place");
    return 2;
  }
  if (!Deno.env.get(LSP_PATH_ENV)) {
    Deno.env.set(LSP_PATH_ENV, join(new URL("../..", import.meta.url).pathname, ".cache", "lsp"));
  }
  const source = Deno.realPathSync(dir);
  let root = source;
  let temp: string | null = null;
  if (!values["in-place"]) {
    temp = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-agreement-" }));
    root = join(temp, basename(source));
    await copyTree(source, root);
    if (native) await linkTypeScript7Into(root);
  }
  try {
    const result = await agreement(root, {
      exts: values.ext ? new Set(values.ext.split(",").map((e) => e.trim())) : null,
      all: values.all,
      reason: values.reason,
      limit: values.limit ? Number(values.limit) : undefined,
      show: Number(values.show),
      concurrency: Number(values.concurrency),
      progress: (line) => console.error(line),
    });
    for (const f of result.failures) console.error(f);
    for (const line of reportLines(source, result, values.all)) console.log(line);
    const others = [...result.typescriptServers].filter((s) => !s.startsWith("typescript-go"));
    if (native && others.length > 0) {
      console.log(`\nasked for TypeScript 7, but other servers answered: ${others.join(", ")}`);
      return 1;
    }
    if (result.unexplained.length > 0) {
      console.log(`\nfiles not exact for '${values.reason}' that differ from the server:`);
      for (const d of result.unexplained) console.log(d);
    }
    if (result.disagreements.length > 0) {
      console.log("\nexact files that disagree with the server (a bug):");
      for (const d of result.disagreements) console.log(d);
    }
    return result.total.disagree > 0 || result.total.failed > 0 ? 1 : 0;
  } finally {
    if (temp) await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await main());
