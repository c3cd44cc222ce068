/**
 * The dev-tools symbol tools, for every language: `get_symbol_info` (where a symbol is defined,
 * its kind, signature and documentation from hover, its source) and `find_symbol_usages` (every
 * reference, grouped by file, with 1-based line/column and a one-line preview). A symbol is
 * found by name path in the selected project (smart project selection), optionally narrowed by
 * a file hint; an ambiguous name answers with the candidates.
 *
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import { importsAreDeclarations } from "../../symbols/typescript_native.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { type NamePathPattern, parseNamePath } from "../../symbols/name_path.ts";
import { preview, splitLines, toAgentPosition } from "../../lsp/positions.ts";
import {
  comparePositions,
  CONTAINER_KINDS,
  containingSymbol,
  namePathOf,
  type Position,
  symbolKindName,
  type SymbolNode,
} from "../../symbols/model.ts";
import { lineStarts, offsetAt } from "../../edit/line_index.ts";
import type { FileSymbols, SymbolLookup, SymbolMatch } from "../../symbols/lookup.ts";
import { mapLimit } from "../../map_limit.ts";
import {
  isImportLine,
  namePosition,
  normalizeLocations,
  projectPathOf,
} from "../../symbols/queries.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import type { Project } from "../../project/project.ts";
import { requestOptions } from "../shared/locate_symbol.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";
import { maxAnswerChars, projectNameParam } from "../shared/params.ts";
import { splitHover } from "../shared/hover_markup.ts";
import { selectProject } from "../shared/project_selection.ts";
import { toJson } from "../shared/json.ts";

/** Files a partial file hint may select at most. */
const MAX_HINT_FILES = 50;
/** Candidates listed for an ambiguous name. */
const MAX_CANDIDATES = 20;
/** Lines of definition code shown before it is cut. */
const MAX_CODE_LINES = 300;
/** Direct members listed for a class-like symbol. */
const MAX_MEMBERS = 60;

/** Kinds that declare something (preferred over variables and fields of the same name). */
const DECLARATION_KINDS = CONTAINER_KINDS;

const params = {
  symbol_name: z.string().min(1).describe(
    "The symbol's name, or a name path to disambiguate: 'Circle', 'Circle/area'.",
  ),
  file_hint: z.string().optional().describe(
    "A file or folder to look in; may be partial ('shapes.ts', 'src/models').",
  ),
  project_name: projectNameParam,
  max_answer_chars: maxAnswerChars,
};

/** One symbol as found: its overloads (same name path in one file) count as one. */
export interface SymbolGroup {
  /** Document order; the first is the one queried. */
  members: SymbolMatch[];
}

/** What a name (and hint) resolved to. */
export type Resolution =
  | { kind: "found"; group: SymbolGroup; note?: string }
  | { kind: "ambiguous"; groups: SymbolGroup[]; note?: string };

/** Name path without overload indexes: overloads share it. */
export function baseNamePath(node: SymbolNode): string {
  return namePathOf(node).replace(/\[\d+\]/g, "");
}

function groupMatches(matches: readonly SymbolMatch[]): SymbolGroup[] {
  const groups = new Map<string, SymbolGroup>();
  for (const match of matches) {
    const key = `${match.node.relPath}\0${baseNamePath(match.node)}`;
    const group = groups.get(key);
    if (group) group.members.push(match);
    else groups.set(key, { members: [match] });
  }
  return [...groups.values()];
}

/**
 * The most relevant group: the only one; else the only one whose name path is exactly the
 * pattern; else the only declaration (class, function, method, ...) among those exact ones (among
 * all when none is exact). Null: ambiguous.
 */
function pickGroup(groups: readonly SymbolGroup[], pattern: NamePathPattern): SymbolGroup | null {
  if (groups.length === 1) return groups[0]!;
  const wanted = pattern.text.replace(/^\/+/, "").replace(/\[\d+\]/g, "");
  const exact = groups.filter((g) => baseNamePath(g.members[0]!.node) === wanted);
  if (exact.length === 1) return exact[0]!;
  const pool = exact.length > 0 ? exact : groups;
  const declarations = pool.filter((g) => DECLARATION_KINDS.has(g.members[0]!.node.kind));
  return declarations.length === 1 ? declarations[0]! : null;
}

