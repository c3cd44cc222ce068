/**
 * The session's project follows the client: its MCP roots choose the project when no
 * `--project` is given, `notifications/roots/list_changed` switches it, and a git worktree is a
 * project of its own that shares its main checkout's memories. Fronts are started as users
 * start them (relayed to a shared service of the test's own).
 * @module
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import { ListRootsRequestSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { assert, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
  Client,
  frontArgs,
  serviceRuntime,
  StdioClientTransport,
  tempProject,
} from "../helpers/mcp.ts";

async function clientWithRoots(cwd: string, env: Record<string, string>, roots: string[]) {
  let current = roots;
  const client = new Client(
    { name: "roots-test", version: "0" },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: current.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
  }));
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: frontArgs(["--log-level", "warn"]),
    env: { ...Deno.env.toObject(), ...env },
    cwd,
    stderr: "pipe",
  });
  await client.connect(transport);
  return {
    client,
    async setRoots(next: string[]) {
      current = next;
      await client.sendRootsListChanged();
    },
  };
}

async function activeProject(client: Client): Promise<string> {
  const config = await call(client, "get_current_config");
  return /^Active project: .*$/m.exec(config.text)?.[0] ?? config.text;
}

Deno.test("roots first: the client's root is the project, the start folder is not opened, roots/list_changed switches it", async () => {
  await using runtime = await serviceRuntime();
  await using started = await tempProject({ "a.txt": "started here\n" });
  await using first = await tempProject({ "b.txt": "first root\n" });
  await using second = await tempProject({ "c.txt": "second root\n" });
  const { client, setRoots } = await clientWithRoots(started.root, runtime.env, [
    first.root,
    second.root,
  ]);
  try {
    assertStringIncludes(await activeProject(client), `at ${first.root}`);
    // Roots first: the folder the client was started in is never opened as a project too.
    const config = (await call(client, "get_current_config")).text;
    assert(!config.includes(started.root), config);
    assertStringIncludes(client.getInstructions() ?? "", "your workspace's root folder");
    assertStringIncludes(
      (await call(client, "search_for_pattern", { substring_pattern: "root" })).text,
      "b.txt",
    );
    await setRoots([second.root]);
    // The notification arrives before the next call, which waits for the switch it started.
    assertStringIncludes(await activeProject(client), `at ${second.root}`);
  } finally {
    await client.close();
  }
});

Deno.test("a git worktree is a project of its own and reads the main checkout's memories", async () => {
  await using runtime = await serviceRuntime();
  await using repo = await tempProject({ "src/a.ts": "export const a = 1;\n" });
  const git = (...args: string[]) => {
    const out = new Deno.Command("git", {
      args: ["-c", "user.email=t@t", "-c", "user.name=t", ...args],
      cwd: repo.root,
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    assert(out.success, new TextDecoder().decode(out.stderr));
  };
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  const linked = join(repo.root, "..", `${repo.root.split("/").pop()}-wt`);
  git("worktree", "add", "-q", linked);
  try {
    await Deno.mkdir(join(repo.root, ".sextant", "memories"), { recursive: true });
    await Deno.writeTextFile(join(repo.root, ".sextant", "memories", "layers.md"), "three\n");
    const { client } = await clientWithRoots(linked, runtime.env, [linked]);
    try {
      const project = await activeProject(client);
      assertStringIncludes(project, `at ${Deno.realPathSync(linked)}`);
      assertStringIncludes(project, "git worktree");
      assertStringIncludes((await call(client, "list_memories")).text, "layers");
      assertStringIncludes(
        (await call(client, "read_memory", { memory_file_name: "layers" })).text,
        "three",
      );
    } finally {
      await client.close();
    }
  } finally {
    git("worktree", "remove", "--force", linked);
  }
});
