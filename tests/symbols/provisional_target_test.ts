/**
 * A cold references question on a Python file the declaration index does not model exactly goes
 * to pyright at the position the index's parse finds (SymbolLookup.resolveUniqueCold's
 * provisional match), before pyright's outline of the file; the outline, asked at the same time,
 * confirms it. With the real server: the answer is the one the server's own outline gives (the
 * same warm, where the target comes from that outline); where the server's outline has the name
 * elsewhere, the question is asked again there; where it has no such symbol, the question fails
 * as it always did.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { coldAndWarmReferences, referenceLines } from "../helpers/symbols.ts";
import { type ToolHarness, toolHarness } from "../helpers/tool_ctx.ts";

const pyright = hasServer("pyright-langserver");

/** A package whose `pkg/mod.py` is `module`, and an importer using `Thing`. */
function tree(module: string) {
  return {
    "pyproject.toml": '[project]\nname = "p"\n',
    "pkg/__init__.py": "",
    "pkg/mod.py": module,
    "app.py": "from pkg.mod import Thing\n\n\ndef main() -> None:\n    print(Thing)\n",
  };
}

/** `Thing`'s references in `pkg/mod.py`, cold then warm (helpers/symbols.ts). */
function coldAndWarm(h: ToolHarness) {
  return coldAndWarmReferences(h, { name_path: "Thing", relative_path: "pkg/mod.py" });
}

Deno.test({
  name: "a provisional target: confirmed by pyright's outline, the same answer as warm",
  ignore: skipUnless(pyright, "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // The wildcard import makes the file inexact for the index (it may bind any name); the class
  // is where both put `Thing`.
  await using h = await toolHarness(tree(
    '"""A wildcard import: not modelled."""\n\nfrom os.path import *\n\n\nclass Thing:\n    pass\n\n\n' +
      "def use() -> Thing:\n    return Thing()\n",
  ));
  const { cold, warm, provisional, coldAsked } = await coldAndWarm(h);
  assert(!cold.isError, cold.text);
  assertEquals(referenceLines(cold.text), [
    "app.py|File|app|0:from pkg.mod import Thing",
    "app.py|Function|main|4:    print(Thing)",
    "pkg/mod.py|Function|use|10:    return Thing()",
    "pkg/mod.py|Function|use|9:def use() -> Thing:",
  ]);
  assertEquals(warm, cold);
  // The index's parse usually comes before pyright's outline (its project load comes first).
  if (provisional) assertEquals(coldAsked, 1);
  await h.session.dispose();
});

Deno.test({
  name: "a provisional target the server has elsewhere: asked again where the server has it",
  ignore: skipUnless(pyright, "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // The index does not model type comments: it finds `Thing` at its first declaration, where
  // pyright's outline has it at the one the comment types.
  await using h = await toolHarness(tree(
    '"""A type comment: not modelled."""\n\nThing = 1\n\n\nThing = 5  # type: int\n\n\n' +
      "def use() -> int:\n    return Thing\n",
  ));
  const { cold, warm, provisional, coldAsked } = await coldAndWarm(h);
  assert(!cold.isError, cold.text);
  assertEquals(referenceLines(cold.text), [
    "app.py|File|app|0:from pkg.mod import Thing",
    "app.py|Function|main|4:    print(Thing)",
    "pkg/mod.py|File|mod|2:Thing = 1",
    "pkg/mod.py|Function|use|9:    return Thing",
  ]);
  assertEquals(warm, cold);
  if (provisional) assertEquals(coldAsked, 2);
  await h.session.dispose();
});

Deno.test({
  name: "a provisional target the server does not list: the server's error, as before",
  ignore: skipUnless(pyright, "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // pyright does not walk code after a module-level `raise`: its outline has no `Thing`.
  await using h = await toolHarness(tree(
    '"""Unreachable code: not modelled."""\n\n\ndef use() -> int:\n    return 1\n\n\n' +
      "raise SystemExit(0)\n\n\nclass Thing:\n    pass\n",
  ));
  const { cold, warm } = await coldAndWarm(h);
  assert(cold.isError, cold.text);
  assertStringIncludes(cold.text, "No symbol matching 'Thing' in 'pkg/mod.py'");
  assertEquals(warm, cold);
  await h.session.dispose();
});