/** Project-relative posix form of a hint (`./src\a.ts` → `src/a.ts`; absolute inside root). */
function normalizeHint(project: Project, hint: string): string {
  let h = hint.trim().replaceAll("\\", "/");
  const root = project.root.endsWith("/") ? project.root : `${project.root}/`;
  if (h.startsWith(root)) h = h.slice(root.length);
  return h.replace(/^\.\//, "").replace(/\/+$/, "");
}

/**
 * The files and folders a hint selects: an existing path as it is; else source files whose path
 * ends with the hint, else contains it, else whose name without extension is the hint.
 */
async function hintScopes(
  project: Project,
  index: SymbolLookup,
  hint: string,
  signal: AbortSignal,
): Promise<Array<{ relPath: string; isDirectory: boolean }>> {
  const h = normalizeHint(project, hint);
  if (h === "" || h === ".") return [{ relPath: ".", isDirectory: true }];
  try {
    const resolved = project.resolve(h);
    if (resolved.exists) {
      return [{
        relPath: resolved.relative,
        isDirectory: Deno.statSync(resolved.real).isDirectory,
      }];
    }
  } catch { /* outside the project, ignored or odd: try it as a partial name */ }
  const files = await index.sourceFiles(".", signal);
  const lower = h.toLowerCase();
  const stem = (f: string) => f.slice(f.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "").toLowerCase();
  const tiers = [
    files.filter((f) => f.toLowerCase().endsWith(`/${lower}`)),
    files.filter((f) => f.toLowerCase().includes(lower)),
    files.filter((f) => stem(f) === lower),
  ];
  const chosen = tiers.find((t) => t.length > 0);
  if (!chosen) {
    throw new ToolError(
      `No file of project '${project.name}' matches file_hint '${hint}'. Give a path relative ` +
        "to the project root, a file name, or omit file_hint to search the whole project.",
    );
  }
  return chosen.slice(0, MAX_HINT_FILES).map((relPath) => ({ relPath, isDirectory: false }));
}

async function findIn(
  index: SymbolLookup,
  pattern: NamePathPattern,
  scopes: ReadonlyArray<{ relPath: string; isDirectory: boolean }>,
  options: RequestOptions,
  substring = false,
): Promise<SymbolMatch[]> {
  const found: SymbolMatch[] = [];
  for (const scope of scopes) {
    found.push(...await index.find(pattern, { substring }, scope, options));
  }
  return found;
}

/**
 * Find the symbol a name (and optional hint) means in the project (also rename_symbol's dev-tools
 * form).
 */
export async function resolveSymbol(
  ctx: ToolContext,
  project: Project,
  index: SymbolLookup,
  symbolName: string,
  fileHint: string | undefined,
): Promise<Resolution> {
  const pattern = parseNamePath(symbolName);
  const options = requestOptions(ctx);
  const whole = [{ relPath: ".", isDirectory: true }];
  const hinted = fileHint?.trim() ? await hintScopes(project, index, fileHint, ctx.signal) : null;
  let matches = await findIn(index, pattern, hinted ?? whole, options);
  let note: string | undefined;
  if (matches.length === 0 && hinted) {
    matches = await findIn(index, pattern, whole, options);
    if (matches.length > 0) {
      note = `Nothing named '${pattern.text}' in the files file_hint '${fileHint}' selects; ` +
        "found elsewhere in the project.";
    }
  }
  if (matches.length === 0) {
    const close = await findIn(index, pattern, whole, options, true);
    const names = [...new Set(close.map((m) => `${namePathOf(m.node)} (${m.node.relPath})`))];
    throw new ToolError(
      `No symbol '${pattern.text}' in project '${project.name}'.` +
        (names.length > 0
          ? ` Symbols containing it: ${names.slice(0, 10).join(", ")}.`
          : " Check the spelling, or search with find_symbol (substring_matching=true)."),
    );
  }
  const groups = groupMatches(matches);
  const group = pickGroup(groups, pattern);
  if (group) return { kind: "found", group, ...(note ? { note } : {}) };
  return { kind: "ambiguous", groups, ...(note ? { note } : {}) };
}

/** The answer for an ambiguous name: the candidates and how to choose. */
function ambiguousAnswer(
  project: Project,
  symbolName: string,
  groups: readonly SymbolGroup[],
  note?: string,
): string {
  const candidates = groups.slice(0, MAX_CANDIDATES).map((g) => {
    const node = g.members[0]!.node;
    const lines = splitLines(g.members[0]!.file.text);
    return {
      name_path: baseNamePath(node),
      kind: symbolKindName(node.kind),
      file_path: node.relPath,
      line: toAgentPosition(lines, node.selectionRange.start).line,
      ...(g.members.length > 1 ? { overloads: g.members.length } : {}),
    };
  });
  return toJson({
    project: project.name,
    symbol: symbolName,
    ambiguous: true,
    candidates,
    ...(groups.length > MAX_CANDIDATES ? { more: groups.length - MAX_CANDIDATES } : {}),
    note: [
      note,
      `${groups.length} symbols match '${symbolName}'. Pass file_hint (the candidate's ` +
      "file_path) or a longer name path (e.g. 'Class/method') to choose one.",
    ].filter(Boolean).join(" "),
  });
}

/** The source text spanning every member of a group (overloads are usually adjacent). */
function definitionCode(group: SymbolGroup): string {
  const text = group.members[0]!.file.text;
  let start: Position = group.members[0]!.node.range.start;
  let end: Position = group.members[0]!.node.range.end;
  for (const { node } of group.members) {
    if (comparePositions(node.range.start, start) < 0) start = node.range.start;
    if (comparePositions(node.range.end, end) > 0) end = node.range.end;
  }
  const starts = lineStarts(text);
  // From the start of the first line, so the indentation of every line is kept.
  return text.slice(
    offsetAt(text, starts, { line: start.line, character: 0 }),
    offsetAt(text, starts, end),
  );
}

function clipLines(code: string, max: number): string {
  const lines = code.split("\n");
  if (lines.length <= max) return code;
  return `${lines.slice(0, max).join("\n")}\n… (${lines.length - max} more lines)`;
}

/** Hover of a symbol's name: signature (code) and documentation (prose); empty when none. */
async function hoverOf(
  index: SymbolLookup,
  node: SymbolNode,
  options: RequestOptions,
): Promise<{ code: string; prose: string }> {
  try {
    const server = await index.pool.serverFor(node.relPath, options);
    const result = await server.request<{ contents?: unknown } | null>(
      LspMethod.hover,
      { textDocument: { uri: server.uriOf(node.relPath) }, position: node.selectionRange.start },
      { ...options, sync: [node.relPath] },
    );
    return splitHover(result?.contents);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { code: "", prose: "" };
  }
}

/** Where a symbol is, in the 1-based form the answers use. */
function locationOf(match: SymbolMatch): Record<string, unknown> {
  const lines = splitLines(match.file.text);
  const name = toAgentPosition(lines, match.node.selectionRange.start);
  return {
    file_path: match.node.relPath,
    line: name.line,
    column: name.column,
  };
}

export const getSymbolInfo = defineTool({
  name: "get_symbol_info",
  description: "Everything about one symbol, found by name in the project (no file or position " +
    "needed): its kind, file and 1-based position, signature and documentation (the language " +
    "server's hover), direct members, and its source code. file_hint (a file or folder, may be " +
    "partial) narrows the search. An ambiguous name returns the candidates instead. Returns " +
    '{"symbol", "name_path", "kind", "file_path", "line", "column", "position": {"start_line", ' +
    '"end_line"}, "signature", "documentation", "members", "definition_code"}.',
  params,
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const project = selectProject(ctx, args.project_name);
    const index = ctx.session.services(project).symbols;
    const resolution = await resolveSymbol(ctx, project, index, args.symbol_name, args.file_hint);
    if (resolution.kind === "ambiguous") {
      return ambiguousAnswer(project, args.symbol_name, resolution.groups, resolution.note);
    }
    const { group } = resolution;
    const first = group.members[0]!;
    const node = first.node;
    const last = group.members[group.members.length - 1]!.node;
    const hover = await hoverOf(index, node, requestOptions(ctx));
    const members = node.children.slice(0, MAX_MEMBERS).map((c) =>
      `${namePathOf(c).slice(namePathOf(node).length + 1)} (${symbolKindName(c.kind)})`
    );
    const code = definitionCode(group);
    const base: Record<string, unknown> = {
      project: project.name,
      symbol: node.name,
      name_path: baseNamePath(node),
      kind: symbolKindName(node.kind),
      ...locationOf(first),
      position: {
        start_line: node.range.start.line + 1,
        end_line: Math.max(node.range.end.line, last.range.end.line) + 1,
      },
      ...(group.members.length > 1 ? { overloads: group.members.length } : {}),
      ...(hover.code ? { signature: hover.code } : {}),
      ...(hover.prose ? { documentation: hover.prose } : {}),
      ...(members.length > 0 ? { members } : {}),
      ...(node.children.length > MAX_MEMBERS
        ? { more_members: node.children.length - MAX_MEMBERS }
        : {}),
      ...(resolution.note ? { note: resolution.note } : {}),
    };
    const answer: ToolAnswer = {
      text: toJson({ ...base, definition_code: clipLines(code, MAX_CODE_LINES) }),
      shorter: [
        {
          note: "(definition code cut to fit max_answer_chars)",
          text: () => toJson({ ...base, definition_code: clipLines(code, 30) }),
        },
        {
          note: "(definition code and members left out to fit max_answer_chars)",
          text: () => {
            const { members: _m, documentation: _d, ...rest } = base;
            return toJson(rest);
          },
        },
      ],
    };
    return answer;
  },
});

