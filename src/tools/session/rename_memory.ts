/**
 * rename_memory: renames one of the project's memories.
 * @module
 */
import { MEMORY_DIR, memoryName, SERENA_MEMORY_DIR } from "../../project/memories.ts";
import { defineTool } from "../tool.ts";
import { memoriesOf, memoryNameParam } from "./project_memories.ts";

export const renameMemory = defineTool({
  name: "rename_memory",
  description: "Renames a memory; updates `mem:` references to it. Fails if the name is taken.",
  params: {
    old_name: memoryNameParam.describe("Current name."),
    new_name: memoryNameParam.describe("New name."),
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
