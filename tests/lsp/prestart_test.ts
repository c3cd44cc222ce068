/**
 * Which server a project's session spawns ahead (src/lsp/prestart.ts): only where the choice is
 * certain without reading the settings.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { tempProject } from "../helpers/mcp.ts";
import { prestartChoice, SCIP_INDEX_LOCATIONS } from "../../src/lsp/prestart.ts";
import { INDEX_LOCATIONS } from "../../src/symbols/scip/project_scip.ts";

const pyright = hasServer("pyright-langserver");

/** `prestartChoice` with a global config folder of the project's own (none unless written). */
function choose(root: string): ReturnType<typeof prestartChoice> {
  const before = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", join(root, ".xdg"));
  try {
    return prestartChoice(root);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", before);
  }
}

Deno.test({
  name: "one language marked at the root: its server is the one spawned ahead",
  ignore: skipUnless(pyright, "pyright-langserver"),
  async fn() {
    await using p = await tempProject({ "pyproject.toml": "[project]\nname = 'x'\n", "a.py": "" });
    const choice = choose(p.root);
    assert("id" in choice, JSON.stringify(choice));
    assertEquals(choice.id, "python");
    assert(choice.path.endsWith("pyright-langserver"), choice.path);
  },
});

Deno.test("two languages marked, settings that name servers, a SCIP index, or no project: none", async () => {
  await using two = await tempProject({ "pyproject.toml": "", "package.json": "{}" });
  assertEquals(choose(two.root), { none: "2 languages marked" });
  await using none = await tempProject({ "notes.txt": "" });
  assertEquals(choose(none.root), { none: "0 languages marked" });
  await using configured = await tempProject({
    "pyproject.toml": "",
    ".sextant/project.jsonc": '{ "language_servers": { "python": { "disabled": true } } }',
  });
  assertEquals(choose(configured.root), { none: "settings name servers" });
  await using global = await tempProject({
    "pyproject.toml": "",
    ".xdg/sextant/config.jsonc": '{ "scip_indexes": {} }',
  });
  assertEquals(choose(global.root), { none: "settings name servers" });
  await using indexed = await tempProject({ "pyproject.toml": "", ".sextant/index.scip": "" });
  assertEquals(choose(indexed.root), { none: "a SCIP index (.sextant/index.scip)" });
  assertEquals(choose("/"), { none: "not a project folder" });
});

Deno.test("the SCIP index is looked for where the index module looks", () => {
  assertEquals(SCIP_INDEX_LOCATIONS, INDEX_LOCATIONS);
});
