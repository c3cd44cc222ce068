/**
 * Code actions with stable ids (generalized to every language server):
 * code_actions (what the server offers for a range, a symbol or a diagnostic), list_code_actions
 * (the cache), execute_code_action (apply one by id; stale ids are refused) and
 * refresh_code_actions (re-ask for the quick fixes of the current diagnostics).
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import type { StoredAction } from "../../lsp/code_action_store.ts";
import { codePointLength, toAgentPosition, toLspPosition } from "../../lsp/positions.ts";
import type { LspDiagnostic, LspRange } from "../../lsp/language_server.ts";
import { executeStoredAction, requestCodeActions } from "../shared/code_actions.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import { type FileTarget, ideDescribe, resolveFile } from "../shared/targets.ts";
import { locate } from "../shared/symbols.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { forProject, projectOfAction } from "../shared/projects.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";

/** How an action is listed. */
function actionDict(a: StoredAction, withFile: boolean): Record<string, unknown> {
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

function overlaps(a: LspRange, b: LspRange): boolean {
  const before = (p: { line: number; character: number }, q: typeof p) =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
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
): Promise<{ range: LspRange; diagnostics: LspDiagnostic[] }> {
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
  let range: LspRange;
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

export const listCodeActions = defineTool({
  name: "list_code_actions",
  description: "Lists the cached code actions (from code_actions, refresh_code_actions and " +
    "rename previews) that can still be executed, with their ids; stale ones (their files " +
    'changed) are dropped. Returns {"code_actions": [{"id", "title", "kind", "file", "line"}], ' +
    '"count"}.',
  params: {
    relative_path: z.string().optional().describe("Only actions for this file."),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const store = ctx.session.codeActions(ctx.project());
    const dropped = await store.prune();
    const only = args.relative_path?.trim()
      ? ctx.project().resolve(args.relative_path).relative
      : null;
    const actions = store.list().filter((a) => only === null || a.relPath === only);
    const listed = actions.map((a) => actionDict(a, true));
    // Other loaded projects' actions (manage_projects; e.g. a rename previewed with project_name)
    // follow, each with its project: execute_code_action finds them by id.
    for (const project of only === null ? ctx.session.projects.list() : []) {
      if (project === ctx.project()) continue;
      const other = ctx.session.codeActions(project);
      dropped.push(...await other.prune());
      listed.push(
        ...other.list().map((a) => ({ ...actionDict(a, true), project_name: project.name })),
      );
    }
    return toJson({
      code_actions: listed,
      count: listed.length,
      ...(dropped.length > 0 ? { dropped_stale: dropped.length } : {}),
    });
  },
});

export const executeCodeAction = defineTool({
  name: "execute_code_action",
  description: "Applies a code action by id (from code_actions, list_code_actions, check_project " +
    "fixes or a rename preview) to all files or none; refused when a file changed since. " +
    "Returns a diff.",
  params: {
    action_id: z.string().describe("The id of the action."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    // Fix ids from check_project may belong to another loaded project: run them there.
    const owner = projectOfAction(ctx.session, args.action_id);
    const result = await executeStoredAction(
      owner ? forProject(ctx, owner) : ctx,
      args.action_id,
    );
    const files = result.files.map(({ diff: _diff, ...rest }) => rest);
    const diff = result.files.map((f) => f.diff).join("\n");
    const base = {
      applied: result.applied,
      action: result.action,
      ...(result.command ? { command: result.command } : {}),
      files,
      ...(result.note ? { note: result.note } : {}),
    };
    if (result.files.length === 0) {
      return toJson({ ...base, note: "The action changed no files." });
    }
    return {
      text: toJson({ ...base, diff }),
      shorter: [{ note: "Applied; the diff is too long to show:", text: () => toJson(base) }],
    };
  },
});

export const refreshCodeActions = defineTool({
  name: "refresh_code_actions",
  description: "Rebuilds the code-action cache: drops stale and server-offered actions, then " +
    "asks the language servers for the quick fixes of the current errors and warnings of a " +
    "file, a folder or the whole project (relative_path omitted). Returns the actions like " +
    "list_code_actions.",
  params: {
    relative_path: z.string().optional().describe(
      "A file or folder; omitted: the whole project.",
    ),
    max_files: z.number().int().min(1).max(500).default(50).describe(
      "Check at most this many files.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const store = ctx.session.codeActions(ctx.project());
    await store.prune();
    const collected = await collectDiagnostics(ctx, args.relative_path, args.max_files);
    const checked = new Set(collected.files.map((f) => f.relPath));
    store.clear((a) => a.action !== undefined && checked.has(a.relPath));
    let asked = 0;
    const limit = 100;
    for (const f of collected.files) {
      const problems = f.diagnostics.filter((d) => (d.severity ?? 1) <= 2);
      if (problems.length === 0) continue;
      const file = await resolveFile(ctx, f.relPath);
      for (const d of problems) {
        if (asked++ >= limit) break;
        await requestCodeActions(ctx, file, d.range, [d], ["quickfix"]);
      }
    }
    const actions = store.list().filter((a) => checked.has(a.relPath));
    return toJson({
      code_actions: actions.map((a) => actionDict(a, true)),
      count: actions.length,
      filesChecked: collected.checked,
      ...(asked > limit
        ? { note: `Only the first ${limit} diagnostics were asked for fixes.` }
        : {}),
    });
  },
});
