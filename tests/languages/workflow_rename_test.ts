/**
 * The dev-tools workflow's rename exactly as docs/tools.md describes it, over MCP on real servers: in the
 * devtools context, a Rust crate loaded by manage_projects (not the active project) is renamed
 * by symbol name — preview, list_code_actions shows it, execute_code_action with the workflow's
 * descriptive id, cargo check clean — and with execute_immediately=true; calls mixing Serena's
 * form with the workflow's, an unknown name and an ambiguous name without file_hint are refused
 * with nothing changed. A TypeScript case shows the workflow's form is accepted (though not
 * listed) in the default context, and Serena's listing there is unchanged.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { langSession } from "../helpers/lang.ts";
import { hasServer, hasTypeScript7, skipUnless, TS_GENERATIONS } from "../helpers/lsp.ts";

const rust = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);
const typescript = hasServer("typescript-language-server", ["--version"]);

interface Listed {
  code_actions: Array<{ id: string; title: string; kind: string; project_name?: string }>;
  count: number;
}

/** A second `add3`, in an integration-test crate of its own: the name is then ambiguous. */
const SUMS_RS = "fn add3(a: i32, b: i32, c: i32) -> i32 {\n    a + b + c\n}\n\n" +
  "#[test]\nfn sums() {\n    assert_eq!(add3(1, 2, 3), 6);\n}\n";

Deno.test({
  name: "the dev-tools rename: preview → list → execute by id, and execute_immediately, on Rust",
  ignore: skipUnless(rust, "the dev-tools workflow's rename on Rust (rust-analyzer, cargo)"),
  async fn(t) {
    await using s = await langSession("workflow", {
      layout: { tests_fail: "rust/tests_fail" },
      args: ["--context", "devtools"],
    });
    const crate = join(s.root, "tests_fail");
    await s.write("tests_fail/tests/sums.rs", SUMS_RS);
    const files = ["src/lib.rs", "src/calc.rs", "tests/integration.rs", "tests/sums.rs"];
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(files.map(async (f) => [f, await s.read(`tests_fail/${f}`)])),
      );
    const list = async () => JSON.parse(await s.ok("list_code_actions")) as Listed;

    await t.step("the devtools listing offers the workflow's parameters", async () => {
      const { tools } = await s.connected.client.listTools();
      const schema = tools.find((x) => x.name === "rename_symbol")!.inputSchema;
      const names = Object.keys(schema.properties ?? {});
      for (const p of ["symbol_name", "file_hint", "project_name", "execute_immediately"]) {
        assert(names.includes(p), `${p} not listed: ${names}`);
      }
      assertEquals(schema.required, ["new_name"]);
    });

    await t.step("manage_projects loads the crate; the active project stays", async () => {
      const added = JSON.parse(await s.ok("manage_projects", { add_project_path: crate }));
      const entry = added.projects.find((p: { path: string }) => p.path === crate);
      assertEquals([entry.name, entry.active, entry.last_used], ["tests_fail", undefined, true]);
      assert(added.projects.some((p: { active?: boolean }) => p.active), JSON.stringify(added));
    });

    await t.step("refusals change nothing", async () => {
      const before = await snapshot();
      const mixed = await s.call("rename_symbol", {
        name_path: "add3",
        relative_path: "src/calc.rs",
        symbol_name: "add3",
        new_name: "sum3",
      });
      assert(mixed.isError, mixed.text);
      assertStringIncludes(mixed.text, "one form per call");
      assertStringIncludes(mixed.text, "name_path, relative_path");
      const unknown = await s.call("rename_symbol", {
        project_name: "tests_fail",
        symbol_name: "no_such_fn",
        new_name: "other",
      });
      assert(unknown.isError, unknown.text);
      assertStringIncludes(unknown.text, "No symbol 'no_such_fn' in project 'tests_fail'");
      const ambiguous = await s.call("rename_symbol", {
        project_name: "tests_fail",
        symbol_name: "add3",
        new_name: "sum3",
      });
      assert(ambiguous.isError, ambiguous.text);
      assertStringIncludes(ambiguous.text, "2 symbols named 'add3' in project 'tests_fail'");
      assertStringIncludes(ambiguous.text, "src/calc.rs:4");
      assertStringIncludes(ambiguous.text, "tests/sums.rs:1");
      assertStringIncludes(ambiguous.text, "file_hint");
      const noName = await s.call("rename_symbol", {
        new_name: "sum3",
        execute_immediately: true,
      });
      assert(noName.isError, noName.text);
      assertStringIncludes(noName.text, "symbol_name is missing");
      const badName = await s.call("rename_symbol", {
        symbol_name: "add3",
        file_hint: "src/calc.rs",
        new_name: "sum 3",
        execute_immediately: true,
      });
      assert(badName.isError, badName.text);
      assertEquals(await snapshot(), before);
      assertEquals((await list()).count, 0);
    });

    await t.step("Workflow 2: preview → list_code_actions → execute_code_action", async () => {
      const before = await snapshot();
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          project_name: "tests_fail",
          symbol_name: "add3",
          new_name: "sum3",
          file_hint: "src/calc.rs",
          execute_immediately: false,
        }),
      );
      assertEquals(preview.tool_name, "rename_symbol");
      assertEquals(preview.status, "preview");
      assertEquals(preview.operation, "rename");
      assertEquals(preview.action_id, "rename_add3_to_sum3");
      assertEquals([preview.project_name, preview.old_name, preview.new_name], [
        "tests_fail",
        "add3",
        "sum3",
      ]);
      assertEquals(preview.symbol, {
        name_path: "add3",
        kind: "Function",
        file_path: "src/calc.rs",
        line: 4,
      });
      const affected = [...preview.affected_files].sort((a, b) => a.file.localeCompare(b.file));
      assertEquals(affected, [
        { file: "src/calc.rs", edits: 1 },
        { file: "tests/integration.rs", edits: 1 },
      ]);
      assertEquals([preview.files_affected, preview.total_edits], [2, 2]);
      assertEquals(await snapshot(), before, "a preview changes nothing");

      // The same rename previewed again keeps its id; the other add3's rename cannot take it.
      const again = JSON.parse(
        await s.ok("rename_symbol", {
          symbol_name: "add3",
          new_name: "sum3",
          file_hint: "src/calc.rs",
        }),
      );
      assertEquals(again.action_id, "rename_add3_to_sum3");
      const other = JSON.parse(
        await s.ok("rename_symbol", {
          symbol_name: "add3",
          new_name: "sum3",
          file_hint: "tests/sums.rs",
        }),
      );
      assertEquals(other.symbol.file_path, "tests/sums.rs");
      assert(/^rename_add3_to_sum3_[0-9a-f]{8}$/.test(other.action_id), other.action_id);

      const listed = await list();
      const action = listed.code_actions.find((a) => a.id === "rename_add3_to_sum3");
      assert(action, JSON.stringify(listed));
      assertEquals([action.kind, action.project_name], ["refactor.rename", "tests_fail"]);
      assert(listed.code_actions.some((a) => a.id === other.action_id), JSON.stringify(listed));
      assertEquals(listed.count, 2);

      await s.ok("execute_code_action", { action_id: "rename_add3_to_sum3" });
      assertStringIncludes(await s.read("tests_fail/src/calc.rs"), "pub fn sum3(a: i32");
      assertStringIncludes(
        await s.read("tests_fail/tests/integration.rs"),
        "tests_fail::calc::sum3(1, 2, 3)",
      );
      // The other add3 is another symbol: untouched until its own rename runs.
      assertEquals(await s.read("tests_fail/tests/sums.rs"), SUMS_RS);
      const left = await list();
      assertEquals(left.code_actions.map((a) => a.id), [other.action_id]);
      await s.ok("execute_code_action", { action_id: other.action_id });
      assertStringIncludes(await s.read("tests_fail/tests/sums.rs"), "assert_eq!(sum3(1, 2, 3)");
      const check = JSON.parse(await s.ok("check_project"));
      assertEquals([check.ok, check.summary.error, check.summary.warning], [true, 0, 0]);
    });

    await t.step("Alternative: execute_immediately=true applies at once", async () => {
      const applied = JSON.parse(
        await s.ok("rename_symbol", {
          project_name: "tests_fail",
          symbol_name: "subtract",
          new_name: "minus",
          execute_immediately: true,
        }),
      );
      assertEquals([applied.tool_name, applied.status, applied.operation], [
        "rename_symbol",
        "applied",
        "rename",
      ]);
      assertEquals([applied.old_name, applied.new_name], ["subtract", "minus"]);
      assertEquals(applied.affected_files, [{ file: "src/lib.rs", edits: 2 }]);
      assertEquals([applied.files_affected, applied.total_edits], [1, 2]);
      const lib = await s.read("tests_fail/src/lib.rs");
      assertStringIncludes(lib, "pub fn minus(a: i32, b: i32)");
      assertStringIncludes(lib, "assert_eq!(minus(5, 3), 2");
      assert(!lib.includes("subtract("), lib);
      const check = JSON.parse(await s.ok("check_project", { project_name: "tests_fail" }));
      assertEquals([check.ok, check.summary.error, check.summary.warning], [true, 0, 0]);
    });
  },
});

