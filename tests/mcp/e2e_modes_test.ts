// deno-lint-ignore-file no-import-prefix -- the SDK's notification schema is only needed here
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import { ToolListChangedNotificationSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

/** Every tool that can change files (markers can-edit or symbolic-edit) that may be registered. */
const EDITING_TOOLS = [
  "create_text_file",
  "replace_content",
  "replace_in_files",
  "edit",
  "delete_lines",
  "replace_lines",
  "insert_at_line",
  "execute_shell_command",
  "replace_symbol_body",
  "insert_after_symbol",
  "insert_before_symbol",
  "rename_symbol",
  "safe_delete_symbol",
  "execute_code_action",
  "format_file",
];

async function waitFor(condition: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && !condition()) await new Promise((r) => setTimeout(r, 20));
  return condition();
}

Deno.test("e2e modes: switch_modes to planning removes every editing tool, live", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": '{ "included_tools": ["switch_modes", "delete_lines", "edit"] }',
    "a.txt": "hello\n",
  });
  const server = await connect(project.root, ["--enable-shell"]);
  try {
    let changes = 0;
    server.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    const before = (await server.client.listTools()).tools;
    const beforeNames = before.map((t) => t.name);
    for (const name of ["create_text_file", "edit", "replace_content", "delete_lines"]) {
      assert(beforeNames.includes(name), `${name} should be listed in editing mode`);
    }
    assert(beforeNames.includes("execute_shell_command"));

    const switched = await call(server.client, "switch_modes", { modes: ["planning"] });
    assertEquals(switched.isError, false, switched.text);
    assertStringIncludes(switched.text, "Active modes: planning");
    assert(await waitFor(() => changes >= 1), "the client gets notifications/tools/list_changed");

    const after = (await server.client.listTools()).tools;
    const afterNames = after.map((t) => t.name);
    for (const name of EDITING_TOOLS) assert(!afterNames.includes(name), `${name} still listed`);
    // What remains changes no project file: read-only tools, memories and configuration.
    for (const tool of after) {
      assert(
        tool.annotations?.readOnlyHint === true || /memory|project|modes/.test(tool.name),
        `${tool.name} is neither read-only nor a memory/config tool`,
      );
    }
    assert(afterNames.includes("read_file"));
    assert(afterNames.includes("switch_modes"));
    assertEquals(
      (await call(server.client, "read_file", { relative_path: "a.txt" })).text,
      "hello\n",
    );
    // A hidden tool cannot be called either.
    const refused = await server.client.callTool({
      name: "create_text_file",
      arguments: { relative_path: "b.txt", content: "x" },
    }).then(() => null, (error: Error) => error);
    assert(refused, "calling a hidden tool fails");
    assertStringIncludes(refused.message, "not active");
    assertEquals(await Deno.stat(`${project.root}/b.txt`).catch(() => null), null);

    await call(server.client, "switch_modes", { modes: ["editing", "interactive"] });
    assert(await waitFor(() => changes >= 2));
    const back = (await server.client.listTools()).tools.map((t) => t.name);
    assertEquals(back.sort(), beforeNames.sort());

    const config = await call(server.client, "get_current_config");
    assertStringIncludes(config.text, "Active modes: editing, interactive");
  } finally {
    await server.close();
  }
});

Deno.test("e2e modes: --mode and --context on the command line select the tool set", async () => {
  await using project = await tempProject();
  const server = await connect(project.root, ["--context", "claude-code", "--mode", "planning"]);
  try {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    assert(!names.includes("read_file"), "claude-code has its own read tool");
    assert(!names.includes("replace_content"), "planning hides editing tools");
    assert(names.includes("write_memory"));
    assertStringIncludes(server.client.getInstructions() ?? "", "Mode: planning.");
  } finally {
    await server.close();
  }
});

Deno.test("e2e modes: an unknown mode is refused and nothing changes", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": '{ "included_tools": ["switch_modes"] }',
  });
  const server = await connect(project.root);
  try {
    const before = (await server.client.listTools()).tools.map((t) => t.name);
    const bad = await call(server.client, "switch_modes", { modes: ["planing"] });
    assertEquals(bad.isError, true);
    assertStringIncludes(bad.text, "Unknown mode 'planing'. Known modes: editing, planning");
    assertEquals((await server.client.listTools()).tools.map((t) => t.name), before);
  } finally {
    await server.close();
  }
});
