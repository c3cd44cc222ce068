/**
 * How rename_file proves the import edits Sextant wrote itself (for servers without
 * `workspace/willRenameFiles`: pyright, gopls): the language server's errors in every file those
 * edits touch, every file that moves and every lexical importer, before and after the move. An
 * error that was not there before means the edits are wrong or incomplete: the move is undone
 * (text and place, through the write path) and refused, unless forced.
 * @module
 */
import type { Diagnostic } from "../../deps.ts";
import type { LanguageServer } from "../../lsp/language_server.ts";
import type { FileOutcome } from "../../edit/workspace_edit.ts";
import { requestOptions } from "../shared/locate_symbol.ts";
import { type FileChange, writeFiles } from "../shared/write.ts";
import type { ToolContext } from "../tool.ts";

/** Files checked per server, at most; the answer names how many more were not. */
export const MAX_PROVEN_FILES = 150;

/** Files whose errors are asked for at once. */
const PARALLEL_CHECKS = 8;

/** A server's errors per file (project-relative), each message counted. */
export type ErrorCounts = Map<string, Map<string, { count: number; line: number }>>;

/** An error the move introduced. */
export interface IntroducedError {
  relPath: string;
  /** 1-based. */
  line: number;
  message: string;
}

function keyOf(d: Diagnostic): string {
  return `${d.code ?? ""}\u0000${d.message}`;
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
    const counts = new Map<string, { count: number; line: number }>();
    for (const d of await server.diagnostics(relPath, options)) {
      if (d.severity !== 1) continue;
      const known = counts.get(keyOf(d));
      if (known) known.count++;
      else counts.set(keyOf(d), { count: 1, line: d.range.start.line + 1 });
    }
    out.set(relPath, counts);
  };
  // A few at a time: the server checks files while others wait, within its open-file budget.
  for (let i = 0; i < files.length; i += PARALLEL_CHECKS) {
    await Promise.all(files.slice(i, i + PARALLEL_CHECKS).map(count));
  }
  return out;
}

/** The errors of `after` not in `before`; `placeOf` maps a file's old path to its new one. */
export function introducedErrors(
  before: ErrorCounts,
  after: ErrorCounts,
  placeOf: (relPath: string) => string,
): IntroducedError[] {
  const old = new Map([...before].map(([relPath, counts]) => [placeOf(relPath), counts]));
  const out: IntroducedError[] = [];
  for (const [relPath, counts] of after) {
    for (const [key, { count, line }] of counts) {
      const was = old.get(relPath)?.get(key)?.count ?? 0;
      if (count > was) out.push({ relPath, line, message: key.split("\u0000")[1]! });
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
    .map((f) => ({ real: now(f.real), before: f.after, after: f.before, format: f.format }));
  await writeFiles(ctx, {
    lock: [...changes.map((c) => c.real), realTo, realFrom],
    prepare: () => Promise.resolve({ changes, moves: [{ from: realTo, to: realFrom }], result: 0 }),
  });
}
