/**
 * The declaration index agrees with the language servers' documentSymbol on the fixtures.
 *
 * Compared, per source file: the top-level declarations and the members of classes,
 * interfaces, structs, enums and impl blocks, each as `name path:kind`. Not compared: what lies
 * inside function bodies (the index lists local declarations liberally, since it only picks
 * which files the server is asked about), and ranges (the server's answer is what tools print).
 */
import { assert, assertEquals } from "../../helpers/assert.ts";
import { fixtureProject, hasServer, hasTypeScript7 } from "../../helpers/lsp.ts";
import { SymbolLookup } from "../../../src/symbols/lookup.ts";
import {
  fromCompact,
  namePathOf,
  type SymbolNode,
  walkSymbols,
} from "../../../src/symbols/model.ts";
import { contentHash } from "../../../src/symbols/cache.ts";
import { DeclarationIndex, PROVEN_SERVERS } from "../../../src/symbols/index/mod.ts";
import {
  BASH_SAMPLES,
  BASH_UNMODELLED,
  C_SAMPLES,
  C_UNMODELLED,
  GO_SAMPLES,
  GO_UNMODELLED,
  PYTHON_SAMPLES,
  PYTHON_UNMODELLED,
  RUST_SAMPLES,
  RUST_UNMODELLED,
  TS_SAMPLES,
  TS_UNMODELLED,
} from "./samples.ts";
import { EXACT_GRAMMARS } from "../../../src/symbols/index/extract.ts";
import { grammarFor } from "../../../src/symbols/index/grammars.ts";
import { java21Env } from "../../helpers/java.ts";
import { skipUnless } from "../../helpers/lsp.ts";
import { asNativeTypeScriptLists } from "../../../scripts/checks/index_agreement.ts";
import { isNativeTypeScript } from "../../../src/symbols/typescript_native.ts";

const CONTAINERS = new Set([3, 5, 10, 11, 19, 23]);

/** `name path:kind` of the top level and of container members. */
export function outline(roots: readonly SymbolNode[]): string[] {
  const out: string[] = [];
  for (const node of roots) {
    out.push(`${namePathOf(node)}:${node.kind}`);
    if (!CONTAINERS.has(node.kind)) continue;
    for (const child of node.children) out.push(`${namePathOf(child)}:${child.kind}`);
  }
  return out.sort();
}

const CASES: Array<{ fixture: string; server: string }> = [
  { fixture: "typescript", server: "typescript-language-server" },
  { fixture: "python", server: "pyright-langserver" },
  { fixture: "rust/broken", server: "rust-analyzer" },
  { fixture: "rust/tests_fail", server: "rust-analyzer" },
];

for (const { fixture, server } of CASES) {
  Deno.test({
    name: `declaration index agrees with ${server} on fixtures/${fixture}`,
    ignore: !hasServer(server),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using fx = await fixtureProject(fixture);
    const index = new DeclarationIndex(fx.project, { watch: false, persist: false });
    try {
      await index.ready();
      const symbols = new SymbolLookup(fx.project, fx.pool);
      const files = index.indexedFiles().filter((f) => fx.pool.handles(f));
      const fromIndex: Record<string, string[]> = {};
      const fromServer: Record<string, string[]> = {};
      for (const relPath of files) {
        fromIndex[relPath] = outline(fromCompact(index.declarations(relPath)!, relPath));
        fromServer[relPath] = outline((await symbols.fileSymbols(relPath)).roots);
      }
      assertEquals(fromIndex, fromServer);
    } finally {
      await index.dispose();
    }
  });
}

/**
 * JDT LS's names carry parameter types and a generic method's type parameters (`area()`,
 * `pick(T, T) <T>`); the index's do not.
 */
function withoutParameters(line: string): string {
  return line.replace(/\([^()/]*\)(?: <[^/:]*>)?(?=[/:])/g, "");
}

const javaEnv = java21Env();

