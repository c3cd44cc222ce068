/** Where the symbol index finds tree-sitter's WASM files, and that each grammar loads. */
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { grammarPath, runtimePath } from "./grammar_files.ts";
import { GRAMMAR_IDS } from "./grammars.ts";
import { parseDeclarations } from "./parser.ts";

Deno.test("grammar files: the runtime and every grammar are files in their npm packages", () => {
  assert(Deno.statSync(runtimePath()).isFile, runtimePath());
  for (const id of GRAMMAR_IDS) assert(Deno.statSync(grammarPath(id)).isFile, grammarPath(id));
});

Deno.test("grammar files: each grammar loads when first needed and parses", async () => {
  const samples: Record<string, string> = {
    typescript: "export class A { m(): void {} }\n",
    tsx: "export function A() { return <div />; }\n",
    javascript: "function A() {}\n",
    python: "def A():\n    pass\n",
    rust: "fn A() {}\n",
    go: "package p\nfunc A() {}\n",
    c: "int A(void) { return 0; }\n",
    cpp: "int A() { return 0; }\n",
    bash: "A() { :; }\n",
    java: "class A { void m() {} }\n",
  };
  for (const id of GRAMMAR_IDS) {
    const symbols = await parseDeclarations(samples[id]!, id);
    assertEquals(symbols[0]?.[0], "A", id);
  }
});
