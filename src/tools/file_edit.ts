/**
 * The one path by which tools change an existing file: resolve in the sandbox, read, transform,
 * write atomically in the original format, then tell the session (read tracking, language
 * servers). A transform that throws changes nothing.
 * @module
 */
import type { ResolvedPath } from "../project/sandbox.ts";
import type { ToolContext } from "./tool.ts";
import type { ValidateOptions } from "../project/project.ts";

export interface EditOutcome {
  resolved: ResolvedPath;
  before: string;
  after: string;
}

export async function editFile(
  ctx: ToolContext,
  userPath: string,
  transform: (text: string, resolved: ResolvedPath) => string,
  options: ValidateOptions = {},
): Promise<EditOutcome> {
  const project = ctx.project();
  const resolved = project.resolveFile(userPath, options);
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
