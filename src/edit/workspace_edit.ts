/**
 * Applying an LSP `WorkspaceEdit` (from rename, code actions) to project files, all or nothing:
 * every file is read and edited in memory first (in the sandbox, in its own format); only when
 * all succeeded are they written together with {@linkcode writeAllOrNothing}.
 * Both forms are accepted: `changes` (uri → edits) and `documentChanges` (TextDocumentEdits, in
 * order). File operations (create/rename/delete) are refused for now.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { Project } from "../project/project.ts";
import type { TextFormat } from "./text_file.ts";
import { type PlannedWrite, writeAllOrNothing } from "./file_set.ts";

/** An LSP position (0-based line, UTF-16 character). */
export interface EditPosition {
  line: number;
  character: number;
}

/** An LSP `TextEdit` (also covers `AnnotatedTextEdit`). */
export interface LspTextEdit {
  range: { start: EditPosition; end: EditPosition };
  newText: string;
}

/** The parts of an LSP `WorkspaceEdit` we read. */
export interface LspWorkspaceEdit {
  changes?: Record<string, LspTextEdit[]>;
  documentChanges?: unknown[];
}

/** Edits for one document, applied together to the text they were computed for. */
export interface EditBatch {
  uri: string;
  edits: LspTextEdit[];
}

/** One file's planned change. */
export interface PlannedFileEdit {
  relPath: string;
  /** Real path (symlinks resolved). */
  real: string;
  before: string;
  after: string;
  format: TextFormat;
  /** Number of text edits applied to this file. */
  editCount: number;
}

/**
 * The batches of a WorkspaceEdit in application order: `documentChanges` when present (the
 * spec prefers it), else `changes`. Throws a ToolError for file operations.
 */
export function editBatches(edit: LspWorkspaceEdit | null | undefined): EditBatch[] {
  if (!edit) return [];
  if (Array.isArray(edit.documentChanges)) {
    const batches: EditBatch[] = [];
    const operations: string[] = [];
    for (const change of edit.documentChanges) {
      const c = change as Record<string, unknown>;
      if (typeof c.kind === "string") {
        const target = c.kind === "rename"
          ? `${String(c.oldUri)} -> ${String(c.newUri)}`
          : String(c.uri ?? "?");
        operations.push(`${c.kind} ${target}`);
        continue;
      }
      const doc = c.textDocument as { uri?: string } | undefined;
      if (doc?.uri && Array.isArray(c.edits)) {
        batches.push({ uri: doc.uri, edits: (c.edits as LspTextEdit[]).filter(isTextEdit) });
      }
    }
    if (operations.length > 0) {
      throw new ToolError(
        "The language server's edit also creates, renames or deletes files " +
          `(${operations.join(", ")}); Sextant does not apply file operations yet. ` +
          "Nothing was changed.",
      );
    }
    return batches;
  }
  return Object.entries(edit.changes ?? {}).map(([uri, edits]) => ({
    uri,
    edits: (edits ?? []).filter(isTextEdit),
  }));
}

function isTextEdit(value: unknown): value is LspTextEdit {
  const v = value as LspTextEdit | null;
  return typeof v === "object" && v !== null && typeof v.newText === "string" &&
    typeof v.range?.start?.line === "number" && typeof v.range?.end?.line === "number";
}

function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function offsetOf(text: string, starts: readonly number[], pos: EditPosition): number {
  if (pos.line >= starts.length) return text.length;
  const lineStart = starts[Math.max(0, pos.line)]!;
  const lineEnd = pos.line + 1 < starts.length ? starts[pos.line + 1]! - 1 : text.length;
  return Math.min(lineStart + Math.max(0, pos.character), lineEnd);
}

/**
 * Apply text edits computed against `text`. Edits must not overlap (LSP rule); inserts at the
 * same position keep their array order. Throws a ToolError for overlapping edits.
 */
export function applyTextEdits(
  text: string,
  edits: readonly LspTextEdit[],
  label = "file",
): string {
  const starts = lineStartOffsets(text);
  const spans = edits.map((e, i) => ({
    from: offsetOf(text, starts, e.range.start),
    to: offsetOf(text, starts, e.range.end),
    text: e.newText.replace(/\r\n/g, "\n"),
    i,
  }));
  spans.sort((a, b) => a.from - b.from || a.to - b.to || a.i - b.i);
  let out = "";
  let at = 0;
  for (const span of spans) {
    if (span.to < span.from) {
      throw new ToolError(`The language server sent an edit with an inverted range for ${label}.`);
    }
    if (span.from < at) {
      throw new ToolError(
        `The language server sent overlapping edits for ${label}; nothing was changed.`,
      );
    }
    out += text.slice(at, span.from) + span.text;
    at = span.to;
  }
  return out + text.slice(at);
}

/**
 * Read every file a WorkspaceEdit touches (inside the project only) and compute its new text.
 * Nothing is written. `relPathOf` maps a `file://` URI to a project-relative path (null outside).
 */
export async function planWorkspaceEdit(
  project: Project,
  edit: LspWorkspaceEdit | null | undefined,
  relPathOf: (uri: string) => string | null,
): Promise<PlannedFileEdit[]> {
  const batches = editBatches(edit);
  const plans = new Map<string, PlannedFileEdit>();
  const outside = batches.filter((b) => b.edits.length > 0 && relPathOf(b.uri) === null);
  if (outside.length > 0) {
    throw new ToolError(
      "The edit would change files outside the project: " +
        outside.map((b) => b.uri).join(", ") + ". Nothing was changed.",
    );
  }
  for (const batch of batches) {
    if (batch.edits.length === 0) continue;
    const relPath = relPathOf(batch.uri)!;
    let plan = plans.get(relPath);
    if (!plan) {
      const resolved = project.resolveFile(relPath, { requireNotIgnored: false });
      const file = await project.readText(resolved);
      plan = {
        relPath: resolved.relative,
        real: resolved.real,
        before: file.text,
        after: file.text,
        format: file.format,
        editCount: 0,
      };
      plans.set(relPath, plan);
    }
    plan.after = applyTextEdits(plan.after, batch.edits, `'${relPath}'`);
    plan.editCount += batch.edits.length;
  }
  return [...plans.values()].filter((p) => p.after !== p.before || p.editCount > 0)
    .sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}

/** Write planned edits all together, or none of them (see writeAllOrNothing). */
export async function commitPlannedEdits(plans: readonly PlannedFileEdit[]): Promise<void> {
  const writes: PlannedWrite[] = plans
    .filter((p) => p.after !== p.before)
    .map((p) => ({ path: p.real, text: p.after, format: p.format }));
  if (writes.length > 0) await writeAllOrNothing(writes);
}
