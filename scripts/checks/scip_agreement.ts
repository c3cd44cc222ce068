/**
 * Does find_references answered from a SCIP index agree with the live language server, on a real
 * project?
 *
 *     deno run -A scripts/checks/scip_agreement.ts <project dir> [--symbols 30] [--index PATH] [--json]
 *        [--name Flask/__init__ ...]
 *
 * The project is copied to a temporary folder (sessions write their caches into `.sextant/`) and
 * indexed there by `sextant index build`'s own code (symbols/scip/build.ts), unless `--index`
 * names an index built from the same content (its manifest `<PATH>.files` beside it). Then N
 * symbols are picked from the index's definitions, deterministically: classes, interfaces, type
 * aliases, functions and methods in turn, each kind's choices spread evenly over its definitions
 * in path order. find_references is asked about each at its definition's name, once with the index
 * (no language server starts) and once without it (the live server: tsserver through
 * typescript-language-server, or pyright). Per symbol it prints "equal", or the locations only one
 * side lists, each with its cause ({@linkcode classifyDifference}). `--name` (repeatable) asks about
 * the definitions with that name path instead, whatever their kind.
 *
 * tests/symbols/scip_agreement_test.ts runs {@linkcode agreement} on typeorm (npm) and flask
 * (PyPI) and asserts the exact set of differences recorded there.
 * @module
 */
import { inProcessSession } from "../bench/lib/in_process.ts";
import { extname, join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "../../src/deps.ts";
import { applyParamAliases } from "../../src/tools/tool.ts";
import { findReferences } from "../../src/tools/ide/find_references.ts";
import { gotoDefinition } from "../../src/tools/ide/goto_definition.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { splitLines, toAgentPosition, toLspPosition } from "../../src/lsp/positions.ts";
import { ScipIndex } from "../../src/symbols/scip/scip_index.ts";
import { buildIndex } from "../../src/symbols/scip/build.ts";
import { manifestPath } from "../../src/symbols/scip/freshness.ts";
import { namePathOfSymbol } from "../../src/symbols/scip/descriptors.ts";

const REPO = new URL("../..", import.meta.url).pathname;

export type PickedKind = "class" | "interface" | "type" | "function" | "method" | "other";
const KINDS: readonly PickedKind[] = ["class", "interface", "type", "function", "method", "other"];

/** A symbol asked about: where its name is defined (1-based line, code-point column). */
export interface PickedSymbol {
  kind: PickedKind;
  /** Its name path (`Repository/find`). */
  name: string;
  /** Its SCIP symbol. */
  scip: string;
  file: string;
  line: number;
  column: number;
}

/** One location only one side listed, and why. */
export interface Difference {
  /** `file:line:column`. */
  location: string;
  side: "only-index" | "only-server";
  cause: string;
}

export interface SymbolAgreement {
  symbol: PickedSymbol;
  index: number;
  server: number;
  differences: Difference[];
  /** The live answer's not_analysed lines (occurrences the server could not account for). */
  notAnalysed: string[];
  /** The live server failed the question (its error); no comparison then. */
  serverError?: string;
}

interface Located {
  file?: string;
  line?: number;
  column?: number;
}

interface Answer {
  references: Array<{ file: string; line: number; column: number }>;
  not_analysed?: string[];
  note?: string;
}

/**
 * An answer with its references as entries, whichever form it took: a list, or, past grep's cost,
 * `"line:column preview"` strings per file.
 */
function asEntries(
  raw: Omit<Answer, "references"> & { references: Answer["references"] | Record<string, string[]> },
): Answer {
  if (Array.isArray(raw.references)) return raw as Answer;
  const references = Object.entries(raw.references).flatMap(([file, places]) =>
    places.map((place) => {
      const [line, column] = place.split(" ")[0]!.split(":").map(Number);
      return { file, line: line!, column: column! };
    })
  );
  return { ...raw, references };
}

/** The kind of a SCIP symbol as the agreement counts it, from its descriptors and its line. */
function kindOf(symbol: string, line: string): PickedKind | null {
  if (symbol.startsWith("local ") || symbol.includes("<constructor>")) return null;
  if (symbol.endsWith(").")) {
    // A method's descriptor follows its type's (`Repository#find().`).
    const owner = symbol.slice(0, symbol.lastIndexOf("(")).replace(/(`[^`]*`|[^#/.:`]+)$/, "");
    return owner.endsWith("#") ? "method" : "function";
  }
  if (!symbol.endsWith("#")) return null;
  if (/\bclass\s/.test(line)) return "class";
  if (/\binterface\s/.test(line)) return "interface";
  if (/\btype\s/.test(line)) return "type";
  return null;
}

