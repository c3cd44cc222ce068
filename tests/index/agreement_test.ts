/**
 * The declaration index agrees with the language servers' documentSymbol on the fixtures.
 *
 * Compared, per source file: the top-level declarations and the members of classes,
 * interfaces, structs, enums and impl blocks, each as `name path:kind`. Not compared: what lies
 * inside function bodies (the index lists local declarations liberally, since it only picks
 * which files the server is asked about), and ranges (the server's answer is what tools print).
 */
import { assertEquals } from "../helpers/assert.ts";
import { fixtureProject, hasServer } from "../helpers/lsp.ts";
import { SymbolIndex } from "../../src/lsp/symbols_index.ts";
import { fromCompact, namePathOf, type SymbolNode } from "../../src/lsp/symbols.ts";
import { DeclarationIndex } from "../../src/index/mod.ts";

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
      const symbols = new SymbolIndex(fx.project, fx.pool);
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
