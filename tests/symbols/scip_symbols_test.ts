/**
 * find_symbol from a SCIP index built by the real indexers (scip-typescript, scip-python, through
 * `sextant index build`'s own code): for every symbol the live server outlines in the fixtures,
 * by name across the project, by name path in its file and in its folder, with bodies, the
 * answer with the index is the live server's, text for text; the index answers a good part of
 * them with no server started; a file edited after indexing is answered by the live server, or
 * named when none can run.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { type FileTree, type ToolHarness, toolHarness } from "../helpers/tool_ctx.ts";
import { findSymbol } from "../../src/tools/symbols/find_symbol.ts";
import { buildIndex, type IndexLanguage } from "../../src/symbols/scip/build.ts";
import { indexOf } from "../../src/tools/shared/locate_symbol.ts";
import { namePathOf, walkSymbols } from "../../src/symbols/model.ts";
import { dirname } from "node:path";
import { ScipIndex } from "../../src/symbols/scip/scip_index.ts";
import { indexedOutline } from "../../src/symbols/scip/symbol_table.ts";

/** Indexes of the fixtures, built once per run and copied into each test's project. */
const built = new Map<string, { index: Uint8Array; manifest: string }>();
async function fixtureIndex(
  tree: FileTree,
  language: IndexLanguage,
): Promise<{ index: Uint8Array; manifest: string }> {
  const known = built.get(language);
  if (known) return known;
  await using h = await toolHarness(tree);
  const result = await buildIndex(h.root, { languages: [language] });
  assertEquals(result.runs.map((r) => r.ok), [true], JSON.stringify(result.runs));
  const made = {
    index: await Deno.readFile(result.output),
    manifest: await Deno.readTextFile(result.manifest),
  };
  built.set(language, made);
  return made;
}

async function withIndex(h: ToolHarness, made: { index: Uint8Array; manifest: string }) {
  await h.write(".sextant/index.scip", made.index);
  await h.write(".sextant/index.scip.files", made.manifest);
}

type Query = Record<string, unknown>;

/** Queries about every symbol the live server outlines: by name, by name path, with bodies. */
async function queriesOf(h: ToolHarness): Promise<Query[]> {
  const lookup = indexOf(h.ctx);
  const seen = new Set<string>();
  const out: Query[] = [];
  const add = (q: Query) => {
    const key = JSON.stringify(q);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(q);
    }
  };
  for (const relPath of await lookup.sourceFiles(".")) {
    const file = await lookup.fileSymbols(relPath, {});
    for (const node of walkSymbols(file.roots)) {
      if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(node.name)) continue;
      add({ name_path_pattern: node.name });
      add({ name_path_pattern: namePathOf(node), relative_path: relPath });
      add({ name_path_pattern: `/${namePathOf(node)}`, relative_path: dirname(relPath) });
      add({ name_path_pattern: node.name, include_body: true });
    }
  }
  return out;
}

interface Answered {
  text: string;
  notes: readonly string[];
}

async function ask(h: ToolHarness, queries: readonly Query[]): Promise<Answered[]> {
  const out: Answered[] = [];
  for (const q of queries) {
    const text = await h.call(findSymbol, q);
    out.push({ text, notes: h.notes() });
  }
  return out;
}

const fromIndex = (a: Answered) => a.notes.some((n) => n.startsWith("Answered from the SCIP"));

const CASES = [
  {
    fixture: "typescript",
    language: "typescript",
    server: "typescript-language-server",
    // An edit after indexing: a function named like Circle's method.
    edit: {
      file: "src/geometry.ts",
      append: "\nexport function unit(): number {\n  return 1;\n}\n",
    },
    name: "unit",
  },
  {
    fixture: "python",
    language: "python",
    server: "pyright-langserver",
    edit: { file: "app.py", append: "\n\ndef area() -> float:\n    return 0.0\n" },
    name: "area",
  },
] as const;