/**
 * N symbols of the index, deterministic: the definitions of each kind in path and position order,
 * taken at even steps, the kinds in turn (a kind with too few leaves its share to the others).
 */
export async function pickSymbols(
  root: string,
  index: ScipIndex,
  count: number,
  names: readonly string[] = [],
): Promise<PickedSymbol[]> {
  const byKind = new Map<PickedKind, PickedSymbol[]>(KINDS.map((k) => [k, []]));
  const seen = new Set<number>();
  for (const rel of [...index.paths()].sort()) {
    let lines: string[];
    try {
      lines = splitLines(await Deno.readTextFile(join(root, rel)));
    } catch {
      continue;
    }
    for (const d of index.definitionsIn(rel)) {
      if (seen.has(d.symbol)) continue;
      seen.add(d.symbol);
      const symbol = index.symbolName(d.symbol);
      const segments = namePathOfSymbol(symbol);
      if (segments === null || segments.length === 0 || symbol.startsWith("local ")) continue;
      // Named symbols are taken whatever their kind (a property, a constructor, `__init__`).
      const named = names.includes(segments.join("/"));
      if (names.length > 0 && !named) continue;
      const kind = kindOf(symbol, lines[d.range[0]] ?? "") ?? (named ? "other" : null);
      if (kind === null) continue;
      const at = toAgentPosition(lines, { line: d.range[0], character: d.range[1] });
      byKind.get(kind)!.push({ kind, name: segments.join("/"), scip: symbol, file: rel, ...at });
    }
  }
  const share = new Map<PickedKind, number>(KINDS.map((k) => [k, 0]));
  let left = count;
  while (left > 0) {
    let gave = false;
    for (const kind of KINDS) {
      if (left === 0) break;
      if (share.get(kind)! < byKind.get(kind)!.length) {
        share.set(kind, share.get(kind)! + 1);
        left--;
        gave = true;
      }
    }
    if (!gave) break;
  }
  const out: PickedSymbol[] = [];
  for (const kind of KINDS) {
    const all = byKind.get(kind)!;
    const n = share.get(kind)!;
    for (let k = 0; k < n; k++) out.push(all[Math.floor(((k + 0.5) * all.length) / n)]!);
  }
  return out;
}

/** A session on `root` and a way to call find_references in it. */
async function openSession(root: string) {
  const { ctx, dispose } = await inProcessSession(root);
  const ask = async (s: PickedSymbol): Promise<Answer> => {
    const args = z.strictObject(findReferences.params).parse(
      applyParamAliases(findReferences, {
        relative_path: s.file,
        line: s.line,
        column: s.column,
      }),
    ) as Parameters<typeof findReferences.handler>[0];
    const answer = await findReferences.handler(args, ctx);
    return asEntries(JSON.parse(typeof answer === "string" ? answer : answer.text));
  };
  const definitions = async (file: string, line: number, column: number): Promise<string[]> => {
    const args = z.strictObject(gotoDefinition.params).parse(
      applyParamAliases(gotoDefinition, { relative_path: file, line, column }),
    ) as Parameters<typeof gotoDefinition.handler>[0];
    try {
      const answer = await gotoDefinition.handler(args, ctx);
      const found: { locations?: Located[] } & Located = JSON.parse(
        typeof answer === "string" ? answer : answer.text,
      );
      return (found.locations ?? [found]).map((l) => `${l.file}:${l.line}:${l.column}`);
    } catch {
      return [];
    }
  };
  return { ask, definitions, dispose };
}

const keyOf = (r: { file: string; line: number; column: number }) =>
  `${r.file}:${r.line}:${r.column}`;

/** The text of a location's line, what comes before it, and the identifier that starts there. */
async function lineAt(
  root: string,
  location: string,
): Promise<{ file: string; line: number; column: number; before: string; word: string }> {
  const match = /^(.*):(\d+):(\d+)$/.exec(location)!;
  const [file, line, column] = [match[1]!, Number(match[2]), Number(match[3])];
  let text = "";
  try {
    text = splitLines(await Deno.readTextFile(join(root, file)))[line - 1] ?? "";
  } catch {
    // Gone: no text to classify by.
  }
  const chars = [...text];
  const rest = chars.slice(column - 1).join("");
  return {
    file,
    line,
    column,
    before: chars.slice(0, column - 1).join(""),
    word: /^[\p{L}\p{N}_$]*/u.exec(rest)?.[0] ?? "",
  };
}