Deno.test({
  name: "declaration index agrees with jdtls on fixtures/java/shapes",
  ignore: skipUnless(
    hasServer("jdtls") && javaEnv !== null,
    "the Java index agreement (jdtls and a Java 21+ runtime)",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const saved = Object.fromEntries(Object.keys(javaEnv!).map((k) => [k, Deno.env.get(k)]));
  for (const [k, v] of Object.entries(javaEnv!)) Deno.env.set(k, v);
  try {
    await using fx = await fixtureProject("java/shapes");
    // Constructs the fixture lacks: an enum, a record, a nested type, constants, an annotation.
    await Deno.writeTextFile(
      fx.path("src/main/java/demo/Extras.java"),
      [
        "package demo;",
        "",
        "public class Extras {",
        "    public static final int LIMIT = 3;",
        "    static int count, total;",
        "",
        "    enum Color { RED, GREEN }",
        "",
        '    interface Named { String PREFIX = "n"; String label(); }',
        "",
        "    record Point(int x, int y) {",
        "        Point {",
        "            if (x < 0) throw new IllegalArgumentException();",
        "        }",
        "        int sum() { return x + y; }",
        "    }",
        "",
        "    @interface Marker { int value() default 0; }",
        "",
        "    static class Inner { void run() { Runnable r = () -> {}; r.run(); } }",
        "",
        "    <T> T pick(T a, T b) { return a; }",
        "}",
        "",
      ].join("\n"),
    );
    const index = new DeclarationIndex(fx.project, { watch: false, persist: false });
    try {
      await index.ready();
      const symbols = new SymbolLookup(fx.project, fx.pool);
      const files = index.indexedFiles().filter((f) => fx.pool.handles(f));
      assertEquals(files.length, 5);
      const fromIndex: Record<string, string[]> = {};
      const fromServer: Record<string, string[]> = {};
      for (const relPath of files) {
        fromIndex[relPath] = outline(fromCompact(index.declarations(relPath)!, relPath));
        fromServer[relPath] = outline((await symbols.fileSymbols(relPath)).roots)
          .map(withoutParameters).sort();
      }
      assertEquals(fromIndex, fromServer);
      // Java is not proven exact: the server answers, the index picks the files.
      assert(files.every((f) => !EXACT_GRAMMARS.has(grammarFor(f)!)));
    } finally {
      await index.dispose();
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) Deno.env.delete(k);
      else Deno.env.set(k, v);
    }
  }
});

// --- exact agreement ----------------------------------------------------------------------------

/**
 * What a tool's answer takes from a symbol tree, for every symbol in document order: the name
 * path (with overload indexes), the kind, the body range (lines and characters: `body_location`
 * and the `body` text), and where the name starts (where queries are sent).
 */
export function answerFields(roots: readonly SymbolNode[]): string[] {
  return [...walkSymbols(roots)].map((n) =>
    `${namePathOf(n)} kind=${n.kind} range=${n.range.start.line}:${n.range.start.character}-` +
    `${n.range.end.line}:${n.range.end.character} name=${n.selectionRange.start.line}:` +
    `${n.selectionRange.start.character}`
  );
}

const EXACT_CASES: Array<{
  fixture: string;
  server: string;
  samples: Record<string, string>;
  unmodelled: Record<string, string>;
}> = [
  {
    fixture: "typescript",
    server: "typescript-language-server",
    samples: TS_SAMPLES,
    unmodelled: TS_UNMODELLED,
  },
  { fixture: "go/shapes", server: "gopls", samples: GO_SAMPLES, unmodelled: GO_UNMODELLED },
  { fixture: "c", server: "clangd", samples: C_SAMPLES, unmodelled: C_UNMODELLED },
  {
    fixture: "python",
    server: "pyright-langserver",
    samples: PYTHON_SAMPLES,
    unmodelled: PYTHON_UNMODELLED,
  },
  {
    fixture: "rust/traits",
    server: "rust-analyzer",
    samples: RUST_SAMPLES,
    unmodelled: RUST_UNMODELLED,
  },
  {
    fixture: "bash",
    server: "bash-language-server",
    samples: BASH_SAMPLES,
    unmodelled: BASH_UNMODELLED,
  },
  { fixture: "rust/broken", server: "rust-analyzer", samples: {}, unmodelled: {} },
  { fixture: "rust/tests_fail", server: "rust-analyzer", samples: {}, unmodelled: {} },
];

