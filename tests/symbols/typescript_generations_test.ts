/**
 * Both TypeScript server generations give the tools one outline: every file of
 * fixtures/typescript_outline (imports, re-exports, const and let, destructuring, enums,
 * namespaces, type aliases, accessors, signatures, overloads, object literals) has the same
 * symbol tree (names, kinds, ranges, selections, overload numbers) from typescript-language-server
 * as from TypeScript 7's own server after normalisation (src/symbols/typescript_native.ts).
 * @module
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasTypeScriptGeneration, linkTypeScript7, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { type SymbolNode, walkSymbols } from "../../src/symbols/model.ts";

const FILES = ["src/constructs.ts", "src/members.ts", "src/b.ts"];

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

async function outlines(typescript: 5 | 7): Promise<Record<string, string[]>> {
  await using h = await toolHarness(await fixtureTree("typescript_outline"));
  if (typescript === 7) await linkTypeScript7(h.root);
  const symbols = h.session.services(h.project).symbols;
  const out: Record<string, string[]> = {};
  for (const file of FILES) out[file] = outline((await symbols.fileSymbols(file)).roots);
  await h.session.dispose();
  return out;
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
  for (const file of FILES) assertEquals(native[file], tsserver[file], file);
});