/** One usage as listed. */
interface Usage {
  line: number;
  column: number;
  preview: string;
  /** Name path of the symbol containing it. */
  in?: string;
  /** It is in an import (or re-export) statement. */
  import?: true;
}

/** The references to a symbol (declarations of the group left out), grouped by file. */
async function usagesOf(
  index: SymbolLookup,
  group: SymbolGroup,
  options: RequestOptions,
): Promise<Array<{ file: string; usages: Usage[] }>> {
  const target = group.members[0]!;
  const relPath = target.node.relPath;
  const server = await index.pool.serverFor(relPath, options);
  const result = await server.request<unknown>(
    LspMethod.references,
    {
      textDocument: { uri: server.uriOf(relPath) },
      position: target.node.selectionRange.start,
      // TypeScript 7 and ty leave imports out with the declaration (see queries.ts).
      context: { includeDeclaration: importsAreDeclarations(server) },
    },
    { ...options, sync: [relPath] },
  );
  // Each member's selection start and its name (a server that lists declarations with the
  // references gives the name, where a selection may start earlier).
  const declarations = group.members.flatMap((m) => {
    const name = namePosition(m);
    return name ? [m.node.selectionRange.start, name] : [m.node.selectionRange.start];
  });
  const byFile = new Map<string, Position[]>();
  for (const loc of normalizeLocations(result)) {
    const rel = projectPathOf(index, server, loc.uri);
    if (rel === null) continue;
    const start = loc.range.start;
    if (rel === relPath && declarations.some((d) => comparePositions(d, start) === 0)) continue;
    const list = byFile.get(rel) ?? [];
    if (!list.some((p) => comparePositions(p, start) === 0)) list.push(start);
    byFile.set(rel, list);
  }
  const files = [...byFile.keys()].sort();
  return await mapLimit(files, 16, async (file) => {
    let symbols: FileSymbols | null = file === relPath ? target.file : null;
    if (symbols === null) {
      try {
        symbols = await index.fileSymbols(file, options);
      } catch (error) {
        if (options.signal?.aborted) throw error;
      }
    }
    const text = symbols?.text ?? await readProjectText(index.project, file);
    const lines = splitLines(text);
    const usages = byFile.get(file)!.sort(comparePositions).map((position): Usage => {
      const at = toAgentPosition(lines, position);
      const usage: Usage = {
        line: at.line,
        column: at.column,
        preview: preview(lines[position.line] ?? ""),
      };
      const container = symbols ? containingSymbol(symbols.roots, position) : null;
      if (container) usage.in = namePathOf(container);
      else if (isImportLine(lines, position.line)) usage.import = true;
      return usage;
    });
    return { file, usages };
  });
}

