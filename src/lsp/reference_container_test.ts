/** Unit tests of Serena's containing-symbol rule for references (reference_container.ts). */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { referenceContainer } from "./reference_container.ts";
import { namePathOf, type SymbolNode } from "./symbols.ts";

function node(
  name: string,
  kind: number,
  [sl, sc]: [number, number],
  [el, ec]: [number, number],
  children: SymbolNode[] = [],
): SymbolNode {
  const n: SymbolNode = {
    name,
    kind,
    overloadIndex: null,
    range: { start: { line: sl, character: sc }, end: { line: el, character: ec } },
    selectionRange: { start: { line: sl, character: sc }, end: { line: sl, character: sc } },
    relPath: "a.ts",
    parent: null,
    children,
  };
  for (const c of children) c.parent = n;
  return n;
}

Deno.test("reference container: variables, local constants, one-liners, file level", () => {
  const roots = [
    node("overload", 12, [0, 0], [0, 40]),
    node("run", 12, [1, 0], [5, 1], [node("found", 14, [2, 8], [2, 30])]),
    // pyright gives a variable its name's range only: the rest of its line still belongs to it.
    node("DEFAULT", 13, [6, 0], [6, 7]),
  ];
  const at = (line: number, character: number) => {
    const s = referenceContainer(roots, { line, character });
    return s ? namePathOf(s) : null;
  };
  assertEquals(at(0, 20), null); // a one-line function (an overload signature): file level
  assertEquals(at(2, 20), "run/found");
  assertEquals(at(3, 4), "run");
  assertEquals(at(6, 12), "DEFAULT");
  assertEquals(at(7, 0), null);
});