for (const { fixture, language, server, edit, name } of CASES) {
  Deno.test({
    name: `find_symbol from a ${language} SCIP index equals the live server's answers`,
    ignore: skipUnless(
      hasServer(server) && hasServer("npm", ["--version"]),
      `${server} and npm (the indexer comes through npm exec)`,
    ),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    const tree = await fixtureTree(fixture);
    let queries: Query[];
    let live: Answered[];
    let liveEdited: Answered[];
    const edited = { name_path_pattern: name };
    {
      await using h = await toolHarness(tree);
      queries = await queriesOf(h);
      live = await ask(h, queries);
      await h.write(edit.file, (await h.read(edit.file)) + edit.append);
      liveEdited = await ask(h, [edited]);
      await h.session.dispose();
    }
    assert(queries.length > 40, `queries: ${queries.length}`);
    assert(live.every((a) => !fromIndex(a)));
    const made = await fixtureIndex(tree, language);
    await using h = await toolHarness(tree);
    await withIndex(h, made);
    const answers = await ask(h, queries);
    const differences = queries.flatMap((q, i) =>
      answers[i]!.text === live[i]!.text
        ? []
        : [`${JSON.stringify(q)}\n  live:  ${live[i]!.text}\n  index: ${answers[i]!.text}`]
    );
    assertEquals(differences, []);
    const indexed = queries.filter((_, i) => fromIndex(answers[i]!));
    // Classes, methods and functions come from the index; parameters, locals and properties
    // (TypeScript) not.
    assert(indexed.length >= queries.length / 4, `${indexed.length} of ${queries.length}`);
    console.log(`${language}: ${indexed.length} of ${queries.length} answered from the index`);

    // The edited file comes from the live server, the others from the index: the same answer.
    await h.write(edit.file, (await h.read(edit.file)) + edit.append);
    const [answer] = await ask(h, [edited]);
    assertEquals(answer!.text, liveEdited[0]!.text);
    assert(
      JSON.parse(answer!.text).some((m: { relative_path: string }) =>
        m.relative_path === edit.file
      ),
    );
    assert(fromIndex(answer!), answer!.notes.join("\n"));
    assert(answer!.notes[0]!.includes("from the language server"), answer!.notes.join("\n"));
    await h.session.dispose();
  });
}

Deno.test({
  name: "find_symbol from a SCIP index: no server needed; a changed file with none to ask is named",
  ignore: skipUnless(hasServer("npm", ["--version"]), "npm (scip-typescript)"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("typescript");
  const made = await fixtureIndex(tree, "typescript");
  await using h = await toolHarness(tree, {
    projectConfig: { language_servers: { typescript: { disabled: true } } },
  });
  await withIndex(h, made);
  const answer = JSON.parse(await h.call(findSymbol, { name_path_pattern: "Circle" }));
  assertEquals(answer, [{
    name_path: "Circle",
    kind: "Class",
    relative_path: "src/shapes.ts",
    body_location: { start_line: 8, end_line: 24 },
  }]);
  assert(h.notes()[0]?.startsWith("Answered from the SCIP index"), h.notes().join("\n"));
  assertEquals(h.session.services(h.project).pool.running().length, 0);

  await h.write("src/extra.ts", "export class Circle {}\n");
  const again = JSON.parse(await h.call(findSymbol, { name_path_pattern: "Circle" }));
  assertEquals(again, answer);
  assert(
    h.notes().some((n) =>
      n.startsWith("Not analysed") && n.includes("src/extra.ts (changed since the index)")
    ),
    h.notes().join("\n"),
  );
  await h.session.dispose();
});

Deno.test({
  name: "the index's outline: members under their types; only what equals the server vouched",
  ignore: skipUnless(hasServer("npm", ["--version"]), "npm (scip-typescript)"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tree = await fixtureTree("typescript");
  const made = await fixtureIndex(tree, "typescript");
  await using h = await toolHarness(tree);
  await withIndex(h, made);
  const index = await ScipIndex.load(h.path(".sextant/index.scip"));
  const outline = indexedOutline(
    index,
    "src/shapes.ts",
    (await h.read("src/shapes.ts")).split("\n"),
  );
  assert(outline !== null);
  const shown = [...walkSymbols(outline.roots)].map((n) =>
    `${namePathOf(n)} ${
      outline.vouched.has(n) ? "vouched" : outline.placed.has(n) ? "placed" : "-"
    }`
  );
  assertEquals(shown, [
    "Shape vouched",
    // Interface members: the index gives no body range, nor a property's kind.
    "Shape/name placed",
    "Shape/area placed",
    "Shape/perimeter placed",
    "Circle vouched",
    "Circle/name placed",
    "Circle/constructor vouched",
    "Circle/area vouched",
    "Circle/perimeter vouched",
    "Circle/unit vouched",
    "Square vouched",
    "Square/name placed",
    "Square/constructor vouched",
    "Square/area vouched",
    "Square/perimeter vouched",
  ]);
  // The constructor's parameter property (`public radius`), which tsserver outlines as
  // Circle/radius, is a parameter to the index: it cannot place it.
  assertEquals(outline.definitionAt.get("11:30"), null);
  await h.session.dispose();
});
