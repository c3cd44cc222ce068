/**
 * Both TypeScript server generations give the tools one outline: every file of
 * fixtures/typescript_outline (imports, re-exports, const and let, destructuring, enums,
 * namespaces, type aliases, accessors, signatures, overloads, object literals, anonymous functions
 * and spreads in expressions, `export default {...}`) has the same
 * symbol tree (names, kinds, ranges, selections, overload numbers) from typescript-language-server
 * as from TypeScript 7's own server after normalisation (src/symbols/typescript_native.ts).
 * @module
 */
import { assertEquals } from "../helpers/assert.ts";
import { fixtureProject, hasTypeScriptGeneration, skipUnless } from "../helpers/lsp.ts";
import { SymbolLookup } from "../../src/symbols/lookup.ts";
import { type SymbolNode, walkSymbols } from "../../src/symbols/model.ts";
import { isNativeTypeScript } from "../../src/symbols/typescript_native.ts";

const FILES = ["src/constructs.ts", "src/members.ts", "src/b.ts", "src/expressions.ts"];

/** One line per symbol: its name path, kind, range and selection start. */
function outline(roots: readonly SymbolNode[]): string[] {
  return [...walkSymbols(roots)].map((n) => {
    const path: string[] = [];
    for (let p: SymbolNode | null = n; p; p = p.parent) {
      path.unshift(p.overloadIndex === null ? p.name : `${p.name}[${p.overloadIndex}]`);
    }
    const r = n.range;
    const s = n.selectionRange;
    return `${path.join("/")} ${n.kind} ${r.start.line}:${r.start.character}-${r.end.line}:` +
      `${r.end.character} ${s.start.line}:${s.start.character}-${s.end.line}:${s.end.character}`;
  });
}

/**
 * Each file's outline straight from the generation's server (a lookup without the declaration
 * index, which would answer in the server's place), with the name the server gives itself.
 */
async function outlines(typescript: 5 | 7): Promise<Record<string, string[]>> {
  await using fixture = await fixtureProject("typescript_outline", { typescript });
  const symbols = new SymbolLookup(fixture.project, fixture.pool);
  try {
    const out: Record<string, string[]> = {};
    for (const file of FILES) out[file] = outline((await symbols.fileSymbols(file)).roots);
    const server = await fixture.pool.serverFor(FILES[0]!);
    assertEquals(isNativeTypeScript(server), typescript === 7, "the generation's own server");
    return out;
  } finally {
    await symbols.dispose();
  }
}

Deno.test({
  name: "TypeScript 7's outline, normalised, is tsserver's",
  ignore: skipUnless(
    hasTypeScriptGeneration(5) && hasTypeScriptGeneration(7),
    "typescript-language-server and TypeScript 7",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tsserver = await outlines(5);
  const native = await outlines(7);
  // Not vacuous: imports are dropped, kinds rewritten, and something is left to compare.
  assertEquals(tsserver["src/constructs.ts"]!.some((l) => l.startsWith("three ")), false);
  assertEquals(tsserver["src/constructs.ts"]!.some((l) => l.startsWith("a 14 ")), true);
  const expressions = tsserver["src/expressions.ts"]!;
  assertEquals(expressions.some((l) => l.startsWith("copy/<unknown> 7 ")), true);
  assertEquals(expressions.some((l) => l.startsWith("default/start/local ")), true);
  assertEquals(expressions.some((l) => l.startsWith("write/")), false); // no empty <function>
  assertEquals(expressions.some((l) => l.startsWith("flags/ignore 7 ")), true);
  assertEquals(expressions.some((l) => l.startsWith("flags/check 6 ")), true);
  for (const file of FILES) assertEquals(native[file], tsserver[file], file);
});
