/**
 * Code mode end to end: a real Sextant process with `--agent-interface repl`, its worker, and
 * (for the symbol tools) a real typescript-language-server on fixtures/typescript.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { FIXTURES, hasServer, skipUnless } from "../helpers/lsp.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

const FILES = {
  "src/a.ts": "export const a = 1;\n",
  "notes.txt": "hello\n",
};

async function listSize(args: string[]) {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, args);
  try {
    const { tools } = await server.client.listTools();
    return { names: tools.map((t) => t.name), chars: JSON.stringify(tools).length };
  } finally {
    await server.close();
  }
}

Deno.test("repl: the tool list per interface, and its size", async () => {
  const tools = await listSize([]);
  assert(!tools.names.includes("repl"), "the tools interface does not list repl");
  const repl = await listSize(["--agent-interface", "REPL"]);
  assertEquals(repl.names.sort(), ["activate_project", "initial_instructions", "repl"]);
  assert(repl.chars <= 6000, `repl list is ${repl.chars} characters`);
  console.log(
    `tools list: ${tools.names.length} tools, ${tools.chars} chars; ` +
      `repl list: ${repl.names.length} tools, ${repl.chars} chars`,
  );
});

Deno.test("repl: values, persistence, sessions, console, errors, sandbox", async (t) => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  const repl = (code: string, extra: Record<string, unknown> = {}) =>
    call(server.client, "repl", { code, ...extra });
  try {
    await t.step("the last expression is the answer", async () => {
      assertEquals(await repl("1 + 1"), { text: "2", isError: false });
      assertEquals(await repl("const o = {a: [1, 2]};\no"), {
        text: '{"a":[1,2]}',
        isError: false,
      });
      assertEquals(await repl("'text'"), { text: "text", isError: false });
    });
    await t.step("an API result renders exactly as the tool's text", async () => {
      const api = await repl('await s.fs.read_file({relative_path: "notes.txt"})');
      assertEquals(api, { text: "hello\n", isError: false });
      const list = await repl('s.fs.list_dir({relative_path: ".", recursive: true})');
      assertEquals(list.isError, false);
      assertStringIncludes(list.text, "src");
    });
    await t.step("declarations persist; functions see later changes", async () => {
      await repl("let count: number = 0;\nfunction inc() { count++; return count }\nclass K {}");
      await repl("inc(); inc()");
      assertEquals(await repl("count"), { text: "2", isError: false });
      assertEquals(await repl("typeof K"), { text: "function", isError: false });
      assertEquals(await repl("count", { session: "other" }), {
        text: "Error: ReferenceError: count is not defined\n  at line 1, column 1 of the code\n" +
          "  1 | count\n    | ^",
        isError: true,
      });
      await repl("s.reset()");
      assertEquals((await repl("typeof count")).text, "undefined");
    });
    await t.step("console output first", async () => {
      assertEquals(await repl("console.log('a', {b: 1});\n42"), {
        text: "a { b: 1 }\n42",
        isError: false,
      });
    });
    await t.step("a syntax error points at the agent's line", async () => {
      const result = await repl("const ok = 1;\nconst bad = ;\n");
      assertEquals(result.isError, true);
      assertStringIncludes(result.text, "SyntaxError");
      assertStringIncludes(result.text, "at line 2, column");
      assertStringIncludes(result.text, "2 | const bad = ;");
      assert(!result.text.includes("file://"), result.text);
    });
    await t.step("an exception is placed in the agent's code", async () => {
      const result = await repl("const x = 1;\n\n  null!.foo;");
      assertEquals(result.isError, true);
      assertStringIncludes(result.text, "TypeError: Cannot read properties of null");
      assertStringIncludes(result.text, "at line 3, column");
      assert(!result.text.includes("worker.ts"), result.text);
    });
    await t.step("escapes are refused and change nothing", async () => {
      const outside = join(project.root, "..", `repl-escape-${crypto.randomUUID()}.txt`);
      for (
        const [code, needle] of [
          ["await Deno.readTextFile('/etc/passwd')", "NotCapable"],
          [`await Deno.writeTextFile(${JSON.stringify(outside)}, 'x')`, "NotCapable"],
          ["new Deno.Command('sh', {args: ['-c', 'touch /tmp/x']}).outputSync()", "NotCapable"],
          ["await fetch('https://example.com/')", "NotCapable"],
          [`await import(${JSON.stringify("file://" + join(project.root, "src/a.ts"))})`, "read"],
        ] as const
      ) {
        const result = await repl(code);
        assertEquals(result.isError, true, code);
        assertStringIncludes(result.text, needle);
      }
      // Sextant runs with --ignore-env, which the worker keeps: the environment reads as empty.
      assertEquals(await repl("Deno.env.get('HOME') ?? 'nothing'"), {
        text: "nothing",
        isError: false,
      });
      let exists = true;
      try {
        await Deno.stat(outside);
      } catch {
        exists = false;
      }
      assertEquals(exists, false);
    });
    await t.step("../ through the API is refused by the project sandbox", async () => {
      const result = await repl('await s.fs.read_file({relative_path: "../x.txt"})');
      assertEquals(result.isError, true);
      assertStringIncludes(result.text, "ToolError");
      const caught = await repl(
        'await s.fs.read_file({relative_path: "../x.txt"}).catch((e) => e.message)',
      );
      assertEquals(caught.isError, false);
      assertStringIncludes(caught.text, "Error:");
    });
    await t.step("an endless loop ends at its time limit; the next call works", async () => {
      await repl("const kept = 1");
      const started = performance.now();
      const result = await repl("while (true) {}", { timeout_s: 1 });
      assert(performance.now() - started < 5000);
      assertEquals(result.isError, true);
      assertStringIncludes(result.text, "time limit of 1 s");
      assertEquals(await repl("1 + 2"), { text: "3", isError: false });
    });
    await t.step("completed API calls are listed after a time-out", async () => {
      const result = await repl(
        'await s.fs.list_dir({relative_path: ".", recursive: false});\nwhile (true) {}',
        { timeout_s: 1 },
      );
      assertStringIncludes(result.text, "API calls that completed: s.fs.list_dir.");
    });
    await t.step("s.info gives declarations from the schemas", async () => {
      const overview = await repl("s.info()");
      assertStringIncludes(overview.text, "s.fs:");
      const fs = await repl('s.info("fs")');
      assertStringIncludes(fs.text, "read_file(args: {");
      assertStringIncludes(fs.text, "relative_path: string;");
      const one = await repl('s.info("find_file")');
      assertStringIncludes(one.text, "file_mask: string;");
    });
  } finally {
    await server.close();
  }
});

Deno.test("repl (Serena 2.1): initial_instructions states the session id", async () => {
  await using project = await tempProject(FILES);
  const server = await connect(project.root, ["--agent-interface", "repl"]);
  try {
    const manual = await call(server.client, "initial_instructions", {});
    const id =
      /Your session id is `([0-9a-f]{8})`\. Pass it as the `session` parameter to tools that take one \(repl, activate_project\)\.$/
        .exec(manual.text)?.[1];
    assert(id, manual.text.slice(-300));
    // The stated id is the default session: both reach the same variables.
    await call(server.client, "repl", { code: "const here = 'default'" });
    assertEquals(await call(server.client, "repl", { code: "here", session: id }), {
      text: "default",
      isError: false,
    });
    // Stable for the MCP session.
    assertStringIncludes((await call(server.client, "initial_instructions", {})).text, id);
    // activate_project takes it (optional) and answers as without it.
    await call(server.client, "activate_project", { project: project.root }); // registers it
    const without = await call(server.client, "activate_project", { project: project.root });
    const withId = await call(server.client, "activate_project", {
      project: project.root,
      session: id,
    });
    assertEquals(withId.isError, false, withId.text);
    assertEquals(withId, without);
  } finally {
    await server.close();
  }
});

Deno.test("repl: a read-only project refuses edits through the API", async () => {
  await using project = await tempProject({
    ...FILES,
    ".sextant/project.jsonc": '{ "read_only": true, "agent_interface": "repl" }',
  });
  const server = await connect(project.root);
  try {
    const result = await call(server.client, "repl", {
      code: 's.edit.replace_content({relative_path: "notes.txt", needle: "hello", repl: "x", ' +
        'mode: "literal"})',
    });
    assertEquals(result, {
      text: "Error: ToolError: s.edit.replace_content is not available in this session: the " +
        "project is read-only (read_only: true), so no tool that edits is offered.\n" +
        "  at line 1, column 8 of the code\n" +
        '  1 | s.edit.replace_content({relative_path: "notes.txt", needle: "hello", repl: "x", ' +
        'mode: "literal"})\n    |        ^',
      isError: true,
    });
    assertEquals(await Deno.readTextFile(join(project.root, "notes.txt")), "hello\n");
    // The facade stays absent from s; a read tool of a present facade still works.
    assertEquals(await call(server.client, "repl", { code: '"edit" in s' }), {
      text: "false",
      isError: false,
    });
    const hidden = await call(server.client, "repl", {
      code: "s.fs.create_text_file",
    });
    assertStringIncludes(
      hidden.text,
      "s.fs.create_text_file is not available in this session: the project is read-only",
    );
    const write = await call(server.client, "repl", {
      code: 's.fs.create_text_file({relative_path: "new.txt", content: "x"})',
    });
    assertEquals(write.isError, true);
  } finally {
    await server.close();
  }
});

const TS = hasServer("typescript-language-server");

Deno.test({
  name: "repl: a symbol tool's result is byte-identical to the direct call",
  ignore: skipUnless(TS, "typescript-language-server"),
  async fn() {
    // A copy: a session writes its symbol cache under the project's .sextant/.
    const copy = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-repl-ts-" }));
    const root = join(copy, "typescript");
    await new Deno.Command("cp", { args: ["-r", join(FIXTURES, "typescript"), root] }).output();
    const tools = await connect(root);
    const repl = await connect(root, ["--agent-interface", "repl"]);
    try {
      for (
        const [facade, tool, args] of [
          ["lsp", "find_symbol", { name_path_pattern: "Shape", depth: 1 }],
          ["lsp", "get_symbols_overview", { relative_path: "src/shapes.ts" }],
          ["fs", "search_for_pattern", { substring_pattern: "area" }],
        ] as const
      ) {
        const direct = await call(tools.client, tool, args);
        const viaApi = await call(repl.client, "repl", {
          code: `await s.${facade}.${tool}(${JSON.stringify(args)})`,
        });
        assertEquals(viaApi, direct, tool);
      }
    } finally {
      await tools.close();
      await repl.close();
      await Deno.remove(copy, { recursive: true }).catch(() => {});
    }
  },
});
