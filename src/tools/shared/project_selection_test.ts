import { join, resolve } from "node:path";
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { projectPath, registeredAt } from "./project_selection.ts";
import { realPathOrNull } from "../../project/open_project.ts";

Deno.test("projectPath: home folder, relative and absolute paths", () => {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE")!;
  assertEquals(projectPath("~"), join(home));
  assertEquals(projectPath("~/src/app"), join(home, "src/app"));
  assertEquals(projectPath("/abs/app"), "/abs/app");
  assertEquals(projectPath("rel/app"), resolve(Deno.cwd(), "rel/app"));
  // Only a leading `~/` means home.
  assertEquals(projectPath("~other"), resolve(Deno.cwd(), "~other"));
});

Deno.test("registeredAt: matches registered folders by real path", async () => {
  await using dir = await tempDir();
  const real = realPathOrNull(dir.path)!;
  await Deno.mkdir(join(real, "app"));
  await Deno.symlink(join(real, "app"), join(real, "link"));
  const registered = [
    { name: "gone", path: join(real, "gone") },
    { name: "app", path: join(real, "link") },
  ];
  assertEquals(registeredAt(registered, join(real, "app"))?.name, "app");
  assertEquals(registeredAt(registered, join(real, "other")), undefined);
  assertEquals(realPathOrNull(join(real, "gone")), null);
});
