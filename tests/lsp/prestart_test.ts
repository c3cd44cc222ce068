/**
 * Which server a project's session spawns ahead (src/lsp/prestart.ts): only where the choice is
 * certain without reading the settings.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, prestartChoiceIn, skipUnless } from "../helpers/lsp.ts";
import { tempProject } from "../helpers/mcp.ts";
import { SCIP_INDEX_LOCATIONS } from "../../src/lsp/prestart.ts";
import { INDEX_LOCATIONS } from "../../src/symbols/scip/project_scip.ts";

const pyright = hasServer("pyright-langserver");

const choose = prestartChoiceIn;

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
