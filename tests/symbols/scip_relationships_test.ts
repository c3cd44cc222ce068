/**
 * find_implementations and type_hierarchy from a SCIP index built by the real indexers: the same
 * implementations as the live TypeScript server, with no server started; the live path again
 * once a changed file mentions the name; and a type hierarchy where the live server offers none
 * (typescript-language-server has no prepareTypeHierarchy), checked against the live server's
 * implementations.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { type ToolHarness, toolHarness } from "../helpers/tool_ctx.ts";
import { findImplementations } from "../../src/tools/symbols/find_implementations.ts";
import { typeHierarchy } from "../../src/tools/ide/type_hierarchy.ts";
import { buildIndex } from "../../src/symbols/scip/build.ts";

let built: { index: Uint8Array; manifest: string } | null = null;
async function fixtureIndex(): Promise<{ index: Uint8Array; manifest: string }> {
  if (built) return built;
  await using h = await toolHarness(await fixtureTree("typescript"));
  const result = await buildIndex(h.root, { languages: ["typescript"] });
  assertEquals(result.runs.map((r) => r.ok), [true], JSON.stringify(result.runs));
  built = {
    index: await Deno.readFile(result.output),
    manifest: await Deno.readTextFile(result.manifest),
  };
  return built;
}

async function withIndex(h: ToolHarness): Promise<void> {
  const { index, manifest } = await fixtureIndex();
  await h.write(".sextant/index.scip", index);
  await h.write(".sextant/index.scip.files", manifest);
}

const fromIndex = (h: ToolHarness) =>
  h.notes().some((n) => n.startsWith("Answered from the SCIP index"));

/** A file written after indexing that implements Shape. */
const TRIANGLE = 'import type { Shape } from "./shapes.ts";\n' +
  'export class Triangle implements Shape {\n  readonly name = "triangle";\n' +
  "  area(): number {\n    return 1;\n  }\n  perimeter(): number {\n    return 3;\n  }\n}\n";

const QUESTIONS = [
  { relative_path: "src/shapes.ts", name_path: "Shape" },
  { relative_path: "src/shapes.ts", name_path: "Shape/area" },
  { relative_path: "src/shapes.ts", name_path: "Shape/perimeter" },
  { relative_path: "src/shapes.ts", name_path: "Shape", include_kinds: [6] },
  { relative_path: "src/shapes.ts", name_path: "Circle" },
];

