/**
 * find_declaration (Serena 1.7) on the real servers: the declaration of the symbol a regex group
 * marks, in the file or in a containing symbol's body; Serena's errors for no match, several
 * matches and a group count other than one. Answers as Serena 2.1.0 gives them on the same
 * fixture (Sextant prints JSON without spaces).
 */
import { assertEquals } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  linkTypeScript7,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findDeclaration, usagePosition } from "../../src/tools/symbols/find_declaration.ts";

Deno.test("find_declaration: the usage position is the group's start", async () => {
  assertEquals(await usagePosition("a\n  obj.process(1)\n", "obj\\.(process)\\("), {
    line: 1,
    character: 6,
  });
});

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `find_declaration on TypeScript (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree("typescript"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);

    await t.step("a class used in another file", async () => {
      assertEquals(
        await h.call(findDeclaration, {
          relative_path: "src/main.ts",
          regex: "new (Circle)\\(1\\)",
        }),
        '{"name_path":"Circle","kind":"Class","relative_path":"src/shapes.ts",' +
          '"body_location":{"start_line":8,"end_line":24}}',
      );
    });

    await t.step("a method, with info; inside a containing symbol", async () => {
      assertEquals(
        await h.call(findDeclaration, {
          relative_path: "src/main.ts",
          regex: 'registry\\.(add)\\("big"',
          include_info: true,
        }),
        '{"name_path":"ShapeRegistry/add","kind":"Method","relative_path":"src/registry.ts",' +
          '"body_location":{"start_line":6,"end_line":8},' +
          '"info":"```typescript\\n(method) ShapeRegistry.add(key: string, shape: Shape): void\\n```"}',
      );
      assertEquals(
        await h.call(findDeclaration, {
          relative_path: "src/main.ts",
          regex: "const (small)",
          containing_symbol_name_path: "main",
          include_body: true,
        }),
        '{"name_path":"main/small","kind":"Constant","relative_path":"src/main.ts",' +
          '"body_location":{"start_line":7,"end_line":7},"body":"small = new Circle(1)"}',
      );
    });

    await t.step("Serena's errors", async () => {
      const run = (regex: string) =>
        h.run(findDeclaration, { relative_path: "src/main.ts", regex });
      assertEquals(await run("(nothing_here)"), {
        isError: true,
        text: "No match found for regex: (nothing_here)",
      });
      assertEquals(await run("(Circle)"), {
        isError: true,
        text: "Match must be unique; found 4 matches for regex: (Circle)",
      });
      assertEquals(await run("new Circle\\(1\\)"), {
        isError: true,
        text: "Regex must contain exactly one group to capture the position, but found 0 groups.",
      });
    });

    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}

Deno.test({
  name: "find_declaration on Python (pyright)",
  ignore: skipUnless(hasServer("pyright-langserver"), "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python"));

  await t.step("a method used in another file", async () => {
    assertEquals(
      await h.call(findDeclaration, {
        relative_path: "app.py",
        regex: 'registry\\.(add)\\("big"',
      }),
      '{"name_path":"ShapeRegistry/add","kind":"Method","relative_path":"shapes/registry.py",' +
        '"body_location":{"start_line":13,"end_line":14}}',
    );
    assertEquals(
      await h.call(findDeclaration, {
        relative_path: "app.py",
        regex: "(Circle)\\.unit",
        containing_symbol_name_path: "main",
      }),
      '{"name_path":"Circle","kind":"Class","relative_path":"shapes/circle.py",' +
        '"body_location":{"start_line":6,"end_line":19}}',
    );
  });

  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});
