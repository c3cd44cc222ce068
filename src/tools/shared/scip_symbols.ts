/**
 * find_symbol answered from the project's SCIP index (symbols/scip/), for the files unchanged
 * since it was built whose symbols the index gives exactly as the language server would
 * (symbols/scip/symbol_table.ts). Every other file of the scope that may hold a match, changed
 * since, of another language, or holding a declaration of the name the index cannot place, is
 * answered by the live path (the server, or the declaration index where it is exact), or named
 * as not analysed when that cannot run. The matches have the live answer's form; a one-line
 * note says where they came from.
 * @module
 */
import { mapLimit } from "../../map_limit.ts";
import { wordOccurrences } from "../../symbols/occurrences.ts";
import { type FileSymbols, prefilterNeedle, type SymbolMatch } from "../../symbols/lookup.ts";
import { findInTree, type FindOptions, type NamePathPattern } from "../../symbols/name_path.ts";
import type { ScipState } from "../../symbols/scip/project_scip.ts";
import { indexedOutline, outlineLanguage } from "../../symbols/scip/symbol_table.ts";
import type { ToolContext } from "../tool.ts";
import { indexOf, requestOptions } from "./locate_symbol.ts";

/** Files read at once. */
const READ_CONCURRENCY = 32;

/** What find_symbol asks. */
export interface SymbolQuery {
  pattern: NamePathPattern;
  findOptions: FindOptions;
  scope: { relPath: string; isDirectory: boolean };
  /** Child levels: children are not answered from the index. */
  depth: number;
  /** Hover texts: only the server has them. */
  includeInfo: boolean;
}

/** The matches, in the live answer's order, and what the answer must say beside them. */
export interface IndexedSymbols {
  matches: SymbolMatch[];
  /** The one-line note on the source, and one naming files not analysed, if any. */
  notes: string[];
}

/** The index as it stands for this call, or null when the project has none (or it failed). */
export async function scipState(ctx: ToolContext): Promise<ScipState | null> {
  const scip = ctx.session.services(ctx.project()).scip;
  if ((await scip.locate()) === null) return null;
  return await scip.state((p) => {
    void ctx.progress(p.read, p.total, `loading the SCIP index (${p.documents} documents)`);
  });
}

/**
 * The matches of one file from the index, or null when the index cannot vouch for them: a
 * declaration in the file that could match is one it cannot place as the server would, or an
 * occurrence of the name in code is one it did not index.
 */
export function fileMatchesFromIndex(
  state: ScipState,
  relPath: string,
  text: string,
  query: Pick<SymbolQuery, "pattern" | "findOptions">,
  needle: string,
  /** Only the name paths must be the server's (a question's target), not kinds or ranges. */
  namesOnly = false,
): SymbolMatch[] | null {
  const language = outlineLanguage(relPath);
  if (language === null || !state.index.has(relPath) || state.stale.has(relPath)) return null;
  // tsserver names callbacks after their callee ("list.map() callback"): a substring of any
  // call's name may be one.
  if (query.findOptions.substring && language === "typescript") return null;
  const lines = text.split("\n");
  const outline = indexedOutline(state.index, relPath, lines);
  if (outline === null) return null;
  const trusted = namesOnly ? outline.placed : outline.vouched;
  const words = query.findOptions.substring
    ? [
      ...new Set(
        text.match(new RegExp(`[\\p{L}\\p{N}_$]*${escape(needle)}[\\p{L}\\p{N}_$]*`, "gu")),
      ),
    ]
    : [needle];
  for (const word of words) {
    for (const o of wordOccurrences(text, word, relPath)) {
      if (o.site !== "code") continue;
      const key = `${o.line}:${o.character}`;
      if (outline.definitionAt.has(key)) {
        const node = outline.definitionAt.get(key);
        if (node === null || node === undefined || !trusted.has(node)) return null;
      } else if (state.index.symbolAt(relPath, o.line, o.character) === null) {
        return null;
      } else if (language === "typescript" && maybeMember(lines, o.line, o.character, word)) {
        return null;
      } else if (language === "python" && maybeAssigned(lines[o.line]!, o.character, word)) {
        return null;
      }
    }
  }
  const named = findInTree(outline.roots, query.pattern, {
    substring: query.findOptions.substring ?? false,
  });
  if (named.some((n) => !trusted.has(n))) return null;
  const file: FileSymbols = { relPath, text, roots: outline.roots, cached: true };
  return findInTree(outline.roots, query.pattern, query.findOptions).map((node) => ({
    node,
    file,
  }));
}

