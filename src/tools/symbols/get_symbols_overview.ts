/**
 * get_symbols_overview: the top-level symbols of a file grouped by kind, as Serena 1.7/2.1
 * answers (`{"Class": ["Circle", {"Square": {"Method": ["area"]}}], "Function": ["main"]}`).
 * A folder is refused, as Serena refuses it. Shortened as Serena does when too long.
 * @module
 */
import { z } from "../../deps.ts";
import { STRUCTURAL_KINDS, symbolKindName, type SymbolNode } from "../../symbols/model.ts";
import { ToolError } from "../../errors.ts";
import { indexOf, requestOptions, resolveScope } from "../shared/locate_symbol.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";

/**
 * The largest file whose outline is asked for. The language server's answer for a larger one is
 * parsed and made into a tree on the service's main thread (a 19 MB generated file with 330,000
 * functions held it for 6.7 s), and its outline could only be shown as counts anyway.
 */
export const MAX_OUTLINE_BYTES = 8 * 1024 * 1024;

/** One symbol in a kind group: its name, or `{name: children grouped by kind}`. */
type Entry = string | { [name: string]: Grouped };
/** Symbols grouped by kind name, kinds in order of first appearance. */
export type Grouped = { [kind: string]: Entry[] };

/** `nodes` grouped by kind, with structural children down to `depth` levels. */
export function groupByKind(nodes: readonly SymbolNode[], depth: number): Grouped {
  const grouped: Grouped = {};
  for (const node of nodes) {
    const children = depth > 0 ? node.children.filter((c) => STRUCTURAL_KINDS.has(c.kind)) : [];
    const entry: Entry = children.length > 0
      ? { [node.name]: groupByKind(children, depth - 1) }
      : node.name;
    (grouped[symbolKindName(node.kind)] ??= []).push(entry);
  }
  return grouped;
}

/** The number of symbols of each kind, kinds in order of first appearance. */
function countKinds(nodes: readonly SymbolNode[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const n of nodes) {
    const kind = symbolKindName(n.kind);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

export const getSymbolsOverview = defineTool({
  name: "get_symbols_overview",
  description: "A file's top-level symbols grouped by kind. Call it first on a new file.",
  params: {
    relative_path: z.string().describe("The file."),
    depth: z.number().int().min(-1).default(-1).describe(
      "Child levels; -1: 1 for Java/Kotlin, else 0.",
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
    const depthFor = (relPath: string) =>
      args.depth === -1 ? (/\.(java|kt)$/.test(relPath) ? 1 : 0) : args.depth;
    // Serena 2.1 refuses a folder: a whole tree's overview is what find_symbol is for.
    if (scope.isDirectory) {
      throw new ToolError(
        `Expected a file path, but got a directory path: ${args.relative_path}. ` +
          "Use list_dir or find_file to see its files, then get_symbols_overview on one.",
      );
    }
    const size = (await Deno.stat(project.absolute(scope.relPath))).size;
    if (size > MAX_OUTLINE_BYTES) {
      throw new ToolError(
        `${args.relative_path} has ${(size / 1024 / 1024).toFixed(1)} MB: get_symbols_overview ` +
          `reads files up to ${MAX_OUTLINE_BYTES / 1024 / 1024} MB (a larger one is generated ` +
          "code or data, whose outline would hold up every session of the service). Use " +
          "search_for_pattern, or read_file with a line range.",
      );
    }
    const roots = (await index.fileSymbols(scope.relPath, options)).roots;
    const depth = depthFor(scope.relPath);
    return {
      text: toJson(groupByKind(roots, depth)),
      shorter: [
        ...(depth > 0
          ? [{ note: "Depth 0 overview:", text: () => toJson(groupByKind(roots, 0)) }]
          : []),
        { note: "Symbol counts by kind:", text: () => toJson(countKinds(roots)) },
      ],
    };
  },
});
