/**
 * The shapes every checker and test runner is parsed into, whatever the toolchain.
 * @module
 */

/** The toolchains Sextant knows how to check and test. */
export type ToolchainId =
  | "rust"
  | "deno"
  | "typescript"
  | "node"
  | "python"
  | "go"
  | "c"
  | "ada";

/** How bad a diagnostic is. */
export type Severity = "error" | "warning" | "info" | "hint";

/** Severities from worst to mildest. */
export const SEVERITIES: readonly Severity[] = ["error", "warning", "info", "hint"];

/** One problem reported by a checker. Positions are 1-based. */
export interface Diagnostic {
  /** Relative to the project root (posix separators); absolute when outside the project. */
  file: string;
  line: number;
  column: number;
  end_line?: number;
  end_column?: number;
  severity: Severity;
  message: string;
  /** The tool's code for the problem (E0308, TS2322, reportAssignmentType, ...). */
  code?: string;
  /** The tool that reported it (cargo, deno, tsc, pyright, go, cc, ld, gprbuild). */
  source: string;
}

/** One failed test. File and position are given when the output tells them. */
export interface TestFailure {
  name: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** The first frames of a backtrace, when one was printed. */
  backtrace?: string;
}

/** What a test run's output says. */
export interface TestSummary {
  passed: number;
  failed: number;
  ignored: number;
  failures: TestFailure[];
  /** Whether the output contained a recognisable result at all. */
  recognized: boolean;
}

/** An empty summary to add counts to. */
export function emptySummary(): TestSummary {
  return { passed: 0, failed: 0, ignored: 0, failures: [], recognized: false };
}

/** Sort diagnostics worst first, then by file and position. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return diagnostics.map(orderedDiagnostic).sort((a, b) =>
    rank(a.severity) - rank(b.severity) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line || a.column - b.column
  );
}

/** The same diagnostic with its fields in a fixed, readable order. */
export function orderedDiagnostic(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { file: d.file, line: d.line, column: d.column } as Diagnostic;
  if (d.end_line !== undefined) out.end_line = d.end_line;
  if (d.end_column !== undefined) out.end_column = d.end_column;
  out.severity = d.severity;
  if (d.code !== undefined) out.code = d.code;
  out.message = d.message;
  out.source = d.source;
  return out;
}

/** Drop exact duplicates (the same message at the same place, e.g. from two build targets). */
export function dedupeDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.code ?? ""}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
