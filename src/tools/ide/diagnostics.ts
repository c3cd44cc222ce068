/**
 * The `diagnostics` tool (the Ada MCP setup's tools, without the `ada_` prefix): the language servers' errors and
 * warnings for a file, a folder or the whole project, always for the content on disk now (the
 * engine syncs each file and waits for, or pulls, the diagnostics of exactly that version; no
 * sleeps). Counts by severity as the Ada MCP setup shows them.
 * @module
 */
import type { Diagnostic } from "../../deps.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { splitLines, toAgentPosition } from "../../lsp/positions.ts";
import { mapLimit } from "../../map_limit.ts";
import { indexOf, requestOptions } from "../shared/locate_symbol.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";

/** Severity names by LSP number. */
export const SEVERITIES = ["", "error", "warning", "information", "hint"] as const;

/** Files checked at once. */
const CONCURRENCY = 4;

/** Diagnostics of one file, with its lines (for columns). */
export interface FileDiagnostics {
  relPath: string;
  lines: string[];
  diagnostics: Diagnostic[];
}

/** What collectDiagnostics found. */
export interface CollectedDiagnostics {
  files: FileDiagnostics[];
  /** Files checked. */
  checked: number;
  /** Source files left out because of the limit. */
  skipped: number;
  /** Files whose server failed, with the reason. */
  failures: string[];
}

/**
 * Diagnostics for a file, or for every source file below a folder ("." for the project; at
 * most `maxFiles`), each for its content on disk now.
 */
export async function collectDiagnostics(
  ctx: ToolContext,
  relativePath: string | undefined,
  maxFiles: number,
): Promise<CollectedDiagnostics> {
  const project = ctx.project();
  const pool = ctx.session.services(project).pool;
  const options = requestOptions(ctx);
  let files: string[];
  const given = relativePath?.trim() ?? "";
  if (given === "" || given === ".") {
    files = await indexOf(ctx).sourceFiles(".", ctx.signal);
  } else {
    const resolved = project.resolve(given);
    if (Deno.statSync(resolved.real).isDirectory) {
      files = await indexOf(ctx).sourceFiles(resolved.relative, ctx.signal);
    } else {
      if (!pool.handles(resolved.relative)) {
        throw new ToolError(
          `No language server handles '${resolved.relative}', so it has no diagnostics. ` +
            "Diagnostics cover source files of a configured language.",
        );
      }
      files = [resolved.relative];
    }
  }
  const skipped = Math.max(0, files.length - maxFiles);
  files = files.slice(0, maxFiles);
  const failures: string[] = [];
  let done = 0;
  const results = await mapLimit(files, CONCURRENCY, async (relPath) => {
    ctx.signal.throwIfAborted();
    try {
      const server = await pool.serverFor(relPath, options);
      const diagnostics = await server.diagnostics(relPath, options);
      const text = (await project.readText(project.resolveFile(relPath, {
        requireNotIgnored: false,
      }))).text;
      if (files.length > 1 && ++done % 10 === 0) {
        await ctx.progress(done, files.length, `Diagnostics: ${done}/${files.length} files`);
      }
      return { relPath, lines: splitLines(text), diagnostics };
    } catch (error) {
      if (ctx.signal.aborted || files.length === 1) throw error;
      failures.push(`${relPath}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  });
  const found = results.filter((r): r is FileDiagnostics => r !== null);
  if (found.length === 0 && failures.length > 0) throw new ToolError(failures.join("\n"));
  return { files: found, checked: found.length, skipped, failures };
}

/** One diagnostic as the tools print it (1-based lines, code-point columns). */
export function diagnosticDict(
  file: FileDiagnostics,
  d: Diagnostic,
  full = true,
): Record<string, unknown> {
  const start = toAgentPosition(file.lines, d.range.start);
  const out: Record<string, unknown> = {
    file: file.relPath,
    line: start.line,
    column: start.column,
  };
  if (full) {
    const end = toAgentPosition(file.lines, d.range.end);
    out.end_line = end.line;
    out.end_column = end.column;
  }
  out.severity = SEVERITIES[d.severity ?? 1] ?? `severity${d.severity}`;
  out.message = d.message;
  if (d.code !== undefined) out.code = d.code;
  if (full && d.source !== undefined) out.source = d.source;
  return out;
}

const SEVERITY_FILTER: Readonly<Record<string, number | null>> = {
  all: null,
  error: 1,
  warning: 2,
  information: 3,
  info: 3,
  hint: 4,
};

export const diagnostics = defineTool({
  name: "diagnostics",
  description: "Gets the language servers' errors and warnings for the files as they are on " +
    "disk now (after any edit, never stale): one file, a folder, or the whole project " +
    '(relative_path omitted). Returns {"diagnostics": [{"file", "line", "column", "severity", ' +
    '"message", "code"}], "errorCount", "warningCount", "infoCount", "hintCount", ' +
    '"filesChecked"}; counts cover all severities.',
  params: {
    relative_path: z.string().optional().describe(
      "A file or folder relative to the project root; omitted: the whole project.",
    ),
    severity: z.enum(["all", "error", "warning", "information", "info", "hint"]).default("all")
      .describe("List only this severity (counts still cover all)."),
    max_files: z.number().int().min(1).max(2000).default(200).describe(
      "Check at most this many files (for folders and the project).",
    ),
    max_answer_chars: maxAnswerChars,
  },
  // Optional: get_diagnostics_for_file and check_project cover the default set.
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const collected = await collectDiagnostics(ctx, args.relative_path, args.max_files);
    const wanted = SEVERITY_FILTER[args.severity] ?? null;
    const counts = [0, 0, 0, 0, 0];
    const selected: Array<{ file: FileDiagnostics; d: Diagnostic }> = [];
    for (const file of collected.files) {
      for (const d of file.diagnostics) {
        const severity = d.severity ?? 1;
        counts[severity] = (counts[severity] ?? 0) + 1;
        if (wanted === null || severity === wanted) selected.push({ file, d });
      }
    }
    selected.sort((a, b) =>
      a.file.relPath !== b.file.relPath
        ? (a.file.relPath < b.file.relPath ? -1 : 1)
        : a.d.range.start.line - b.d.range.start.line ||
          a.d.range.start.character - b.d.range.start.character
    );
    const summary = {
      errorCount: counts[1],
      warningCount: counts[2],
      infoCount: counts[3],
      hintCount: counts[4],
      filesChecked: collected.checked,
      ...(collected.skipped > 0
        ? { filesSkipped: collected.skipped, note: "Raise max_files to check every file." }
        : {}),
      ...(collected.failures.length > 0 ? { failures: collected.failures } : {}),
    };
    const render = (full: boolean, only?: number) =>
      toJson({
        diagnostics: selected
          .filter(({ d }) => only === undefined || (d.severity ?? 1) <= only)
          .map(({ file, d }) => diagnosticDict(file, d, full)),
        ...summary,
      });
    return {
      text: render(true),
      shorter: [
        { note: "Too long; without end positions and sources:", text: () => render(false) },
        { note: "Too long; errors and warnings only:", text: () => render(false, 2) },
        { note: "Too long; errors only:", text: () => render(false, 1) },
      ],
    };
  },
});