Deno.test({
  name: "find_implementations from a SCIP index equals the live server's answers",
  ignore: skipUnless(
    hasServer("typescript-language-server") && hasServer("npm", ["--version"]),
    "typescript-language-server and npm (scip-typescript comes through npm exec)",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("typescript");
  const live: string[] = [];
  {
    await using h = await toolHarness(tree);
    for (const q of QUESTIONS) live.push(await h.call(findImplementations, q));
    await h.session.dispose();
  }
  assertEquals(JSON.parse(live[0]!).map((m: { name_path: string }) => m.name_path), [
    "Circle",
    "Square",
  ]);
  await using h = await toolHarness(tree);
  await withIndex(h);
  for (const [i, q] of QUESTIONS.entries()) {
    assertEquals(await h.call(findImplementations, q), live[i], JSON.stringify(q));
    assert(fromIndex(h), `${JSON.stringify(q)}: ${h.notes().join("\n")}`);
  }
  assertEquals(h.session.services(h.project).pool.running().length, 0);

  // A changed file that mentions the name may implement it now: the live server answers.
  await h.write("src/extra.ts", TRIANGLE);
  const after = JSON.parse(await h.call(findImplementations, QUESTIONS[0]!));
  assert(!fromIndex(h), h.notes().join("\n"));
  assertEquals(after.map((m: { name_path: string }) => m.name_path), [
    "Triangle",
    "Circle",
    "Square",
  ]);
  await h.session.dispose();
});

Deno.test({
  name: "type_hierarchy from a SCIP index: supertypes and subtypes where the server has none",
  ignore: skipUnless(
    hasServer("typescript-language-server") && hasServer("npm", ["--version"]),
    "typescript-language-server and npm",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("typescript");
  const question = { relative_path: "src/shapes.ts", name_path: "Shape" };
  let implementations: Array<{ name_path: string; kind: string; relative_path: string }>;
  {
    await using h = await toolHarness(tree);
    // typescript-language-server offers no type hierarchy.
    const refused = await h.run(typeHierarchy, question);
    assert(refused.isError && /not supported/.test(refused.text), refused.text);
    implementations = JSON.parse(await h.call(findImplementations, question));
    await h.session.dispose();
  }
  await using h = await toolHarness(tree);
  await withIndex(h);
  const answer = JSON.parse(await h.call(typeHierarchy, question));
  assert(fromIndex(h), h.notes().join("\n"));
  assertEquals(answer, {
    symbol: "Shape",
    kind: "Interface",
    file: "src/shapes.ts",
    line: 3,
    supertypes: [],
    subtypes: [
      { name: "Circle", kind: "Class", file: "src/shapes.ts", line: 9 },
      { name: "Square", kind: "Class", file: "src/shapes.ts", line: 27 },
    ],
  });
  // The subtypes are the live server's implementations.
  assertEquals(
    answer.subtypes.map((s: { name: string; kind: string; file: string }) =>
      `${s.file} ${s.name} ${s.kind}`
    ),
    implementations.map((m) => `${m.relative_path} ${m.name_path} ${m.kind}`),
  );
  // From a subtype, by position (Circle's name in `class Circle implements Shape`).
  const up = JSON.parse(
    await h.call(typeHierarchy, {
      relative_path: "src/shapes.ts",
      line: 9,
      column: 14,
      direction: "super",
    }),
  );
  assertEquals(up, {
    symbol: "Circle",
    kind: "Class",
    file: "src/shapes.ts",
    line: 9,
    supertypes: [{ name: "Shape", kind: "Interface", file: "src/shapes.ts", line: 3 }],
  });
  assertEquals(h.session.services(h.project).pool.running().length, 0);

  // A changed file that mentions Shape: the server has no type hierarchy to ask, so the index
  // answers for the unchanged files and names the changed one.
  await h.write("src/extra.ts", TRIANGLE);
  const again = JSON.parse(await h.call(typeHierarchy, question));
  assertEquals(again.subtypes, answer.subtypes);
  assert(
    h.notes().some((n) => n.includes("not analysed") && n.endsWith(": src/extra.ts")),
    h.notes().join("\n"),
  );
  await h.session.dispose();
});

Deno.test({
  name: "find_implementations from a SCIP index with no server: a changed file is named",
  ignore: skipUnless(hasServer("npm", ["--version"]), "npm (scip-typescript)"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(await fixtureTree("typescript"), {
    projectConfig: { language_servers: { typescript: { disabled: true } } },
  });
  await withIndex(h);
  await h.write("src/extra.ts", TRIANGLE);
  const answer = JSON.parse(await h.call(findImplementations, QUESTIONS[0]!));
  assertEquals(answer.map((m: { name_path: string }) => m.name_path), ["Circle", "Square"]);
  assert(
    h.notes().some((n) => n.includes("not analysed") && n.endsWith(": src/extra.ts")),
    h.notes().join("\n"),
  );
  await h.session.dispose();
});

Deno.test({
  name: "find_implementations and type_hierarchy from a scip-python index, where pyright has none",
  ignore: skipUnless(
    hasServer("pyright-langserver") && hasServer("npm", ["--version"]),
    "pyright-langserver and npm (scip-python comes through npm exec)",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("python");
  const question = { relative_path: "shapes/base.py", name_path: "Shape" };
  {
    await using h = await toolHarness(tree);
    const live = await h.run(findImplementations, question);
    assert(live.isError && /does not support finding implementations/.test(live.text), live.text);
    const hierarchy = await h.run(typeHierarchy, question);
    assert(hierarchy.isError && /not supported/.test(hierarchy.text), hierarchy.text);
    await h.session.dispose();
  }
  await using h = await toolHarness(tree);
  const result = await buildIndex(h.root, { languages: ["python"] });
  assertEquals(result.runs.map((r) => r.ok), [true], JSON.stringify(result.runs));
  assertEquals(JSON.parse(await h.call(findImplementations, question)), [
    {
      name_path: "Circle",
      kind: "Class",
      relative_path: "shapes/circle.py",
      body_location: { start_line: 6, end_line: 19 },
    },
    {
      name_path: "Square",
      kind: "Class",
      relative_path: "shapes/square.py",
      body_location: { start_line: 4, end_line: 13 },
    },
  ]);
  assert(fromIndex(h), h.notes().join("\n"));
  const methods = JSON.parse(
    await h.call(findImplementations, { relative_path: "shapes/base.py", name_path: "Shape/area" }),
  );
  assertEquals(methods.map((m: { name_path: string }) => m.name_path), [
    "Circle/area",
    "Square/area",
  ]);
  assertEquals(JSON.parse(await h.call(typeHierarchy, { ...question, direction: "sub" })), {
    symbol: "Shape",
    kind: "Class",
    file: "shapes/base.py",
    line: 4,
    subtypes: [
      { name: "Circle", kind: "Class", file: "shapes/circle.py", line: 7 },
      { name: "Square", kind: "Class", file: "shapes/square.py", line: 5 },
    ],
  });
  assertEquals(h.session.services(h.project).pool.running().length, 0);
  await h.session.dispose();
});
