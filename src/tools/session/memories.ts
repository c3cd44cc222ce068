/**
 * Serena's memory tools: write_memory, read_memory, list_memories, delete_memory, edit_memory
 * and rename_memory. Storage and name rules live in project/memories.ts.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { replaceContent } from "../../edit/replace.ts";
import { Memories, MEMORY_DIR, memoryName, SERENA_MEMORY_DIR } from "../../project/memories.ts";
import { memoryRootFor } from "../../project/worktree.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { maxAnswerChars, replaceMode } from "../shared/params.ts";

const memoryNameParam = z.string().describe(
  "Memory name ('/' between topics).",
);

/** The memory store of the active project (a ToolError when no project is active). */
export function memoriesOf(ctx: ToolContext): Memories {
  const project = ctx.project();
  // A git worktree shares its main checkout's memories unless configured otherwise.
  return new Memories(memoryRootFor(project.root, project.settings));
}

export const writeMemory = defineTool({
  name: "write_memory",
  aliases: { memory_file_name: "memory_name", max_answer_chars: "max_chars" },
  description: "Writes a markdown memory about the project for later conversations (creates or " +
    "overwrites). Keep it concise.",
  params: {
    memory_name: memoryNameParam,
    content: z.string().describe("Markdown content (UTF-8)."),
    max_chars: maxAnswerChars.describe(
      "Longest content accepted; -1: the configured limit.",
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

export const readMemory = defineTool({
  name: "read_memory",
  aliases: { memory_file_name: "memory_name" },
  description:
    "Reads a project memory. Only memories whose name suggests they matter for the task, " +
    "each once.",
  params: { memory_name: memoryNameParam, max_answer_chars: maxAnswerChars },
  readOnly: true,
  async handler(args, ctx) {
    return await memoriesOf(ctx).read(args.memory_name);
  },
});

export const listMemories = defineTool({
  name: "list_memories",
  description: 'Lists the project\'s memories: {"memories": [names]}, {} when none.',
  params: {
    topic: z.string().default("").describe("Only the memories under this topic."),
  },
  readOnly: true,
  async handler(args, ctx) {
    // Serena 2.1's answer: the names under "memories", the key left out when there are none.
    const topic = args.topic.trim().replace(/\/+$/, "");
    const names = (await memoriesOf(ctx).list()).filter((name) =>
      topic === "" || name.startsWith(`${topic}/`)
    );
    return JSON.stringify(names.length > 0 ? { memories: names } : {});
  },
});

export const deleteMemory = defineTool({
  name: "delete_memory",
  aliases: { memory_file_name: "memory_name" },
  description: "Deletes a project memory; only when the user asks.",
  params: { memory_name: memoryNameParam },
  readOnly: false,
  async handler(args, ctx) {
    const outcome = await memoriesOf(ctx).delete(args.memory_name);
    const name = memoryName(args.memory_name);
    // As Serena answers it: nothing to delete is not an error.
    if (outcome.notFound) return `Memory ${name} not found.`;
    return outcome.serenaCopyRemains
      ? `Memory ${name} deleted. An older copy from Serena remains in ${SERENA_MEMORY_DIR}/` +
        `${name}.md and is still listed (Sextant never modifies ${SERENA_MEMORY_DIR}/).`
      : `Memory ${name} deleted.`;
  },
});

export const editMemory = defineTool({
  name: "edit_memory",
  aliases: { memory_file_name: "memory_name" },
  description: "Replaces text in a memory, literally or by regex (as replace_content).",
  params: {
    memory_name: memoryNameParam,
    needle: z.string().min(1).describe("Text or regex to find."),
    repl: z.string().describe("Replacement."),
    mode: replaceMode,
    allow_multiple_occurrences: z.boolean().default(false).describe(
      "Replace every match (else several are refused).",
    ),
  },
  readOnly: false,
  async handler(args, ctx) {
    const memories = memoriesOf(ctx);
    const name = memoryName(args.memory_name);
    const source = await memories.edit(
      name,
      (text) =>
        replaceContent(text, args.needle, args.repl, args.mode, {
          allowMultipleOccurrences: args.allow_multiple_occurrences,
          fileLabel: `${name}.md`,
        }).text,
    );
    const done = `Memory ${name} edited successfully.`;
    return source === "serena"
      ? `${done} It came from ${SERENA_MEMORY_DIR}/; the edited copy is ${MEMORY_DIR}/` +
        `${name}.md, Serena's file is unchanged.`
      : done;
  },
});

export const renameMemory = defineTool({
  name: "rename_memory",
  description: "Renames a memory; updates `mem:` references to it. Fails if the name is taken.",
  params: {
    old_name: memoryNameParam.describe("Current memory name."),
    new_name: memoryNameParam.describe("New memory name."),
  },
  markers: ["optional"],
  readOnly: false,
  async handler(args, ctx) {
    const outcome = await memoriesOf(ctx).rename(args.old_name, args.new_name);
    const [oldName, newName] = [memoryName(args.old_name), memoryName(args.new_name)];
    return outcome.copiedFromSerena
      ? `Memory ${oldName} copied to ${newName} in ${MEMORY_DIR}/. The original stays in ` +
        `${SERENA_MEMORY_DIR}/ (Sextant never modifies it) and is still listed.`
      : `Memory renamed from ${oldName} to ${newName}.`;
  },
});
