/** Unit tests of Serena's containing-symbol rule for references (containing_symbol.ts). */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { containerFinder, referenceContainer } from "./containing_symbol.ts";
import { namePathOf, type SymbolNode } from "./model.ts";

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

/** The rule as written (every symbol visited for every position), to compare the finder with. */
function bruteForce(roots: readonly SymbolNode[], pos: { line: number; character: number }) {
  const candidate = (n: SymbolNode) =>
    n.kind === 13 || n.kind === 14 ||
    ([1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 19, 23].includes(n.kind) &&
      n.range.start.line !== n.range.end.line);
  let best: SymbolNode | null = null;
  const visit = (nodes: readonly SymbolNode[]) => {
    for (const n of nodes) {
      const { start, end } = n.range;
      const inside = pos.line >= start.line && pos.line <= end.line &&
        (pos.line !== start.line || pos.character >= start.character);
      if (candidate(n) && inside && (best === null || start.line > best.range.start.line)) {
        best = n;
      }
      visit(n.children);
    }
  };
  visit(roots);
  return best;
}

Deno.test("reference container: the finder agrees with the rule on generated trees", () => {
  // A small deterministic generator (LCG): nested ranges, same-line siblings and one-liners.
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const kinds = [5, 6, 12, 13, 14, 11, 8, 9, 2, 19, 23, 26];
  const build = (from: number, to: number, depth: number): SymbolNode[] => {
    const out: SymbolNode[] = [];
    let line = from;
    while (line <= to && out.length < 4) {
      const start = line + rand(3);
      if (start > to) break;
      const end = Math.min(to, start + rand(6));
      const kids = depth < 3 && end > start ? build(start, end, depth + 1) : [];
      out.push(
        node(`s${rand(1000)}`, kinds[rand(kinds.length)]!, [start, rand(8)], [end, 4], kids),
      );
      line = rand(4) === 0 ? start : end + 1; // sometimes a sibling on the same line
    }
    return out;
  };
  let compared = 0;
  for (let t = 0; t < 300; t++) {
    const roots = build(0, 40, 0);
    const finder = containerFinder(roots);
    for (let line = 0; line <= 42; line++) {
      for (const character of [0, 3, 9]) {
        const pos = { line, character };
        assertEquals(finder(pos), bruteForce(roots, pos), `tree ${t} at ${line}:${character}`);
        compared++;
      }
    }
  }
  assertEquals(compared, 300 * 43 * 3);
});
