/**
 * read_file: a project file, whole or by 0-based line range.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";

export const readFile = defineTool({
  name: "read_file",
  description:
    "Reads a file in the project (0-based lines, end_line inclusive). Read only the lines " +
    "you need when you know them.",
  params: {
    relative_path: z.string().describe("The file."),
    start_line: z.number().int().min(0).default(0).describe("0-based index of the first line."),
    end_line: z.number().int().min(0).nullable().default(null).describe(
      "0-based last line (inclusive); null: the end.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const resolved = project.resolveFile(args.relative_path);
    const { text } = await project.readText(resolved);
    if (args.start_line === 0 && args.end_line === null) {
      ctx.session.reads.recordRead(resolved.real);
      return text;
    }
    const lines = text.split("\n");
    const lineCount = text.endsWith("\n") ? lines.length - 1 : lines.length;
    if (args.start_line >= Math.max(lineCount, 1)) {
      throw new ToolError(
        `start_line ${args.start_line} is beyond the end of '${resolved.relative}', ` +
          `which has ${lineCount} line(s) (0-based: 0..${lineCount - 1}).`,
      );
    }
    if (args.end_line !== null && args.end_line < args.start_line) {
      throw new ToolError(`end_line (${args.end_line}) is before start_line (${args.start_line}).`);
    }
    const end = args.end_line === null ? lineCount - 1 : Math.min(args.end_line, lineCount - 1);
    ctx.session.reads.recordRead(resolved.real, args.start_line, args.end_line ?? Infinity);
    return lines.slice(args.start_line, end + 1).join("\n");
  },
});
