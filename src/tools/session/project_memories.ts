/**
 * The memory store of a tool's project, and the memory_name parameter the memory tools share
 * (storage and name rules live in project/memories.ts).
 * @module
 */
import { z } from "../../deps.ts";
import { Memories } from "../../project/memories.ts";
import { memoryRootFor } from "../../project/worktree.ts";
import type { ToolContext } from "../tool.ts";

export const memoryNameParam = z.string().describe(
  "Name ('/' between topics).",
);

/** The memory store of the active project (a ToolError when no project is active). */
export function memoriesOf(ctx: ToolContext): Memories {
  const project = ctx.project();
  // A git worktree shares its main checkout's memories unless configured otherwise.
  return new Memories(memoryRootFor(project.root, project.settings));
}
