/**
 * The one path by which tools change an existing file: resolve in the sandbox, read, transform,
 * write atomically in the original format, then tell the session (read tracking, language
 * servers). A transform that throws changes nothing.
 * @module
 */
import type { ResolvedPath } from "../../project/sandbox.ts";
import type { ToolContext } from "../tool.ts";
import type { ValidateOptions } from "../../project/project.ts";

export interface EditOutcome {
  resolved: ResolvedPath;
  before: string;
  after: string;
}

/** The tail of the chain of edits per real path: edits of one file run one after another. */
const fileQueues = new Map<string, Promise<unknown>>();

/**
 * Run `fn` when every earlier call for the same real path has finished. Clients may send tool
 * calls in parallel; without this, two edits of one file would both read the old content and
 * the second write would silently drop the first edit.
 */
export async function withFileLock<T>(realPath: string, fn: () => Promise<T>): Promise<T> {
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

/** {@linkcode withFileLock} for several files, taken in sorted order (so never a deadlock). */
export function withFileLocks<T>(realPaths: readonly string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(realPaths)].sort();
  const step = (i: number): Promise<T> =>
    i === sorted.length ? fn() : withFileLock(sorted[i]!, () => step(i + 1));
  return step(0);
}

export async function editFile(
  ctx: ToolContext,
  userPath: string,
  transform: (text: string, resolved: ResolvedPath) => string,
  options: ValidateOptions = {},
): Promise<EditOutcome> {
  const project = ctx.project();
  const resolved = project.resolveFile(userPath, options);
  return await withFileLock(resolved.real, () => edit(ctx, resolved, transform));
}

async function edit(
  ctx: ToolContext,
  resolved: ResolvedPath,
  transform: (text: string, resolved: ResolvedPath) => string,
): Promise<EditOutcome> {
  const project = ctx.project();
  const file = await project.readText(resolved);
  const after = transform(file.text, resolved);
  if (after !== file.text) {
    ctx.signal.throwIfAborted();
    await project.writeText(resolved, after, file.format);
    ctx.session.reads.noteEdited(resolved.real);
    await ctx.session.filesChanged([resolved.real]);
  }
  return { resolved, before: file.text, after };
}
