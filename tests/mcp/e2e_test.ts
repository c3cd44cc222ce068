/**
 * End to end: `main.ts` spawned with the `start` task's permission set (`-P=sextant`), spoken
 * to over stdio, by the SDK client (protocol behaviour) or by raw JSON-RPC lines (process
 * lifecycle: stdin EOF, SIGTERM, startup failures, nothing but MCP on stdout).
 * @module
 */
import { join } from "node:path";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { call, connect, startArgs, tempProject } from "../helpers/mcp.ts";
import { VERSION } from "../../src/version.ts";

// --- a raw stdio client, for lifecycle tests ------------------------------------------------

interface RawServer {
  child: Deno.ChildProcess;
  send(message: unknown): Promise<void>;
  /** The next message on stdout with this id (bounded wait). */
  response(id: number, ms?: number): Promise<Record<string, unknown>>;
  closeStdin(): Promise<void>;
  /** Wait (bounded) for the process to end; kills it and fails when it does not. */
  exited(ms?: number): Promise<Deno.CommandStatus>;
  stdout(): string;
  stderr(): string;
}

function spawnRaw(args: string[], env: Record<string, string> = {}): RawServer {
  const child = new Deno.Command(Deno.execPath(), {
    args: startArgs(args),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { ...Deno.env.toObject(), ...env },
  }).spawn();
  const writer = child.stdin.getWriter();
  let out = "";
  let err = "";
  const drain = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const reading = Promise.all([
    drain(child.stdout, (s) => void (out += s)),
    drain(child.stderr, (s) => void (err += s)),
  ]);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    child,
    send: (message) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n")),
    async response(id, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        for (const line of out.split("\n")) {
          if (!line.trim()) continue;
          const message = JSON.parse(line);
          if (message.id === id) return message;
        }
        await sleep(10);
      }
      throw new Error(`no response ${id} within ${ms} ms; stderr: ${err}`);
    },
    async closeStdin() {
      await writer.close().catch(() => {});
    },
    async exited(ms = 10_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)));
      const status = await Promise.race([child.status, timeout]);
      clearTimeout(timer);
      if (status === null) {
        child.kill("SIGKILL");
        await child.status;
        await reading;
        throw new Error(`server did not exit within ${ms} ms; stderr: ${err}`);
      }
      await reading;
      return status;
    },
    stdout: () => out,
    stderr: () => err,
  };
}

async function initialize(server: RawServer): Promise<void> {
  await server.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  const answer = await server.response(1);
  assertEquals((answer.result as { serverInfo: unknown }).serverInfo, {
    name: "sextant",
    version: VERSION,
  });
  await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

function pidAlive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

async function runMain(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: startArgs(args),
    stdin: "null",
    env: { ...Deno.env.toObject(), ...env },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

// --- protocol, through the SDK client -------------------------------------------------------

Deno.test("e2e: tools/list carries annotations and input schemas", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": JSON.stringify({ included_tools: ["edit"] }),
    "a.txt": "a\n",
  });
  const server = await connect(project.root);
  try {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["read_file", "list_dir", "find_file", "search_for_pattern"]) {
      assertEquals(byName.get(name)?.annotations?.readOnlyHint, true, name);
      assertEquals(byName.get(name)?.annotations?.destructiveHint, false, name);
    }
    for (const name of ["create_text_file", "replace_content", "edit", "replace_in_files"]) {
      assertEquals(byName.get(name)?.annotations?.readOnlyHint, false, name);
      assertEquals(byName.get(name)?.annotations?.destructiveHint, true, name);
    }
    const read = byName.get("read_file")!;
    assertEquals(read.inputSchema.type, "object");
    assertEquals(read.inputSchema.required, ["relative_path"]);
    assertEquals(read.inputSchema.additionalProperties, false);
    const props = read.inputSchema.properties as Record<
      string,
      { type?: unknown; default?: unknown }
    >;
    assertEquals(props.start_line?.default, 0);
    assertEquals(props.max_answer_chars?.default, -1);
    // Optional line tools are not in the default set.
    assert(!byName.has("delete_lines"));
  } finally {
    await server.close();
  }
});

Deno.test("e2e: an unknown tool is a JSON-RPC error", async () => {
  await using project = await tempProject();
  const server = await connect(project.root);
  try {
    const error = await assertRejects(() =>
      server.client.callTool({ name: "no_such_tool", arguments: {} })
    );
    assertEquals((error as Error & { code?: number }).code, -32602);
    assertStringIncludes(error.message, "Unknown tool 'no_such_tool'");
    // The server is still alive.
    assertEquals(
      (await call(server.client, "list_dir", { relative_path: ".", recursive: false })).isError,
      false,
    );
  } finally {
    await server.close();
  }
});

