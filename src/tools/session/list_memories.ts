/**
 * list_memories: the names of the project's memories.
 * @module
 */
import { z } from "../../deps.ts";
import { defineTool } from "../tool.ts";
import { memoriesOf } from "./project_memories.ts";

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
