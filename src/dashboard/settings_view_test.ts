import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { saveGlobalSettings, settingsView } from "./settings_view.ts";

/** Run `fn` with XDG_CONFIG_HOME pointing at a fresh folder. */
async function withConfigHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "sextant-dash-config-" });
  const before = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", home);
  try {
    await fn(home);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", before);
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("the global file is checked before it is saved; an invalid one changes nothing", async () => {
  await withConfigHome(async (home) => {
    const file = join(home, "sextant", "config.jsonc");
    await saveGlobalSettings('// mine\n{ "tool_timeout": 60 }\n');
    assertEquals(await Deno.readTextFile(file), '// mine\n{ "tool_timeout": 60 }\n');
    await assertRejects(
      () => saveGlobalSettings('{ "tool_timeout": "soon" }'),
      "tool_timeout",
    );
    await assertRejects(() => saveGlobalSettings('{ "no_such_key": 1 }'), "no_such_key");
    await assertRejects(() => saveGlobalSettings("{ broken"), "Invalid config file");
    assertEquals(await Deno.readTextFile(file), '// mine\n{ "tool_timeout": 60 }\n');
  });
});

Deno.test("effective settings name their source; a project file cannot choose programs", async () => {
  await withConfigHome(async (home) => {
    await Deno.mkdir(join(home, "sextant"), { recursive: true });
    await Deno.writeTextFile(join(home, "sextant", "config.jsonc"), '{ "tool_timeout": 60 }');
    const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-dash-project-" }));
    try {
      await Deno.mkdir(join(root, ".sextant"));
      await Deno.writeTextFile(join(root, ".sextant", "project.jsonc"), '{ "read_only": true }');
      const view = await settingsView(root);
      const source = (key: string) => view.effective.find((s) => s.key === key)?.source;
      assertEquals(source("tool_timeout"), "global");
      assertEquals(source("read_only"), "project");
      assertEquals(source("encoding"), "default");
      assertEquals(view.project?.text, '{ "read_only": true }');
      assertEquals(view.error, null);

      await Deno.writeTextFile(
        join(root, ".sextant", "project.jsonc"),
        '{ "language_servers": { "python": { "command": "evil" } } }',
      );
      // The project opens restricted: the setting is ignored, and the page names it.
      const restricted = await settingsView(root);
      assert(restricted.project?.error?.includes("language_servers.python.command"));
      assertEquals(restricted.error, null);
      assert(!restricted.effective.some((s) => s.value.includes("evil")));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

Deno.test({
  name: "a project file that links out of the project is not shown",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withConfigHome(async (home) => {
      const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-dash-project-" }));
      const secret = join(home, "secret.jsonc");
      await Deno.writeTextFile(secret, '{ "encoding": "secret" }');
      try {
        await Deno.mkdir(join(root, ".sextant"));
        await Deno.symlink(secret, join(root, ".sextant", "project.jsonc"));
        await assertRejects(() => settingsView(root));
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    });
  },
});