/** The causes found on typeorm and flask (docs/scale.md, "Known differences"). */
export const CAUSES = {
  typeAndValue: "scip-typescript files a value use (`typeof X`) of a name that is also a type " +
    "under the type too",
  commonjsExport: "scip-typescript files CommonJS's `exports.name` under the exported function",
  serverLeftOut: "the server resolves it to the symbol (goto_definition) but leaves it out of " +
    "its references",
  familyLeftOut: "the server resolves it to a method the symbol implements or overrides, or " +
    "another implementation of that (goto_definition), but leaves it out of its references",
  sharedSymbol: "the indexer gives one symbol to several definitions of the name",
  localInIndex: "the indexer makes it a local symbol of its file",
  noOccurrence: "the index has no occurrence here",
  string: "the server counts the name in a string",
  unexplained: "unexplained",
} as const;

/** What the live session can say about a location, for the classification. */
type Definitions = (file: string, line: number, column: number) => Promise<string[]>;

/**
 * Why one side lists a location the other does not: from the text there, what the index has
 * there, and (for a location only the index lists) where the live server's goto_definition
 * leads from it. Anything else is "unexplained".
 */
export async function classifyDifference(
  root: string,
  index: ScipIndex,
  symbol: PickedSymbol,
  location: string,
  side: Difference["side"],
  definitionsAt: Definitions,
  family: ReadonlySet<string>,
): Promise<string> {
  const { file, line, column, before, word } = await lineAt(root, location);
  const name = symbol.name.split("/").pop()!;
  const lines = splitLines(await Deno.readTextFile(join(root, file)).catch(() => ""));
  const lsp = toLspPosition(lines, line, column, file);
  const there = index.symbolAt(file, lsp.line, lsp.character);
  if (side === "only-server") {
    if (/["']$/.test(before)) return CAUSES.string;
    if (there === null) return CAUSES.noOccurrence;
    const thereName = index.symbolName(there);
    if (thereName.startsWith("local ")) return CAUSES.localInIndex;
    const packageOf = (s: string) => s.split(" ").slice(1, 4).join(" ");
    if (packageOf(thereName) !== packageOf(symbol.scip)) {
      return `the indexer resolves it to another package's symbol (${packageOf(thereName)})`;
    }
    return `the index files it under ${thereName}`;
  }
  if (word !== name) return `another name at the location ('${word}')`;
  if (/\btypeof\s+$/.test(before)) return CAUSES.typeAndValue;
  if (/\bexports\.$/.test(before)) return CAUSES.commonjsExport;
  const asked = index.idOf(symbol.scip);
  if (asked !== null && index.definitionsOf(asked).length > 1) {
    const definitions = index.definitionsOf(asked).map((d) => `${d.relPath}:${d.range[0]}`);
    if (definitions.some((d) => d !== `${symbol.file}:${symbol.line - 1}`)) {
      return CAUSES.sharedSymbol;
    }
  }
  const leads = await definitionsAt(file, line, column);
  if (leads.includes(`${symbol.file}:${symbol.line}:${symbol.column}`)) return CAUSES.serverLeftOut;
  // A method's references include its family's (the methods it implements or overrides, and
  // their other implementations): a use that leads to one of those.
  if (leads.some((l) => family.has(l))) return CAUSES.familyLeftOut;
  return CAUSES.unexplained;
}

/** Where the symbol's reference family is defined (`file:line:column`, 1-based). */
async function familyDefinitions(
  root: string,
  index: ScipIndex,
  symbol: PickedSymbol,
): Promise<Set<string>> {
  const out = new Set<string>();
  const asked = index.idOf(symbol.scip);
  if (asked === null) return out;
  const lines = new Map<string, string[]>();
  for (const id of index.referenceFamilyOf(asked)) {
    for (const d of index.definitionsOf(id)) {
      let text = lines.get(d.relPath);
      if (text === undefined) {
        text = splitLines(await Deno.readTextFile(join(root, d.relPath)).catch(() => ""));
        lines.set(d.relPath, text);
      }
      const at = toAgentPosition(text, { line: d.range[0], character: d.range[1] });
      out.add(`${d.relPath}:${at.line}:${at.column}`);
    }
  }
  return out;
}

/** The agreement of index and live server on `root`, which has its index in `.sextant/`. */
export async function agreement(
  root: string,
  options: { symbols: number; names?: readonly string[]; log?: (line: string) => void },
): Promise<SymbolAgreement[]> {
  const log = options.log ?? (() => {});
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const indexFile = join(root, ".sextant", "index.scip");
  const index = await ScipIndex.load(indexFile);
  const picked = await pickSymbols(root, index, options.symbols, options.names ?? []);
  const fromIndex = new Map<PickedSymbol, Answer>();
  {
    const session = await openSession(root);
    try {
      for (const s of picked) {
        const answer = await session.ask(s);
        if (!answer.note?.startsWith("Answered from the SCIP index")) {
          throw new Error(`${s.name} (${keyOf(s)}) was not answered from the index`);
        }
        fromIndex.set(s, answer);
      }
    } finally {
      await session.dispose();
    }
  }
  // Without the index (moved aside): the live server answers.
  const aside = join(root, ".sextant", "index.scip.aside");
  await Deno.rename(indexFile, aside);
  const out: SymbolAgreement[] = [];
  try {
    const session = await openSession(root);
    try {
      for (const s of picked) {
        let live: Answer;
        try {
          live = await session.ask(s);
        } catch (error) {
          // A server's failure is reported, and the other symbols still compared.
          const serverError = error instanceof Error ? error.message.split("\n")[0]! : `${error}`;
          const row: SymbolAgreement = {
            symbol: s,
            index: fromIndex.get(s)!.references.length,
            server: 0,
            differences: [],
            notAnalysed: [],
            serverError,
          };
          log(describe(row));
          out.push(row);
          continue;
        }
        const indexed = fromIndex.get(s)!;
        const a = new Set(indexed.references.map(keyOf));
        const b = new Set(live.references.map(keyOf));
        const differences: Difference[] = [];
        let family: Set<string> | undefined;
        for (const k of [...a].filter((k) => !b.has(k)).sort()) {
          differences.push({
            location: k,
            side: "only-index",
            cause: await classifyDifference(
              root,
              index,
              s,
              k,
              "only-index",
              session.definitions,
              family ??= await familyDefinitions(root, index, s),
            ),
          });
        }
        for (const k of [...b].filter((k) => !a.has(k)).sort()) {
          differences.push({
            location: k,
            side: "only-server",
            cause: await classifyDifference(
              root,
              index,
              s,
              k,
              "only-server",
              session.definitions,
              new Set(),
            ),
          });
        }
        const row: SymbolAgreement = {
          symbol: s,
          index: a.size,
          server: b.size,
          differences,
          notAnalysed: live.not_analysed ?? [],
        };
        log(describe(row));
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

/** One symbol's line (and its differences') for the report. */
export function describe(row: SymbolAgreement): string {
  const s = row.symbol;
  const head = `${s.kind} ${s.name} (${keyOf(s)}): `;
  if (row.serverError !== undefined) return `${head}the live server failed: ${row.serverError}`;
  const unexplained = row.notAnalysed.length === 0
    ? ""
    : `\n    (the live answer also names ${row.notAnalysed.length} occurrences not analysed)`;
  if (row.differences.length === 0) {
    return `${head}equal (${row.index} references)${unexplained}`;
  }
  return `${head}index ${row.index}, server ${row.server}\n` +
    row.differences.map((d) => `    ${d.side} ${d.location}: ${d.cause}`).join("\n") +
    unexplained;
}

export async function copyProject(
  from: string,
): Promise<{ root: string; dispose: () => Promise<void> }> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-scip-agreement-" }));
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
    options: {
      symbols: { type: "string", default: "30" },
      index: { type: "string" },
      json: { type: "boolean", default: false },
      name: { type: "string", multiple: true, default: [] },
    },
  });
  const source = positionals[0];
  if (!source) {
    console.error("usage: scip_agreement.ts <project dir> [--symbols 30] [--index PATH] [--json]");
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
    const rows = await agreement(copy.root, {
      symbols: Number(values.symbols),
      names: values.name,
      log: (line) => values.json || console.log(line),
    });
    const equal = rows.filter((r) => r.differences.length === 0 && !r.serverError).length;
    if (values.json) console.log(JSON.stringify(rows, null, 1));
    else console.log(`\n${equal} equal of ${rows.length} (${extname(source) || source})`);
  } finally {
    await copy.dispose();
  }
}
