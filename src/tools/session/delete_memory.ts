/**
 * delete_memory: deletes one of the project's memories.
 * @module
 */
import { memoryName, SERENA_MEMORY_DIR } from "../../project/memories.ts";
import { defineTool } from "../tool.ts";
import { memoriesOf, memoryNameParam } from "./project_memories.ts";

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
