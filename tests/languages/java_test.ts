/**
 * Java through MCP on real Eclipse JDT LS: fixtures/java/shapes (an interface, two
 * implementations and a caller in a Maven source layout, described to Eclipse by its
 * `.project`/`.classpath`, which JDT LS imports without a network) for the symbolic and IDE
 * tools, edits and diagnostics. JDT LS names methods with their parameter types
 * (`area()`, `totalArea(List<Shape>)`), and name paths carry them.
 * @module
 */
import { flattenReferences } from "../helpers/symbols.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { jdtlsWorkspace } from "../../src/lsp/registry.ts";
import { java21Env } from "../helpers/java.ts";

const javaEnv = java21Env();
const available = hasServer("jdtls") && javaEnv !== null;

const J = "src/main/java/demo";

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

Deno.test({
  name: "java: symbolic and IDE tools, edits and diagnostics on JDT LS",
  ignore: skipUnless(available, "Java language tests (jdtls and a Java 21+ runtime)"),
  async fn(t) {
    let root = "";
    try {
      await using s = await langSession("java/shapes", {
        config: { included_tools: IDE_TOOLS },
        env: javaEnv ?? {},
      });
      root = s.root;

      await t.step("get_symbols_overview", async () => {
        assertEquals(
          await s.ok("get_symbols_overview", { relative_path: `${J}/Circle.java` }),
          '{"Package":["demo"],"Class":[{"Circle":{"Constructor":["Circle(double)"],' +
            '"Method":["area()","name()"]}}]}',
        );
      });

      await t.step("find_symbol by name path, with body, and by substring", async () => {
        const found = JSON.parse(
          await s.ok("find_symbol", { name_path_pattern: "Circle/area()", include_body: true }),
        ) as Sym[];
        assertEquals(found.map((x) => [x.name_path, x.kind, x.relative_path]), [
          ["Circle/area()", "Method", `${J}/Circle.java`],
        ]);
        assertEquals(
          found[0]!.body,
          "@Override\n    public double area() {\n        return 3 * radius * radius;\n    }",
        );
        const all = JSON.parse(
          await s.ok("find_symbol", { name_path_pattern: "area", substring_matching: true }),
        ) as Sym[];
        assertEquals(all.map((x) => x.name_path), [
          "Circle/area()",
          "Shape/area()",
          "Square/area()",
        ]);
      });

      await t.step("find_referencing_symbols of an interface method", async () => {
        const refs = flattenReferences(
          await s.ok("find_referencing_symbols", {
            name_path: "Shape/area()",
            relative_path: `${J}/Shape.java`,
          }),
        );
        assertEquals(refs.map((r) => `${r.relative_path}:${r.name_path}`), [
          `${J}/App.java:App/totalArea(List<Shape>)`,
        ]);
      });

      await t.step("find_implementations of the interface", async () => {
        const impls = JSON.parse(
          await s.ok("find_implementations", {
            name_path: "Shape",
            relative_path: `${J}/Shape.java`,
          }),
        ) as Sym[];
        assertEquals(impls.map((i) => `${i.relative_path}:${i.name_path}`), [
          `${J}/Circle.java:Circle`,
          `${J}/Square.java:Square`,
        ]);
      });

      await t.step("goto_definition and hover", async () => {
        // App.java line 10: `            total += shape.area();`, `area` at column 28.
        assertEquals(
          JSON.parse(
            await s.ok("goto_definition", { relative_path: `${J}/App.java`, line: 10, column: 28 }),
          ),
          {
            found: true,
            file: `${J}/Shape.java`,
            line: 6,
            column: 12,
            preview: "double area();",
          },
        );
        const hover = JSON.parse(
          await s.ok("hover", {
            relative_path: `${J}/App.java`,
            name_path: "App/totalArea(List<Shape>)",
          }),
        );
        assertEquals(hover.contents, "double demo.App.totalArea(List<Shape> shapes)");
        assertStringIncludes(hover.documentation, "Adds up the areas of all shapes.");
      });

      await t.step("type_definition, completions and call_hierarchy", async () => {
        // App.java line 10: `            total += shape.area();`, `shape` at column 22.
        const typeDef = JSON.parse(
          await s.ok("type_definition", { relative_path: `${J}/App.java`, line: 10, column: 22 }),
        );
        assertEquals([typeDef.file, typeDef.line, typeDef.preview], [
          `${J}/Shape.java`,
          4,
          "public interface Shape {",
        ]);
        const completions = JSON.parse(
          await s.ok("completions", { relative_path: `${J}/App.java`, line: 10, column: 28 }),
        );
        const labels = completions.completions.map((c: { label: string }) => c.label);
        assert(labels.includes("area") && labels.includes("name"), JSON.stringify(labels));
        const calls = JSON.parse(
          await s.ok("call_hierarchy", {
            relative_path: `${J}/App.java`,
            name_path: "App/totalArea(List<Shape>)",
            direction: "incoming",
          }),
        );
        assertEquals(
          calls.incoming.map((c: { name: string; file: string }) => [c.name, c.file]),
          [["main(String[]) : void", `${J}/App.java`]],
        );
      });

      await t.step("rename_symbol applied to the declaration and its call", async () => {
        await s.ok("rename_symbol", {
          name_path: "App/totalArea(List<Shape>)",
          relative_path: `${J}/App.java`,
          new_name: "sumAreas",
        });
        const app = await s.read(`${J}/App.java`);
        assertStringIncludes(app, "public static double sumAreas(List<Shape> shapes) {");
        assertStringIncludes(app, "System.out.println(sumAreas(shapes));");
        assertEquals(app.includes("totalArea"), false);
      });

      await t.step("replace_symbol_body", async () => {
        const body =
          "@Override\n    public double area() {\n        return Math.PI * radius * radius;\n    }";
        await s.ok("replace_symbol_body", {
          name_path: "Circle/area()",
          relative_path: `${J}/Circle.java`,
          body,
        });
        assertStringIncludes(
          await s.read(`${J}/Circle.java`),
          "        return Math.PI * radius * radius;\n",
        );
        const found = JSON.parse(
          await s.ok("find_symbol", { name_path_pattern: "Circle/area()", include_body: true }),
        ) as Sym[];
        assertEquals(found.map((x) => x.body), [body]);
      });

      await t.step("insert_after_symbol", async () => {
        await s.ok("insert_after_symbol", {
          relative_path: `${J}/Square.java`,
          name_path: "Square/name()",
          body: "\n    public double perimeter() {\n        return 4 * side;\n    }\n",
        });
        assertEquals(
          await s.ok("get_symbols_overview", { relative_path: `${J}/Square.java` }),
          '{"Package":["demo"],"Class":[{"Square":{"Constructor":["Square(double)"],' +
            '"Method":["area()","name()","perimeter()"]}}]}',
        );
      });

      await t.step("diagnostics follow an edit", async () => {
        assertEquals(
          await s.ok("get_diagnostics_for_file", { relative_path: `${J}/Square.java` }),
          "{}",
        );
        const text = await s.read(`${J}/Square.java`);
        await s.write(`${J}/Square.java`, text.replace("side * side", "side * sides"));
        const after = JSON.parse(
          await s.ok("get_diagnostics_for_file", { relative_path: `${J}/Square.java` }),
        );
        assertEquals(
          after[`${J}/Square.java`].Error["Square/area()"].map((d: { message: string }) =>
            d.message
          ),
          ["sides cannot be resolved to a variable"],
        );
      });
      await t.step("format_file", async () => {
        await s.write(
          `${J}/Messy.java`,
          "package demo;\nclass Messy {\nint   add( int a,int b ){return a+b;}\n}\n",
        );
        const applied = JSON.parse(await s.ok("format_file", { relative_path: `${J}/Messy.java` }));
        assertEquals([applied.formatted, applied.applied], [true, true]);
        assertEquals(
          await s.read(`${J}/Messy.java`),
          "package demo;\n\nclass Messy {\n    int add(int a, int b) {\n        return a + b;\n    }\n}\n",
        );
      });
    } finally {
      // JDT LS's workspace lives in the user's cache (outside the project): remove this run's.
      if (root) await Deno.remove(jdtlsWorkspace(root), { recursive: true }).catch(() => {});
    }
  },
});
