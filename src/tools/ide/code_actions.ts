/**
 * code_actions: what the language server offers for a range, a symbol or a diagnostic, cached
 * under stable ids (for every language server). The other code-action tools each have their
 * file: list_code_actions (the cache), execute_code_action (apply one by id; stale ids are
 * refused) and refresh_code_actions (re-ask for the quick fixes of the current diagnostics);
 * they list actions as {@linkcode actionDict} does.
 * @module
 */
import type { Diagnostic, Range } from "../../deps.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import type { StoredAction } from "../../session/code_action_store.ts";
import { codePointLength, toAgentPosition, toLspPosition } from "../../lsp/positions.ts";
import { comparePositions } from "../../symbols/model.ts";
import { requestCodeActions } from "../code_action_runner.ts";
import { type FileTarget, ideDescribe, resolveFile } from "../shared/targets.ts";
import { locate } from "../shared/locate_symbol.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { toJson } from "../shared/json.ts";

/** How an action is listed. */
export function actionDict(a: StoredAction, withFile: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: a.id, title: a.title };
  if (a.kind) out.kind = a.kind;
  if (withFile) {
    out.file = a.relPath;
    out.line = a.line;
  }
  if (a.isPreferred) out.isPreferred = true;
  if (a.disabled) out.disabled = a.disabled;
  if (a.diagnostics?.length) out.fixes = a.diagnostics;
  return out;
}

function overlaps(a: Range, b: Range): boolean {
  return comparePositions(a.end, b.start) >= 0 && comparePositions(b.end, a.start) >= 0;
}

function kindsList(kind: string | undefined): string[] {
  return (kind ?? "").split(",").map((k) => k.trim()).filter(Boolean);
}

interface RangeArgs {
  start_line?: number | undefined;
  start_column?: number | undefined;
  end_line?: number | undefined;
  end_column?: number | undefined;
  name_path?: string | undefined;
  diagnostic?: string | undefined;
}

/** The range and diagnostics a code_actions call is about. */
async function rangeOf(
  ctx: ToolContext,
  file: FileTarget,
  args: RangeArgs,
): Promise<{ range: Range; diagnostics: Diagnostic[] }> {
  const forms = [args.start_line !== undefined, !!args.name_path?.trim(), !!args.diagnostic?.trim()]
    .filter(Boolean).length;
  if (forms === 0) {
    throw new ToolError(
      "No range given: pass start_line (optionally start_column, end_line, end_column), " +
        "name_path of a symbol, or diagnostic (text of a diagnostic's message or its code).",
    );
  }
  if (forms > 1) {
    throw new ToolError("Give only one of start_line, name_path and diagnostic.");
  }
  const all = await file.server.diagnostics(file.relPath, file.options);
  if (args.diagnostic?.trim()) {
    const wanted = args.diagnostic.trim();
    const matching = all.filter((d) =>
      String(d.code ?? "") === wanted || d.message.toLowerCase().includes(wanted.toLowerCase())
    );
    if (matching.length === 0) {
      const known = all.slice(0, 10).map((d) =>
        `line ${d.range.start.line + 1}: ${d.message.split("\n")[0]}`
      );
      throw new ToolError(
        `No diagnostic in '${file.relPath}' matches '${wanted}'. ` +
          (known.length ? `Its diagnostics: ${known.join("; ")}.` : "It has no diagnostics."),
      );
    }
    return { range: matching[0]!.range, diagnostics: [matching[0]!] };
  }
  let range: Range;
  if (args.name_path?.trim()) {
    const match = await locate(ctx, args.name_path, file.relPath, file.options);
    range = match.node.selectionRange;
  } else {
    const startLine = args.start_line!;
    const endLine = args.end_line ?? startLine;
    const start = toLspPosition(file.lines, startLine, args.start_column ?? 1, file.relPath);
    const endLineText = file.lines[endLine - 1];
    const defaultEnd = args.end_line === undefined && args.start_column !== undefined
      ? args.start_column
      : codePointLength(endLineText ?? "") + 1;
    const end = toLspPosition(file.lines, endLine, args.end_column ?? defaultEnd, file.relPath);
    if (end.line < start.line || (end.line === start.line && end.character < start.character)) {
      throw new ToolError("The range ends before it starts: check end_line and end_column.");
    }
    range = { start, end };
  }
  return { range, diagnostics: all.filter((d) => overlaps(d.range, range)) };
}

export const codeActions = defineTool({
  name: "code_actions",
  description: "The code actions (quick fixes, refactorings) for lines (1-based " +
    "start_line..end_line), a symbol (name_path) or a diagnostic, each with an id for " +
    "execute_code_action.",
  params: {
    relative_path: z.string().describe(ideDescribe.relativePath),
    start_line: z.number().int().optional().describe("1-based first line of the range."),
    start_column: z.number().int().optional().describe("1-based column where it starts."),
    end_line: z.number().int().optional().describe("1-based last line (default start_line)."),
    end_column: z.number().int().optional().describe("1-based column where it ends."),
    name_path: z.string().optional().describe("Instead of lines: a symbol's name path."),
    diagnostic: z.string().optional().describe(
      "Instead of lines: a diagnostic's code or message text (its fixes).",
    ),
    kind: z.string().optional().describe(
      "Only these kinds, comma-separated: quickfix, refactor, refactor.extract, source, ...",
    ),
    include_disabled: z.boolean().default(false).describe(
      "Also list actions the server disabled here (with the reason).",
    ),
  },
  // Optional: position-based, so on in the ide and coding-agent contexts; the default list
  // reaches fixes through check_project(include_fixes) and rename previews.
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const file = await resolveFile(ctx, args.relative_path);
    const { range, diagnostics } = await rangeOf(ctx, file, args);
    const all = await requestCodeActions(ctx, file, range, diagnostics, kindsList(args.kind));
    // Disabled actions cannot run; they only say why a refactoring does not apply here.
    const stored = args.include_disabled ? all : all.filter((a) => !a.disabled);
    const disabled = all.length - stored.length;
    const start = toAgentPosition(file.lines, range.start);
    const end = toAgentPosition(file.lines, range.end);
    return toJson({
      file: file.relPath,
      range: {
        start_line: start.line,
        start_column: start.column,
        end_line: end.line,
        end_column: end.column,
      },
      ...(diagnostics.length > 0 ? { diagnostics: diagnostics.map((d) => d.message) } : {}),
      actions: stored.map((a) => actionDict(a, false)),
      totalCount: stored.length,
      ...(disabled > 0 ? { disabledCount: disabled } : {}),
    });
  },
});
