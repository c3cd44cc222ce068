/**
 * YAML and JSON through MCP on yaml-language-server and vscode-json-language-server, fixtures
 * fixtures/yaml (a service description with an anchor and aliases, a deployment file naming its
 * JSON schema) and fixtures/json (settings with a local JSON schema): what these servers offer —
 * document symbols (overview and find_symbol by key path), diagnostics (syntax and schema
 * validation), format, the schema's hover and completions, and for YAML an alias's definition.
 * What they do not offer (references, rename, JSON definitions, ...) is asserted as the clear
 * error it is.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, type LangSession, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";

interface Sym {
  name_path: string;
  kind: string;
  body?: string;
}

const config = { included_tools: IDE_TOOLS };

/** Each tool fails with the server's "does not support <what>". */
async function assertUnsupported(
  s: LangSession,
  calls: Array<[tool: string, args: Record<string, unknown>, what: string]>,
): Promise<void> {
  for (const [tool, args, what] of calls) {
    const answer = await s.call(tool, args);
    assertEquals(answer.isError, true, `${tool}: ${answer.text}`);
    assertStringIncludes(answer.text, `does not support ${what}`);
  }
}

Deno.test({
  name: "yaml: key paths, an alias's anchor, schema hover and completions, diagnostics, format",
  ignore: skipUnless(hasServer("yaml-language-server"), "YAML tests (yaml-language-server)"),
  async fn() {
    await using s = await langSession("yaml", { config });
    // Grouped by kind, as Serena 1.7/2.1 answers.
    assertEquals(
      await s.ok("get_symbols_overview", { relative_path: "service.yaml" }),
      '{"Module":["defaults","environments"]}',
    );
    const found = JSON.parse(
      await s.ok("find_symbol", {
        name_path_pattern: "environments/staging",
        relative_path: "service.yaml",
        include_body: true,
      }),
    ) as Sym[];
    assertEquals(found.map((x) => x.body), ["staging:\n    <<: *defaults\n    replicas: 1\n"]);
    // service.yaml line 9: `    <<: *defaults`, on the alias: its anchor's mapping.
    const def = JSON.parse(
      await s.ok("goto_definition", { relative_path: "service.yaml", line: 9, column: 10 }),
    );
    assertEquals([def.file, def.line], ["service.yaml", 3]);
    const at = { relative_path: "service.yaml", line: 9, column: 10 };
    await assertUnsupported(s, [
      [
        "find_references",
        { relative_path: "service.yaml", line: 2, column: 12 },
        "finding references",
      ],
      [
        "rename_symbol",
        { name_path: "defaults", relative_path: "service.yaml", new_name: "base" },
        "renaming",
      ],
      ["signature_help", at, "signature help"],
      ["call_hierarchy", at, "call hierarchy"],
      ["type_definition", at, "type definition"],
    ]);

    await s.write("bad.yaml", "a: [1, 2\nb: c: d\n");
    const diagnostics = JSON.parse(
      await s.ok("get_diagnostics_for_file", { relative_path: "bad.yaml" }),
    );
    const errors = Object.values(diagnostics["bad.yaml"].Error).flat() as Array<
      { message: string; source: string }
    >;
    assert(
      errors.some((e) => e.message === "Nested mappings are not allowed in compact mappings"),
      JSON.stringify(errors),
    );
    assertEquals(
      await s.ok("get_diagnostics_for_file", { relative_path: "service.yaml" }),
      "{}",
    );

    // deploy.yaml names its JSON schema in a modeline: hover, completions and validation from it.
    const hover = JSON.parse(
      await s.ok("hover", { relative_path: "deploy.yaml", line: 3, column: 2 }),
    );
    assertStringIncludes(hover.contents, "How many copies run");
    // Line 4: `strategy: rolling`, after `strategy: `: the schema's enum.
    const completions = JSON.parse(
      await s.ok("completions", { relative_path: "deploy.yaml", line: 4, column: 11 }),
    );
    assertEquals(completions.completions.map((c: { label: string }) => c.label).sort(), [
      "recreate",
      "rolling",
    ]);
    await s.write(
      "deploy.yaml",
      (await s.read("deploy.yaml")).replace("replicas: 3", "replicas: three"),
    );
    const invalid = JSON.parse(
      await s.ok("get_diagnostics_for_file", { relative_path: "deploy.yaml" }),
    );
    assertEquals(
      invalid["deploy.yaml"].Error.replicas.map((d: { message: string }) => d.message),
      ['Incorrect type. Expected "integer".'],
    );

    await s.write("messy.yaml", "a:   1\nb:\n    - x\n    -   y\n");
    const applied = JSON.parse(await s.ok("format_file", { relative_path: "messy.yaml" }));
    assertEquals([applied.formatted, applied.applied], [true, true]);
    assertEquals(await s.read("messy.yaml"), "a: 1\nb:\n    - x\n    - y\n");
  },
});

Deno.test({
  name: "json: key paths, schema hover, completions and validation, format",
  ignore: skipUnless(
    hasServer("vscode-json-language-server"),
    "JSON tests (vscode-json-language-server)",
  ),
  async fn() {
    await using s = await langSession("json", { config });
    assertEquals(
      await s.ok("get_symbols_overview", { relative_path: "settings.json" }),
      '{"String":["$schema","name"],"Number":["port"],"Module":["features"]}',
    );
    const found = JSON.parse(
      await s.ok("find_symbol", {
        name_path_pattern: "features/search",
        relative_path: "settings.json",
        include_body: true,
      }),
    ) as Sym[];
    assertEquals(found.map((x) => x.body), ['"search": true']);
    // settings.json line 4: `  "port": 8080,`: the schema's description of `port`.
    const hover = JSON.parse(
      await s.ok("hover", { relative_path: "settings.json", line: 4, column: 4 }),
    );
    assertStringIncludes(hover.contents, "The port the shop listens on");
    // Line 6, in `features`: the schema's property names.
    const completions = JSON.parse(
      await s.ok("completions", { relative_path: "settings.json", line: 6, column: 5 }),
    );
    assert(
      completions.completions.some((c: { label: string }) => c.label === "search"),
      JSON.stringify(completions),
    );
    const at = { relative_path: "settings.json", line: 4, column: 4 };
    await assertUnsupported(s, [
      ["goto_definition", { relative_path: "settings.json", line: 2, column: 16 }, "definition"],
      ["find_references", at, "finding references"],
      [
        "rename_symbol",
        { name_path: "port", relative_path: "settings.json", new_name: "p" },
        "renaming",
      ],
      ["signature_help", at, "signature help"],
      ["call_hierarchy", at, "call hierarchy"],
      ["type_definition", at, "type definition"],
      ["implementation", at, "implementation"],
    ]);

    assertEquals(await s.ok("get_diagnostics_for_file", { relative_path: "settings.json" }), "{}");
    await s.write(
      "settings.json",
      (await s.read("settings.json")).replace('"port": 8080', '"port": "eighty"'),
    );
    const invalid = JSON.parse(
      await s.ok("get_diagnostics_for_file", { relative_path: "settings.json" }),
    );
    assertEquals(
      invalid["settings.json"].Warning.port.map((d: { message: string }) => d.message),
      ['Incorrect type. Expected "integer".'],
    );

    await s.write("messy.json", '{"a":1,\n"b":[1,2]}\n');
    const applied = JSON.parse(await s.ok("format_file", { relative_path: "messy.json" }));
    assertEquals([applied.formatted, applied.applied], [true, true]);
    assertEquals(
      await s.read("messy.json"),
      '{\n    "a": 1,\n    "b": [\n        1,\n        2\n    ]\n}\n',
    );
  },
});
