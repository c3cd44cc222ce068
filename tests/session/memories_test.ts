import { join } from "node:path";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { Memories, memoryName } from "../../src/project/memories.ts";
import { writeMemory } from "../../src/tools/session/write_memory.ts";
import { renameMemory } from "../../src/tools/session/rename_memory.ts";
import { editMemory } from "../../src/tools/session/edit_memory.ts";
import { deleteMemory } from "../../src/tools/session/delete_memory.ts";
import { listMemories } from "../../src/tools/session/list_memories.ts";
import { readMemory } from "../../src/tools/session/read_memory.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { DEFAULT_SETTINGS, type Settings } from "../../src/config/schema.ts";

Deno.test("memory round trip: write, list, read, edit, rename, delete", async () => {
  await using h = await toolHarness();
  // Serena 2.1's shapes: {} when there are none, {"memories": [...]} otherwise.
  assertEquals(await h.call(listMemories, {}), "{}");
  const content = "# Build\n\nRun `deno task test`. Ünïcödé ✓\n";
  assertEquals(
    await h.call(writeMemory, { memory_file_name: "suggested_commands", content }),
    "Memory suggested_commands written.",
  );
  assertEquals(await h.read(".sextant/memories/suggested_commands.md"), content);
  // The .md suffix is optional in every argument.
  assertEquals(await h.call(readMemory, { memory_file_name: "suggested_commands.md" }), content);
  assertEquals(await h.call(listMemories, {}), '{"memories":["suggested_commands"]}');

  assertEquals(
    await h.call(editMemory, {
      memory_file_name: "suggested_commands",
      needle: "deno task (\\w+)",
      repl: "deno task $!1 --quiet",
      mode: "regex",
    }),
    "Memory suggested_commands edited successfully.",
  );
  assertStringIncludes(
    await h.read(".sextant/memories/suggested_commands.md"),
    "Run `deno task test --quiet`.",
  );

  assertEquals(
    await h.call(renameMemory, { old_name: "suggested_commands", new_name: "commands.md" }),
    "Memory renamed from suggested_commands to commands.",
  );
  assertEquals(await h.call(listMemories, {}), '{"memories":["commands"]}');
  assert(!(await h.exists(".sextant/memories/suggested_commands.md")));

  assertEquals(
    await h.call(deleteMemory, { memory_file_name: "commands" }),
    "Memory commands deleted.",
  );
  assertEquals(await h.call(listMemories, {}), "{}");
  // Deleting a memory that is not there is a normal answer, as in Serena.
  assertEquals(
    await h.call(deleteMemory, { memory_file_name: "commands" }),
    "Memory commands not found.",
  );
  // Atomic writes leave no temporary files behind.
  assertEquals(await h.listAll(), [".sextant", ".sextant/memories"]);
});

Deno.test("write_memory overwrites, keeps content verbatim, and refuses content too long", async () => {
  await using h = await toolHarness();
  await h.call(writeMemory, { memory_file_name: "a", content: "first" });
  await h.call(writeMemory, { memory_file_name: "a", content: "second, no final newline" });
  assertEquals(await h.read(".sextant/memories/a.md"), "second, no final newline");

  const tooLong = await h.run(writeMemory, {
    memory_file_name: "b",
    content: "x".repeat(11),
    max_answer_chars: 10,
  });
  assertEquals(tooLong, {
    isError: true,
    text:
      "Content for b is too long. Max length is 10 characters. Please make the content shorter.",
  });
  assert(!(await h.exists(".sextant/memories/b.md")));
});

Deno.test("write_memory's default limit is default_max_tool_answer_chars", async () => {
  await using h = await toolHarness({}, { projectConfig: { default_max_tool_answer_chars: 20 } });
  const result = await h.run(writeMemory, { memory_file_name: "c", content: "y".repeat(21) });
  assert(result.isError);
  assertStringIncludes(result.text, "Max length is 20 characters");
});

