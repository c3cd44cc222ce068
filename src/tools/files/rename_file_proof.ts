/**
 * How rename_file proves a move's import edits, the servers' (`workspace/willRenameFiles`) and
 * those Sextant wrote itself (pyright, gopls): the language server's errors in every file the
 * edits touch, every file that moves and every file that names the moved code, before and after
 * the move. An error that was not there before means the edits are wrong or incomplete: the move
 * is undone (text and place, through the write path) and refused, unless forced.
 * @module
 */
import type { LanguageServer } from "../../lsp/language_server.ts";
import type { FileOutcome } from "../../edit/workspace_edit.ts";
import { requestOptions } from "../shared/locate_symbol.ts";
import { type FileChange, writeFiles } from "../shared/write.ts";
import { formatOnly } from "../../edit/text_file.ts";
import type { ToolContext } from "../tool.ts";

/** Files checked per server, at most; the answer names how many more were not. */
export const MAX_PROVEN_FILES = 150;

/** A server whose errors, before and after, prove a move's edits of its files. */
export interface MoveCheck {
  server: LanguageServer;
  /** Files whose errors prove the edits (old paths), most telling first. */
  files: string[];
}

/** Files whose errors are asked for at once. */
const PARALLEL_CHECKS = 8;

/** The errors of one kind in a file, each with its 1-based line and message as the server says. */
type ErrorKind = Array<{ line: number; message: string }>;

/** A server's errors per file (project-relative), counted by kind. */
export type ErrorCounts = Map<string, Map<string, ErrorKind>>;

/** An error the move introduced. */
export interface IntroducedError {
  relPath: string;
  /** 1-based. */
  line: number;
  message: string;
}

/**
 * The kind of an error: its code and message with quoted names left out. The move rewrites the
 * names an error quotes (`Import "a.b" could not be resolved`, `Module './a' has no exported
 * member`), so an old error would look new; counting the kinds per file still shows each error
 * the move adds.
 */
export function errorKind(code: string | number | undefined, message: string): string {
  return `${code ?? ""}\u0000${message.replace(/(["'`])[^"'`\n]*\1/g, "$1$1")}`;
}

/** The errors (severity 1) the server reports for `files`, as they are on disk now. */
export async function errorsOf(
  ctx: ToolContext,
  server: LanguageServer,
  files: readonly string[],
): Promise<ErrorCounts> {
  const out: ErrorCounts = new Map();
  const options = { ...requestOptions(ctx), transient: true };
  const count = async (relPath: string) => {
    const kinds = new Map<string, ErrorKind>();
    for (const d of await server.diagnostics(relPath, options)) {
      if (d.severity !== 1) continue;
      const kind = errorKind(d.code, d.message);
      const list = kinds.get(kind) ?? [];
      list.push({ line: d.range.start.line + 1, message: d.message });
      kinds.set(kind, list);
    }
    out.set(relPath, kinds);
  };
  // A few at a time: the server checks files while others wait, within its open-file budget.
  for (let i = 0; i < files.length; i += PARALLEL_CHECKS) {
    await Promise.all(files.slice(i, i + PARALLEL_CHECKS).map(count));
  }
  return out;
}

/**
 * The errors of `after` whose kind a file has more of than in `before`. `placeOf` maps a file's
 * old path to its new one.
 */
export function introducedErrors(
  before: ErrorCounts,
  after: ErrorCounts,
  placeOf: (relPath: string) => string,
): IntroducedError[] {
  const old = new Map([...before].map(([relPath, kinds]) => [placeOf(relPath), kinds]));
  const out: IntroducedError[] = [];
  for (const [relPath, kinds] of after) {
    for (const [kind, now] of kinds) {
      const was = old.get(relPath)?.get(kind) ?? [];
      if (now.length <= was.length) continue;
      // The new ones: those whose text was not there before, else the last ones.
      const oldTexts = new Set(was.map((e) => e.message));
      const fresh = now.filter((e) => !oldTexts.has(e.message));
      const shown = fresh.length >= now.length - was.length ? fresh : now.slice(was.length);
      out.push(...shown.slice(0, now.length - was.length).map((e) => ({ relPath, ...e })));
    }
  }
  return out;
}

/**
 * Undo an applied move: every changed file gets its old text back where it is now, then the
 * file or folder moves back, all or nothing through the write path.
 */
export async function undoMove(
  ctx: ToolContext,
  changed: readonly FileOutcome[],
  to: string,
): Promise<void> {
  const moved = changed.find((f) => f.movedTo !== undefined);
  if (!moved) return;
  const realFrom = moved.real;
  const realTo = ctx.project().resolve(to).real;
  const now = (real: string) =>
    real === realFrom || real.startsWith(realFrom + "/")
      ? realTo + real.slice(realFrom.length)
      : real;
  const changes: FileChange[] = changed
    .filter((f) => f.movedTo === undefined && f.before !== null && f.after !== null)
    // What the move wrote is put back: the stamp of what the files held before is not checked.
    .map((f) => ({
      real: now(f.real),
      before: f.after,
      after: f.before,
      format: { ...formatOnly(f.format), ...(f.format.mixed ? { mixed: f.format.mixed } : {}) },
    }));
  await writeFiles(ctx, {
    lock: [...changes.map((c) => c.real), realTo, realFrom],
    prepare: () => Promise.resolve({ changes, moves: [{ from: realTo, to: realFrom }], result: 0 }),
  });
}
