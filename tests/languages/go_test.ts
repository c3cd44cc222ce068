/**
 * Go through MCP on real gopls and the go toolchain: fixtures/go/shapes (an interface, two
 * implementations, one failing test) for the symbolic and IDE tools, edits and test_project;
 * fixtures/go/broken (a missing import) for check_project with a fix executed by id.
 * @module
 */
import { flattenReferences } from "../helpers/symbols.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";

const available = hasServer("gopls", ["version"]) && hasServer("go", ["version"]);

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

const names = (text: string) => (JSON.parse(text) as Sym[]).map((s) => s.name_path);

Deno.test({
  name: "go: symbolic and IDE tools, edits, diagnostics and tests on gopls",
  ignore: skipUnless(available, "Go language tests (gopls, go)"),
  async fn(t) {
    await using s = await langSession("go/shapes", { config: { included_tools: IDE_TOOLS } });

    await t.step("get_symbols_overview names methods by receiver", async () => {
      const text = await s.ok("get_symbols_overview", { relative_path: "square.go" });
      // Grouped by kind as Serena 1.7/2.1 answers.
      assertEquals(
        text,
        '{"Struct":["Square"],"Method":["(Square).Area","(Square).Name"],"Function":["Describe"]}',
      );
    });

    await t.step("find_symbol by name path, with body", async () => {
      const found = JSON.parse(
        await s.ok("find_symbol", {
          name_path_pattern: "(Circle).Area",
          include_body: true,
        }),
      ) as Sym[];
      assertEquals(found.map((x) => [x.name_path, x.relative_path]), [[
        "(Circle).Area",
        "circle.go",
      ]]);
      assertEquals(
        found[0]!.body,
        "func (c Circle) Area() float64 {\n\treturn 3 * c.Radius * c.Radius\n}",
      );
      assertEquals(names(await s.ok("find_symbol", { name_path_pattern: "Shape/Name" })), [
        "Shape/Name",
      ]);
    });

    await t.step("find_referencing_symbols of an interface method", async () => {
      const text = await s.ok("find_referencing_symbols", {
        name_path: "Shape/Area",
        relative_path: "shape.go",
      });
      const refs = flattenReferences(text);
      assertEquals(refs.map((r) => `${r.relative_path}:${r.name_path}`).sort(), [
        "shape.go:TotalArea",
        "shapes_test.go:TestCircleArea",
        "shapes_test.go:TestSquareArea",
      ]);
    });

    await t.step("find_implementations of the interface", async () => {
      const text = await s.ok("find_implementations", {
        name_path: "Shape",
        relative_path: "shape.go",
      });
      const impls = JSON.parse(text) as Sym[];
      assertEquals(impls.map((i) => `${i.relative_path}:${i.name_path}`), [
        "circle.go:Circle",
        "square.go:Square",
      ]);
    });

    await t.step("goto_definition, type_definition, hover, completions", async () => {
      // shape.go line 14: `\t\ttotal += item.Area()`: `item` at column 12, `Area` at 17.
      assertEquals(
        JSON.parse(
          await s.ok("goto_definition", { relative_path: "shape.go", line: 14, column: 17 }),
        ),
        { found: true, file: "shape.go", line: 6, column: 2, preview: "Area() float64" },
      );
      const typeDef = JSON.parse(
        await s.ok("type_definition", { relative_path: "shape.go", line: 14, column: 12 }),
      );
      assertEquals([typeDef.file, typeDef.line, typeDef.preview], [
        "shape.go",
        5,
        "type Shape interface {",
      ]);
      const hover = JSON.parse(
        await s.ok("hover", { relative_path: "shape.go", name_path: "TotalArea" }),
      );
      assertEquals(hover.contents, "func TotalArea(items []Shape) float64");
      assertStringIncludes(hover.documentation, "TotalArea adds up the areas of all shapes.");
      const completions = JSON.parse(
        await s.ok("completions", { relative_path: "shape.go", line: 14, column: 17 }),
      );
      assertEquals(completions.completions.map((c: { label: string }) => c.label), [
        "Area",
        "Name",
      ]);
    });

    await t.step("call_hierarchy and signature_help", async () => {
      const calls = JSON.parse(
        await s.ok("call_hierarchy", {
          relative_path: "shape.go",
          name_path: "TotalArea",
          direction: "incoming",
        }),
      );
      assertEquals(
        calls.incoming.map((c: { name: string; file: string }) => [c.name, c.file]),
        [["TestTotalArea", "shapes_test.go"]],
      );
      // shapes_test.go line 19: `\t\tt.Errorf("total = %v, want 3", got)`, on `got`.
      const help = JSON.parse(
        await s.ok("signature_help", { relative_path: "shapes_test.go", line: 19, column: 37 }),
      );
      assertEquals([help.found, help.activeParameter], [true, 1]);
      assertStringIncludes(help.signatures[0].label, "Errorf(format string, args ...any)");
    });

    await t.step("rename_symbol preview, then applied across files", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "Describe",
          relative_path: "square.go",
          new_name: "Label",
          preview: true,
        }),
      );
      assertEquals([preview.totalChanges, preview.applied], [2, false]);
      await s.ok("rename_symbol", {
        name_path: "TotalArea",
        relative_path: "shape.go",
        new_name: "SumAreas",
      });
      assertStringIncludes(await s.read("shape.go"), "func SumAreas(items []Shape) float64 {");
      assertStringIncludes(await s.read("shapes_test.go"), "if got := SumAreas([]Shape{");
    });

    await t.step("replace_symbol_body, insert_after_symbol, then tests pass", async () => {
      const before = JSON.parse(await s.ok("test_project"));
      assertEquals(before.ok, false);
      assertEquals([before.summary.passed, before.summary.failed], [2, 1]);
      assertEquals(
        before.runs[0].failures.map((f: { name: string; file: string }) => [f.name, f.file]),
        [
          ["TestSquareArea", "shapes_test.go"],
        ],
      );
      assertEquals(
        before.runs[0].failures[0].message,
        "shapes_test.go:13: square area = 12, want 9",
      );
      await s.ok("replace_symbol_body", {
        name_path: "(Square).Area",
        relative_path: "square.go",
        body: "func (s Square) Area() float64 {\n\treturn s.Side * s.Side\n}",
      });
      await s.ok("insert_after_symbol", {
        name_path: "Describe",
        relative_path: "square.go",
        body:
          "\n// Perimeter of the square.\nfunc (s Square) Perimeter() float64 {\n\treturn 4 * s.Side\n}\n",
      });
      assertEquals(
        JSON.parse(await s.ok("get_symbols_overview", { relative_path: "square.go" })),
        {
          Struct: ["Square"],
          Method: ["(Square).Area", "(Square).Name", "(Square).Perimeter"],
          Function: ["Describe"],
        },
      );
      const after = JSON.parse(await s.ok("test_project"));
      assertEquals([after.ok, after.summary.passed, after.summary.failed], [true, 3, 0]);
      const one = JSON.parse(await s.ok("test_project", { test_name: "TestCircleArea" }));
      assertEquals([one.ok, one.summary.passed], [true, 1]);
      assertEquals(one.runs[0].command, "go test -json ./... -run TestCircleArea");
    });

    await t.step("diagnostics follow an edit", async () => {
      assertEquals(await s.ok("get_diagnostics_for_file", { relative_path: "square.go" }), "{}");
      const text = await s.read("square.go");
      await s.write("square.go", text.replace("return shape.Name()", "return shape.Size()"));
      const after = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "square.go" }),
      );
      assertEquals(after["square.go"].Error.Describe.map((d: { message: string }) => d.message), [
        "shape.Size undefined (type Shape has no field or method Size)",
      ]);
      const check = JSON.parse(await s.ok("check_project"));
      assertEquals(check.ok, false);
      assertEquals(
        check.diagnostics.map((d: { file: string; line: number }) => [d.file, d.line]),
        [["square.go", 20]],
      );
    });

    await t.step("format_file: preview changes nothing, then gofmt formats", async () => {
      const messy = "package shapes\n\nfunc   Messy( a int,b int ) int{\nreturn a+b}\n";
      await s.write("messy.go", messy);
      const preview = JSON.parse(
        await s.ok("format_file", { relative_path: "messy.go", preview: true }),
      );
      assertEquals([preview.formatted, preview.applied], [false, false]);
      assertStringIncludes(preview.diff, "+func Messy(a int, b int) int {");
      assertEquals(await s.read("messy.go"), messy);
      const applied = JSON.parse(await s.ok("format_file", { relative_path: "messy.go" }));
      assertEquals([applied.formatted, applied.applied], [true, true]);
      assertEquals(
        await s.read("messy.go"),
        "package shapes\n\nfunc Messy(a int, b int) int {\n\treturn a + b\n}\n",
      );
      const again = JSON.parse(await s.ok("format_file", { relative_path: "messy.go" }));
      assertEquals([again.formatted, again.changes, again.applied], [true, 0, false]);
    });
  },
});

Deno.test({
  name: "go: check_project with fixes, executed by id, then clean",
  ignore: skipUnless(available, "Go language tests (gopls, go)"),
  async fn() {
    await using s = await langSession("go/broken", { config: { included_tools: IDE_TOOLS } });
    const check = JSON.parse(await s.ok("check_project", { include_fixes: true }));
    assertEquals(check.ok, false);
    assertEquals(check.diagnostics.length, 1);
    const diagnostic = check.diagnostics[0];
    assertEquals([diagnostic.file, diagnostic.line, diagnostic.message], [
      "main.go",
      7,
      "undefined: strings",
    ]);
    const fix = diagnostic.available_fixes.find((f: { title: string }) =>
      f.title.includes('"strings"')
    );
    assert(fix, JSON.stringify(diagnostic.available_fixes));
    await s.ok("execute_code_action", { action_id: fix.id });
    assertStringIncludes(await s.read("main.go"), '"strings"');
    const clean = JSON.parse(await s.ok("check_project"));
    assertEquals([clean.ok, clean.summary.error], [true, 0]);
    assertEquals(await s.ok("get_diagnostics_for_file", { relative_path: "main.go" }), "{}");
  },
});