Deno.test("memory names that try to escape are refused and nothing is written", async () => {
  await using h = await toolHarness();
  const bad = [
    "../x",
    "../../outside/x",
    "a/../../x",
    "a//b",
    "a/.hidden",
    "global/shared",
    join(h.outside, "x"),
    "/etc/passwd",
    "x\0y",
    "",
    "   ",
    ".md",
    ".",
    "..",
    ".hidden",
    "C:evil",
    "tab\there",
  ];
  for (const name of bad) {
    for (
      const [tool, args] of [
        [writeMemory, { memory_file_name: name, content: "pwned" }],
        [readMemory, { memory_file_name: name }],
        [deleteMemory, { memory_file_name: name }],
        [editMemory, { memory_file_name: name, needle: "a", repl: "b", mode: "literal" }],
        [renameMemory, { old_name: name, new_name: "ok" }],
      ] as const
    ) {
      const result = await h.run(tool, args);
      // Deleting an empty or missing name may say "not found"; it must never write or escape.
      if (tool === deleteMemory && !result.isError) {
        assertStringIncludes(result.text, "not found", name);
        continue;
      }
      assert(result.isError, `${tool.name}(${JSON.stringify(name)}) should fail`);
    }
  }
  // A valid source renamed to an escaping name is refused too.
  await h.call(writeMemory, { memory_file_name: "ok", content: "fine" });
  for (const name of bad) {
    assert((await h.run(renameMemory, { old_name: "ok", new_name: name })).isError);
  }
  assertEquals(await h.listAll(), [".sextant", ".sextant/memories", ".sextant/memories/ok.md"]);
  assertEquals([...Deno.readDirSync(h.outside)], []);
});

Deno.test("memoryName: messages say what a valid name looks like", () => {
  assertEquals(memoryName("notes.md"), "notes");
  assertEquals(memoryName(" spaced name "), "spaced name");
  assertEquals(memoryName("v1.2_plan"), "v1.2_plan");
  // Serena 2.1's topics, and its corrections of a `mem:` prefix and `\\` separators.
  assertEquals(memoryName("auth/login"), "auth/login");
  assertEquals(memoryName("mem:auth\\login.md"), "auth/login");
  for (
    const [name, says] of [["auth//login", "empty topic"], ["a/..", "must not start with '.'"]]
  ) {
    try {
      memoryName(name!);
      throw new Error("expected a refusal");
    } catch (error) {
      assertStringIncludes((error as Error).message, says!);
    }
  }
});

Deno.test("memories in topics: written to subfolders, listed by topic, renamed with references", async () => {
  await using h = await toolHarness({ ".serena/memories/notes/legacy.md": "from serena\n" });
  assertEquals(
    await h.call(writeMemory, { memory_name: "notes/architecture", content: "layers\n" }),
    "Memory notes/architecture written.",
  );
  assertEquals(await h.read(".sextant/memories/notes/architecture.md"), "layers\n");
  await h.call(writeMemory, {
    memory_name: "index",
    content: "See `mem:notes/architecture` (not mem:notes/architecture_old).\n",
  });
  assertEquals(
    await h.call(listMemories, {}),
    '{"memories":["index","notes/architecture","notes/legacy"]}',
  );
  assertEquals(
    await h.call(listMemories, { topic: "notes" }),
    '{"memories":["notes/architecture","notes/legacy"]}',
  );
  assertEquals(await h.call(listMemories, { topic: "note" }), "{}");
  assertEquals(
    await h.call(readMemory, { memory_name: "notes/architecture" }),
    "layers\n",
  );
  assertEquals(
    await h.call(renameMemory, { old_name: "notes/architecture", new_name: "design/layers" }),
    "Memory renamed from notes/architecture to design/layers.",
  );
  assertEquals(
    await h.read(".sextant/memories/index.md"),
    "See `mem:design/layers` (not mem:notes/architecture_old).\n",
  );
  assertEquals(await h.read(".sextant/memories/design/layers.md"), "layers\n");
});

Deno.test("a .sextant folder that links out of the project is refused", async () => {
  await using h = await toolHarness();
  await Deno.symlink(h.outside, h.path(".sextant"));
  const result = await h.run(writeMemory, { memory_file_name: "x", content: "pwned" });
  assert(result.isError);
  assertStringIncludes(result.text, "outside the project root");
  assertEquals([...Deno.readDirSync(h.outside)], []);
});

Deno.test("memories from .serena/memories are listed and readable; .sextant wins", async () => {
  await using h = await toolHarness({
    ".serena/memories/legacy.md": "from serena\n",
    ".serena/memories/shared.md": "serena version\n",
    ".serena/memories/notes.txt": "not a memory",
    ".serena/memories/.hidden.md": "hidden",
    ".sextant/memories/shared.md": "sextant version\n",
    ".sextant/memories/own.md": "mine\n",
  });
  assertEquals(await h.call(listMemories, {}), '{"memories":["legacy","own","shared"]}');
  assertEquals(await h.call(readMemory, { memory_file_name: "legacy" }), "from serena\n");
  assertEquals(await h.call(readMemory, { memory_file_name: "shared" }), "sextant version\n");
});

