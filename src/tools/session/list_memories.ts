/**
 * list_memories: the names of the project's memories.
 * @module
 */
import { z } from "../../deps.ts";
import { defineTool } from "../tool.ts";
import { memoriesOf } from "./project_memories.ts";

export const listMemories = defineTool({
  name: "list_memories",
  description: 'Lists the project\'s memories: {"memories": [names]}.',
  params: {
    topic: z.string().default("").describe("Only under this topic."),
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
