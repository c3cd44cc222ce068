/**
 * insert_after_symbol and insert_before_symbol leave the blank lines Serena leaves: the files
 * below are Serena 2.1's results of the same calls on the same fixtures, byte for byte (one
 * blank line next to a function, method, class, interface or struct; the blank lines that
 * followed the symbol stay after the inserted body).
 * @module
 */
import { assertEquals } from "../helpers/assert.ts";
import {
  hasServer,
  hasTypeScriptGeneration,
  linkTypeScript7,
  skipUnless,
  TS_GENERATIONS,
} from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import {
  insertAfterSymbol,
  insertBeforeSymbol,
} from "../../src/tools/symbols/replace_symbol_body.ts";

Deno.test({
  name: "inserts as Serena 2.1 makes them, on the Python fixture (pyright)",
  ignore: skipUnless(hasServer("pyright-langserver"), "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python"));
  await t.step("after and before functions, a method and a class", async () => {
    assertEquals(
      await h.call(insertAfterSymbol, {
        "name_path": "radius_of",
        "relative_path": "broken.py",
        "body": "def diameter_of(circle: Circle) -> float:\n    return 2 * circle.radius",
      }),
      "OK",
    );
    assertEquals(
      await h.read("broken.py"),
      '"""A file with a type error, for diagnostics tests."""\nfrom shapes.circle import Circle\n\ncount: int = "three"\n\n\ndef radius_of(circle: Circle) -> float:\n    return circle.radius\n\ndef diameter_of(circle: Circle) -> float:\n    return 2 * circle.radius\n',
    );
    assertEquals(
      await h.call(insertBeforeSymbol, {
        "name_path": "radius_of",
        "relative_path": "broken.py",
        "body": "def helper() -> None:\n    pass",
      }),
      "OK",
    );
    assertEquals(
      await h.read("broken.py"),
      '"""A file with a type error, for diagnostics tests."""\nfrom shapes.circle import Circle\n\ncount: int = "three"\n\n\ndef helper() -> None:\n    pass\n\ndef radius_of(circle: Circle) -> float:\n    return circle.radius\n\ndef diameter_of(circle: Circle) -> float:\n    return 2 * circle.radius\n',
    );
    assertEquals(
      await h.call(insertAfterSymbol, {
        "name_path": "Circle/area",
        "relative_path": "shapes/circle.py",
        "body": "    def double(self) -> float:\n        return 2 * self.area()",
      }),
      "OK",
    );
    assertEquals(
      await h.read("shapes/circle.py"),
      '"""Circles."""\nimport math\n\nfrom shapes.base import Shape\n\n\nclass Circle(Shape):\n    """A circle with a radius."""\n\n    name = "circle"\n\n    def __init__(self, radius: float) -> None:\n        self.radius = radius\n\n    def area(self) -> float:\n        return math.pi * self.radius * self.radius\n\n    def double(self) -> float:\n        return 2 * self.area()\n\n    @classmethod\n    def unit(cls) -> "Circle":\n        return Circle(1.0)\n',
    );
    assertEquals(
      await h.call(insertBeforeSymbol, {
        "name_path": "Circle",
        "relative_path": "shapes/circle.py",
        "body": "PI = 3.14",
      }),
      "OK",
    );
    assertEquals(
      await h.read("shapes/circle.py"),
      '"""Circles."""\nimport math\n\nfrom shapes.base import Shape\n\n\nPI = 3.14\n\nclass Circle(Shape):\n    """A circle with a radius."""\n\n    name = "circle"\n\n    def __init__(self, radius: float) -> None:\n        self.radius = radius\n\n    def area(self) -> float:\n        return math.pi * self.radius * self.radius\n\n    def double(self) -> float:\n        return 2 * self.area()\n\n    @classmethod\n    def unit(cls) -> "Circle":\n        return Circle(1.0)\n',
    );
  });
  await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
});

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: `inserts as Serena 2.1 makes them, on the TypeScript fixture (${generation.name})`,
    ignore: skipUnless(hasTypeScriptGeneration(generation.typescript), generation.name),
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    await using h = await toolHarness(await fixtureTree("typescript"));
    if (generation.typescript === 7) await linkTypeScript7(h.root);
    await t.step("after a method and a function, before a function and a class", async () => {
      assertEquals(
        await h.call(insertAfterSymbol, {
          "name_path": "Circle/area",
          "relative_path": "src/shapes.ts",
          "body": "  double(): number {\n    return 2 * this.area();\n  }",
        }),
        "OK",
      );
      assertEquals(
        await h.read("src/shapes.ts"),
        '/** Shapes: an interface with two implementations. */\n\nexport interface Shape {\n  readonly name: string;\n  area(): number;\n  perimeter(): number;\n}\n\nexport class Circle implements Shape {\n  readonly name = "circle";\n\n  constructor(public readonly radius: number) {}\n\n  area(): number {\n    return Math.PI * this.radius * this.radius;\n  }\n\n  double(): number {\n    return 2 * this.area();\n  }\n\n  perimeter(): number {\n    return 2 * Math.PI * this.radius;\n  }\n\n  static unit(): Circle {\n    return new Circle(1);\n  }\n}\n\nexport class Square implements Shape {\n  readonly name = "square";\n\n  constructor(public readonly side: number) {}\n\n  area(): number {\n    return this.side * this.side;\n  }\n\n  perimeter(): number {\n    return 4 * this.side;\n  }\n}\n',
      );
      assertEquals(
        await h.call(insertAfterSymbol, {
          "name_path": "main",
          "relative_path": "src/main.ts",
          "body": "export function extra(): number {\n  return 1;\n}",
        }),
        "OK",
      );
      assertEquals(
        await h.read("src/main.ts"),
        '/** Entry point: uses every module. */\nimport { largest, scale, totalArea } from "./geometry.ts";\nimport { ShapeRegistry } from "./registry.ts";\nimport { Circle, Square } from "./shapes.ts";\n\nexport function main(): string {\n  const registry = new ShapeRegistry();\n  const small = new Circle(1);\n  const big: Circle = scale(small, 3);\n  registry.add("small", small);\n  registry.add("big", big);\n  registry.add("square", new Square(2));\n  registry.add("unit", Circle.unit());\n  const all = [small, big, new Square(4)];\n  const best = largest(all);\n  return `${totalArea(all)} ${best?.name ?? "none"} ${registry.circles().length}`;\n}\n\nexport function extra(): number {\n  return 1;\n}\n',
      );
      assertEquals(
        await h.call(insertBeforeSymbol, {
          "name_path": "main",
          "relative_path": "src/main.ts",
          "body": "export function first(): number {\n  return 0;\n}",
        }),
        "OK",
      );
      assertEquals(
        await h.read("src/main.ts"),
        '/** Entry point: uses every module. */\nimport { largest, scale, totalArea } from "./geometry.ts";\nimport { ShapeRegistry } from "./registry.ts";\nimport { Circle, Square } from "./shapes.ts";\n\nexport function first(): number {\n  return 0;\n}\n\nexport function main(): string {\n  const registry = new ShapeRegistry();\n  const small = new Circle(1);\n  const big: Circle = scale(small, 3);\n  registry.add("small", small);\n  registry.add("big", big);\n  registry.add("square", new Square(2));\n  registry.add("unit", Circle.unit());\n  const all = [small, big, new Square(4)];\n  const best = largest(all);\n  return `${totalArea(all)} ${best?.name ?? "none"} ${registry.circles().length}`;\n}\n\nexport function extra(): number {\n  return 1;\n}\n',
      );
      assertEquals(
        await h.call(insertBeforeSymbol, {
          "name_path": "Square",
          "relative_path": "src/shapes.ts",
          "body": "export class Tri {}",
        }),
        "OK",
      );
      assertEquals(
        await h.read("src/shapes.ts"),
        '/** Shapes: an interface with two implementations. */\n\nexport interface Shape {\n  readonly name: string;\n  area(): number;\n  perimeter(): number;\n}\n\nexport class Circle implements Shape {\n  readonly name = "circle";\n\n  constructor(public readonly radius: number) {}\n\n  area(): number {\n    return Math.PI * this.radius * this.radius;\n  }\n\n  double(): number {\n    return 2 * this.area();\n  }\n\n  perimeter(): number {\n    return 2 * Math.PI * this.radius;\n  }\n\n  static unit(): Circle {\n    return new Circle(1);\n  }\n}\n\nexport class Tri {}\n\nexport class Square implements Shape {\n  readonly name = "square";\n\n  constructor(public readonly side: number) {}\n\n  area(): number {\n    return this.side * this.side;\n  }\n\n  perimeter(): number {\n    return 4 * this.side;\n  }\n}\n',
      );
    });
    await t.step("shutdown leaves no server process", () => disposeAndCheck(h));
  });
}
