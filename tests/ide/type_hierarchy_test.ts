/**
 * type_hierarchy on real servers: gopls (Go) answers supertypes and subtypes to a depth;
 * typescript-language-server offers no type hierarchy and gets a clear error.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { typeHierarchy } from "../../src/tools/ide/type_hierarchy.ts";

const HAS_GOPLS = hasServer("gopls", ["version"]);
const HAS_TS = hasServer("typescript-language-server");

interface Node {
  name?: string;
  symbol?: string;
  file: string;
  line: number;
  supertypes?: Node[];
  subtypes?: Node[];
}

Deno.test({
  name: "type_hierarchy on Go (gopls): supertypes and subtypes to a depth",
  ignore: skipUnless(HAS_GOPLS, "gopls"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "go.mod": "module shapes\n\ngo 1.21\n",
    "shapes.go": "package shapes\n\ntype Shape interface {\n\tArea() float64\n}\n\n" +
      "type Round interface {\n\tShape\n\tRadius() float64\n}\n\n" +
      "type Circle struct{ R float64 }\n\n" +
      "func (c Circle) Area() float64   { return 3 * c.R * c.R }\n" +
      "func (c Circle) Radius() float64 { return c.R }\n",
  });
  const down = JSON.parse(
    await h.call(typeHierarchy, {
      relative_path: "shapes.go",
      name_path: "Shape",
      direction: "sub",
      depth: 2,
    }),
  ) as Node;
  assertEquals(down.symbol, "Shape");
  assertEquals(down.line, 3);
  const subs = (down.subtypes ?? []).map((n) => n.name).sort();
  assertEquals(subs, ["Circle", "Round"]);
  assertEquals(down.supertypes, undefined);

  const up = JSON.parse(
    await h.call(typeHierarchy, {
      relative_path: "shapes.go",
      line: 12,
      column: 6,
      direction: "super",
      depth: 1,
    }),
  ) as Node;
  assertEquals(up.symbol, "Circle");
  assertEquals((up.supertypes ?? []).map((n) => n.name).sort(), ["Round", "Shape"]);
  await h.session.dispose();
});

Deno.test({
  name: "type_hierarchy on TypeScript: not supported, said plainly",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "tsconfig.json": "{}",
    "a.ts": "export class A {}\nexport class B extends A {}\n",
  });
  const result = await h.run(typeHierarchy, { relative_path: "a.ts", name_path: "B" });
  assertEquals(result.isError, true);
  assertStringIncludes(result.text, "Type hierarchy is not supported by the typescript");
  await h.session.dispose();
});
