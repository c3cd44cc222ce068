/**
 * A Serena 1.7/2.1 user's typical session, run unchanged over MCP against the TypeScript
 * fixture: the manual with the activation message, onboarding, memories by `memory_name`,
 * find_symbol with `include_info`, find_declaration, grouped references and overview, and a
 * dry-run replace_in_files.
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";
import { fixtureTree, referenceLines } from "../helpers/symbols.ts";

Deno.test({
  name: "a Serena 1.7 user's session runs unchanged",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("typescript");
  const decoder = new TextDecoder();
  await using project = await tempProject(
    Object.fromEntries(
      Object.entries(tree).map((
        [path, bytes],
      ) => [path, typeof bytes === "string" ? bytes : decoder.decode(bytes)]),
    ),
  );
  const server = await connect(project.root, ["--context", "claude-code"]);
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(server.client, name, args);
    assertEquals(result.isError, false, `${name}: ${result.text}`);
    return result.text;
  };
  try {
    const manual = await ok("initial_instructions");
    assertStringIncludes(
      manual,
      `is activated.\nActive language servers: typescript.\nFile encoding: utf-8.\n`,
    );
    assert(!(await ok("initial_instructions")).includes("is activated."), "said once");

    assertStringIncludes(await ok("onboarding"), "write_memory");
    assertEquals(
      await ok("write_memory", { memory_name: "overview", content: "Shapes and a registry." }),
      "Memory overview written.",
    );
    assertEquals(await ok("read_memory", { memory_name: "overview" }), "Shapes and a registry.");
    assertEquals(await ok("list_memories", {}), '{"memories":["overview"]}');

    const found = JSON.parse(await ok("find_symbol", { name_path: "Circle", include_info: true }));
    assertEquals(found.length, 1);
    assertEquals(found[0].relative_path, "src/shapes.ts");
    assertStringIncludes(found[0].info, "class Circle");

    const declaration = JSON.parse(
      await ok("find_declaration", { relative_path: "src/main.ts", regex: "new (Circle)\\(1\\)" }),
    );
    assertEquals(
      [declaration.name_path, declaration.kind, declaration.relative_path],
      ["Circle", "Class", "src/shapes.ts"],
    );

    const refs = referenceLines(
      await ok("find_referencing_symbols", {
        name_path: "ShapeRegistry/add",
        relative_path: "src/registry.ts",
      }),
    );
    assertEquals(refs.length, 4);
    assert(refs.every((r) => r.startsWith("src/main.ts|Function|main|")), refs.join("\n"));

    assertEquals(
      await ok("get_symbols_overview", { relative_path: "src/shapes.ts" }),
      '{"Interface":["Shape"],"Class":["Circle","Square"]}',
    );

    const before = await Deno.readTextFile(`${project.root}/src/shapes.ts`);
    const dry = await ok("replace_in_files", {
      needle: "radius",
      repl: "r",
      mode: "literal",
      relative_path: "src/shapes.ts",
      dry_run: true,
    });
    assertMatch(
      dry,
      /^Found \d+ occurrence\(s\) in 1 file\(s\)\. DRY RUN - no changes were applied\./,
    );
    assertMatch(dry, /\n {2}\[src\/shapes\.ts:0@[0-9a-f]{16}\] line \d+\n {4}- /);
    assertEquals(await Deno.readTextFile(`${project.root}/src/shapes.ts`), before);
  } finally {
    await server.close();
  }
});
