/**
 * find_references from a SCIP index built by the real indexer (scip-typescript, through
 * `sextant index build`'s own code): the same references as the live TypeScript server, without
 * starting it; a file edited after indexing answered by the live server; a file changed when no
 * server can run named as "changed since the index"; and an index without its manifest never
 * used.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findReferences } from "../../src/tools/ide/find_references.ts";
import { gotoDefinition, implementation } from "../../src/tools/ide/goto_definition.ts";
import { buildIndex } from "../../src/symbols/scip/build.ts";
import { manifestPath } from "../../src/symbols/scip/freshness.ts";

interface Answer {
  symbol: string;
  references: Array<{ file: string; line: number; column: number; is_definition: boolean }>;
  not_analysed?: string[];
  note?: string;
}

const keys = (a: Answer) =>
  a.references.map((r) => `${r.file}:${r.line}:${r.column}${r.is_definition ? " def" : ""}`)
    .sort();

/** A built index of fixtures/typescript, made once and copied into each test's project. */
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

const ARGS = { relative_path: "src/shapes.ts", name_path: "Circle" };

Deno.test({
  name: "find_references from a SCIP index equals the live server's answer, with no server",
  ignore: skipUnless(
    hasServer("typescript-language-server") && hasServer("npm", ["--version"]),
    "typescript-language-server and npm (scip-typescript comes through npm exec)",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const tree = await fixtureTree("typescript");
  let live: Answer;
  await t.step("the live server's answer", async () => {
    await using h = await toolHarness(tree);
    live = JSON.parse(await h.call(findReferences, ARGS));
    assert(live.note === undefined, "no index: the live answer has no note");
    assert(live.references.length > 5, `Circle is used in several files: ${keys(live)}`);
    await h.session.dispose();
  });

  const { index, manifest } = await fixtureIndex();
  await t.step("the index's answer: the same references, no language server started", async () => {
    await using h = await toolHarness(tree);
    await h.write(".sextant/index.scip", index);
    await h.write(".sextant/index.scip.files", manifest);
    const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
    assert(answer.note?.startsWith("Answered from the SCIP index"), answer.note);
    assertEquals(keys(answer), keys(live));
    assertEquals(h.session.services(h.project).pool.running().length, 0);
    // Without the declaration: the definitions are left out, the rest stays.
    const bare: Answer = JSON.parse(
      await h.call(findReferences, { ...ARGS, include_declaration: false }),
    );
    assertEquals(keys(bare), keys(live).filter((k) => !k.endsWith(" def")));
    await h.session.dispose();
  });

  await t.step("a file edited after indexing is answered by the live server", async () => {
    await using h = await toolHarness(tree);
    await h.write(".sextant/index.scip", index);
    await h.write(".sextant/index.scip.files", manifest);
    const geometry = await h.read("src/geometry.ts");
    await h.write(
      "src/geometry.ts",
      geometry + "\nexport const twice = (c: Circle): Circle => new Circle(c.radius * 2);\n",
    );
    const lines = (await h.read("src/geometry.ts")).split("\n").length;
    const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
    assert(answer.note?.includes("1 changed since"), answer.note);
    const added = answer.references.filter((r) =>
      r.file === "src/geometry.ts" && r.line >= lines - 2
    );
    assertEquals(added.length, 3, JSON.stringify(answer.references));
    // The file's older references are still there: the server answered for the whole file.
    assert(
      answer.references.some((r) => r.file === "src/geometry.ts" && r.line < lines - 2),
      JSON.stringify(answer.references),
    );
    assert(h.session.services(h.project).pool.running().length > 0, "the server was asked");
    await h.session.dispose();
  });
});

Deno.test({
  name: "find_references from a SCIP index: a changed file with no server to ask is named",
  ignore: skipUnless(hasServer("npm", ["--version"]), "npm (scip-typescript)"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { index, manifest } = await fixtureIndex();
  // The TypeScript server is switched off: only the index can answer.
  await using h = await toolHarness(await fixtureTree("typescript"), {
    projectConfig: { language_servers: { typescript: { disabled: true } } },
  });
  await h.write(".sextant/index.scip", index);
  await h.write(".sextant/index.scip.files", manifest);
  await h.write(
    "src/extra.ts",
    'import { Circle } from "./shapes.ts";\nexport const c = new Circle(2);\n',
  );
  const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
  assert(answer.note?.startsWith("Answered from the SCIP index"), answer.note);
  assertEquals(
    (answer.not_analysed ?? []).filter((n) => n.startsWith("src/extra.ts:")).map((n) =>
      n.replace(/: .*\(/, ": (")
    ),
    ["src/extra.ts:1: (changed since the index)", "src/extra.ts:2: (changed since the index)"],
  );
  assert(!answer.references.some((r) => r.file === "src/extra.ts"));
  await h.session.dispose();
});

Deno.test({
  name: "an index without its manifest is not used: the live path answers",
  ignore: skipUnless(
    hasServer("typescript-language-server") && hasServer("npm", ["--version"]),
    "typescript-language-server and npm",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { index } = await fixtureIndex();
  await using h = await toolHarness(await fixtureTree("typescript"));
  await h.write(".sextant/index.scip", index);
  assert(!(await h.exists(manifestPath(".sextant/index.scip"))));
  const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
  assertEquals(answer.note, undefined);
  assert(answer.references.length > 5);
  await h.session.dispose();
});

interface Located {
  found: boolean;
  file?: string;
  line?: number;
  column?: number;
  locations?: Array<{ file: string; line: number; column: number }>;
}

const places = (a: Located) =>
  (a.locations ?? [a]).map((l) => `${l.file}:${l.line}:${l.column}`).sort();

Deno.test({
  name:
    "goto_definition and implementation from a SCIP index agree with the live server (one recorded difference)",
  ignore: skipUnless(
    hasServer("typescript-language-server") && hasServer("npm", ["--version"]),
    "typescript-language-server and npm",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("typescript");
  // ShapeRegistry imported in main.ts, and the interface Shape's implementations.
  const definitionArgs = { relative_path: "src/main.ts", line: 3, column: 12 };
  const implementationArgs = { relative_path: "src/shapes.ts", name_path: "Shape" };
  const live: Located[] = [];
  {
    await using h = await toolHarness(tree);
    live.push(JSON.parse(await h.call(gotoDefinition, definitionArgs)));
    live.push(JSON.parse(await h.call(implementation, implementationArgs)));
    await h.session.dispose();
  }
  assertEquals(places(live[0]!), ["src/registry.ts:4:14"]);
  // tsserver also names an expression typed by the interface (registry.ts's `[]` of type
  // Circle[]): an implementation in its sense, not a declaration. SCIP records only declared
  // `implements` and `extends` relationships: the index's answer has the two classes.
  const liveImplementations = places(live[1]!);
  assertEquals(liveImplementations, [
    "src/registry.ts:16:29",
    "src/shapes.ts:27:14",
    "src/shapes.ts:9:14",
  ]);
  const { index, manifest } = await fixtureIndex();
  await using h = await toolHarness(tree);
  await h.write(".sextant/index.scip", index);
  await h.write(".sextant/index.scip.files", manifest);
  assertEquals(places(JSON.parse(await h.call(gotoDefinition, definitionArgs))), places(live[0]!));
  assertEquals(
    places(JSON.parse(await h.call(implementation, implementationArgs))),
    liveImplementations.filter((p) => !p.startsWith("src/registry.ts")),
  );
  assertEquals(h.session.services(h.project).pool.running().length, 0);
  await h.session.dispose();
});

Deno.test({
  name: "find_references from a scip-python index agrees with pyright's (differences recorded)",
  ignore: skipUnless(
    hasServer("pyright-langserver") && hasServer("npm", ["--version"]),
    "pyright-langserver and npm (scip-python comes through npm exec)",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("python");
  const args = { relative_path: "shapes/circle.py", name_path: "Circle" };
  let live: Answer;
  {
    await using h = await toolHarness(tree);
    live = JSON.parse(await h.call(findReferences, args));
    await h.session.dispose();
  }
  await using h = await toolHarness(tree);
  const result = await buildIndex(h.root, { languages: ["python"] });
  assertEquals(result.runs.map((r) => r.ok), [true], JSON.stringify(result.runs));
  const answer: Answer = JSON.parse(await h.call(findReferences, args));
  assert(answer.note?.startsWith("Answered from the SCIP index"), answer.note);
  assertEquals(h.session.services(h.project).pool.running().length, 0);
  // pyright counts the string "Circle" in shapes/__init__.py's `__all__` as a reference;
  // scip-python records names in code only. Every other reference is the same.
  const inAll = "shapes/__init__.py:6:22";
  assert(keys(live).includes(inAll), JSON.stringify(keys(live)));
  assertEquals(keys(answer), keys(live).filter((k) => k !== inAll));
  await h.session.dispose();
});
