/**
 * find_symbol answers from the declaration index alone where it is proven equal to the server
 * (extract.ts's `exact`), with the same answer text as the server path, and goes to the server
 * for files it does not model.
 *
 * Two projects from the same files: one whose TypeScript server cannot start (so every answer
 * it gives came from the index), one with the real server and no declaration index (so every
 * answer is the server's). Their answers must be equal, call by call. A third project runs a
 * server the rules were not proven against: the index never answers for it.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { tempDir, toolHarness } from "../helpers/tool_ctx.ts";
import { join } from "node:path";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { TS_SAMPLES, TS_UNMODELLED } from "./index/samples.ts";

const CALLS: Array<Record<string, unknown>> = [
  { name_path_pattern: "Circle" },
  { name_path_pattern: "Circle", depth: 1, include_body: true },
  { name_path_pattern: "scale", include_body: true },
  { name_path_pattern: "area", substring_matching: true },
  { name_path_pattern: "Circle/area", include_body: true },
  { name_path_pattern: "/Entity/over[1]", include_body: true },
  { name_path_pattern: "config", depth: 2 },
  { name_path_pattern: "callback", substring_matching: true, depth: 1 },
  { name_path_pattern: "value", relative_path: "src" },
  { name_path_pattern: "Shape", relative_path: "src/shapes.ts", depth: 1, include_body: true },
  { name_path_pattern: "Store", relative_path: "src/sample_plain.js", depth: 1 },
  { name_path_pattern: "E", include_kinds: [10], depth: 1 },
];

Deno.test({
  name: "find_symbol answers from the declaration index as the server would, without it",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const files = { ...await fixtureTree("typescript"), ...TS_SAMPLES };
  // A typescript-language-server that cannot start: the proven server by name, so the index
  // may answer for it, but every request to it fails.
  await using bin = await tempDir();
  const fake = join(bin.path, "typescript-language-server");
  await Deno.writeTextFile(fake, "#!/bin/sh\nexit 1\n");
  await Deno.chmod(fake, 0o755);
  await using noServer = await toolHarness(files, {
    overrides: { language_servers: { typescript: { command: fake } } },
  });
  await using withServer = await toolHarness(files);
  // The server's own answers: no declaration index for this project.
  const services = withServer.session.services(withServer.project);
  (services.symbols as unknown as { declarations: null }).declarations = null;

  for (const args of CALLS) {
    await t.step(`find_symbol ${JSON.stringify(args)}`, async () => {
      const fromIndex = await noServer.call(findSymbol, args);
      const fromServer = await withServer.call(findSymbol, args);
      assertEquals(fromIndex, fromServer);
      assertEquals(JSON.parse(fromIndex).length > 0, true, "the call matches something");
    });
  }

  await t.step("a server the rules were not proven against is always asked", async () => {
    await using other = await toolHarness(files, {
      overrides: { language_servers: { typescript: { command: "sextant-test-other-server" } } },
    });
    const error = await other.call(findSymbol, { name_path_pattern: "Circle" }).then(
      () => "answered",
      (e: Error) => e.message,
    );
    assertStringIncludes(error, "sextant-test-other-server");
  });

  await t.step("a file the index does not model goes to the server", async () => {
    await Deno.writeTextFile(
      noServer.path("src/unmodelled_index.ts"),
      TS_UNMODELLED["src/unmodelled_index.ts"]!,
    );
    const error = await noServer.call(findSymbol, { name_path_pattern: "M" }).then(
      () => "answered",
      (e: Error) => e.message,
    );
    assertStringIncludes(error, "typescript-language-server");
  });
});

Deno.test({
  name: "find_symbol finds what the index misread in a file: such a file goes to the server",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // A file mid-edit: tree-sitter's recovery swallows the class (its index entry would hold
  // only `x`), tsserver's does not.
  await using h = await toolHarness({
    "tsconfig.json": '{ "include": ["src"] }',
    "src/context.ts": "const pending = (\nexport class Context {\n  x = 1\n}\n",
    "src/use.ts": 'import { Context } from "./context";\nexport const c = new Context();\n',
  });
  const index = h.session.services(h.project).symbols;
  await index.declarations?.ready();
  const found = JSON.parse(await h.call(findSymbol, { name_path_pattern: "Context" })) as Array<
    { name_path: string; relative_path: string }
  >;
  assertEquals(found.map((f) => [f.name_path, f.relative_path]), [["Context", "src/context.ts"]]);
  await h.session.dispose();
});
