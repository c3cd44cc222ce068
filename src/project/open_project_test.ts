import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { openProject, realPathOrNull } from "./open_project.ts";

Deno.test("openProject: opens a folder under a name; refuses / and missing folders", async () => {
  await using dir = await tempDir();
  const project = await openProject(dir.path, { name: "demo" });
  assertEquals(project.name, "demo");
  assertEquals(project.root, realPathOrNull(dir.path));
  await assertRejects(() => openProject("/", { name: "root" }), "not a project");
  await assertRejects(() => openProject(join(dir.path, "none"), { name: "x" }), "does not exist");
});

Deno.test("openProject: without a name, a folder goes by its own", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "shop"));
  const project = await openProject(join(dir.path, "shop"));
  assertEquals(project.name, "shop");
});
