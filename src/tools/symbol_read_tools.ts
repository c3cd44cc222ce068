/**
 * Serena's symbol read tools: get_symbols_overview, find_symbol, find_referencing_symbols,
 * find_implementations, get_diagnostics_for_file. Answers are JSON in Serena's shapes, with
 * progressively shorter forms when they exceed `max_answer_chars`.
 * @module
 */
import { z } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { parseNamePath } from "../lsp/name_path.ts";
import { containingSymbol, namePathOf, symbolKindName, type SymbolNode } from "../lsp/symbols.ts";
import {
  fileDiagnostics,
  findImplementations as implementationsOf,
  findReferences,
} from "../lsp/symbols_queries.ts";
import { mapLimit } from "../lsp/symbols_index.ts";
import type { Project } from "../project/project.ts";
import { maxAnswerChars } from "./file_tools.ts";
import { formatMatch } from "./search_tools.ts";
import {
  checkKinds,
  describe,
  indexOf,
  kindFilter,
  kindList,
  requestOptions,
  type SymbolDict,
  symbolDict,
  toJson,
} from "./symbol_common.ts";
import { defineTool, type ToolContext } from "./tool.ts";

/** A file or folder argument ("" or "." for the whole project), validated in the sandbox. */
function resolveScope(
  project: Project,
  relativePath: string,
): { relPath: string; isDirectory: boolean } {
  if (relativePath === "" || relativePath === ".") return { relPath: ".", isDirectory: true };
  const resolved = project.resolve(relativePath);
  return { relPath: resolved.relative, isDirectory: Deno.statSync(resolved.real).isDirectory };
}

/** Resolve a path that must be a source file. */
function resolveSourceFile(project: Project, relativePath: string, tool: string): string {
  const scope = resolveScope(project, relativePath);
  if (scope.isDirectory) {
    throw new ToolError(
      `${tool} needs a file, but '${scope.relPath}' is a directory. Use find_symbol to search ` +
        "a directory.",
    );
  }
  return scope.relPath;
}

function countKinds(dicts: readonly SymbolDict[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of dicts) counts[d.kind as string] = (counts[d.kind as string] ?? 0) + 1;
  return counts;
}

