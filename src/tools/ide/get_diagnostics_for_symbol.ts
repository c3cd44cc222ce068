/**
 * get_diagnostics_for_symbol: the language server's diagnostics in one symbol's body, and
 * optionally in the symbols that reference it, grouped as get_diagnostics_for_file groups them
 * (whose grouping it uses).
 * @module
 */
import type { Diagnostic } from "../../deps.ts";
import { z } from "../../deps.ts";
import { namePathOf, type SymbolNode } from "../../symbols/model.ts";
import { fileDiagnostics, findReferences } from "../../symbols/queries.ts";
import { describe } from "../shared/symbol_params.ts";
import { indexOf, locate, locateInProject, requestOptions } from "../shared/locate_symbol.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { resolveSourceFile } from "../shared/locate_symbol.ts";
import { toJson } from "../shared/json.ts";
import { addDiagnostic, type Grouped, minSeverity } from "./get_diagnostics_for_file.ts";

/** Whether a diagnostic is part of a symbol's body: its lines meet the body's (Serena's rule). */
function inBody(node: SymbolNode, d: Diagnostic): boolean {
  return d.range.end.line >= node.range.start.line && d.range.start.line <= node.range.end.line;
}

export const getDiagnosticsForSymbol = defineTool({
  name: "get_diagnostics_for_symbol",
  description:
    "The errors and warnings in one symbol's body, optionally also in the symbols that " +
    "reference it; grouped as get_diagnostics_for_file groups them.",
  params: {
    name_path: z.string().describe(describe.namePath),
    relative_path: z.string().default("").describe(
      describe.relativePath + " Empty: the one symbol of this name path in the project.",
    ),
    check_symbol_references: z.boolean().default(false).describe(
      "Also the diagnostics of the symbols that reference it.",
    ),
    min_severity: minSeverity,
    max_answer_chars: maxAnswerChars,
  },
  aliases: { reference_file: "relative_path" },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const index = indexOf(ctx);
    const options = requestOptions(ctx);
    const target = args.relative_path.trim() === ""
      ? await locateInProject(ctx, args.name_path, options)
      : await locate(
        ctx,
        args.name_path,
        resolveSourceFile(ctx.project(), args.relative_path, "get_diagnostics_for_symbol"),
        options,
      );
    // The symbols whose bodies are checked, by file, in answer order: the symbol, then the
    // symbols referring to it (a reference outside every symbol names none).
    const symbols = new Map<string, SymbolNode[]>([[target.node.relPath, [target.node]]]);
    if (args.check_symbol_references) {
      for (const hit of await findReferences(index, target, options)) {
        if (hit.symbol.kind === 1) continue; // the file itself: an import, not a symbol
        let inside = false; // a reference in the symbol's own body is already covered
        for (let s: SymbolNode | null = hit.symbol; s && !inside; s = s.parent) {
          inside = s === target.node;
        }
        if (inside) continue;
        const list = symbols.get(hit.relPath) ?? [];
        if (!list.includes(hit.symbol)) list.push(hit.symbol);
        symbols.set(hit.relPath, list);
      }
    }
    const grouped: Grouped = {};
    for (const [relPath, nodes] of symbols) {
      const diagnostics = (await fileDiagnostics(index, relPath, options))
        .filter((d) => (d.severity ?? 1) <= args.min_severity);
      if (diagnostics.length === 0) continue;
      for (const node of nodes) {
        const key = namePathOf(node);
        for (const d of diagnostics) {
          if (inBody(node, d)) addDiagnostic(grouped, relPath, key, d);
        }
      }
    }
    return toJson(grouped);
  },
});
