/**
 * edit_memory: replaces text in one of the project's memories, literally or by regex.
 * @module
 */
import { z } from "../../deps.ts";
import { compilePattern, replaceContent } from "../../edit/replace.ts";
import { regexMatches } from "../shared/regex.ts";
import { MEMORY_DIR, memoryName, SERENA_MEMORY_DIR } from "../../project/memories.ts";
import { defineTool } from "../tool.ts";
import { replaceMode } from "../shared/params.ts";
import { memoriesOf, memoryNameParam } from "./project_memories.ts";

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
      "Replace every match.",
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
    const done = `Memory ${name} edited successfully.`;
    return source === "serena"
      ? `${done} It came from ${SERENA_MEMORY_DIR}/; the edited copy is ${MEMORY_DIR}/` +
        `${name}.md, Serena's file is unchanged.`
      : done;
  },
});
