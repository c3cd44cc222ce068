/**
 * get_diagnostics_for_file: the language server's diagnostics of one file, version-matched.
 * @module
 */
import { z } from "../../deps.ts";
import { containingSymbol, namePathOf, type SymbolNode } from "../../lsp/symbols.ts";
import { fileDiagnostics } from "../../lsp/symbols_queries.ts";
import { indexOf, requestOptions } from "../shared/symbols.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { resolveSourceFile } from "../shared/symbols.ts";
import { toJson } from "../shared/json.ts";

const SEVERITY_NAMES = ["", "Error", "Warning", "Information", "Hint"];

export const getDiagnosticsForFile = defineTool({
  name: "get_diagnostics_for_file",
  description:
    "A file's errors and warnings from the language server, as on disk now, grouped by " +
    "severity and enclosing symbol ('<file>' outside any); 0-based lines.",
  params: {
    relative_path: z.string().describe("The file."),
    start_line: z.number().int().min(0).default(0).describe("First 0-based line to include."),
    end_line: z.number().int().default(-1).describe(
      "0-based last line; -1: the end.",
    ),
    min_severity: z.number().int().min(1).max(4).default(4).describe(
      "1 errors, 2 +warnings, 3 +information, 4 all.",
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
