/**
 * document_symbols: the outline of one file.
 * @module
 */
import { z } from "../../deps.ts";
import { SYMBOL_KIND_NAMES, type SymbolNode } from "../../symbols/model.ts";
import { ideDescribe, kindName, resolveFile } from "../shared/targets.ts";
import { indexOf } from "../shared/locate_symbol.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";

interface OutlineEntry {
  name: string;
  kind: string;
  line: number;
  end_line: number;
  children?: OutlineEntry[];
}

function outline(nodes: readonly SymbolNode[], depth: number): OutlineEntry[] {
  return nodes.map((n) => {
    const entry: OutlineEntry = {
      name: n.name,
      kind: kindName(SYMBOL_KIND_NAMES, n.kind) ?? "unknown",
      line: n.selectionRange.start.line + 1,
      end_line: n.range.end.line + 1,
    };
    if (depth !== 0 && n.children.length > 0) entry.children = outline(n.children, depth - 1);
    return entry;
  });
}

export const documentSymbols = defineTool({
  name: "document_symbols",
  description: "Outlines a file: its symbols (classes, functions, methods, variables, ...) as " +
    'a tree. Returns {"file", "symbols": [{"name", "kind", "line", "end_line", "children"}]} ' +
    "with 1-based lines (line: where the name is).",
  params: {
    relative_path: z.string().describe(ideDescribe.relativePath),
    depth: z.number().int().min(-1).default(-1).describe(
      "Levels of children to include; 0 top level only; -1 all.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const file = await resolveFile(ctx, args.relative_path);
    const symbols = await indexOf(ctx).fileSymbols(file.relPath, file.options);
    const full = { file: file.relPath, symbols: outline(symbols.roots, args.depth) };
    return {
      text: toJson(full),
      shorter: [{
        note: "Too long; top-level symbols only (use depth or get_symbols_overview):",
        text: () => toJson({ file: file.relPath, symbols: outline(symbols.roots, 0) }),
      }],
    };
  },
});
