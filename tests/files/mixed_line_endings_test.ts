/**
 * A file whose lines end both ways keeps each line's own ending through an edit: only the lines
 * an edit writes take an ending, the one of the line they replace or follow. Real Sextant over
 * MCP.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

const MIXED = "a1\r\na2\nb3\r\nb4\r\nb5\n";

Deno.test("line endings: editing one line of a mixed file leaves the others' endings", async () => {
  await using project = await tempProject({ "mixed.txt": MIXED });
  const s = await connect(project.root);
  const bytes = () => Deno.readTextFile(join(project.root, "mixed.txt"));
  try {
    const replaced = await call(s.client, "replace_content", {
      relative_path: "mixed.txt",
      needle: "a2",
      repl: "A2",
      mode: "literal",
    });
    assert(!replaced.isError, replaced.text);
    assertEquals(await bytes(), "a1\r\nA2\nb3\r\nb4\r\nb5\n");

    const inserted = await call(s.client, "replace_in_files", {
      needle: "b4\nb5",
      repl: "b4\nnew\nb5",
      mode: "literal",
    });
    assert(!inserted.isError, inserted.text);
    assertEquals(await bytes(), "a1\r\nA2\nb3\r\nb4\r\nnew\r\nb5\n");

    const deleted = await call(s.client, "replace_content", {
      relative_path: "mixed.txt",
      needle: "^a1\n",
      repl: "",
      mode: "regex",
    });
    assert(!deleted.isError, deleted.text);
    assertEquals(await bytes(), "A2\nb3\r\nb4\r\nnew\r\nb5\n");
  } finally {
    await s.close();
  }
});
