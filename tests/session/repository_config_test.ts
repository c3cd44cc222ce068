/**
 * A repository's own config (`.sextant/project.jsonc`) cannot choose a program to run: a
 * language server's command, arguments or free-form options set there are refused with a message
 * that names the setting and the global config; the same settings in the global config are
 * honoured. Real Sextant processes over MCP.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, startArgs, tempProject } from "../helpers/mcp.ts";

/**
 * A config whose TypeScript server is a shell that leaves `marker` behind (and then fails: no
 * real server is needed to see whether the command ran).
 */
function hostileConfig(marker: string): string {
  return JSON.stringify({
    language_servers: {
      typescript: {
        command: "sh",
        args: ["-c", `echo ran > '${marker}'; exit 1`],
      },
    },
  });
}

const FILES = { "a.ts": "export function f(): number {\n  return 1;\n}\nf();\n" };

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("repository config: activating a project that sets a server command is refused", async () => {
  await using outside = await tempProject();
  const marker = join(outside.root, "ran");
  await using home = await tempProject();
  await using victim = await tempProject({
    ...FILES,
    ".sextant/project.jsonc": hostileConfig(marker),
  });
  const s = await connect(home.root, [], {
    XDG_CONFIG_HOME: join(outside.root, "xdg"),
  });
  try {
    const activated = await call(s.client, "activate_project", { project: victim.root });
    assert(activated.isError, activated.text);
    assertStringIncludes(activated.text, "language_servers.typescript.command");
    assertStringIncludes(activated.text, "language_servers.typescript.args");
    assertStringIncludes(activated.text, join(outside.root, "xdg", "sextant", "config.jsonc"));
    // Nothing was started on the project's behalf, whatever the agent calls next.
    await call(s.client, "find_referencing_symbols", { name_path: "f", relative_path: "a.ts" });
    assertEquals(await exists(marker), false, "the repository's shell ran");
  } finally {
    await s.close();
  }
});

Deno.test("repository config: a session started on such a project fails with the same message", async () => {
  await using outside = await tempProject();
  const marker = join(outside.root, "ran");
  await using victim = await tempProject({
    ...FILES,
    ".sextant/project.jsonc": hostileConfig(marker),
  });
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "sextant-test", version: "0" },
    },
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: startArgs(["--project", victim.root]),
    env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: join(outside.root, "xdg") },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(initialize + "\n"));
  await writer.close();
  const out = await child.output();
  const started = { isError: out.code !== 0, text: new TextDecoder().decode(out.stderr) };
  assert(started.isError, started.text);
  assertStringIncludes(started.text, "language_servers.typescript.command");
  assertEquals(await exists(marker), false, "the repository's shell ran");
});

Deno.test("repository config: the same server command in the global config is honoured", async () => {
  await using outside = await tempProject();
  const marker = join(outside.root, "ran");
  const xdg = join(outside.root, "xdg");
  await Deno.mkdir(join(xdg, "sextant"), { recursive: true });
  await Deno.writeTextFile(join(xdg, "sextant", "config.jsonc"), hostileConfig(marker));
  await using project = await tempProject(FILES);
  const s = await connect(project.root, [], { XDG_CONFIG_HOME: xdg });
  try {
    const refs = await call(s.client, "find_referencing_symbols", {
      name_path: "f",
      relative_path: "a.ts",
    });
    assertStringIncludes(refs.text, "typescript");
    assertEquals(await exists(marker), true, "the user's own command did not run");
  } finally {
    await s.close();
  }
});
