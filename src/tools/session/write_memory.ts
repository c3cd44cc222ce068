/**
 * write_memory: writes one of the project's memories (Serena's memory tools, each in its file in
 * this folder: write, read, list, delete, edit, rename; storage and name rules live in
 * project/memories.ts).
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { memoryName } from "../../project/memories.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { memoriesOf, memoryNameParam } from "./project_memories.ts";

export const writeMemory = defineTool({
  name: "write_memory",
  aliases: { memory_file_name: "memory_name", max_answer_chars: "max_chars" },
  description: "Writes (or overwrites) a concise markdown memory for later conversations.",
  params: {
    memory_name: memoryNameParam,
    content: z.string().describe("Markdown."),
    max_chars: maxAnswerChars.describe(
      "Longest content; -1: the configured limit.",
    ),
  },
  readOnly: false,
  async handler(args, ctx) {
    const project = ctx.project();
    const max = args.max_chars === -1
      ? project.settings.default_max_tool_answer_chars
      : args.max_chars;
    if (max <= 0) {
      throw new ToolError(`max_chars must be a positive integer or -1, got: ${max}`);
    }
    if (args.content.length > max) {
      throw new ToolError(
        `Content for ${args.memory_name} is too long. Max length is ${max} characters. ` +
          "Please make the content shorter.",
      );
    }
    await memoriesOf(ctx).write(args.memory_name, args.content);
    return `Memory ${memoryName(args.memory_name)} written.`;
  },
});
