/**
 * get_diagnostics_for_file: the language server's diagnostics of one file, version-matched and
 * grouped file → severity → symbol (the grouping get_diagnostics_for_symbol shares).
 * @module
 */
import type { Diagnostic } from "../../deps.ts";
import { z } from "../../deps.ts";
import { containingSymbol, namePathOf, type SymbolNode } from "../../symbols/model.ts";
import type { SymbolLookup } from "../../symbols/lookup.ts";
import { fileDiagnostics } from "../../symbols/queries.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import { indexOf, requestOptions } from "../shared/locate_symbol.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { resolveSourceFile } from "../shared/locate_symbol.ts";
import { toJson } from "../shared/json.ts";

const SEVERITY_NAMES = ["", "Error", "Warning", "Information", "Hint"];

/** Diagnostics by file, then severity name, then the name path of the symbol they belong to. */
export type Grouped = Record<string, Record<string, Record<string, unknown[]>>>;

export const minSeverity = z.number().int().min(1).max(4).default(4).describe(
  "1 errors, 2 +warnings, 3 +information, 4 all.",
);

/** Add one diagnostic to the grouping, as an entry of `message`, `range`, `code`, `source`. */
export function addDiagnostic(
  grouped: Grouped,
  relPath: string,
  key: string,
  d: Diagnostic,
): void {
  const severity = SEVERITY_NAMES[d.severity ?? 1] ?? `Severity_${d.severity}`;
  const entry: Record<string, unknown> = { message: d.message, range: d.range };
  if (d.code !== undefined) entry.code = d.code;
  if (d.source !== undefined) entry.source = d.source;
  (((grouped[relPath] ??= {})[severity] ??= {})[key] ??= []).push(entry);
}

/**
 * The symbol a diagnostic belongs to, as Serena finds it: the innermost structural symbol whose
 * range holds its start, or null (Serena's `<file>`) outside every symbol.
 */
function ownerOf(roots: readonly SymbolNode[], d: Diagnostic): SymbolNode | null {
  return containingSymbol(roots, d.range.start);
}

/** A file's symbols, or none when the server cannot give them. */
async function rootsOf(
  index: SymbolLookup,
  relPath: string,
  options: RequestOptions,
): Promise<SymbolNode[]> {
  try {
    return (await index.fileSymbols(relPath, options)).roots;
  } catch {
    return [];
  }
}

export const getDiagnosticsForFile = defineTool({
  name: "get_diagnostics_for_file",
  description:
    "A file's errors and warnings from the language server as on disk now, by severity " +
    "and enclosing symbol; 0-based lines.",
  params: {
    relative_path: z.string().describe("The file."),
    start_line: z.number().int().min(0).default(0).describe("0-based first line."),
    end_line: z.number().int().default(-1).describe(
      "Last line; -1: the end.",
    ),
    min_severity: minSeverity,
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
    const grouped: Grouped = {};
    const roots = selected.length > 0 ? await rootsOf(index, relPath, options) : [];
    for (const d of selected) {
      const owner = ownerOf(roots, d);
      addDiagnostic(grouped, relPath, owner ? namePathOf(owner) : "<file>", d);
    }
    return toJson(grouped);
  },
});
