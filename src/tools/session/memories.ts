/**
 * Serena's memory tools: write_memory, read_memory, list_memories, delete_memory, edit_memory
 * and rename_memory. Storage and name rules live in project/memories.ts.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { compilePattern, replaceContent } from "../../edit/replace.ts";
import { regexMatches } from "../shared/regex.ts";
import { Memories, MEMORY_DIR, memoryName, SERENA_MEMORY_DIR } from "../../project/memories.ts";
import { memoryRootFor } from "../../project/worktree.ts";
import { defineTool, SUCCESS_RESULT, type ToolContext } from "../tool.ts";
import { maxAnswerChars, replaceMode } from "../shared/params.ts";

const memoryNameParam = z.string().describe(
  "Memory name, e.g. 'build_and_test'.",
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
  description: "Lists the names of the project's memories (JSON array).",
  params: {
    topic: z.string().default("").describe("Only names starting with this."),
  },
  readOnly: true,
  async handler(args, ctx) {
    const names = await memoriesOf(ctx).list();
    return JSON.stringify(names.filter((name) => name.startsWith(args.topic.trim())));
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
    return outcome.serenaCopyRemains
      ? `Memory ${name} deleted. An older copy from Serena remains in ${SERENA_MEMORY_DIR}/` +
        `${name}.md and is still listed (Sextant never modifies ${SERENA_MEMORY_DIR}/).`
      : `Memory ${name} deleted.`;
  },
});

export const editMemory = defineTool({
  name: "edit_memory",
  aliases: { memory_file_name: "memory_name" },
  description: "Replaces text in a memory, literally or by regex (as replace_content). Returns OK.",
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
      async (text) =>
        replaceContent(text, args.needle, args.repl, args.mode, {
          allowMultipleOccurrences: args.allow_multiple_occurrences,
          fileLabel: `${name}.md`,
          ...(args.mode === "regex"
            ? { matches: await regexMatches(compilePattern(args.needle), text, ctx.signal) }
            : {}),
        }).text,
    );
    return source === "serena"
      ? `${SUCCESS_RESULT} (the memory came from ${SERENA_MEMORY_DIR}/; the edited copy is ` +
        `${MEMORY_DIR}/${name}.md, Serena's file is unchanged)`
      : SUCCESS_RESULT;
  },
});

export const renameMemory = defineTool({
  name: "rename_memory",
  description: "Renames a project memory. Fails if the new name is already taken.",
  params: {
    old_name: memoryNameParam.describe("Current memory name."),
    new_name: memoryNameParam.describe("New memory name ('.md' optional; no '/' or '\\')."),
  },
  markers: ["optional"],
  readOnly: false,
  async handler(args, ctx) {
    const outcome = await memoriesOf(ctx).rename(args.old_name, args.new_name);
    const [oldName, newName] = [memoryName(args.old_name), memoryName(args.new_name)];
    return outcome.copiedFromSerena
      ? `Memory ${oldName} copied to ${newName} in ${MEMORY_DIR}/. The original stays in ` +
        `${SERENA_MEMORY_DIR}/ (Sextant never modifies it) and is still listed.`
      : `Memory ${oldName} renamed to ${newName}.`;
  },
});
