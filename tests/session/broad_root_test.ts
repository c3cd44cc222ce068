/**
 * Agents cannot make the filesystem root or the home folder a project (that would put every file
 * in the sandbox); a server started in such a folder without --project has no project.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import {
  call,
  Client,
  REPO_ROOT,
  startArgs,
  StdioClientTransport,
  tempProject,
  withLspPath,
} from "../helpers/mcp.ts";
import { manageProjects } from "../../src/tools/session/manage_projects.ts";
import { activateProject } from "../../src/tools/session/activate_project.ts";

Deno.test("activate_project and manage_projects refuse / and the home folder", async () => {
  await using h = await toolHarness({ "a.txt": "a\n" });
  const before = h.session.project;
  for (const path of ["/", Deno.env.get("HOME") ?? "/"]) {
    const activated = await h.run(activateProject, { project: path });
    assert(activated.isError, activated.text);
    assertStringIncludes(activated.text, "not a project");
    const added = await h.run(manageProjects, { add_project_path: path });
    assert(added.isError, added.text);
    assertStringIncludes(added.text, "not a project");
  }
  assertEquals(h.session.project, before);
});

Deno.test("a server started in / without --project starts with no project", async () => {
  const xdg = await Deno.makeTempDir({ prefix: "sextant-xdg-" });
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: startArgs(["--log-level", "error"]),
    cwd: "/",
    env: withLspPath({ ...Deno.env.toObject(), XDG_CONFIG_HOME: xdg }),
    stderr: "pipe",
  });
  const client = new Client({ name: "sextant-test", version: "0" });
  await client.connect(transport);
  try {
    const read = await call(client, "read_file", { relative_path: "etc/hostname" });
    assert(read.isError);
    assertStringIncludes(read.text, "No active project");
  } finally {
    await client.close();
    await Deno.remove(xdg, { recursive: true });
  }
});

Deno.test("deno task start serves the folder it was run from (INIT_CWD), not Sextant's", async () => {
  await using project = await tempProject({ "marker.txt": "here\n" });
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: startArgs(["--log-level", "error"]),
    // As `deno task start` runs it: in Sextant's folder, with INIT_CWD set to the user's folder.
    cwd: REPO_ROOT,
    env: withLspPath({
      ...Deno.env.toObject(),
      INIT_CWD: project.root,
      XDG_CONFIG_HOME: `${project.root}/.xdg-test`,
    }),
    stderr: "pipe",
  });
  const client = new Client({ name: "sextant-test", version: "0" });
  await client.connect(transport);
  try {
    const read = await call(client, "read_file", { relative_path: "marker.txt" });
    assertEquals(read, { text: "here\n", isError: false });
  } finally {
    await client.close();
  }
});
