/**
 * get_symbol_info and find_symbol_usages against the real servers on copies of
 * fixtures/typescript and fixtures/python, checked against what the fixtures contain (the same
 * truth as the find_referencing_symbols tests: 19 references to Circle, 4 of them imports).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  linkTypeScript7,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findSymbolUsages, getSymbolInfo } from "../../src/tools/symbols/get_symbol_info.ts";

const HAS_PY = hasServer("pyright-langserver");

// deno-lint-ignore no-explicit-any
type Json = any;

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `get_symbol_info and find_symbol_usages on TypeScript (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree("typescript"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    const json = async (tool: Parameters<typeof h.call>[0], args: Record<string, unknown>) =>
      JSON.parse(await h.call(tool, args));

    await t.step("a class by name alone: location, hover, members, source", async () => {
      const info = await json(getSymbolInfo, { symbol_name: "Circle" });
      const { definition_code: code, ...rest } = info;
      assertEquals(rest, {
        project: "project",
        symbol: "Circle",
        name_path: "Circle",
        kind: "Class",
        file_path: "src/shapes.ts",
        line: 9,
        column: 14,
        position: { start_line: 9, end_line: 25 },
        signature: "class Circle",
        members: [
          "name (Property)",
          "constructor (Constructor)",
          "radius (Property)",
          "area (Method)",
          "perimeter (Method)",
          "unit (Method)",
        ],
      });
      assert(code.startsWith("export class Circle implements Shape {\n"), code);
      assert(code.endsWith("    return new Circle(1);\n  }\n}"), code);
    });

    await t.step("a method by name path; overloads as one symbol", async () => {
      const area = await json(getSymbolInfo, { symbol_name: "Circle/area" });
      assertEquals([area.kind, area.file_path, area.line, area.column], [
        "Method",
        "src/shapes.ts",
        14,
        3,
      ]);
      assertEquals(area.signature, "(method) Circle.area(): number");
      assertEquals(
        area.definition_code,
        "  area(): number {\n    return Math.PI * this.radius * this.radius;\n  }",
      );
      const scale = await json(getSymbolInfo, { symbol_name: "scale" });
      assertEquals([scale.kind, scale.file_path, scale.overloads], [
        "Function",
        "src/geometry.ts",
        4,
      ]);
      assertEquals(scale.position, { start_line: 4, end_line: 11 });
      assertEquals(
        scale.definition_code.split("\n").filter((l: string) =>
          l.startsWith("export function scale")
        )
          .length,
        4,
      );
    });

    await t.step("an ambiguous name lists the candidates with their files", async () => {
      const area = await json(getSymbolInfo, { symbol_name: "area" });
      assertEquals(area.ambiguous, true);
      assertEquals(area.candidates, [
        { name_path: "Shape/area", kind: "Method", file_path: "src/shapes.ts", line: 5 },
        { name_path: "Circle/area", kind: "Method", file_path: "src/shapes.ts", line: 14 },
        { name_path: "Square/area", kind: "Method", file_path: "src/shapes.ts", line: 32 },
      ]);
      assertStringIncludes(area.note, "Pass file_hint");
      const usages = await json(findSymbolUsages, { symbol_name: "area" });
      assertEquals(usages.candidates.length, 3);
    });

    await t.step(
      "file_hint: a folder, a partial name, no match there, no file at all",
      async () => {
        const inSrc = await json(getSymbolInfo, { symbol_name: "ShapeRegistry", file_hint: "src" });
        assertEquals(inSrc.file_path, "src/registry.ts");
        const partial = await json(getSymbolInfo, {
          symbol_name: "circles",
          file_hint: "registry",
        });
        assertEquals([partial.name_path, partial.file_path], [
          "ShapeRegistry/circles",
          "src/registry.ts",
        ]);
        const elsewhere = await json(getSymbolInfo, {
          symbol_name: "Circle",
          file_hint: "main.ts",
        });
        assertEquals(elsewhere.file_path, "src/shapes.ts");
        assertStringIncludes(elsewhere.note, "found elsewhere");
        const none = await h.run(getSymbolInfo, { symbol_name: "Circle", file_hint: "nowhere.ts" });
        assert(none.isError);
        assertStringIncludes(
          none.text,
          "No file of project 'project' matches file_hint 'nowhere.ts'",
        );
      },
    );

    await t.step("unknown names: suggestions when something contains the name", async () => {
      const typo = await h.run(getSymbolInfo, { symbol_name: "Circel" });
      assert(typo.isError);
      assertStringIncludes(typo.text, "No symbol 'Circel' in project 'project'");
      const part = await h.run(findSymbolUsages, { symbol_name: "Circ" });
      assert(part.isError);
      assertStringIncludes(part.text, "Symbols containing it: Circle (src/shapes.ts)");
    });

    await t.step(
      "find_symbol_usages: 19 usages of Circle in 5 files, grouped, with previews",
      async () => {
        const usages = await json(findSymbolUsages, { symbol_name: "Circle" });
        assertEquals([usages.kind, usages.total, usages.file_count], ["Class", 19, 5]);
        assertEquals(usages.defined_at, { file_path: "src/shapes.ts", line: 9, column: 14 });
        assertEquals(usages.files.map((f: Json) => [f.file, f.usages.length]), [
          ["src/broken.ts", 2],
          ["src/geometry.ts", 7],
          ["src/main.ts", 4],
          ["src/registry.ts", 4],
          ["src/shapes.ts", 2],
        ]);
        const all = usages.files.flatMap((f: Json) => f.usages);
        assertEquals(all.filter((u: Json) => u.import).length, 4, "the 4 import statements");
        const registry = usages.files.find((f: Json) => f.file === "src/registry.ts");
        assertEquals(registry.usages[1], {
          line: 15,
          column: 14,
          preview: "circles(): Circle[] {",
          in: "ShapeRegistry/circles",
        });
        const main = usages.files.find((f: Json) => f.file === "src/main.ts");
        assertEquals(main.usages.map((u: Json) => [u.line, u.in ?? "import"]), [
          [4, "import"],
          [8, "main"],
          [9, "main"],
          [13, "main"],
        ]);
      },
    );

    await t.step("find_symbol_usages: a method and an overloaded function", async () => {
      const add = await json(findSymbolUsages, { symbol_name: "ShapeRegistry/add" });
      assertEquals([add.total, add.files[0].file], [4, "src/main.ts"]);
      assert(add.files[0].usages.every((u: Json) => u.in === "main"));
      const scale = await json(findSymbolUsages, { symbol_name: "scale" });
      assertEquals(scale.files, [{
        file: "src/main.ts",
        usages: [
          {
            line: 2,
            column: 19,
            preview: 'import { largest, scale, totalArea } from "./geometry.ts";',
            import: true,
          },
          { line: 9, column: 23, preview: "const big: Circle = scale(small, 3);", in: "main" },
        ],
      }]);
    });

    await t.step("max_answer_chars: shorter forms first, then the limit message", async () => {
      const short = await h.call(findSymbolUsages, {
        symbol_name: "Circle",
        max_answer_chars: 1050,
      });
      assertStringIncludes(short, '"total":19');
      assertStringIncludes(short, "(previews left out to fit max_answer_chars)");
      assert(!short.includes('"preview":'), short);
      const tiny = await h.call(getSymbolInfo, { symbol_name: "Circle", max_answer_chars: 10 });
      assertMatch(tiny, /^The answer is too long/);
    });

    await disposeAndCheck(h);
  });
}

Deno.test({
  name: "get_symbol_info and find_symbol_usages on Python (pyright)",
  ignore: skipUnless(HAS_PY, "pyright"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness(await fixtureTree("python"));
  const json = async (tool: Parameters<typeof h.call>[0], args: Record<string, unknown>) =>
    JSON.parse(await h.call(tool, args));
  const area = await json(getSymbolInfo, { symbol_name: "area" });
  assertEquals(area.candidates.map((c: Json) => `${c.file_path}:${c.name_path}`), [
    "shapes/base.py:Shape/area",
    "shapes/circle.py:Circle/area",
    "shapes/square.py:Square/area",
  ]);
  const circleArea = await json(getSymbolInfo, { symbol_name: "area", file_hint: "circle.py" });
  assertEquals([circleArea.name_path, circleArea.kind, circleArea.line], [
    "Circle/area",
    "Method",
    15,
  ]);
  assertMatch(circleArea.signature, /def area\(self.*\) -> float/);
  const cls = await json(getSymbolInfo, { symbol_name: "Square", file_hint: "shapes/square" });
  assertEquals([cls.kind, cls.file_path], ["Class", "shapes/square.py"]);
  assertStringIncludes(cls.documentation, "A square with a side.");
  const add = await json(findSymbolUsages, { symbol_name: "ShapeRegistry/add" });
  assertEquals([add.total, add.files.map((f: Json) => f.file)], [4, ["app.py"]]);
  assertEquals(add.files[0].usages.map((u: Json) => [u.line, u.in]), [
    [10, "main"],
    [11, "main"],
    [12, "main"],
    [13, "main"],
  ]);
  await disposeAndCheck(h);
});
