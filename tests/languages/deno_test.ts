/**
 * Deno through MCP on `deno lsp` (the server of a root with deno.json), fixture fixtures/deno
 * (an interface with two implementing classes, a file with a type error, a failing test): the
 * symbolic and IDE tools, edits, diagnostics, a quick fix executed by id, format, and
 * check_project / test_project (`deno check`, `deno test`).
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { flattenReferences } from "../helpers/symbols.ts";

interface Sym {
  name_path: string;
  relative_path: string;
  body?: string;
}

const names = (text: string) => (JSON.parse(text) as Sym[]).map((s) => s.name_path);

Deno.test("deno: symbolic and IDE tools, edits, a fix, format, check and test on deno lsp", async (t) => {
  await using s = await langSession("deno", { config: { included_tools: IDE_TOOLS } });

  await t.step("overview, find_symbol by name path, references, implementations", async () => {
    // Grouped by kind, as Serena 1.7/2.1 answers.
    assertEquals(
      await s.ok("get_symbols_overview", { relative_path: "src/shapes.ts" }),
      '{"Interface":["Shape"],"Class":["Square","Circle"],"Function":["totalArea","demo"]}',
    );
    const found = JSON.parse(
      await s.ok("find_symbol", { name_path_pattern: "Square/area", include_body: true }),
    ) as Sym[];
    assertEquals(found.map((f) => [f.relative_path, f.body]), [[
      "src/shapes.ts",
      "area(): number {\n    return this.side * this.side;\n  }",
    ]]);
    const refs = flattenReferences(
      await s.ok("find_referencing_symbols", {
        name_path: "totalArea",
        relative_path: "src/shapes.ts",
      }),
    );
    assertEquals(refs.map((r) => `${r.relative_path}:${r.name_path}`), ["src/shapes.ts:demo"]);
    assertEquals(
      names(
        await s.ok("find_implementations", {
          name_path: "Shape/area",
          relative_path: "src/shapes.ts",
        }),
      ),
      ["Square/area", "Circle/area"],
    );
  });

  await t.step(
    "definition, type definition, hover, call hierarchy, completions, signature",
    async () => {
      // src/shapes.ts line 25: `    total += shape.area();`: `shape` at column 14, `area` at 20.
      const def = JSON.parse(
        await s.ok("goto_definition", { relative_path: "src/shapes.ts", line: 25, column: 20 }),
      );
      assertEquals([def.file, def.line, def.preview], ["src/shapes.ts", 4, "area(): number;"]);
      const typeDef = JSON.parse(
        await s.ok("type_definition", { relative_path: "src/shapes.ts", line: 25, column: 14 }),
      );
      assertEquals([typeDef.file, typeDef.line, typeDef.preview], [
        "src/shapes.ts",
        2,
        "export interface Shape {",
      ]);
      const hover = JSON.parse(
        await s.ok("hover", { relative_path: "src/shapes.ts", name_path: "totalArea" }),
      );
      assertEquals(hover.contents, "function totalArea(shapes: Shape[]): number");
      assertEquals(hover.documentation, "The sum of the areas of the shapes.");
      const calls = JSON.parse(
        await s.ok("call_hierarchy", {
          relative_path: "src/shapes.ts",
          name_path: "totalArea",
          direction: "incoming",
        }),
      );
      assertEquals(
        calls.incoming.map((c: { name: string; call_lines: number[] }) => [c.name, c.call_lines]),
        [["demo", [32]]],
      );
      const completions = JSON.parse(
        await s.ok("completions", { relative_path: "src/shapes.ts", line: 25, column: 20 }),
      );
      assertEquals(completions.completions.map((c: { label: string }) => c.label), ["area"]);
      // Line 32: `  return totalArea([square, new Circle(1)]);`, inside the call's parentheses.
      const help = JSON.parse(
        await s.ok("signature_help", { relative_path: "src/shapes.ts", line: 32, column: 21 }),
      );
      assertEquals(help.signatures[0].label, "totalArea(shapes: Shape[]): number");
    },
  );

  await t.step("rename, replace_symbol_body, insert_after_symbol", async () => {
    await s.ok("rename_symbol", {
      name_path: "totalArea",
      relative_path: "src/shapes.ts",
      new_name: "sumOfAreas",
    });
    const text = await s.read("src/shapes.ts");
    assertEquals(text.match(/sumOfAreas\(/g)?.length, 2);
    await s.ok("replace_symbol_body", {
      name_path: "demo",
      relative_path: "src/shapes.ts",
      body: "export function demo(): number {\n  return sumOfAreas([new Square(3)]);\n}",
    });
    await s.ok("insert_after_symbol", {
      name_path: "demo",
      relative_path: "src/shapes.ts",
      body: "\nexport function unit(): Shape {\n  return new Square(1);\n}\n",
    });
    assertEquals(
      await s.ok("get_symbols_overview", { relative_path: "src/shapes.ts" }),
      '{"Interface":["Shape"],"Class":["Square","Circle"],"Function":["sumOfAreas","demo","unit"]}',
    );
  });

  await t.step(
    "diagnostics, and deno's quick fix (a missing function) executed by id",
    async () => {
      const before = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/report.ts" }),
      );
      const errors = before["src/report.ts"].Error.report as Array<{ code: number }>;
      assertEquals(errors.map((e) => e.code), [2322]);
      await s.write("src/use.ts", "export const five = add(2, 3);\n");
      const missing = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/use.ts" }),
      );
      assertStringIncludes(JSON.stringify(missing), "Cannot find name 'add'");
      const listed = JSON.parse(
        await s.ok("code_actions", {
          relative_path: "src/use.ts",
          start_line: 1,
          start_column: 21,
        }),
      );
      const fix = listed.actions.find((a: { title: string; kind: string }) =>
        a.kind === "quickfix" && a.title === "Add missing function declaration 'add'"
      );
      assert(fix, JSON.stringify(listed));
      await s.ok("execute_code_action", { action_id: fix.id });
      const fixed = await s.read("src/use.ts");
      assert(/^function add\(/m.test(fixed), fixed);
      // No error is left (hints about the new function's unused parameters remain).
      assertEquals(
        await s.ok("get_diagnostics_for_file", { relative_path: "src/use.ts", min_severity: 1 }),
        "{}",
      );
      await Deno.remove(`${s.root}/src/use.ts`);
    },
  );

  await t.step("format_file with deno fmt's rules", async () => {
    await s.write("src/messy.ts", "export function f( a:number,b:number ){return a+b}\n");
    const applied = JSON.parse(await s.ok("format_file", { relative_path: "src/messy.ts" }));
    assertEquals([applied.formatted, applied.applied], [true, true]);
    assertEquals(
      await s.read("src/messy.ts"),
      "export function f(a: number, b: number) {\n  return a + b;\n}\n",
    );
  });

  await t.step("check_project (deno check) and test_project (deno test)", async () => {
    const check = JSON.parse(await s.ok("check_project"));
    assertEquals(
      check.diagnostics.map((d: { file: string; line: number; code: string }) => [
        d.file,
        d.line,
        d.code,
      ]),
      [["src/report.ts", 5, "TS2322"]],
    );
    const tests = JSON.parse(await s.ok("test_project"));
    assertEquals(
      tests.runs[0].failures.map((f: { name: string; line: number }) => [f.name, f.line]),
      [["multiply works", 11]],
    );
    const one = JSON.parse(await s.ok("test_project", { test_name: "add works" }));
    assertEquals([one.ok, one.summary.passed, one.summary.failed], [true, 1, 0]);
  });
});
