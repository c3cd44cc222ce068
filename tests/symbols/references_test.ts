/**
 * find_referencing_symbols answers the references Serena 2.1 gives, compared with Serena's own
 * answers on the same projects (tests/symbols/golden/references_*.json, recorded from Serena
 * 2.1.0): grouped by file, then by kind, in Serena's keys; import and re-export lines listed under
 * their file; a reference in a module-level variable's initializer, or in a local constant, under
 * that variable. Every reference line is compared (file, kind, containing symbol, line number and
 * text); Serena's text itself is not, since it costs three to four times grep's lines (its context
 * lines and one entry per reference), and the answer costs no more than grep's where one of
 * Serena's forms can (src/tools/shared/reference_entries.ts).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  linkTypeScript7,
  REPO_ROOT,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import {
  disposeAndCheck,
  fixtureTree,
  referenceLines,
  serenaReferenceKeys,
} from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { projectPathOf, projectPaths } from "../../src/symbols/queries.ts";

const golden = (name: string) =>
  JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "tests/symbols/golden", name)));

const CASES = [
  {
    lang: "TypeScript",
    server: "typescript-language-server",
    fixture: "typescript",
    // A re-export (a package's public export) and a module-level constant using Circle.
    extra: {
      "src/index.ts": 'export { Circle } from "./shapes.ts";\n',
      "src/registry.ts": "\nexport const defaultRegistry = new Map<string, Circle>" +
        '([["unit", Circle.unit()]]);\n',
    },
    args: { name_path: "Circle", relative_path: "src/shapes.ts" },
    golden: "references_circle_ts.json",
  },
  {
    lang: "Python",
    server: "pyright-langserver",
    fixture: "python",
    extra: { "shapes/registry.py": "\n\nDEFAULT_CIRCLE = Circle.unit()\n" },
    args: { name_path: "Circle", relative_path: "shapes/circle.py" },
    golden: "references_circle_py.json",
  },
];

// The TypeScript case on both server generations: the same golden answer.
const RUNS = CASES.flatMap((c) =>
  c.lang === "TypeScript"
    ? TS_GENERATIONS.map((g) => ({ c, typescript: g.typescript, label: ` (${g.name})` }))
    : [{ c, typescript: 5 as const, label: "" }]
);

for (const { c, typescript, label } of RUNS) {
  Deno.test({
    name: `find_referencing_symbols (${c.lang}): Serena's answer, imports and variables included` +
      label,
    ignore: c.lang === "TypeScript"
      ? skipUnless(hasTypeScriptGeneration(typescript), `${c.server}${label}`)
      : skipUnless(hasServer(c.server), c.server),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    const tree = await fixtureTree(c.fixture);
    const decoder = new TextDecoder();
    for (const [rel, text] of Object.entries(c.extra)) {
      const before = tree[rel];
      tree[rel] = (before ? decoder.decode(before as Uint8Array) : "") + text;
    }
    await using h = await toolHarness(tree);
    if (typescript === 7) await linkTypeScript7(h.root);

    await t.step("the answer names Serena's references, in Serena's keys", async () => {
      const first = await h.call(findReferencingSymbols, c.args);
      assertEquals(referenceLines(first), referenceLines(golden(c.golden)));
      assert(serenaReferenceKeys(first), first);
      assert(first.length < JSON.stringify(golden(c.golden)).length, first);
      // Warm: the referencing files' trees now come from memory; the same text.
      assertEquals(await h.call(findReferencingSymbols, c.args), first);
    });

    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: generation.typescript === 5
      ? "find_referencing_symbols on a cold project: with the server held back, the target " +
        `comes from the declaration index and the query is the server's first request (${generation.name})`
      : "find_referencing_symbols on a cold project: the server's outline gives the target and " +
        `no parse of the index takes a core from its load (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    const c = CASES[0]!;
    const tree = await fixtureTree(c.fixture);
    const decoder = new TextDecoder();
    for (const [rel, text] of Object.entries(c.extra)) {
      tree[rel] = decoder.decode(tree[rel] as Uint8Array) + text;
    }
    await using h = await toolHarness(tree);
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    // Every request the tool sends, in order (the pool gives one server object per language).
    const services = h.session.services(h.project);
    const requests: string[] = [];
    const wrapped = new WeakSet<object>();
    const serverFor = services.pool.serverFor.bind(services.pool);
    const declarations = services.symbols.declarations!;
    let held = false;
    /** Whether the index had parsed the target's file when the references request went. */
    let indexedAtQuery: boolean | null = null;
    services.pool.serverFor = async (relPath, options) => {
      // TypeScript 7's server loads on every core: a cold question asks it for the target's
      // outline rather than parse the file beside that load (SymbolLookup.indexHelpsCold).
      const holds = generation.typescript === 5;
      if (holds && !held && new Error().stack?.includes("resolveUniqueCold")) {
        // The server's side of locating the target, which races the index's parse, is held
        // until that side is cancelled, or, should the index not answer, until its build is
        // done, when the server's outline shows in the requests below. (The candidate scan
        // that runs beside it, queries.ts's nameQueryAhead, takes the server at once.)
        held = true;
        const signal = options?.signal;
        await Promise.race([
          declarations.ready(),
          new Promise<never>((_, reject) => {
            if (signal?.aborted) reject(signal.reason);
            signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          }),
        ]);
      }
      const server = await serverFor(relPath, options);
      if (!wrapped.has(server)) {
        wrapped.add(server);
        const request = server.request.bind(server);
        server.request = (method, params, opts) => {
          requests.push(`${method} ${
            (params as { textDocument?: { uri?: string } })
              .textDocument?.uri?.split("/").pop() ?? ""
          }`);
          if (method === "textDocument/references") {
            indexedAtQuery = declarations.hashOf(c.args.relative_path) !== undefined;
          }
          return request(method, params, opts);
        };
      }
      return server;
    };
    assertEquals(declarations.built, false);
    const answer = await h.call(findReferencingSymbols, c.args);
    assertEquals(
      held,
      generation.typescript === 5,
      "the server's side of locating the target held",
    );
    assertEquals(indexedAtQuery, generation.typescript === 5, "the index parsed the target's file");
    // typescript-language-server: the index's rules are proven against its outlines
    // (scripts/checks/index_agreement.ts), so the target comes from the index; the server is
    // asked where the name leads first, unawaited, so that it loads its project meanwhile.
    // TypeScript 7: its own outline of the target's file, which comes with its project load.
    const query = requests.indexOf("textDocument/references shapes.ts");
    assert(query >= 0, requests.join(", "));
    assertEquals(
      requests.slice(0, query).filter((r) => !r.startsWith("textDocument/definition")),
      generation.typescript === 5 ? [] : ["textDocument/documentSymbol shapes.ts"],
    );
    assertEquals(referenceLines(answer), referenceLines(golden(c.golden)));
    await disposeAndCheck(h);
  });
}

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: "memoizedSymbols: the tree fileSymbols gave, for the content on disk only" +
      ` (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using h = await toolHarness({
      ...await fixtureTree("typescript"),
      "src/crlf.ts": "export function one(): number {\r\n  return 1;\r\n}\r\n",
    });
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const index = h.session.services(h.project).symbols;
    for (const rel of ["src/shapes.ts", "src/crlf.ts"]) {
      assertEquals(index.memoizedSymbols(rel), null, "nothing in memory yet");
      const file = await index.fileSymbols(rel);
      const memo = index.memoizedSymbols(rel);
      assertEquals(memo?.text, file.text);
      assertEquals(memo?.roots === file.roots, true, "the same tree");
    }
    // Changed on disk: not from memory (fileSymbols reads it again).
    await h.write("src/crlf.ts", "export function two(): number {\n  return 2;\n}\n");
    assertEquals(index.memoizedSymbols("src/crlf.ts"), null);
    assertEquals((await index.fileSymbols("src/crlf.ts")).roots[0]?.name, "two");
    await Deno.remove(h.path("src/shapes.ts"));
    assertEquals(index.memoizedSymbols("src/shapes.ts"), null);
    await disposeAndCheck(h);
  });
}

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: "memoizedSymbols: a file unchanged since it was read is not read again; a changed " +
      `one is, whatever its size (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using h = await toolHarness(await fixtureTree("typescript"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const index = h.session.services(h.project).symbols;
    const rel = "src/shapes.ts";
    const abs = h.path(rel);
    const hourAgo = new Date(Date.now() - 3_600_000);
    // Last modified long ago: its size and mtime may stand for its content.
    Deno.utimeSync(abs, hourAgo, hourAgo);
    const file = await index.fileSymbols(rel);
    assertEquals(index.memoizedSymbols(rel)?.text, file.text, "read and hashed once");
    // The same size and mtime with other bytes: only a stat that skips the read misses this,
    // which proves the shortcut is taken (nothing but a tool that forges mtimes writes so).
    const original = Deno.readTextFileSync(abs);
    const forged = original.replace("Circle", "Cercle");
    assertEquals(forged.length, original.length);
    Deno.writeTextFileSync(abs, forged);
    Deno.utimeSync(abs, hourAgo, hourAgo);
    assertEquals(index.memoizedSymbols(rel)?.text, file.text, "trusted by its stat");
    // Changed on disk, the same size, an mtime long past too but another one: read again.
    const earlier = new Date(Date.now() - 1_800_000);
    Deno.utimeSync(abs, earlier, earlier);
    assertEquals(index.memoizedSymbols(rel), null, "the content changed: not from memory");
    // Back to the content the tree is for, written just now: read again, and from memory.
    Deno.writeTextFileSync(abs, original);
    assertEquals(index.memoizedSymbols(rel)?.text, file.text);
    // A change of the same size written now (within the mtime's resolution): read again.
    Deno.writeTextFileSync(abs, forged);
    assertEquals(index.memoizedSymbols(rel), null, "a recent write is always read");
    await disposeAndCheck(h);
  });
}

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: "memoizedSymbols with the change feed's barrier: a file vouched for is not stat'ed; " +
      `one edited on disk since is read again, whatever its stat says (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using h = await toolHarness(await fixtureTree("typescript"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const index = h.session.services(h.project).symbols;
    const feed = index.changes!;
    const barrier = async () => {
      for (let i = 0; i < 100; i++) {
        const settled = await feed.settle();
        if (settled) return settled;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error("the change feed never settled");
    };
    const rel = "src/shapes.ts";
    const abs = h.path(rel);
    const hourAgo = new Date(Date.now() - 3_600_000);
    Deno.utimeSync(abs, hourAgo, hourAgo);
    const file = await index.fileSymbols(rel);
    assertEquals(index.memoizedSymbols(rel, await barrier())?.text, file.text, "read once");
    assertEquals(index.memoizedSymbols(rel, await barrier())?.text, file.text, "vouched for");
    // Other bytes of the same size under the old mtime: a stat cannot tell, the feed can.
    const original = Deno.readTextFileSync(abs);
    const forged = original.replace("Circle", "Cercle");
    Deno.writeTextFileSync(abs, forged);
    Deno.utimeSync(abs, hourAgo, hourAgo);
    assertEquals(index.memoizedSymbols(rel, await barrier()), null, "edited: read again");
    assertEquals(index.memoizedSymbols(rel, await barrier()), null, "and again");
    Deno.writeTextFileSync(abs, original);
    Deno.utimeSync(abs, hourAgo, hourAgo);
    assertEquals(index.memoizedSymbols(rel, await barrier())?.text, file.text, "back as it was");
    await disposeAndCheck(h);
  });
}

Deno.test("projectPaths: the same paths as projectPathOf, ignore rules included", async () => {
  await using h = await toolHarness({
    ".gitignore": "build/\n*.gen.ts\n",
    "src/a.ts": "export const a = 1;\n",
    "src/deep/b c.ts": "export const b = 1;\n",
    "build/out.ts": "export const o = 1;\n",
    "src/x.gen.ts": "export const x = 1;\n",
  });
  const services = h.session.services(h.project);
  const server = await services.pool.serverFor("src/a.ts");
  const root = server.uriOf(".");
  const uris = [
    `${root}/src/a.ts`,
    `${root}/src/deep/b%20c.ts`,
    `${root}/src/deep/b c.ts`,
    `${root}/src/./a.ts`,
    `${root}/./src/a.ts`,
    `${root}/src/deep/../a.ts`,
    `${root}/src//a.ts`,
    `${root}/build/out.ts`,
    `${root}/src/x.gen.ts`,
    `${root}/../outside.ts`,
    `${root}`,
    `${root}/`,
    `${root}/src/a.ts?query`,
    "file:///elsewhere/lib.d.ts",
    `${root}x/src/a.ts`,
  ];
  const pathOf = projectPaths(services.symbols, server);
  const fast = uris.map((u) => pathOf(u));
  assertEquals(fast, uris.map((u) => projectPathOf(services.symbols, server, u)));
  // Asked again: the same answers (from the per-URI memo).
  assertEquals(uris.map((u) => pathOf(u)), fast);
  assertEquals(fast.slice(0, 5), [
    "src/a.ts",
    "src/deep/b c.ts",
    "src/deep/b c.ts",
    "src/a.ts",
    "src/a.ts",
  ]);
  assertEquals(fast.slice(7, 12), [null, null, null, null, null]);
  await disposeAndCheck(h);
});
