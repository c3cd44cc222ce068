import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

Deno.test("e2e: initialize, list tools, read and edit a file over stdio", async () => {
  // edit is in the default list beside Serena 2.1's tools.
  await using project = await tempProject({
    "src/a.txt": "hello world\n",
  });
  const server = await connect(project.root);
  try {
    const tools = await server.client.listTools();
    const names = tools.tools.map((t) => t.name);
    assert(names.includes("read_file"));
    assert(names.includes("edit"));
    const read = await call(server.client, "read_file", { relative_path: "src/a.txt" });
    assertEquals(read, { text: "hello world\n", isError: false });
    const edit = await call(server.client, "edit", {
      file_path: "src/a.txt",
      old_string: "world",
      new_string: "there",
    });
    assertEquals(edit.isError, false);
    assertStringIncludes(edit.text, "+hello there");
    assertEquals(await Deno.readTextFile(`${project.root}/src/a.txt`), "hello there\n");
  } finally {
    await server.close();
  }
});
