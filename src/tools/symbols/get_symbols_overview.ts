/**
 * get_symbols_overview: the top-level symbols of a file (or of every file in a folder), in
 * Serena's JSON shape, shortened progressively when it exceeds `max_answer_chars`.
 * @module
 */
import { z } from "../../deps.ts";
import { namePathOf } from "../../lsp/symbols.ts";
import { mapLimit } from "../../lsp/symbols_index.ts";
import { indexOf, requestOptions, type SymbolDict, symbolDict } from "../shared/symbols.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { resolveScope } from "../shared/symbols.ts";
import { toJson } from "../shared/json.ts";

function countKinds(dicts: readonly SymbolDict[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of dicts) counts[d.kind as string] = (counts[d.kind as string] ?? 0) + 1;
  return counts;
}

export const getSymbolsOverview = defineTool({
  name: "get_symbols_overview",
  description:
    "The top-level symbols of a file (name_path, kind, 0-based lines), or of each file in " +
    "a directory; depth 1 adds children. Call it first on a new file.",
  params: {
    relative_path: z.string().describe("The file (or folder)."),
    depth: z.number().int().min(0).default(0).describe(
      "Levels of children to include (1: e.g. methods).",
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
