/**
 * The dashboard's memories panel: list, read, save and delete a project's memories through the
 * same store and checks as the memory tools (project/memories.ts: names, the sandbox, Serena's
 * read-only folder, atomic writes; write_memory's length limit).
 * @module
 */
import { loadSettings } from "../config/load.ts";
import { ToolError } from "../errors.ts";
import { Memories, memoryName } from "../project/memories.ts";
import { memoryRootFor } from "../project/worktree.ts";

async function store(root: string): Promise<{ memories: Memories; maxChars: number }> {
  const settings = await loadSettings({ projectRoot: root });
  return {
    memories: new Memories(memoryRootFor(root, settings)),
    maxChars: settings.default_max_tool_answer_chars,
  };
}

/** The names of a project's memories. */
export async function listMemories(root: string): Promise<string[]> {
  return await (await store(root)).memories.list();
}

/** A memory's text. */
export async function readMemory(root: string, name: string): Promise<string> {
  return await (await store(root)).memories.read(name);
}

/**
 * Create or replace a memory's text, refused past the length write_memory accepts. A memory
 * found only in Serena's folder is written, changed, to Sextant's (Serena's file stays).
 */
export async function saveMemory(root: string, name: string, content: string): Promise<string> {
  const { memories, maxChars } = await store(root);
  if (content.length > maxChars) {
    throw new ToolError(
      `The memory is too long: ${content.length} characters, over the ${maxChars} allowed ` +
        "(default_max_tool_answer_chars).",
    );
  }
  const valid = memoryName(name);
  if (await memories.find(valid)) await memories.edit(valid, () => content);
  else await memories.write(valid, content);
  return `Memory ${valid} saved.`;
}

/** Delete a memory (never one of Serena's). */
export async function deleteMemory(root: string, name: string): Promise<string> {
  const outcome = await (await store(root)).memories.delete(name);
  const valid = memoryName(name);
  if (outcome.notFound) throw new ToolError(`Memory ${valid} not found.`);
  return outcome.serenaCopyRemains
    ? `Memory ${valid} deleted; Serena's copy remains and is now the one shown.`
    : `Memory ${valid} deleted.`;
}
