/**
 * A repository's own config (`.sextant/project.jsonc`) cannot choose a program to run: a
 * language server's command, arguments or free-form options set there are ignored, and the
 * project opens restricted (as an editor opens an untrusted folder) with a notice that names the
 * settings and says how to allow them in the global config; the same settings in the global
 * config are honoured. Real Sextant processes over MCP.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

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

Deno.test("repository config: a project that sets a server command opens restricted, with a notice", async () => {
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
    assert(!activated.isError, activated.text);
    assertStringIncludes(activated.text, "activated");
    assertStringIncludes(activated.text, "Notice:");
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

Deno.test("repository config: a session started on such a project opens it restricted", async () => {
  await using outside = await tempProject();
  const marker = join(outside.root, "ran");
  await using victim = await tempProject({
    ...FILES,
    ".sextant/project.jsonc": hostileConfig(marker),
  });
  // Before, the server exited with code 2 and the client got no session at all.
  const s = await connect(victim.root, [], { XDG_CONFIG_HOME: join(outside.root, "xdg") });
  try {
    const listed = await call(s.client, "list_dir", { relative_path: ".", recursive: false });
    assert(!listed.isError, listed.text);
    assertStringIncludes(listed.text, "a.ts");
    const instructions = await call(s.client, "initial_instructions", {});
    assertStringIncludes(instructions.text, "language_servers.typescript.command");
    assertStringIncludes(instructions.text, "global config");
    await call(s.client, "find_referencing_symbols", { name_path: "f", relative_path: "a.ts" });
    assertEquals(await exists(marker), false, "the repository's shell ran");
  } finally {
    await s.close();
  }
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