export const getSymbolsOverview = defineTool({
  name: "get_symbols_overview",
  description: "Gets an overview of the top-level symbols in a file (JSON list of name_path, " +
    "kind, body_location with 0-based lines). Call it first to understand a new file. A " +
    "directory gives {file: [symbols]} for its source files. depth 1 adds children (methods).",
  params: {
    relative_path: z.string().describe("The file (or directory), relative to the project root."),
    depth: z.number().int().min(0).default(0).describe(
      "Levels of descendants to include (1: immediate children, e.g. methods of classes).",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const index = indexOf(ctx);
    const options = requestOptions(ctx);
    const scope = resolveScope(project, args.relative_path);
    if (!scope.isDirectory) {
      const file = await index.fileSymbols(scope.relPath, options);
      const dicts = (depth: number) =>
        file.roots.map((n) => symbolDict(n, { depth, relativePath: true }));
      const full = dicts(args.depth);
      return {
        text: toJson(full),
        shorter: [
          ...(args.depth > 0 ? [{ note: "Depth 0 overview:", text: () => toJson(dicts(0)) }] : []),
          {
            note: "Name paths only:",
            text: () => toJson(file.roots.map((n) => namePathOf(n))),
          },
          { note: "Symbol counts by kind:", text: () => toJson(countKinds(full)) },
        ],
      };
    }
    const files = await index.sourceFiles(scope.relPath, ctx.signal);
    const trees = await mapLimit(files, 16, async (relPath) => {
      try {
        return (await index.fileSymbols(relPath, options)).roots;
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return []; // unreadable or binary file: no symbols
      }
    });
    const perFile: Record<string, SymbolDict[]> = {};
    const depth0: Record<string, SymbolDict[]> = {};
    files.forEach((relPath, i) => {
      const roots = trees[i]!;
      if (roots.length === 0) return;
      perFile[relPath] = roots.map((n) =>
        symbolDict(n, { depth: args.depth, relativePath: false })
      );
      depth0[relPath] = roots.map((n) => symbolDict(n, { depth: 0, relativePath: false }));
    });
    return {
      text: toJson(perFile),
      shorter: [
        ...(args.depth > 0 ? [{ note: "Depth 0 overview:", text: () => toJson(depth0) }] : []),
        {
          note: "Name paths per file:",
          text: () =>
            toJson(
              Object.fromEntries(
                Object.entries(depth0).map(([f, ds]) => [f, ds.map((d) => d.name_path)]),
              ),
            ),
        },
        {
          note: "Symbol counts per file:",
          text: () =>
            toJson(Object.fromEntries(Object.entries(depth0).map(([f, ds]) => [f, ds.length]))),
        },
      ],
    };
  },
});

export const findSymbol = defineTool({
  name: "find_symbol",
  description: "Finds symbols by name path pattern in the project, a directory or a file: " +
    "'name' matches any symbol so named, 'Outer/name' a name-path suffix, '/Outer/name' the " +
    "full path in its file, 'name[1]' one overload. Returns JSON symbols (name_path, kind, " +
    "relative_path, body_location with 0-based lines; body and children on request).",
  params: {
    name_path_pattern: z.string().describe(
      "Name, relative name path ('Class/method') or absolute one ('/Class/method').",
    ),
    depth: z.number().int().min(0).default(0).describe(
      "Levels of descendants to include (1: e.g. the methods of a class).",
    ),
    relative_path: z.string().default("").describe(
      "Restrict the search to this file or directory; empty searches the whole project.",
    ),
    include_body: z.boolean().default(false).describe("Include the symbols' source code."),
    include_kinds: kindList.describe(describe.includeKinds),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    substring_matching: z.boolean().default(false).describe(
      "Match the last segment as a substring: 'Foo/get' finds 'Foo/getValue'.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const pattern = parseNamePath(args.name_path_pattern);
    const includeKinds = checkKinds(args.include_kinds, "include_kinds");
    const excludeKinds = checkKinds(args.exclude_kinds, "exclude_kinds");
    const scope = resolveScope(project, args.relative_path);
    const matches = await indexOf(ctx).find(
      pattern,
      { substring: args.substring_matching, includeKinds, excludeKinds },
      scope,
      requestOptions(ctx),
    );
    const dicts = (depth: number, body: boolean) =>
      matches.map((m) =>
        symbolDict(m.node, {
          depth,
          relativePath: true,
          bodyText: body ? m.file.text : undefined,
        })
      );
    const byFile = () => {
      const out: Record<string, string[]> = {};
      for (const m of matches) (out[m.node.relPath] ??= []).push(namePathOf(m.node));
      return toJson(out);
    };
    const shorter = [];
    if (args.include_body) {
      shorter.push({
        note: "Without bodies (read them with find_symbol on one symbol, include_body=true):",
        text: () => toJson(dicts(args.depth, false)),
      });
    }
    if (args.depth > 0) {
      shorter.push({ note: "Without children:", text: () => toJson(dicts(0, false)) });
    }
    shorter.push({ note: `${matches.length} matches; name paths per file:`, text: byFile });
    return { text: toJson(dicts(args.depth, args.include_body)), shorter };
  },
});

/**
 * The one symbol a reference or implementation query is about, with the kind filter for its
 * results and what the query needs to ask the server.
 */
async function resolveQueryTarget(
  ctx: ToolContext,
  args: {
    name_path: string;
    relative_path: string;
    include_kinds: number[];
    exclude_kinds: number[];
  },
  toolName: string,
) {
  const wanted = kindFilter(args.include_kinds, args.exclude_kinds);
  const relPath = resolveSourceFile(ctx.project(), args.relative_path, toolName);
  const index = indexOf(ctx);
  const options = requestOptions(ctx);
  const target = await index.resolveUnique(parseNamePath(args.name_path), relPath, options);
  return { index, options, target, wanted };
}

export const findReferencingSymbols = defineTool({
  name: "find_referencing_symbols",
  description: "Finds references to a symbol. Each is reported as the symbol containing it " +
    "(name_path, kind, relative_path, body_location; a File symbol at top level) with " +
    "content_around_reference: the line ('>') and one line either side, 0-based numbers.",
  params: {
    name_path: z.string().describe(describe.namePath),
    relative_path: z.string().describe(describe.relativePath),
    include_kinds: kindList.describe(describe.includeKinds + " Applies to referencing symbols."),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const { index, options, target, wanted } = await resolveQueryTarget(
      ctx,
      args,
      "find_referencing_symbols",
    );
    const hits = (await findReferences(index, target, options)).filter((h) =>
      wanted(h.symbol.kind)
    );
    const linesOf = new Map<string, string[]>();
    const full = hits.map((h) => {
      let lines = linesOf.get(h.relPath);
      if (!lines) linesOf.set(h.relPath, lines = h.file.text.split("\n"));
      const line = h.position.line;
      return {
        ...symbolDict(h.symbol, { depth: 0, relativePath: true }),
        content_around_reference: formatMatch(lines, line, line, 1, 1),
      };
    });
    return {
      text: toJson(full),
      shorter: [
        {
          note: "References without surrounding lines:",
          text: () =>
            toJson(hits.map((h) => ({
              name_path: namePathOf(h.symbol),
              kind: symbolKindName(h.symbol.kind),
              relative_path: h.relPath,
              reference_line: h.position.line,
            }))),
        },
        {
          note: "Reference counts per file:",
          text: () => {
            const counts: Record<string, number> = {};
            for (const h of hits) counts[h.relPath] = (counts[h.relPath] ?? 0) + 1;
            return toJson(counts);
          },
        },
        { note: "Too many to list:", text: () => `Found ${hits.length} references.` },
      ],
    };
  },
});

export const findImplementations = defineTool({
  name: "find_implementations",
  description: "Finds the symbols implementing a symbol (an interface, abstract class or " +
    "method) with the language server. Returns JSON symbols (name_path, kind, relative_path, " +
    "body_location).",
  params: {
    name_path: z.string().describe(describe.namePath),
    relative_path: z.string().describe(describe.relativePath + " Must be a file."),
    include_kinds: kindList.describe(describe.includeKinds),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const { index, options, target, wanted } = await resolveQueryTarget(
      ctx,
      args,
      "find_implementations",
    );
    const found = (await implementationsOf(index, target, options)).filter((m) =>
      wanted(m.node.kind)
    );
    return toJson(found.map((m) => symbolDict(m.node, { depth: 0, relativePath: true })));
  },
});

const SEVERITY_NAMES = ["", "Error", "Warning", "Information", "Hint"];

export const getDiagnosticsForFile = defineTool({
  name: "get_diagnostics_for_file",
  description: "Gets the language server's diagnostics (errors, warnings) for a file as it is " +
    "on disk now, as JSON {relative_path: {severity: {name_path: [{message, range, code, " +
    "source}]}}}; '<file>' collects those outside any symbol. Lines are 0-based.",
  params: {
    relative_path: z.string().describe("The file to check, relative to the project root."),
    start_line: z.number().int().min(0).default(0).describe("First 0-based line to include."),
    end_line: z.number().int().default(-1).describe(
      "Last 0-based line to include; -1 means the end of the file.",
    ),
    min_severity: z.number().int().min(1).max(4).default(4).describe(
      "Least severe level to include: 1 errors only, 2 +warnings, 3 +information, 4 all.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const relPath = resolveSourceFile(project, args.relative_path, "get_diagnostics_for_file");
    const index = indexOf(ctx);
    const options = requestOptions(ctx);
    const diagnostics = await fileDiagnostics(index, relPath, options);
    const last = args.end_line < 0 ? Infinity : args.end_line;
    const selected = diagnostics.filter((d) =>
      (d.severity ?? 1) <= args.min_severity &&
      d.range.end.line >= args.start_line && d.range.start.line <= last
    );
    const grouped: Record<string, Record<string, Record<string, unknown[]>>> = {};
    if (selected.length > 0) {
      let roots: SymbolNode[] = [];
      try {
        roots = (await index.fileSymbols(relPath, options)).roots;
      } catch { /* symbols unavailable: everything goes to <file> */ }
      const bySeverity: Record<string, Record<string, unknown[]>> = {};
      for (const d of selected) {
        const severity = SEVERITY_NAMES[d.severity ?? 1] ?? `Severity_${d.severity}`;
        // Some servers (pyright) give variables only their name's range: a diagnostic later on
        // the same line belongs to the symbol declared there.
        const owner = containingSymbol(roots, d.range.start) ??
          roots.find((n) => n.range.start.line === d.range.start.line) ?? null;
        const key = owner ? namePathOf(owner) : "<file>";
        const entry: Record<string, unknown> = { message: d.message, range: d.range };
        if (d.code !== undefined) entry.code = d.code;
        if (d.source !== undefined) entry.source = d.source;
        ((bySeverity[severity] ??= {})[key] ??= []).push(entry);
      }
      grouped[relPath] = bySeverity;
    }
    return toJson(grouped);
  },
});

/** The read tools of this module, in registry order. */
export const SYMBOL_READ_TOOLS = [
  getSymbolsOverview,
  findSymbol,
  findReferencingSymbols,
  findImplementations,
  getDiagnosticsForFile,
];
