/**
 * find_symbol answers Serena's `[]` when nothing matches, with a note beside it naming close
 * declarations: an inherited member asked for under the subclass (`Flask/route`, declared in
 * `Scaffold`), a typo, a name in a file. With pyright as the project's server (the declaration
 * index answers alone where it is proven equal to it).
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";

Deno.test({
  name: "find_symbol: an empty answer comes with close names (inherited member, typo)",
  ignore: skipUnless(hasServer("pyright-langserver"), "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness({
    "app/scaffold.py": "class Scaffold:\n    def route(self, rule: str) -> None:\n        pass\n",
    "app/flask.py": "from app.scaffold import Scaffold\n\n\nclass Flask(Scaffold):\n" +
      "    def run(self) -> None:\n        pass\n",
    "app/cli.py": "class Command:\n    pass\n",
  });

  await t.step(
    "an inherited member under the subclass: where it is declared, and why",
    async () => {
      assertEquals(await h.call(findSymbol, { name_path_pattern: "Flask/route" }), "[]");
      const [note, ...more] = h.notes();
      assertEquals(more, []);
      assertStringIncludes(note!, "No symbol matches 'Flask/route'. Close names: ");
      assertStringIncludes(note!, "Scaffold/route in app/scaffold.py");
      assertStringIncludes(note!, "inherited from a base class is found under that class");
    },
  );

  await t.step("a typo: the name it meant", async () => {
    assertEquals(await h.call(findSymbol, { name_path_pattern: "Comand" }), "[]");
    assertStringIncludes(h.notes()[0]!, "Close names: Command in app/cli.py.");
    assert(!h.notes()[0]!.includes("inherited"));
  });

  await t.step("in one file: close names of that file", async () => {
    const answer = await h.call(findSymbol, {
      name_path_pattern: "rnu",
      relative_path: "app/flask.py",
    });
    assertEquals(answer, "[]");
    assertStringIncludes(h.notes()[0]!, "Flask/run in app/flask.py");
  });

  await t.step("a match has no note", async () => {
    const found = JSON.parse(await h.call(findSymbol, { name_path_pattern: "Scaffold/route" }));
    assertEquals(found.length, 1);
    assertEquals(h.notes(), []);
  });

  await h.session.dispose();
});
