/**
 * pyright (and basedpyright): the report of `pyright --outputjson`.
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import type { Diagnostic, Severity } from "../types.ts";

interface PyrightPosition {
  line: number;
  character: number;
}

interface PyrightDiagnostic {
  file?: string;
  severity: string;
  message: string;
  range?: { start: PyrightPosition; end: PyrightPosition };
  rule?: string;
}

const SEVERITY: Record<string, Severity> = {
  error: "error",
  warning: "warning",
  information: "info",
};

/**
 * Diagnostics from pyright's JSON report (0-based positions become 1-based). Returns null when
 * the output holds no report (pyright failed before checking).
 */
export function parsePyright(output: string, root: string): Diagnostic[] | null {
  const start = output.indexOf("{");
  if (start < 0) return null;
  let report: { generalDiagnostics?: PyrightDiagnostic[] };
  try {
    report = JSON.parse(output.slice(start)) as { generalDiagnostics?: PyrightDiagnostic[] };
  } catch {
    return null;
  }
  return (report.generalDiagnostics ?? []).map((d) => {
    const diagnostic: Diagnostic = {
      file: d.file ? toProjectPath(root, d.file) : "",
      line: (d.range?.start.line ?? -1) + 1,
      column: (d.range?.start.character ?? -1) + 1,
      severity: SEVERITY[d.severity] ?? "info",
      message: d.message,
      source: "pyright",
    };
    if (d.range) {
      diagnostic.end_line = d.range.end.line + 1;
      diagnostic.end_column = d.range.end.character + 1;
    }
    if (d.rule) diagnostic.code = d.rule;
    return diagnostic;
  });
}

/** How many files pyright's JSON report says it analysed; undefined without a report. */
export function pyrightFilesAnalyzed(output: string): number | undefined {
  const start = output.indexOf("{");
  if (start < 0) return undefined;
  try {
    const report = JSON.parse(output.slice(start)) as { summary?: { filesAnalyzed?: unknown } };
    const files = report.summary?.filesAnalyzed;
    return typeof files === "number" ? files : undefined;
  } catch {
    return undefined;
  }
}
