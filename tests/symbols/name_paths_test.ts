/**
 * Name paths read the same in every language, with the real servers: `Type/method` finds a Go
 * method (gopls names it `(Type).Method`) and a Rust method in a trait impl block (rust-analyzer
 * nests it under `impl Trait for Type`); the servers' own names keep working; a name path that
 * matches nothing names the closest ones.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";

const CASES = [
  {
    lang: "Go",
    server: "gopls",
    fixture: "go/shapes",
    natural: "Circle/Area",
    own: "(Circle).Area",
    file: "circle.go",
  },
  {
    lang: "Rust",
    server: "rust-analyzer",
    fixture: "rust/traits",
    natural: "Circle/area",
    own: "impl Shape for Circle/area",
    file: "src/shapes.rs",
  },
];

for (const c of CASES) {
  Deno.test({
    name: `name paths (${c.lang}): '${c.natural}' finds the method, as '${c.own}' does`,
    ignore: skipUnless(hasServer(c.server), c.server),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using h = await toolHarness(await fixtureTree(c.fixture));
    const found = (text: string) =>
      (JSON.parse(text) as Array<{ name_path: string; relative_path: string }>).map((
        f,
      ) => `${f.name_path} in ${f.relative_path}`);
    const own = found(await h.call(findSymbol, { name_path_pattern: c.own }));
    assertEquals(own, [`${c.own} in ${c.file}`]);
    assertEquals(found(await h.call(findSymbol, { name_path_pattern: c.natural })), own);
    assertEquals(
      found(await h.call(findSymbol, { name_path_pattern: c.natural, relative_path: c.file })),
      own,
    );
    // A tool that needs one symbol takes the natural name too, and a miss names close ones.
    const refs = await h.run(findReferencingSymbols, {
      name_path: c.natural,
      relative_path: c.file,
    });
    assertEquals(refs.isError, false, refs.text);
    const missing = await h.run(findReferencingSymbols, {
      name_path: c.natural.slice(0, -1),
      relative_path: "",
    });
    assertEquals(missing.isError, true);
    assertStringIncludes(missing.text, "No symbol with name path");
    assertStringIncludes(missing.text, `Close names: ${c.own} in ${c.file}`);
    await h.session.dispose();
  });
}