for (const { fixture, server, samples, unmodelled } of EXACT_CASES) {
  Deno.test({
    name: `declarations marked exact equal ${server}'s documentSymbol on fixtures/${fixture}`,
    ignore: !hasServer(server),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    await using fx = await fixtureProject(fixture);
    for (const [relPath, text] of Object.entries({ ...samples, ...unmodelled })) {
      await Deno.writeTextFile(fx.path(relPath), text);
    }
    const index = new DeclarationIndex(fx.project, { watch: false, persist: false });
    try {
      await index.ready();
      // No declaration index here: every tree below is the server's.
      const symbols = new SymbolLookup(fx.project, fx.pool);
      const files = index.indexedFiles().filter((f) => fx.pool.handles(f));
      const exactFiles: string[] = [];
      const fromIndex: Record<string, string[]> = {};
      const fromServer: Record<string, string[]> = {};
      for (const relPath of files) {
        const hash = await contentHash(await Deno.readFile(fx.path(relPath)));
        const exact = index.exactDeclarations(relPath, hash);
        if (exact === undefined) continue;
        exactFiles.push(relPath);
        fromIndex[relPath] = answerFields(fromCompact(exact, relPath));
        fromServer[relPath] = answerFields((await symbols.fileSymbols(relPath)).roots);
      }
      assertEquals(fromIndex, fromServer);
      // Every fixture file and sample of a proven grammar is exact (C headers are read with
      // the C++ grammar, which is not proven); no unmodelled file is.
      assertEquals(
        exactFiles.sort(),
        files.filter((f) => !(f in unmodelled) && EXACT_GRAMMARS.has(grammarFor(f)!)).sort(),
      );
      assert(exactFiles.length >= 2, `few exact files: ${exactFiles.join(", ")}`);
    } finally {
      await index.dispose();
    }
  });
}

Deno.test({
  name: "declarations marked exact are TypeScript 7's documentSymbol, but for its merge, on " +
    "fixtures/typescript",
  ignore: skipUnless(hasTypeScript7(), "TypeScript 7"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using fx = await fixtureProject("typescript", { typescript: 7 });
  for (const [relPath, text] of Object.entries({ ...TS_SAMPLES, ...TS_UNMODELLED })) {
    await Deno.writeTextFile(fx.path(relPath), text);
  }
  const index = new DeclarationIndex(fx.project, { watch: false, persist: false });
  try {
    await index.ready();
    const symbols = new SymbolLookup(fx.project, fx.pool);
    const files = index.indexedFiles().filter((f) => fx.pool.handles(f));
    const merged: string[] = [];
    const asNative: Record<string, string[]> = {};
    const fromServer: Record<string, string[]> = {};
    for (const relPath of files) {
      const text = await Deno.readTextFile(fx.path(relPath));
      const exact = index.exactDeclarations(
        relPath,
        await contentHash(new TextEncoder().encode(text)),
      );
      // JavaScript is proven against tsserver only (PROVEN_SERVERS).
      if (exact === undefined || !PROVEN_SERVERS[grammarFor(relPath)!]?.includes("tsc")) continue;
      const roots = fromCompact(exact, relPath);
      asNative[relPath] = answerFields(asNativeTypeScriptLists(roots, text));
      if (asNative[relPath]!.join("\n") !== answerFields(roots).join("\n")) merged.push(relPath);
      fromServer[relPath] = answerFields((await symbols.fileSymbols(relPath)).roots);
    }
    assert(isNativeTypeScript(await fx.pool.serverFor("src/sample_merged.ts")));
    assertEquals(asNative, fromServer);
    // Not vacuous: the merge took properties out, with children, and into the top level.
    assert(merged.includes("src/sample_merged.ts"), `merged: ${merged.join(", ")}`);
    assert(Object.keys(asNative).length >= 10, "few exact files");
  } finally {
    await index.dispose();
  }
});
