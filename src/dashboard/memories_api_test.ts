import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { deleteMemory, listMemories, readMemory, saveMemory } from "./memories_api.ts";

async function project(files: Record<string, string>): Promise<string> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-dash-mem-" }));
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

Deno.test("memories are listed, read, saved and deleted through the memory store", async () => {
  const root = await project({
    ".sextant/memories/notes.md": "one\r\ntwo\r\n",
    ".serena/memories/old.md": "from serena\n",
    ".sextant/project.jsonc": '{ "default_max_tool_answer_chars": 50 }',
  });
  try {
    assertEquals(await listMemories(root), ["notes", "old"]);
    assertEquals(await readMemory(root, "notes"), "one\r\ntwo\r\n");
    // An edit keeps the file's line endings, as edit_memory does.
    await saveMemory(root, "notes", "one\nthree\n");
    assertEquals(
      await Deno.readTextFile(join(root, ".sextant/memories/notes.md")),
      "one\r\nthree\r\n",
    );
    // Serena's folder is never written: the edited copy goes to Sextant's.
    await saveMemory(root, "old", "changed\n");
    assertEquals(await Deno.readTextFile(join(root, ".serena/memories/old.md")), "from serena\n");
    assertEquals(await Deno.readTextFile(join(root, ".sextant/memories/old.md")), "changed\n");
    await saveMemory(root, "topic/new", "fresh\n");
    assertEquals(await readMemory(root, "topic/new"), "fresh\n");
    // The tools' checks: names, the length limit, Serena's files.
    await assertRejects(() => saveMemory(root, "../escape", "x"), "Invalid memory name");
    await assertRejects(() => saveMemory(root, "long", "x".repeat(51)), "too long");
    assertEquals(await deleteMemory(root, "topic/new"), "Memory topic/new deleted.");
    await assertRejects(() => deleteMemory(root, "topic/new"), "not found");
    await Deno.remove(join(root, ".sextant/memories/old.md"));
    await assertRejects(() => deleteMemory(root, "old"), "Serena's folder");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
