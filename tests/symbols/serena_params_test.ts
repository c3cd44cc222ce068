/**
 * Serena 1.7/2.1 parameters of the symbol read tools, answers as Serena 2.1.0 gives them on the
 * same fixtures: find_symbol `include_info`, `max_matches` (over the limit: Serena's error with
 * the name paths per file) and `name_path` (alias of `name_path_pattern`); find_implementations
 * `include_info`; find_referencing_symbols with an empty `relative_path` (the whole project).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  linkTypeScript7,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree, referenceLines } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { findImplementations } from "../../src/tools/symbols/find_implementations.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `Serena 1.7 parameters of the symbol read tools (TypeScript) (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree("typescript"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);

    await t.step("find_symbol: max_matches exceeded is Serena's error", async () => {
      assertEquals(await h.run(findSymbol, { name_path_pattern: "area", max_matches: 2 }), {
        isError: true,
        text: 'Matched 3>max_matches=2 symbols.\n{"src/shapes.ts":["Circle/area","Shape/area",' +
          '"Square/area"]}',
      });
      assertEquals(
        (await h.run(findSymbol, { name_path_pattern: "area", max_matches: 0 })).text,
        "max_matches must be > 0 or equal to -1.",
      );
      assertEquals(
        await h.call(findSymbol, { name_path_pattern: "Circle", max_matches: 1 }),
        '[{"name_path":"Circle","kind":"Class","relative_path":"src/shapes.ts",' +
          '"body_location":{"start_line":8,"end_line":24}}]',
      );
    });

    await t.step("find_symbol: include_info, and name_path as an alias", async () => {
      assertEquals(
        await h.call(findSymbol, { name_path: "Circle", include_info: true }),
        '[{"name_path":"Circle","kind":"Class","relative_path":"src/shapes.ts",' +
          '"body_location":{"start_line":8,"end_line":24},"info":"```typescript\\nclass Circle\\n```"}]',
      );
      assertEquals(
        await h.call(findSymbol, {
          name_path_pattern: "Circle/area",
          relative_path: "src/shapes.ts",
          include_info: true,
        }),
        '[{"name_path":"Circle/area","kind":"Method","relative_path":"src/shapes.ts",' +
          '"body_location":{"start_line":13,"end_line":15},' +
          '"info":"```typescript\\n(method) Circle.area(): number\\n```"}]',
      );
    });

    await t.step("find_implementations: include_info", async () => {
      assertEquals(
        await h.call(findImplementations, {
          name_path: "Shape/area",
          relative_path: "src/shapes.ts",
          include_info: true,
        }),
        '[{"name_path":"Circle/area","kind":"Method","relative_path":"src/shapes.ts",' +
          '"body_location":{"start_line":13,"end_line":15},' +
          '"info":"```typescript\\n(method) Circle.area(): number\\n```"},' +
          '{"name_path":"Square/area","kind":"Method","relative_path":"src/shapes.ts",' +
          '"body_location":{"start_line":31,"end_line":33},' +
          '"info":"```typescript\\n(method) Square.area(): number\\n```"}]',
      );
    });

    await t.step("find_referencing_symbols: empty relative_path searches the project", async () => {
      const refs = referenceLines(
        await h.call(findReferencingSymbols, { name_path: "ShapeRegistry/add", relative_path: "" }),
      );
      assertEquals(refs, [
        'src/main.ts|Function|main|10:  registry.add("big", big);',
        'src/main.ts|Function|main|11:  registry.add("square", new Square(2));',
        'src/main.ts|Function|main|12:  registry.add("unit", Circle.unit());',
        'src/main.ts|Function|main|9:  registry.add("small", small);',
      ]);
    });

    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}

Deno.test({
  name: "Serena 1.7 parameters of the symbol read tools (Python)",
  ignore: skipUnless(hasServer("pyright-langserver"), "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python"));

  await t.step("find_symbol: max_matches, include_info, name_path", async () => {
    assertEquals(
      (await h.run(findSymbol, { name_path_pattern: "area", max_matches: 2 })).text,
      'Matched 3>max_matches=2 symbols.\n{"shapes/base.py":["Shape/area"],' +
        '"shapes/circle.py":["Circle/area"],"shapes/square.py":["Square/area"]}',
    );
    assertEquals(
      await h.call(findSymbol, { name_path: "Circle", include_info: true }),
      '[{"name_path":"Circle","kind":"Class","relative_path":"shapes/circle.py",' +
        '"body_location":{"start_line":6,"end_line":19},' +
        '"info":"```python\\nclass Circle(radius: float)\\n```\\n---\\nA circle with a radius."}]',
    );
    assertEquals(
      (await h.run(findSymbol, { name_path: "Circle", name_path_pattern: "Circle" })).text,
      "Give either 'name_path_pattern' or its older name 'name_path' to find_symbol, not both.",
    );
  });

  await t.step("find_referencing_symbols: empty relative_path", async () => {
    const refs = referenceLines(
      await h.call(findReferencingSymbols, { name_path: "ShapeRegistry/add", relative_path: "" }),
    );
    assertEquals(refs.length, 4);
    assert(refs.every((r) => r.startsWith("app.py|Function|")), refs.join("\n"));
    assertEquals(
      (await h.run(findReferencingSymbols, { name_path: "area", relative_path: "" })).text,
      "Found multiple 3 symbols with name path 'area': Shape/area in shapes/base.py, " +
        "Circle/area in shapes/circle.py, Square/area in shapes/square.py. Give relative_path " +
        "(the file) or a longer name path.",
    );
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});
