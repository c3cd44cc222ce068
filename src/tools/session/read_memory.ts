/**
 * read_memory: one of the project's memories (Serena's memory tools; storage and name rules
 * in project/memories.ts).
 * @module
 */
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { memoriesOf, memoryNameParam } from "./project_memories.ts";

export const readMemory = defineTool({
  name: "read_memory",
  aliases: { memory_file_name: "memory_name" },
  description: "Reads a project memory; only those that matter for the task, each once.",
  params: { memory_name: memoryNameParam, max_answer_chars: maxAnswerChars },
  readOnly: true,
  async handler(args, ctx) {
    return await memoriesOf(ctx).read(args.memory_name);
  },
});
