/**
 * read_file: a project file, whole or by 0-based line range, as Serena 2.1 reads it: `\n`, `\r\n`
 * and a lone `\r` end a line, the answer's lines are joined with `\n`, and a range is a slice of
 * those lines (a final line break leaves an empty last line; a range past the end is empty;
 * negative line numbers count from the end).
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";

/** The lines of a text: `\n`, `\r\n` and a lone `\r` are line breaks. */
export function splitAnyLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Slice bounds of an inclusive 0-based line range (negative: from the end), clamped. */
function sliceOf(start: number, end: number | null, count: number): [number, number] {
  const from = Math.max(0, start < 0 ? start + count : start);
  if (end === null) return [from, count];
  const last = end < 0 ? end + count : end;
  return [from, Math.min(count, Math.max(0, last + 1))];
}

export const readFile = defineTool({
  name: "read_file",
  description: "Reads a file (0-based lines, end_line inclusive); read only the lines you need.",
  params: {
    relative_path: z.string().describe("The file."),
    start_line: z.number().int().default(0).describe(
      "First line; negative counts from the end.",
    ),
    end_line: z.number().int().nullable().default(null).describe(
      "Last line (inclusive); null: the end.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const resolved = project.resolveFile(args.relative_path);
    const { text } = await project.readText(resolved);
    const lines = splitAnyLines(text);
    if (
      args.end_line !== null && args.start_line >= 0 && args.end_line >= 0 &&
      args.end_line < args.start_line
    ) {
      throw new ToolError(`end_line (${args.end_line}) is before start_line (${args.start_line}).`);
    }
    const [from, to] = sliceOf(args.start_line, args.end_line, lines.length);
    if (from === 0 && to === lines.length) ctx.session.reads.recordRead(resolved.real);
    else if (from < to) {
      ctx.session.reads.recordRead(resolved.real, from, args.end_line === null ? Infinity : to - 1);
    }
    return lines.slice(from, to).join("\n");
  },
});
