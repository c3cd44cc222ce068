/**
 * Serena's optional line tools: delete_lines, replace_lines, insert_at_line. Lines are 0-based.
 * Deleting or replacing requires that the lines were read (read_file) since the file last
 * changed through a line edit, so the agent never edits lines it has not seen.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import type { ResolvedPath } from "../../project/sandbox.ts";
import { editFile } from "../shared/write.ts";
import { defineTool, SUCCESS_RESULT, type ToolContext } from "../tool.ts";

function splitLines(text: string): { lines: string[]; count: number } {
  const lines = text.split("\n");
  // A final newline does not start another line.
  const count = text.endsWith("\n") ? lines.length - 1 : lines.length;
  return { lines, count };
}

function requireRead(ctx: ToolContext, resolved: ResolvedPath, start: number, end: number): void {
  if (!ctx.session.reads.rangeWasRead(resolved.real, start, end)) {
    throw new ToolError(
      `Lines ${start}-${end} of '${resolved.relative}' have not been read since the file last ` +
        `changed. Call read_file with start_line=${start}, end_line=${end} first.`,
    );
  }
}

function deleteRange(text: string, start: number, end: number, label: string): string {
  const { lines, count } = splitLines(text);
  if (end < start) throw new ToolError(`end_line (${end}) is before start_line (${start}).`);
  if (end >= count) {
    throw new ToolError(`Line ${end} is beyond the end of '${label}' (${count} lines, 0-based).`);
  }
  lines.splice(start, end - start + 1);
  return lines.join("\n");
}

function insertAt(text: string, line: number, content: string, label: string): string {
  const { lines, count } = splitLines(text);
  if (line > count) {
    throw new ToolError(`Line ${line} is beyond the end of '${label}' (${count} lines, 0-based).`);
  }
  const block = content.endsWith("\n") ? content : content + "\n";
  const head = lines.slice(0, line).join("\n");
  const tail = lines.slice(line).join("\n");
  return (line === 0 ? "" : head + "\n") + block + tail;
}

const path = z.string().describe("The file.");

export const deleteLines = defineTool({
  name: "delete_lines",
  description: "Deletes lines start_line..end_line (0-based, inclusive). The same range must " +
    "have been read with read_file first. Returns OK.",
  params: {
    relative_path: path,
    start_line: z.number().int().min(0),
    end_line: z.number().int().min(0),
  },
  markers: ["can-edit", "optional"],
  readOnly: false,
  async handler(args, ctx) {
    await editFile(ctx, args.relative_path, (text, resolved) => {
      requireRead(ctx, resolved, args.start_line, args.end_line);
      return deleteRange(text, args.start_line, args.end_line, resolved.relative);
    });
    return SUCCESS_RESULT;
  },
});

export const replaceLines = defineTool({
  name: "replace_lines",
  description: "Replaces lines start_line..end_line (0-based, inclusive) with content. The " +
    "same range must have been read with read_file first. Returns OK.",
  params: {
    relative_path: path,
    start_line: z.number().int().min(0),
    end_line: z.number().int().min(0),
    content: z.string().describe("The new lines (a final newline is added if missing)."),
  },
  markers: ["can-edit", "optional"],
  readOnly: false,
  async handler(args, ctx) {
    await editFile(ctx, args.relative_path, (text, resolved) => {
      requireRead(ctx, resolved, args.start_line, args.end_line);
      const deleted = deleteRange(text, args.start_line, args.end_line, resolved.relative);
      return insertAt(deleted, args.start_line, args.content, resolved.relative);
    });
    return SUCCESS_RESULT;
  },
});

export const insertAtLine = defineTool({
  name: "insert_at_line",
  description: "Inserts content before the given 0-based line, pushing existing lines down " +
    "(line = number of lines appends). Returns OK.",
  params: {
    relative_path: path,
    line: z.number().int().min(0),
    content: z.string().describe("The lines to insert (a final newline is added if missing)."),
  },
  markers: ["can-edit", "optional"],
  readOnly: false,
  async handler(args, ctx) {
    await editFile(
      ctx,
      args.relative_path,
      (text, resolved) => insertAt(text, args.line, args.content, resolved.relative),
    );
    return SUCCESS_RESULT;
  },
});
