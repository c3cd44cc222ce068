/**
 * Rust through MCP on real rust-analyzer and cargo, fixture fixtures/rust/traits (a trait, two
 * impls, a generic function, one failing unit test): the symbolic and IDE tools, edits,
 * diagnostics after an edit, check_project and test_project with structured failures.
 * @module
 */
import { flattenReferences } from "../helpers/symbols.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";

const available = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body_location: { start_line: number; end_line: number };
  body?: string;
}

const names = (text: string) => (JSON.parse(text) as Sym[]).map((s) => s.name_path);

Deno.test({
  name: "rust: symbolic and IDE tools, edits, check and test on rust-analyzer",
  ignore: skipUnless(available, "Rust language tests (rust-analyzer, cargo)"),
  async fn(t) {
    await using s = await langSession("rust/traits", { config: { included_tools: IDE_TOOLS } });

    await t.step("get_symbols_overview lists the trait, structs, impls and function", async () => {
      const text = await s.ok("get_symbols_overview", { relative_path: "src/shapes.rs" });
      // Grouped by kind as Serena 1.7/2.1 answers; rust-analyzer's impl blocks are Objects.
      assertEquals(
        text,
        '{"Interface":["Shape"],"Struct":["Circle","Square"],' +
          '"Object":["impl Shape for Circle","impl Shape for Square"],"Function":["describe"]}',
      );
    });

    await t.step("find_symbol by name path, with body", async () => {
      const text = await s.ok("find_symbol", {
        name_path_pattern: "impl Shape for Circle/area",
        include_body: true,
      });
      const found = JSON.parse(text) as Sym[];
      assertEquals(found.length, 1);
      assertEquals(found[0]!.relative_path, "src/shapes.rs");
      assertEquals(
        found[0]!.body,
        "fn area(&self) -> f64 {\n        3.0 * self.radius * self.radius\n    }",
      );
      const areas = await s.ok("find_symbol", {
        name_path_pattern: "area",
        relative_path: "src/shapes.rs",
      });
      assertEquals(names(areas), [
        "Shape/area",
        "impl Shape for Circle/area",
        "impl Shape for Square/area",
      ]);
    });

    await t.step("find_referencing_symbols of the trait method", async () => {
      const text = await s.ok("find_referencing_symbols", {
        name_path: "Shape/area",
        relative_path: "src/shapes.rs",
      });
      // The implementing methods' own names are left out, as Serena 2.1 leaves them out.
      assertEquals(flattenReferences(text).map((r) => r.name_path).sort(), [
        "tests/circle_area",
        "tests/square_area",
        "total_area",
      ]);
    });

    await t.step("find_implementations of the trait", async () => {
      const text = await s.ok("find_implementations", {
        name_path: "Shape",
        relative_path: "src/shapes.rs",
      });
      assertEquals(names(text), ["impl Shape for Circle", "impl Shape for Square"]);
    });

    await t.step("goto_definition, type_definition, hover", async () => {
      // lib.rs line 9: `    items.iter().map(|s| s.area()).sum()`; `s` at column 26, `area` at 28.
      const def = JSON.parse(
        await s.ok("goto_definition", {
          relative_path: "src/lib.rs",
          line: 9,
          column: 28,
        }),
      );
      assertEquals(def, {
        found: true,
        file: "src/shapes.rs",
        line: 3,
        column: 8,
        preview: "fn area(&self) -> f64;",
      });
      const typeDef = JSON.parse(
        await s.ok("type_definition", {
          relative_path: "src/lib.rs",
          line: 9,
          column: 26,
        }),
      );
      assertEquals([typeDef.file, typeDef.line, typeDef.preview], [
        "src/shapes.rs",
        2,
        "pub trait Shape {",
      ]);
      const hover = JSON.parse(
        await s.ok("hover", {
          relative_path: "src/shapes.rs",
          name_path: "describe",
        }),
      );
      assertStringIncludes(hover.contents, "pub fn describe(shape: &dyn Shape) -> String");
      assertEquals(hover.documentation, "Names a shape.");
    });

    await t.step("call_hierarchy, signature_help, completions", async () => {
      const calls = JSON.parse(
        await s.ok("call_hierarchy", {
          relative_path: "src/lib.rs",
          name_path: "total_area",
          direction: "incoming",
        }),
      );
      assertEquals(
        calls.incoming.map((c: { name: string; call_lines: number[] }) => [c.name, c.call_lines]),
        [["total", [29]]],
      );
      // lib.rs line 29: `        assert_eq!(total_area(&[&Circle { radius: 1.0 }]), 3.0);`
      const help = JSON.parse(
        await s.ok("signature_help", {
          relative_path: "src/lib.rs",
          line: 29,
          column: 32,
        }),
      );
      assertEquals(help.found, true);
      assertStringIncludes(help.signatures[0].label, "fn total_area(items: &[&");
      assertEquals(help.activeParameter, 0);
      const completions = JSON.parse(
        await s.ok("completions", {
          relative_path: "src/lib.rs",
          line: 9,
          column: 28,
        }),
      );
      const labels = completions.completions.map((c: { label: string }) => c.label);
      assert(labels.includes("area") && labels.includes("name"), labels.join(", "));
    });

    await t.step("rename_symbol with preview changes nothing, then applies", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "describe",
          relative_path: "src/shapes.rs",
          new_name: "label_of",
          preview: true,
        }),
      );
      assertEquals([preview.totalChanges, preview.applied], [1, false]);
      assertStringIncludes(await s.read("src/shapes.rs"), "pub fn describe(");
      await s.ok("rename_symbol", {
        name_path: "total_area",
        relative_path: "src/lib.rs",
        new_name: "sum_of_areas",
      });
      const lib = await s.read("src/lib.rs");
      assertEquals(lib.match(/sum_of_areas/g)?.length, 2);
      assert(!lib.includes("total_area"));
    });

    await t.step("replace_symbol_body and insert_after_symbol", async () => {
      await s.ok("replace_symbol_body", {
        name_path: "impl Shape for Square/area",
        relative_path: "src/shapes.rs",
        body: "fn area(&self) -> f64 {\n        self.side * self.side\n    }",
      });
      await s.ok("insert_after_symbol", {
        name_path: "describe",
        relative_path: "src/shapes.rs",
        body: "\n/// Twice the area.\npub fn double_area(shape: &dyn Shape) -> f64 {\n" +
          "    2.0 * shape.area()\n}\n",
      });
      const text = await s.read("src/shapes.rs");
      assertStringIncludes(text, "        self.side * self.side\n");
      assert(text.trimEnd().endsWith("2.0 * shape.area()\n}"), text);
      const overview = await s.ok("get_symbols_overview", { relative_path: "src/shapes.rs" });
      assertEquals(JSON.parse(overview).Function, ["describe", "double_area"]);
    });

    await t.step("diagnostics follow an edit", async () => {
      assertEquals(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/shapes.rs" }),
        "{}",
      );
      const text = await s.read("src/shapes.rs");
      await s.write("src/shapes.rs", text.replace('"circle".to_string()', 'let n: u32 = "c"; n'));
      const after = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/shapes.rs" }),
      );
      const errors = after["src/shapes.rs"].Error["impl Shape for Circle/name"] as Array<
        { message: string; code: string }
      >;
      assertEquals(errors.map((e) => e.code), ["E0308", "E0308"]);
      assertEquals(errors[0]!.message, "expected u32, found &'static str");
      await s.write("src/shapes.rs", text);
      assertEquals(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/shapes.rs" }),
        "{}",
      );
    });

    await t.step("check_project and test_project give structured results", async () => {
      const check = JSON.parse(await s.ok("check_project"));
      assertEquals([check.ok, check.summary.error], [true, 0]);
      // square_area passes now (the body was fixed above); break circle's for radius 2 only.
      const text = await s.read("src/shapes.rs");
      await s.write(
        "src/shapes.rs",
        text.replace(
          "3.0 * self.radius * self.radius",
          "3.0 * self.radius * self.radius * self.radius",
        ),
      );
      const tests = JSON.parse(await s.ok("test_project"));
      assertEquals(tests.ok, false);
      assertEquals([tests.summary.passed, tests.summary.failed], [2, 1]);
      assertEquals(tests.runs[0].failures.map((f: { name: string }) => f.name), [
        "tests::circle_area",
      ]);
      const one = JSON.parse(await s.ok("test_project", { test_name: "total" }));
      assertEquals([one.ok, one.summary.passed, one.summary.failed], [true, 1, 0]);
    });

    await t.step("format_file: preview changes nothing, then rustfmt formats", async () => {
      const messy = "pub fn  messy( a:i32,b :i32)->i32{a+b}\n";
      await s.write("src/messy.rs", messy);
      const preview = JSON.parse(
        await s.ok("format_file", { relative_path: "src/messy.rs", preview: true }),
      );
      assertEquals([preview.formatted, preview.applied], [false, false]);
      assertStringIncludes(preview.diff, "+pub fn messy(a: i32, b: i32) -> i32 {");
      assertEquals(await s.read("src/messy.rs"), messy);
      const applied = JSON.parse(await s.ok("format_file", { relative_path: "src/messy.rs" }));
      assertEquals([applied.formatted, applied.applied], [true, true]);
      assertEquals(
        await s.read("src/messy.rs"),
        "pub fn messy(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
      );
      const again = JSON.parse(await s.ok("format_file", { relative_path: "src/messy.rs" }));
      assertEquals([again.formatted, again.changes, again.applied], [true, 0, false]);
    });
  },
});
