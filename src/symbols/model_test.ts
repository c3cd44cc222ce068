/**
 * The symbol model: both documentSymbol forms become one tree; compact cache encoding; bodies,
 * offsets and containing symbols. Pure logic with mock server answers.
 */
import type { SymbolInformation } from "../deps.ts";
import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import {
  bodyOf,
  buildSymbolTree,
  buildSymbolTreeSliced,
  containingSymbol,
  fileSymbol,
  fromCompact,
  namePathOf,
  symbolKindName,
  type SymbolNode,
  toCompact,
  walkSymbols,
} from "./model.ts";
import { lineStarts, offsetAt, positionAt } from "../edit/line_index.ts";

const TEXT = [
  "class Shape {", // 0
  "  area(): number {", // 1
  "    return 0;", // 2
  "  }", // 3
  "  area(x: number): number {", // 4
  "    return x;", // 5
  "  }", // 6
  "}", // 7
  "const top = helper();", // 8
  "function helper() {", // 9
  "  const local = 1;", // 10
  "  return local;", // 11
  "}", // 12
  "",
].join("\n");

function info(
  name: string,
  kind: number,
  from: [number, number],
  to: [number, number],
  containerName?: string,
): SymbolInformation {
  return {
    name,
    kind: kind as SymbolInformation["kind"],
    location: {
      uri: "file:///p/a.ts",
      range: {
        start: { line: from[0], character: from[1] },
        end: { line: to[0], character: to[1] },
      },
    },
    ...(containerName ? { containerName } : {}),
  };
}

Deno.test("symbol model: SymbolInformation nests by range containment", () => {
  const roots = buildSymbolTree(
    [
      info("helper", 12, [9, 0], [12, 1]),
      info("local", 13, [10, 8], [10, 17], "helper"),
      info("Shape", 5, [0, 0], [7, 1]),
      info("area", 6, [1, 2], [3, 3], "Shape"),
      info("area", 6, [4, 2], [6, 3], "Shape"),
      info("top", 14, [8, 6], [8, 20]),
    ],
    "a.ts",
    TEXT,
  );
  assertEquals([...walkSymbols(roots)].map(namePathOf), [
    "Shape",
    "Shape/area[0]",
    "Shape/area[1]",
    "top",
    "helper",
    "helper/local",
  ]);
  // Selection ranges are found in the text.
  const helper = roots.find((n) => n.name === "helper")!;
  assertEquals(helper.selectionRange, {
    start: { line: 9, character: 9 },
    end: { line: 9, character: 15 },
  });
  assertEquals(symbolKindName(helper.kind), "Function");
});

Deno.test("symbol model: SymbolInformation with name-only ranges nests by containerName", () => {
  const roots = buildSymbolTree(
    [
      info("Shape", 5, [0, 6], [0, 11]),
      info("area", 6, [1, 2], [1, 6], "Shape"),
      info("helper", 12, [9, 9], [9, 15]),
      info("orphan", 13, [10, 8], [10, 13], "Missing"),
    ],
    "a.ts",
  );
  assertEquals([...walkSymbols(roots)].map(namePathOf), [
    "Shape",
    "Shape/area",
    "helper",
    "orphan",
  ]);
});

Deno.test("symbol model: DocumentSymbol children are sorted and indexed per level", () => {
  const ds = (name: string, from: number, to: number, children: unknown[] = []) => ({
    name,
    kind: 6,
    range: { start: { line: from, character: 0 }, end: { line: to, character: 1 } },
    selectionRange: { start: { line: from, character: 0 }, end: { line: from, character: 1 } },
    children,
  });
  const roots = buildSymbolTree(
    [ds("A", 0, 10, [ds("f", 5, 6), ds("f", 1, 2), ds("g", 3, 4)]), ds("f", 11, 12)],
    "a.ts",
  );
  assertEquals([...walkSymbols(roots)].map(namePathOf), ["A", "A/f[0]", "A/g", "A/f[1]", "f"]);
  assertEquals(roots[0]!.children[0]!.range.start.line, 1);
  assertEquals(buildSymbolTree(null, "a.ts"), []);
  assertEquals(buildSymbolTree([], "a.ts"), []);
});

