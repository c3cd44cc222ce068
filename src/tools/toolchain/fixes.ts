/**
 * Fixes for `check_project(include_fixes=true)` (ARCHITECTURE.md §3): for each error or warning the
 * project's checker reported, ask the language server that handles the file for its quick fixes
 * (`textDocument/codeAction` with the diagnostic in `context.diagnostics`) and store them in the
 * project's code-action cache under stable ids, which `execute_code_action` accepts. Bounded:
 * only the first {@linkcode MAX_FIX_DIAGNOSTICS} diagnostics are asked.
 * @module
 */
import type {
  Diagnostic as LspDiagnostic,
  DiagnosticSeverity,
  Position,
  Range,
} from "../../deps.ts";
import { toLspPosition } from "../../lsp/positions.ts";
import type { Project } from "../../project/project.ts";
import type { Diagnostic } from "../../toolchain/types.ts";
import { requestCodeActions } from "../code_action_runner.ts";
import { type FileTarget, resolveFile } from "../shared/targets.ts";
import type { ToolContext } from "../tool.ts";
import { forProject } from "../shared/project_selection.ts";

/** How many diagnostics are asked for fixes at most. */
export const MAX_FIX_DIAGNOSTICS = 50;

/** A fix as check_project lists it. */
export interface FixSummary {
  /** Pass to execute_code_action. */
  id: string;
  title: string;
  kind?: string;
  isPreferred?: true;
}

/** The fixes found, per diagnostic object, and what could not be asked. */
export interface FixesResult {
  fixes: Map<Diagnostic, FixSummary[]>;
  /** Errors and warnings left unasked because of the limit. */
  beyondLimit: number;
  /** Why some files got no fixes (no server, server failure), one line each. */
  problems: string[];
}

const LSP_SEVERITY: Readonly<Record<Diagnostic["severity"], DiagnosticSeverity>> = {
  error: 1,
  warning: 2,
  info: 3,
  hint: 4,
};

/** A checker's code as the language server has it: tsserver's fixes are keyed by `2304`. */
function lspCode(code: string | undefined): string | number | undefined {
  if (code === undefined) return undefined;
  const ts = /^TS(\d+)$/.exec(code);
  return ts ? Number(ts[1]) : code;
}

function sameCode(a: string | number | undefined, b: string | number | undefined): boolean {
  return a !== undefined && b !== undefined && String(a) === String(b);
}

/** The checker's 1-based position in LSP terms, clamped into the file. */
function lspPosition(target: FileTarget, line: number, column: number): Position {
  try {
    return toLspPosition(target.lines, line, column, target.relPath);
  } catch {
    const l = Math.min(Math.max(line - 1, 0), Math.max(target.lines.length - 1, 0));
    const text = target.lines[l] ?? "";
    return { line: l, character: Math.min(Math.max(column - 1, 0), text.length) };
  }
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/**
 * The language server's own diagnostic for a checker's one (servers find fixes by their own
 * codes and data): same start line and code, else an overlapping one on that line; else the
 * checker's diagnostic in LSP form.
 */
function matchDiagnostic(
  target: FileTarget,
  d: Diagnostic,
  serverDiagnostics: readonly LspDiagnostic[],
): LspDiagnostic {
  const start = lspPosition(target, d.line, d.column);
  const end = d.end_line !== undefined
    ? lspPosition(target, d.end_line, d.end_column ?? d.column)
    : start;
  const range: Range = { start, end: before(end, start) ? start : end };
  const code = lspCode(d.code);
  const onLine = serverDiagnostics.filter((s) => s.range.start.line === start.line);
  const found = onLine.find((s) => sameCode(s.code, code) && overlaps(s.range, range)) ??
    onLine.find((s) => sameCode(s.code, code)) ??
    onLine.find((s) => overlaps(s.range, range));
  if (found) return found;
  return {
    range,
    severity: LSP_SEVERITY[d.severity],
    message: d.message,
    ...(code !== undefined ? { code } : {}),
    source: d.source,
  };
}

/**
 * Ask the language servers of `project` for the quick fixes of its errors and warnings (in
 * the given order, at most {@linkcode MAX_FIX_DIAGNOSTICS}); they are stored in the project's
 * code-action cache.
 */
export async function fixesFor(
  ctx: ToolContext,
  project: Project,
  diagnostics: readonly Diagnostic[],
): Promise<FixesResult> {
  const pctx = forProject(ctx, project);
  const pool = ctx.session.services(project).pool;
  const result: FixesResult = { fixes: new Map(), beyondLimit: 0, problems: [] };
  const eligible = diagnostics.filter((d) =>
    (d.severity === "error" || d.severity === "warning") && !d.file.startsWith("/") &&
    !d.file.startsWith("..") && pool.handles(d.file)
  );
  const asked = eligible.slice(0, MAX_FIX_DIAGNOSTICS);
  result.beyondLimit = eligible.length - asked.length;
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of asked) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  let done = 0;
  for (const [file, list] of byFile) {
    ctx.signal.throwIfAborted();
    await ctx.progress(done, asked.length, `Asking the language server for fixes: ${file}`);
    let target: FileTarget;
    let serverDiagnostics: LspDiagnostic[] = [];
    try {
      target = await resolveFile(pctx, file);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      result.problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    try {
      serverDiagnostics = await target.server.diagnostics(file, target.options);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // Without the server's own diagnostics the checker's still work for most servers.
    }
    for (const d of list) {
      const lspDiagnostic = matchDiagnostic(target, d, serverDiagnostics);
      try {
        const actions = await requestCodeActions(
          pctx,
          target,
          lspDiagnostic.range,
          [lspDiagnostic],
          ["quickfix"],
        );
        result.fixes.set(
          d,
          actions.filter((a) => !a.disabled).map((a) => ({
            id: a.id,
            title: a.title,
            ...(a.kind ? { kind: a.kind } : {}),
            ...(a.isPreferred ? { isPreferred: true as const } : {}),
          })),
        );
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        result.problems.push(
          `${file}:${d.line}: ${error instanceof Error ? error.message : String(error)}`,
        );
        break;
      }
      done++;
    }
  }
  return result;
}

/** The note check_project adds when fixes were asked for. */
export function fixesNote(result: FixesResult): string {
  const parts = [
    "include_fixes: errors and warnings list the language server's quick fixes in " +
    "available_fixes (at most the first " + MAX_FIX_DIAGNOSTICS + " are asked); pass a fix's id " +
    "to execute_code_action, then run check_project again.",
  ];
  if (result.beyondLimit > 0) {
    parts.push(`${result.beyondLimit} more errors/warnings were not asked for fixes.`);
  }
  if (result.problems.length > 0) {
    parts.push(`No fixes for: ${result.problems.slice(0, 5).join("; ")}.`);
  }
  return parts.join(" ");
}
