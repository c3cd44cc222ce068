/**
 * C through MCP on real clangd, fixture fixtures/c (a header, two sources, compile_flags.txt):
 * the symbolic and IDE tools, rename across header and sources, edits, diagnostics after an edit
 * and clangd's fix for it executed by id. C has no check_project toolchain (no build system in
 * the fixture): that is asserted as the clear error it is.
 * @module
 */
import { flattenReferences } from "../helpers/symbols.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";

const available = hasServer("clangd", ["--version"]);

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

const names = (text: string) => (JSON.parse(text) as Sym[]).map((s) => s.name_path);

Deno.test({
  name: "c: symbolic and IDE tools, edits, diagnostics and a fix on clangd",
  ignore: skipUnless(available, "C language tests (clangd)"),
  async fn(t) {
    await using s = await langSession("c", { config: { included_tools: IDE_TOOLS } });

    await t.step("get_symbols_overview of a header and a source", async () => {
      // Grouped by kind as Serena 1.7/2.1 answers.
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "src/shape.h" }),
        '{"Struct":["rect"],"Function":["rect_area","rect_perimeter"]}',
      );
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "src/main.c" }),
        '{"Function":["total_area","main"]}',
      );
    });

    await t.step(
      "find_symbol: a field by name path, a function's declaration and definition",
      async () => {
        assertEquals(names(await s.ok("find_symbol", { name_path_pattern: "rect/width" })), [
          "rect/width",
        ]);
        const found = JSON.parse(
          await s.ok("find_symbol", {
            name_path_pattern: "rect_area",
            include_body: true,
          }),
        ) as Sym[];
        assertEquals(found.map((x) => x.relative_path), ["src/shape.c", "src/shape.h"]);
        assertEquals(
          found[0]!.body,
          "int rect_area(const struct rect *r) {\n    return r->width * r->height;\n}",
        );
      },
    );

    await t.step("find_referencing_symbols and find_references", async () => {
      const refs = flattenReferences(
        await s.ok("find_referencing_symbols", {
          name_path: "rect_area",
          relative_path: "src/shape.c",
        }),
      );
      assertEquals(refs.map((r) => `${r.relative_path}:${r.name_path}`), [
        "src/main.c:total_area",
        "src/main.c:main",
      ]);
      const raw = await s.ok("find_references", {
        relative_path: "src/shape.c",
        name_path: "rect_area",
      });
      for (const file of ["src/main.c", "src/shape.h", "src/shape.c"]) {
        assertStringIncludes(raw, file);
      }
    });

    await t.step(
      "goto_definition, hover, call_hierarchy, signature_help, completions",
      async () => {
        // main.c line 7: `        total += rect_area(&items[i]);`: `rect_area` at column 18.
        const def = JSON.parse(
          await s.ok("goto_definition", {
            relative_path: "src/main.c",
            line: 7,
            column: 19,
          }),
        );
        assertEquals([def.file, def.line, def.preview], [
          "src/shape.c",
          3,
          "int rect_area(const struct rect *r) {",
        ]);
        const hover = JSON.parse(
          await s.ok("hover", {
            relative_path: "src/shape.c",
            name_path: "rect_perimeter",
          }),
        );
        assertEquals(hover.contents, "int rect_perimeter(const struct rect *r)");
        assertStringIncludes(hover.documentation, "The perimeter of a rectangle.");
        const calls = JSON.parse(
          await s.ok("call_hierarchy", {
            relative_path: "src/shape.c",
            name_path: "rect_area",
            direction: "incoming",
          }),
        );
        assertEquals(
          calls.incoming.map((c: { name: string; call_lines: number[] }) => [c.name, c.call_lines]),
          [["main", [14]], ["total_area", [7]]],
        );
        // On `&items[i]`, the argument of rect_area.
        const help = JSON.parse(
          await s.ok("signature_help", {
            relative_path: "src/main.c",
            line: 7,
            column: 28,
          }),
        );
        assertEquals(help.found, true);
        assertStringIncludes(help.signatures[0].label, "rect_area(const struct rect *r)");
        // After `r->` in shape.c line 4 (`    return r->width * r->height;`), column 15.
        const completions = JSON.parse(
          await s.ok("completions", {
            relative_path: "src/shape.c",
            line: 4,
            column: 15,
          }),
        );
        const labels = completions.completions.map((c: { label: string }) => c.label.trim());
        assert(labels.includes("width") && labels.includes("height"), labels.join(", "));
      },
    );

    await t.step("rename_symbol preview, then applied in header and sources", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "rect_area",
          relative_path: "src/shape.c",
          new_name: "rect_surface",
          preview: true,
        }),
      );
      assertEquals(preview.files, { "src/main.c": 2, "src/shape.c": 1, "src/shape.h": 1 });
      assertEquals(preview.applied, false);
      await s.ok("rename_symbol", {
        name_path: "rect_perimeter",
        relative_path: "src/shape.c",
        new_name: "rect_border",
      });
      assertStringIncludes(await s.read("src/shape.h"), "int rect_border(const struct rect *r);");
      assertStringIncludes(await s.read("src/shape.c"), "int rect_border(const struct rect *r) {");
    });

    await t.step("replace_symbol_body and insert_after_symbol", async () => {
      await s.ok("replace_symbol_body", {
        name_path: "total_area",
        relative_path: "src/main.c",
        body: "static int total_area(const struct rect *items, int count) {\n" +
          "    int total = 0;\n    while (count-- > 0) {\n        total += rect_area(items++);\n" +
          "    }\n    return total;\n}",
      });
      await s.ok("insert_after_symbol", {
        name_path: "total_area",
        relative_path: "src/main.c",
        body: "\nstatic int twice(int x) {\n    return 2 * x;\n}\n",
      });
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "src/main.c" }),
        '{"Function":["total_area","twice","main"]}',
      );
    });

    await t.step("diagnostics after an edit, and clangd's fix by id", async () => {
      const clean = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/main.c" }),
      );
      // `twice` is unused: clangd warns about it, and about nothing else.
      assertEquals(Object.keys(clean["src/main.c"] ?? {}), ["Warning"]);
      const text = await s.read("src/main.c");
      await s.write("src/main.c", text.replace("return total;", "return totl;"));
      const after = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/main.c" }),
      );
      const errors = after["src/main.c"].Error.total_area as Array<{ message: string }>;
      assertEquals(errors.length, 1);
      assertStringIncludes(
        errors[0]!.message,
        "Use of undeclared identifier 'totl'; did you mean 'total'?",
      );
      const line = (await s.read("src/main.c")).split("\n").findIndex((l) => l.includes("totl")) +
        1;
      const actions = JSON.parse(
        await s.ok("code_actions", {
          relative_path: "src/main.c",
          start_line: line,
        }),
      );
      const fix = actions.actions.find((a: { title: string }) => a.title.includes("total"));
      assert(fix, JSON.stringify(actions));
      await s.ok("execute_code_action", { action_id: fix.id });
      assertStringIncludes(await s.read("src/main.c"), "    return total;\n");
      const fixed = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/main.c" }),
      );
      assertEquals(fixed["src/main.c"]?.Error, undefined);
    });

    await t.step("check_project says no toolchain is known", async () => {
      const check = await s.call("check_project");
      assertEquals(check.isError, true);
      assertStringIncludes(check.text, "No known toolchain in project");
    });

    await t.step(
      "format_file: preview changes nothing, then clangd's clang-format formats",
      async () => {
        const messy = "int messy( int a,int b ){int c=a+b;\nreturn c*2;}\n";
        await s.write("src/messy.c", messy);
        const preview = JSON.parse(
          await s.ok("format_file", { relative_path: "src/messy.c", preview: true }),
        );
        assertEquals([preview.formatted, preview.applied], [false, false]);
        assertEquals(await s.read("src/messy.c"), messy);
        const applied = JSON.parse(await s.ok("format_file", { relative_path: "src/messy.c" }));
        assertEquals([applied.formatted, applied.applied], [true, true]);
        assertEquals(
          await s.read("src/messy.c"),
          "int messy(int a, int b) {\n  int c = a + b;\n  return c * 2;\n}\n",
        );
        const again = JSON.parse(await s.ok("format_file", { relative_path: "src/messy.c" }));
        assertEquals([again.formatted, again.changes, again.applied], [true, 0, false]);
      },
    );
  },
});