Deno.test("e2e: invalid arguments are isError results naming the parameter", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const server = await connect(project.root);
  try {
    const missing = await call(server.client, "read_file", {});
    assertEquals(missing.isError, true);
    assertMatch(missing.text, /^Error: invalid arguments for read_file: 'relative_path': /);
    const unknown = await call(server.client, "read_file", { relative_path: "a.txt", path: "x" });
    assertEquals(unknown.isError, true);
    assertStringIncludes(unknown.text, "unknown parameter(s) 'path'");
    const wrong = await call(server.client, "read_file", {
      relative_path: "a.txt",
      start_line: "1",
    });
    assertEquals(wrong.isError, true);
    assertMatch(wrong.text, /'start_line': .*number/);
    const badLimit = await call(server.client, "read_file", {
      relative_path: "a.txt",
      max_answer_chars: -5,
    });
    assertEquals(badLimit.isError, true);
    assertStringIncludes(badLimit.text, "max_answer_chars");
  } finally {
    await server.close();
  }
});

Deno.test("e2e: a path escape is an isError result and changes nothing", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": JSON.stringify({ included_tools: ["edit"] }),
    "inside.txt": "in\n",
  });
  const outsideDir = await Deno.makeTempDir({ prefix: "sextant-outside-" });
  const secret = join(outsideDir, "secret.txt");
  await Deno.writeTextFile(secret, "secret\n");
  await Deno.symlink(secret, join(project.root, "link.txt"));
  const server = await connect(project.root);
  try {
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["create_text_file", { relative_path: "../escape.txt", content: "x" }],
      ["create_text_file", { relative_path: join(outsideDir, "abs.txt"), content: "x" }],
      ["create_text_file", { relative_path: "link.txt", content: "x" }],
      ["read_file", { relative_path: secret }],
      ["read_file", { relative_path: "link.txt" }],
      ["replace_content", {
        relative_path: "link.txt",
        needle: "secret",
        repl: "x",
        mode: "literal",
      }],
      ["edit", {
        file_path: "../" + project.root.split("/").pop() + "/../x",
        old_string: "a",
        new_string: "b",
      }],
      ["list_dir", { relative_path: "..", recursive: false }],
      ["search_for_pattern", { substring_pattern: "secret", relative_path: "link.txt" }],
    ];
    for (const [tool, args] of attempts) {
      const r = await call(server.client, tool, args);
      assertEquals(r.isError, true, `${tool} ${JSON.stringify(args)} → ${r.text}`);
      assert(!r.text.includes("    at "), "no stack trace");
    }
    assertEquals(await Deno.readTextFile(secret), "secret\n");
    assertEquals([...Deno.readDirSync(outsideDir)].map((e) => e.name), ["secret.txt"]);
    assert(!(await exists(join(project.root, "..", "escape.txt"))));
  } finally {
    await server.close();
    await Deno.remove(outsideDir, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("e2e: read, search, create, replace, edit and list over stdio", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": JSON.stringify({ included_tools: ["edit"] }),
    "src/app.ts": "export const x = 1;\n",
  });
  const server = await connect(project.root);
  try {
    const created = await call(server.client, "create_text_file", {
      relative_path: "src/new.ts",
      content: "export const y = 2;\n",
    });
    assertEquals(created, { text: "File created: src/new.ts.", isError: false });
    const found = await call(server.client, "search_for_pattern", { substring_pattern: "const y" });
    assertEquals(JSON.parse(found.text), { "src/new.ts": ["  >   0:export const y = 2;"] });
    const replaced = await call(server.client, "replace_content", {
      relative_path: "src/app.ts",
      needle: "x = (\\d)",
      repl: "x = $!1$!1",
      mode: "regex",
    });
    assertEquals(replaced, { text: "OK", isError: false });
    assertEquals(
      await Deno.readTextFile(join(project.root, "src/app.ts")),
      "export const x = 11;\n",
    );
    const notRead = await call(server.client, "edit", {
      file_path: "src/app.ts",
      old_string: "11",
      new_string: "12",
    });
    assertEquals(notRead.isError, true);
    assertStringIncludes(notRead.text, "has not been read");
    const listed = await call(server.client, "list_dir", {
      relative_path: "src",
      recursive: false,
    });
    assertEquals(JSON.parse(listed.text), { dirs: [], files: ["src/app.ts", "src/new.ts"] });
    const missing = await call(server.client, "list_dir", {
      relative_path: "nope",
      recursive: false,
    });
    assertEquals(missing.isError, false);
    assertStringIncludes(JSON.parse(missing.text).error, "Directory not found: nope (check");
  } finally {
    await server.close();
  }
});