/**
 * Whether the name at `character` may declare a member, which tsserver outlines where
 * scip-typescript records a reference to a declared property: an object literal's
 * (`{ args: [] }`, `{ columns }`, `{ handler() {…} }`), or one JavaScript assigns
 * (`this.release = (err) => {…}`). A call that starts a line or follows a comma, and a
 * ternary's `a ? b : c`, look alike and are counted too: their file goes to the live path.
 */
function maybeMember(
  lines: readonly string[],
  at: number,
  character: number,
  word: string,
): boolean {
  const line = lines[at]!;
  const before = line.slice(0, character).trimEnd();
  const after = line.slice(character + word.length).trimStart();
  if (after.startsWith(":") && !after.startsWith("::")) return true;
  // JavaScript's `this.x = …`, `X.prototype.y = …`, `exports.z = …` declare members.
  if (before.endsWith(".") && /^=(?![=>])/.test(after)) return true;
  const listed = before === "" || before.endsWith("{") || before.endsWith(",");
  if (!listed) return false;
  if (after.startsWith("(")) return /\{\s*$/.test(after);
  if (!(after === "" || after.startsWith(",") || after.startsWith("}"))) return false;
  return !inImportList(lines, at, character);
}

/**
 * Whether the name at `character` is assigned (`self.cli = …`, `x: int = …`, `a, b = …`):
 * pyright outlines an assignment as a variable where scip-python may record a reference (to the
 * attribute a base class declares, or to a name assigned before).
 */
function maybeAssigned(line: string, character: number, word: string): boolean {
  const after = line.slice(character + word.length);
  if (/^\s*(?::(?!=)|(?:[-+*/%&|^@]|\/\/|\*\*|>>|<<)?=(?!=))/.test(after)) return true;
  return /^\s*,/.test(after) && /[^=!<>]=(?!=)/.test(after);
}

/**
 * Whether the position lies in the braces of an `import { … }` or `export { … }` (the `{` found
 * by counting braces back, at most 200 lines): a name listed there is no object's member.
 */
function inImportList(lines: readonly string[], at: number, character: number): boolean {
  let depth = 0;
  for (let l = at; l >= 0 && l > at - 200; l--) {
    const text = l === at ? lines[l]!.slice(0, character) : lines[l]!;
    for (let c = text.length - 1; c >= 0; c--) {
      if (text[c] === "}") depth++;
      else if (text[c] === "{" && depth-- === 0) {
        return /^\s*(?:import|export)\s+(?:type\s+)?\{$/.test(text.slice(0, c + 1));
      }
    }
  }
  return false;
}

/**
 * The files of a folder that may declare a match: those a language server handles, and those of
 * the index's languages, indexed or new, that a walk of the project does not leave out (the
 * index answers for them even when their server cannot run). Once the declaration index is built,
 * only the files it says declare the name (and those it does not parse), as on the live path;
 * before, every such file (its text is searched for the name), and the build is started.
 */
async function filesInScope(
  ctx: ToolContext,
  state: ScipState,
  scope: string,
  name: string,
  substring: boolean,
): Promise<string[]> {
  const project = ctx.project();
  const lookup = indexOf(ctx);
  const within = (p: string) => scope === "." || p.startsWith(`${scope}/`);
  const indexed = (p: string) =>
    (state.index.has(p) || state.stale.has(p)) && !project.isLeftOut(p, false);
  const declarations = lookup.declarations;
  if (
    declarations !== null && declarations.built &&
    project.nonProject.reasonDeep(scope, true) === null
  ) {
    try {
      await declarations.ready({ signal: ctx.signal });
      const files = new Set([
        ...declarations.candidates(name, { substring, scope }),
        ...declarations.otherFiles(scope),
        ...[...state.stale].filter(within),
      ]);
      return [...files].filter((p) => lookup.isSourceFile(p) || indexed(p)).sort();
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // Not buildable: every file is read, as below.
    }
  }
  lookup.startDeclarations();
  const files = new Set(await lookup.sourceFiles(scope, ctx.signal));
  for (const relPath of [...state.index.paths(), ...state.stale]) {
    if (!files.has(relPath) && within(relPath) && indexed(relPath)) files.add(relPath);
  }
  return [...files].sort();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * find_symbol's matches with the index, or null when the index cannot take part: no index,
 * children or hover texts asked, a name servers invent, a file scope the index cannot vouch
 * for, or no file answered from it at all (then the live path answers as without an index).
 */
export async function symbolsFromIndex(
  ctx: ToolContext,
  query: SymbolQuery,
): Promise<IndexedSymbols | null> {
  if (query.depth > 0 || query.includeInfo) return null;
  const needle = prefilterNeedle(query.pattern);
  const last = query.pattern.segments[query.pattern.segments.length - 1]!.name;
  if (needle === null || needle !== last) return null;
  const project = ctx.project();
  if (!/^utf-?8$/i.test(project.settings.encoding)) return null;
  const state = await scipState(ctx);
  if (state === null) return null;
  const lookup = indexOf(ctx);
  const options = requestOptions(ctx);
  const files = query.scope.isDirectory
    ? await filesInScope(
      ctx,
      state,
      query.scope.relPath,
      needle,
      query.findOptions.substring ?? false,
    )
    : [query.scope.relPath];
  let fromIndex = 0;
  const live: string[] = [];
  const perFile = await mapLimit(files, READ_CONCURRENCY, async (relPath) => {
    ctx.signal.throwIfAborted();
    let text: string;
    try {
      text = await Deno.readTextFile(project.absolute(relPath));
    } catch {
      return []; // vanished: no symbols, as on the live path
    }
    if (text.includes("\r\n")) text = text.replace(/\r\n/g, "\n");
    if (!text.includes(needle)) return [];
    const indexed = fileMatchesFromIndex(state, relPath, text, query, needle);
    if (indexed !== null) {
      fromIndex++;
      return indexed;
    }
    live.push(relPath);
    return undefined;
  });
  if (fromIndex === 0) return null;
  // The files the index cannot answer, from the live path, one by one.
  const notAnalysed: string[] = [];
  const liveMatches = new Map<string, SymbolMatch[]>();
  for (const relPath of live.sort()) {
    try {
      const file = await lookup.fileSymbols(relPath, options);
      liveMatches.set(
        relPath,
        findInTree(file.roots, query.pattern, query.findOptions).map((node) => ({ node, file })),
      );
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // Only a file the index once held may be left out; for any other the error is the
      // live path's, as without an index.
      if (!state.index.has(relPath) && !state.stale.has(relPath)) throw error;
      notAnalysed.push(relPath);
    }
  }
  const matches = files.flatMap((relPath, i) => perFile[i] ?? liveMatches.get(relPath) ?? []);
  const tool = [...state.index.tools].join(", ") || "an indexer";
  const asked = live.length - notAnalysed.length;
  const notes = [
    `Answered from the SCIP index (${tool}) for ${fromIndex} file${fromIndex === 1 ? "" : "s"} ` +
    `unchanged since it was built` +
    (asked > 0 ? `; ${asked} other${asked === 1 ? "" : "s"} from the language server.` : "."),
  ];
  if (notAnalysed.length > 0) {
    const reasons = notAnalysed.map((relPath) =>
      `${relPath} (${
        state.stale.has(relPath)
          ? "changed since the index"
          : "the index does not give its symbols as the language server would"
      })`
    );
    notes.push(`Not analysed, no language server could read them: ${reasons.join(", ")}`);
  }
  return { matches, notes };
}
