/**
 * The one path by which tools change project files. {@linkcode writeFiles} takes the per-file
 * locks, lets the caller read and decide under them, writes all or nothing (each file
 * atomically, in its original format), records the change in the session's read tracking and
 * tells the language servers. {@linkcode editFile} (one existing file, transformed) and
 * {@linkcode applyWorkspaceEdit} (a language server's WorkspaceEdit) are built on it.
 * @module
 */
import type { WorkspaceEdit } from "../../deps.ts";
import type { ResolvedPath } from "../../project/sandbox.ts";
import type { ToolContext } from "../tool.ts";
import { noteWrite, watchDiagnostics } from "../new_errors_watch.ts";
import type { ValidateOptions } from "../../project/project.ts";
import type { FileChange } from "../../edit/all_or_nothing.ts";
import { commitChangesAndMoves, type FileMove } from "../../edit/file_move.ts";
import { withFolderLocks } from "../../edit/folder_lock.ts";
import {
  type FileOutcome,
  type PlanOptions,
  planWorkspaceEdit,
} from "../../edit/workspace_edit.ts";

export type { FileChange } from "../../edit/all_or_nothing.ts";
export type { FileMove } from "../../edit/file_move.ts";

/** The tail of the chain of writes per real path: writes of one file run one after another. */
const fileQueues = new Map<string, Promise<unknown>>();

/**
 * Run `fn` when every earlier call for the same real path has finished. Clients may send tool
 * calls in parallel; without this, two edits of one file would both read the old content and
 * the second write would silently drop the first edit.
 */
async function withFileLock<T>(realPath: string, fn: () => Promise<T>): Promise<T> {
  const previous = fileQueues.get(realPath) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(fn);
  const tail = run.catch(() => {});
  fileQueues.set(realPath, tail);
  try {
    return await run;
  } finally {
    if (fileQueues.get(realPath) === tail) fileQueues.delete(realPath);
  }
}

/**
 * {@linkcode withFileLock} for several files, taken in sorted order (so never a deadlock), then
 * the locks of their folders that other Sextant processes respect (edit/folder_lock.ts).
 */
function withFileLocks<T>(realPaths: readonly string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(realPaths)].sort();
  const step = (i: number): Promise<T> =>
    i === sorted.length ? withFolderLocks(sorted, fn) : withFileLock(sorted[i]!, () => step(i + 1));
  return step(0);
}

/** What {@linkcode WriteRequest.prepare} decided: the changes to make and the caller's result. */
export interface PreparedWrite<T> {
  /** May be empty (a dry run, nothing to change): then nothing is written. */
  changes: readonly FileChange[];
  /** Files or folders to move after `changes` are written (lock their real paths too). */
  moves?: readonly FileMove[];
  result: T;
}

/** A write through {@linkcode writeFiles}. */
export interface WriteRequest<T> {
  /** Real paths to lock: every file `prepare` reads or changes. */
  lock: readonly string[];
  /** Reads the current content (under the locks) and decides the changes. */
  prepare: () => Promise<PreparedWrite<T>>;
  /**
   * The agent gave the whole new content (it created or overwrote the files), so they count as
   * read. Otherwise earlier reads of line ranges are forgotten, since lines may have moved.
   */
  wholeContent?: boolean;
}

/**
 * The one write path: under the locks of `request.lock`, `prepare` reads and decides; its
 * changes are written all or nothing, the session records them (read tracking) and the language
 * servers hear of them. Returns `prepare`'s result. A `prepare` that throws changes nothing.
 */
export async function writeFiles<T>(ctx: ToolContext, request: WriteRequest<T>): Promise<T> {
  return await withFileLocks(request.lock, async () => {
    const { changes, moves = [], result } = await request.prepare();
    if (changes.length === 0 && moves.length === 0) return result;
    ctx.signal.throwIfAborted();
    // The errors before the edit, to report the ones it introduces (editing tools only).
    const watch = await watchDiagnostics(ctx, {
      changed: changes.filter((c) => c.after !== c.before).map((c) => ({
        real: c.real,
        existedBefore: c.before !== null,
      })),
      moves,
    });
    const written = await commitChangesAndMoves(changes, moves);
    for (const real of written) {
      if (request.wholeContent) ctx.session.reads.noteCreated(real);
      else ctx.session.reads.noteEdited(real);
    }
    if (written.length > 0) await ctx.session.filesChanged(written);
    if (moves.length > 0) await ctx.session.filesMoved(moves);
    noteWrite(ctx);
    watch?.after();
    return result;
  });
}

export interface EditOutcome {
  resolved: ResolvedPath;
  before: string;
  after: string;
}

/**
 * Change one existing file: resolve it in the sandbox, read it, transform its text and write
 * the result (when it differs). A transform that throws changes nothing.
 */
export async function editFile(
  ctx: ToolContext,
  userPath: string,
  transform: (text: string, resolved: ResolvedPath) => string | Promise<string>,
  options: ValidateOptions = {},
): Promise<EditOutcome> {
  const project = ctx.project();
  const resolved = project.resolveFile(userPath, options);
  return await writeFiles(ctx, {
    lock: [resolved.real],
    prepare: async () => {
      const file = await project.readText(resolved);
      const after = await transform(file.text, resolved);
      return {
        changes: [{ real: resolved.real, before: file.text, after, format: file.format }],
        result: { resolved, before: file.text, after },
      };
    },
  });
}

/**
 * Apply a language server's WorkspaceEdit (text edits and file operations) all or nothing,
 * through the sandbox. It is planned once to know which files to lock, then again under the
 * locks, since another tool may have written one of them meanwhile. Returns the files whose
 * content or existence changed; a moved file or folder is one outcome with `movedTo` (content
 * null before and after when only moved).
 */
export async function applyWorkspaceEdit(
  ctx: ToolContext,
  edit: WorkspaceEdit | null | undefined,
  options: PlanOptions,
): Promise<FileOutcome[]> {
  if (!edit) return [];
  const project = ctx.project();
  const first = await planWorkspaceEdit(project, edit, options);
  if (first.files.length === 0 && first.moves.length === 0) return [];
  return await writeFiles(ctx, {
    lock: [...first.files.map((f) => f.real), ...first.moves.flatMap((m) => [m.from, m.to])],
    prepare: async () => {
      const plan = await planWorkspaceEdit(project, edit, options);
      const moved: FileOutcome[] = plan.moves.map((m) => ({
        relPath: m.fromRel,
        real: m.from,
        before: null,
        after: null,
        format: { eol: "\n", bom: false, finalNewline: true, encoding: "utf-8", mode: null },
        editCount: 0,
        movedTo: m.toRel,
      }));
      return {
        changes: plan.files,
        moves: plan.moves,
        result: [...plan.files.filter((f) => f.before !== f.after), ...moved],
      };
    },
  });
}