// --- lifecycle, with raw stdio --------------------------------------------------------------

Deno.test("e2e: stdin EOF makes the server exit", async () => {
  await using project = await tempProject();
  const server = spawnRaw(["--project", project.root, "--log-level", "warn"], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  await initialize(server);
  const pid = server.child.pid;
  assert(pidAlive(pid), "server runs after initialize");
  const started = Date.now();
  await server.closeStdin();
  const status = await server.exited(5_000);
  assertEquals(status.code, 0, server.stderr());
  assert(Date.now() - started < 5_000);
  assert(!pidAlive(pid), "the process is gone");
});

Deno.test("e2e: SIGTERM makes the server exit", async () => {
  await using project = await tempProject();
  const server = spawnRaw(["--project", project.root, "--log-level", "warn"], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  await initialize(server);
  server.child.kill("SIGTERM");
  const status = await server.exited(5_000);
  assertEquals(status.code, 0, server.stderr());
  await server.closeStdin();
});

Deno.test("e2e: logs never go to stdout; stdout is only JSON-RPC", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const server = spawnRaw(["--project", project.root, "--log-level", "debug"], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  await initialize(server);
  let id = 10;
  for (
    const [name, args] of [
      ["read_file", { relative_path: "a.txt" }],
      ["read_file", { relative_path: "missing.txt" }],
      ["list_dir", { relative_path: ".", recursive: true }],
    ] as const
  ) {
    await server.send({
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    await server.response(id);
  }
  await server.send({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "nope" } });
  await server.response(99);
  await server.closeStdin();
  await server.exited();
  const lines = server.stdout().split("\n").filter((l) => l !== "");
  assert(lines.length >= 5);
  for (const line of lines) {
    const message = JSON.parse(line);
    assertEquals(message.jsonrpc, "2.0", line);
  }
  assertStringIncludes(server.stderr(), "[sextant info] serving project");
  assertStringIncludes(server.stderr(), "[sextant debug]");
});

Deno.test("e2e: --help and --version print and exit 0", async () => {
  const help = await runMain(["--help"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, "Usage:");
  assertStringIncludes(help.stdout, "--project PATH");
  const short = await runMain(["-h"]);
  assertEquals(short.code, 0);
  assertEquals(short.stdout, help.stdout);
  const version = await runMain(["--version"]);
  assertEquals(version.code, 0);
  assertEquals(version.stdout.trim(), `sextant ${VERSION}`);
  assertEquals((await runMain(["-V"])).stdout, version.stdout);
});

Deno.test("e2e: a bad command line fails with usage on stderr", async () => {
  const r = await runMain(["--frobnicate"]);
  assertEquals(r.code, 2);
  assertEquals(r.stdout, "");
  assertStringIncludes(r.stderr, "Usage:");
});

Deno.test("e2e: an invalid project config makes startup fail, naming the file", async () => {
  await using project = await tempProject({ ".sextant/project.jsonc": '{\n  "encoding": 5\n}\n' });
  const r = await runMain(["--project", project.root], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  assertEquals(r.code, 2);
  assertEquals(r.stdout, "");
  assertStringIncludes(r.stderr, `${join(project.root, ".sextant", "project.jsonc")}:2:15`);
  assertStringIncludes(r.stderr, "'encoding'");
});

Deno.test("e2e: an invalid global config makes startup fail, naming the file", async () => {
  await using project = await tempProject({ ".xdg-test/sextant/config.jsonc": "{ broken" });
  const r = await runMain(["--project", project.root], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  assertEquals(r.code, 2);
  assertStringIncludes(r.stderr, join(project.root, ".xdg-test", "sextant", "config.jsonc"));
});

Deno.test("e2e: a missing project folder or unknown context fails at startup", async () => {
  await using project = await tempProject();
  const missing = await runMain(["--project", join(project.root, "nope")], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  assertEquals(missing.code, 2);
  assertStringIncludes(missing.stderr, "does not exist");
  const context = await runMain(["--project", project.root, "--context", "nonsense"], {
    XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
  });
  assertEquals(context.code, 2);
  assertStringIncludes(context.stderr, "Unknown context 'nonsense'");
});