Deno.test("symbol model: compact encoding round-trips and rejects garbage", () => {
  const roots = buildSymbolTree(
    [
      info("Shape", 5, [0, 0], [7, 1]),
      info("area", 6, [1, 2], [3, 3], "Shape"),
      info("area", 6, [4, 2], [6, 3], "Shape"),
    ],
    "a.ts",
    TEXT,
  );
  const compact = JSON.parse(JSON.stringify(toCompact(roots)));
  const back = fromCompact(compact, "a.ts");
  assertEquals([...walkSymbols(back)].map(namePathOf), ["Shape", "Shape/area[0]", "Shape/area[1]"]);
  assertEquals(back[0]!.children[1]!.range, roots[0]!.children[1]!.range);
  assertEquals(back[0]!.children[1]!.selectionRange, roots[0]!.children[1]!.selectionRange);
  assertEquals(back[0]!.children[0]!.parent, back[0]);
  assertThrows(() => fromCompact([["x", 1]] as never, "a.ts"), "malformed");
});

Deno.test("symbol model: offsets, positions and bodies", () => {
  const starts = lineStarts(TEXT);
  assertEquals(offsetAt(TEXT, starts, { line: 1, character: 2 }), TEXT.indexOf("area"));
  // Past the end of a line: clamped to the line end.
  assertEquals(offsetAt(TEXT, starts, { line: 3, character: 99 }), TEXT.indexOf("\n  area(x"));
  assertEquals(offsetAt(TEXT, starts, { line: 99, character: 0 }), TEXT.length);
  assertEquals(positionAt(starts, TEXT.indexOf("helper()")), { line: 8, character: 12 });
  const roots = buildSymbolTree([info("helper", 12, [9, 0], [12, 1])], "a.ts", TEXT);
  assertEquals(
    bodyOf(roots[0]!, TEXT),
    "function helper() {\n  const local = 1;\n  return local;\n}",
  );
});

Deno.test("symbol model: containing symbol prefers definitions, else the outermost symbol", () => {
  const roots = buildSymbolTree(
    [
      info("Shape", 5, [0, 0], [7, 1]),
      info("area", 6, [4, 2], [6, 3], "Shape"),
      info("top", 14, [8, 6], [8, 20]),
      info("helper", 12, [9, 0], [12, 1]),
      info("local", 13, [10, 8], [10, 17], "helper"),
    ],
    "a.ts",
    TEXT,
  );
  const at = (line: number, character: number) => {
    const s = containingSymbol(roots, { line, character });
    return s ? namePathOf(s) : null;
  };
  assertEquals(at(5, 11), "Shape/area");
  assertEquals(at(8, 14), "top");
  // Inside a local variable of a function: the function.
  assertEquals(at(10, 10), "helper");
  assertEquals(at(13, 0), null);
  const file = fileSymbol("src/util.test.ts", TEXT);
  assertEquals(file.name, "util.test");
  assertEquals(symbolKindName(file.kind), "File");
  assertEquals(file.range.end, { line: 14, character: 0 });
  // Serena's end: the number of `\n`-separated lines, and the last one's length.
  assertEquals(fileSymbol("a.py", "x = 1").range.end, { line: 1, character: 5 });
  assertEquals(fileSymbol("a.py", "x\nyz").range.end, { line: 2, character: 2 });
  assertEquals(fileSymbol("a.py", "").range.end, { line: 1, character: 0 });
  assert(symbolKindName(99) === "Kind99");
});

Deno.test("buildSymbolTreeSliced: the same tree as buildSymbolTree, for thousands of roots", async () => {
  const range = (line: number, end = line) => ({
    start: { line, character: 0 },
    end: { line: end, character: 1 },
  });
  // Out of order, with overloads (same names) and children, more roots than one slice.
  const result = Array.from({ length: 5000 }, (_, i) => {
    const line = (i * 7919) % 5000 * 10;
    return {
      name: `f${i % 1500}`,
      kind: 12,
      range: range(line, line + 5),
      selectionRange: range(line),
      children: [
        { name: "inner", kind: 13, range: range(line + 2), selectionRange: range(line + 2) },
        { name: "inner", kind: 13, range: range(line + 1), selectionRange: range(line + 1) },
      ],
    };
  });
  const shape = (nodes: SymbolNode[]): unknown =>
    nodes.map((n) => [n.name, n.overloadIndex, n.range.start.line, shape(n.children)]);
  const whole = buildSymbolTree(result, "gen.ts");
  const sliced = await buildSymbolTreeSliced(result, "gen.ts");
  assertEquals(shape(sliced), shape(whole));
  assertEquals(sliced[0]!.children[0]!.parent, sliced[0]);
});