async function readProjectText(project: Project, relPath: string): Promise<string> {
  try {
    return (await project.readText(project.resolveFile(relPath, { requireNotIgnored: false })))
      .text;
  } catch {
    return "";
  }
}

export const findSymbolUsages = defineTool({
  name: "find_symbol_usages",
  description: "Every usage of a symbol across the project, found by name (no file or position " +
    "needed): references from the language server, grouped by file, each with 1-based line " +
    "and column, a one-line preview, and the symbol containing it (or import: true). " +
    "file_hint (a file or folder, may be partial) says where the symbol is defined; an " +
    'ambiguous name returns the candidates instead. Returns {"symbol", "name_path", "kind", ' +
    '"defined_at", "total", "files": [{"file", "usages": [{"line", "column", "preview", ' +
    '"in"}]}]}.',
  params,
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const project = selectProject(ctx, args.project_name);
    const index = ctx.session.services(project).symbols;
    const resolution = await resolveSymbol(ctx, project, index, args.symbol_name, args.file_hint);
    if (resolution.kind === "ambiguous") {
      return ambiguousAnswer(project, args.symbol_name, resolution.groups, resolution.note);
    }
    const { group } = resolution;
    const first = group.members[0]!;
    const files = await usagesOf(index, group, requestOptions(ctx));
    const total = files.reduce((n, f) => n + f.usages.length, 0);
    const base = {
      project: project.name,
      symbol: first.node.name,
      name_path: baseNamePath(first.node),
      kind: symbolKindName(first.node.kind),
      defined_at: locationOf(first),
      total,
      file_count: files.length,
      ...(resolution.note ? { note: resolution.note } : {}),
      ...(total === 0 ? { message: `No usages of '${baseNamePath(first.node)}' found.` } : {}),
    };
    return {
      text: toJson({ ...base, files }),
      shorter: [
        {
          note: "(previews left out to fit max_answer_chars)",
          text: () =>
            toJson({
              ...base,
              files: files.map((f) => ({
                file: f.file,
                usages: f.usages.map((u) => ({ line: u.line, column: u.column })),
              })),
            }),
        },
        {
          note: "(only the number of usages per file, to fit max_answer_chars)",
          text: () =>
            toJson({
              ...base,
              files: files.map((f) => ({ file: f.file, count: f.usages.length })),
            }),
        },
      ],
    };
  },
});
