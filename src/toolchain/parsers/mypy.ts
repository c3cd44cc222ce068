/**
 * mypy: `file:line:col: error: message  [code]` (with `--show-column-numbers --show-error-codes
 * --no-pretty`), notes as `note:` lines, and the closing line, which says how many files were
 * checked (`Found 3 errors in 2 files (checked 27 source files)`, `Success: no issues found in
 * 27 source files`).
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import type { Diagnostic } from "../types.ts";

const LINE = /^(.+?):(\d+):(?:(\d+):)? (error|warning|note): (.*?)(?: {2}\[([\w-]+)\])?$/;
const CHECKED = /\((?:checked )?(\d+) source files?\)$|no issues found in (\d+) source files?$/;

/** Diagnostics from mypy's plain output; notes are `info`. */
export function parseMypy(output: string, root: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split("\n")) {
    const m = LINE.exec(line.trimEnd());
    if (!m) continue;
    const diagnostic: Diagnostic = {
      file: toProjectPath(root, m[1]!),
      line: Number(m[2]),
      column: m[3] ? Number(m[3]) : 1,
      severity: m[4] === "note" ? "info" : m[4] === "warning" ? "warning" : "error",
      message: m[5]!,
      source: "mypy",
    };
    if (m[6]) diagnostic.code = m[6];
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}

/** How many source files mypy's closing line says it checked; undefined without one. */
export function mypyFilesChecked(output: string): number | undefined {
  for (const line of output.split("\n").reverse()) {
    const m = CHECKED.exec(line.trim());
    if (m) return Number(m[1] ?? m[2]);
  }
  return undefined;
}