Deno.test("editing a .serena-only memory writes the edited copy to .sextant", async () => {
  await using h = await toolHarness({ ".serena/memories/legacy.md": "old text\r\nline two\r\n" });
  const answer = await h.call(editMemory, {
    memory_file_name: "legacy",
    needle: "old",
    repl: "new",
    mode: "literal",
  });
  assert(answer.startsWith("Memory legacy edited successfully."), answer);
  assertStringIncludes(answer, ".sextant/memories/legacy.md");
  assertEquals(await h.read(".serena/memories/legacy.md"), "old text\r\nline two\r\n");
  // The edited copy keeps the original's line endings.
  assertEquals(await h.read(".sextant/memories/legacy.md"), "new text\r\nline two\r\n");
  assertEquals(
    await h.call(readMemory, { memory_file_name: "legacy" }),
    "new text\r\nline two\r\n",
  );
});

Deno.test("delete_memory never touches .serena; rename of a .serena memory copies it", async () => {
  await using h = await toolHarness({
    ".serena/memories/legacy.md": "from serena\n",
    ".serena/memories/both.md": "serena\n",
    ".sextant/memories/both.md": "sextant\n",
  });
  const refused = await h.run(deleteMemory, { memory_file_name: "legacy" });
  assert(refused.isError);
  assertStringIncludes(refused.text, ".serena/memories/legacy.md");
  assert(await h.exists(".serena/memories/legacy.md"));

  const deleted = await h.call(deleteMemory, { memory_file_name: "both" });
  assertStringIncludes(deleted, "Memory both deleted. An older copy from Serena remains");
  assertEquals(await h.call(readMemory, { memory_file_name: "both" }), "serena\n");

  const renamed = await h.call(renameMemory, { old_name: "legacy", new_name: "history" });
  assertStringIncludes(renamed, "copied to history");
  assertEquals(await h.read(".sextant/memories/history.md"), "from serena\n");
  assert(await h.exists(".serena/memories/legacy.md"));
});

Deno.test("rename_memory refuses a taken name; read of a missing memory names the others", async () => {
  await using h = await toolHarness({
    ".sextant/memories/a.md": "A",
    ".sextant/memories/b.md": "B",
  });
  const taken = await h.run(renameMemory, { old_name: "a", new_name: "b" });
  assert(taken.isError);
  assertStringIncludes(taken.text, "already exists");
  assertEquals(await h.read(".sextant/memories/a.md"), "A");

  const missing = await h.run(readMemory, { memory_file_name: "nope" });
  assertEquals(missing, {
    isError: true,
    text: "Memory 'nope' not found. Available memories: a, b. Create it with write_memory if " +
      "you need it.",
  });
});

Deno.test("edit_memory follows replace_content's rules", async () => {
  await using h = await toolHarness({ ".sextant/memories/m.md": "foo foo bar\n" });
  const several = await h.run(editMemory, {
    memory_file_name: "m",
    needle: "foo",
    repl: "x",
    mode: "literal",
  });
  assert(several.isError);
  assertStringIncludes(several.text, "Expression matches 2 occurrences");
  const none = await h.run(editMemory, {
    memory_file_name: "m",
    needle: "zzz",
    repl: "x",
    mode: "literal",
  });
  assert(none.isError);
  assertStringIncludes(none.text, "No matches of search expression found");
  await h.call(editMemory, {
    memory_file_name: "m",
    needle: "foo",
    repl: "x",
    mode: "literal",
    allow_multiple_occurrences: true,
  });
  assertEquals(await h.read(".sextant/memories/m.md"), "x x bar\n");
});

Deno.test("memory tools need an active project", async () => {
  const settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project: null,
  });
  const ctx = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  await assertRejects(() => listMemories.handler({ topic: "" }, ctx), "No active project");
  await assertRejects(
    () => writeMemory.handler({ memory_file_name: "a", content: "b", max_answer_chars: -1 }, ctx),
    "No active project",
  );
});