for (const generation of TS_GENERATIONS) {
  Deno.test({
    name: "the dev-tools rename on TypeScript: symbol_name accepted in the default context " +
      `(${generation.name})`,
    ignore: skipUnless(
      generation.typescript === 7 ? hasTypeScript7() : typescript,
      `the dev-tools workflow's rename on TypeScript (${generation.name})`,
    ),
    async fn(t) {
      // Under the sextant permission set the project's own tsc 7 runs through `sh`, which execs it.
      await using s = await langSession("typescript", { typescript: generation.typescript });

      await t.step("the default listing is Serena's", async () => {
        const { tools } = await s.connected.client.listTools();
        const schema = tools.find((x) => x.name === "rename_symbol")!.inputSchema;
        assertEquals(Object.keys(schema.properties ?? {}), [
          "name_path",
          "relative_path",
          "new_name",
          "preview",
        ]);
        assertEquals(schema.required, ["name_path", "relative_path", "new_name"]);
      });

      await t.step("rename by symbol_name with execute_immediately=true", async () => {
        const applied = JSON.parse(
          await s.ok("rename_symbol", {
            symbol_name: "totalArea",
            file_hint: "geometry",
            new_name: "sumOfAreas",
            execute_immediately: true,
          }),
        );
        assertEquals([applied.status, applied.symbol.file_path, applied.symbol.kind], [
          "applied",
          "src/geometry.ts",
          "Function",
        ]);
        const files = applied.affected_files.map((f: { file: string }) => f.file).sort();
        assertEquals(files, ["src/geometry.ts", "src/main.ts"]);
        assertStringIncludes(await s.read("src/geometry.ts"), "export function sumOfAreas(");
        const main = await s.read("src/main.ts");
        assertStringIncludes(main, "sumOfAreas");
        assert(!main.includes("totalArea"), main);
      });
    },
  });
}