Deno.test("Memories.list skips links that leave the project", async () => {
  await using h = await toolHarness({ ".sextant/memories/inside.md": "in" });
  await Deno.writeTextFile(join(h.outside, "secret.md"), "secret");
  await Deno.symlink(join(h.outside, "secret.md"), h.path(".sextant/memories/secret.md"));
  await Deno.symlink(h.path(".sextant/memories/inside.md"), h.path(".sextant/memories/alias.md"));
  const memories = new Memories(h.root);
  assertEquals(await memories.list(), ["alias", "inside"]);
  await assertRejects(() => memories.read("secret"), "outside the project root");
});

// --- over MCP, with the real server --------------------------------------------------------

Deno.test("e2e memories: round trip over MCP, Serena's memories included", async () => {
  await using project = await tempProject({ ".serena/memories/from_serena.md": "old notes\n" });
  // rename_memory is listed by default, as in Serena 2.1's desktop-app.
  const server = await connect(project.root);
  try {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    for (
      const tool of [writeMemory, readMemory, listMemories, deleteMemory, editMemory, renameMemory]
    ) {
      assert(names.includes(tool.name), tool.name);
    }
    assertEquals(await call(server.client, "list_memories"), {
      text: '{"memories":["from_serena"]}',
      isError: false,
    });
    assertEquals(
      (await call(server.client, "read_memory", { memory_file_name: "from_serena" })).text,
      "old notes\n",
    );
    const written = await call(server.client, "write_memory", {
      memory_file_name: "plan.md",
      content: "step 1\n",
    });
    assertEquals(written, { text: "Memory plan written.", isError: false });
    await call(server.client, "edit_memory", {
      memory_file_name: "plan",
      needle: "1",
      repl: "one",
      mode: "literal",
    });
    await call(server.client, "rename_memory", { old_name: "plan", new_name: "roadmap" });
    assertEquals(
      (await call(server.client, "read_memory", { memory_file_name: "roadmap" })).text,
      "step one\n",
    );
    assertEquals(
      (await call(server.client, "list_memories")).text,
      '{"memories":["from_serena","roadmap"]}',
    );
    const escape = await call(server.client, "write_memory", {
      memory_file_name: "../escape",
      content: "x",
    });
    assertEquals(escape.isError, true);
    assertEquals(await Deno.stat(join(project.root, "..", "escape.md")).catch(() => null), null);
    await call(server.client, "delete_memory", { memory_file_name: "roadmap" });
    assertEquals(
      (await call(server.client, "list_memories")).text,
      '{"memories":["from_serena"]}',
    );
    assertEquals(
      await Deno.readTextFile(join(project.root, ".serena/memories/from_serena.md")),
      "old notes\n",
    );
  } finally {
    await server.close();
  }
});

Deno.test("memories: Serena 1.7 names (memory_name, max_chars, topic), older names as aliases", async () => {
  await using h = await toolHarness();
  assertEquals(
    await h.call(writeMemory, { memory_name: "auth_login_flow", content: "# Login\n" }),
    "Memory auth_login_flow written.",
  );
  assertEquals(
    await h.call(writeMemory, { memory_file_name: "auth_tokens", content: "# Tokens\n" }),
    "Memory auth_tokens written.",
  );
  await h.call(writeMemory, { memory_name: "build", content: "deno task test\n" });
  assertEquals(await h.call(readMemory, { memory_name: "auth_tokens" }), "# Tokens\n");
  assertEquals(await h.call(readMemory, { memory_file_name: "auth_login_flow" }), "# Login\n");
  assertEquals(
    await h.call(listMemories, {}),
    '{"memories":["auth_login_flow","auth_tokens","build"]}',
  );
  // A topic is a folder (Serena 2.1), not a name prefix.
  assertEquals(await h.call(listMemories, { topic: "auth" }), "{}");
  assertEquals(
    (await h.run(writeMemory, { memory_name: "long", content: "x".repeat(11), max_chars: 10 }))
      .text,
    "Content for long is too long. Max length is 10 characters. Please make the content shorter.",
  );
  assertEquals(
    await h.call(editMemory, {
      memory_name: "build",
      needle: "test",
      repl: "ok",
      mode: "literal",
      allow_multiple_occurrences: true,
    }),
    "Memory build edited successfully.",
  );
  assertEquals(await h.call(deleteMemory, { memory_name: "build" }), "Memory build deleted.");
  const both = await h.run(readMemory, { memory_name: "a", memory_file_name: "a" });
  assertEquals(
    both.text,
    "Give either 'memory_name' or its older name 'memory_file_name' to read_memory, not both.",
  );
});
