/**
 * The dev-tools workflow on Rust, end to end over MCP as an agent runs it: manage_projects adds the
 * crates; get_symbol_info and find_symbol_usages with a file_hint; check_project with fixes, a
 * fix executed by id, check_project clean; test_project naming the failing test, and with a
 * test_name filter; rename preview, then execute_code_action.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";

const available = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);

Deno.test({
  name: "rust: the dev-tools workflow over MCP",
  ignore: skipUnless(available, "the Rust workflow test (rust-analyzer, cargo)"),
  async fn(t) {
    await using s = await langSession("workspace", {
      layout: { broken: "rust/broken", tests_fail: "rust/tests_fail" },
      // In the global config: the workflow activates the crates, which have no config of their own.
      globalConfig: { included_tools: IDE_TOOLS },
    });
    const broken = join(s.root, "broken");
    const testsFail = join(s.root, "tests_fail");

    await t.step("manage_projects adds both crates; the last added is the default", async () => {
      await s.ok("manage_projects", { add_project_path: testsFail });
      const added = JSON.parse(await s.ok("manage_projects", { add_project_path: broken }));
      const byName = Object.fromEntries(
        added.projects.map((
          p: { name: string; path: string; active: boolean; toolchains: string[] },
        ) => [
          p.name,
          p,
        ]),
      );
      assertEquals(byName.broken.path, broken);
      assertEquals(byName.broken.last_used, true);
      assertEquals(added.default_project, "broken");
      assertEquals(byName.broken.toolchains, ["rust"]);
      assertEquals(byName.tests_fail.path, testsFail);
    });

    await t.step("get_symbol_info and find_symbol_usages with a file_hint", async () => {
      const info = JSON.parse(
        await s.ok("get_symbol_info", {
          symbol_name: "double",
          file_hint: "src/shapes.rs",
        }),
      );
      assertEquals([info.project, info.kind, info.file_path, info.line], [
        "broken",
        "Function",
        "src/shapes.rs",
        2,
      ]);
      assertStringIncludes(info.signature, "pub fn double(width: u32) -> u32");
      assertEquals(info.documentation, "Doubles a width.");
      const usages = JSON.parse(
        await s.ok("find_symbol_usages", {
          symbol_name: "double",
          file_hint: "shapes.rs",
        }),
      );
      assertEquals(usages.total, 1);
      assertEquals(usages.files[0].file, "src/lib.rs");
      assertEquals(usages.files[0].usages[0].in, "describe");
      assertEquals(usages.files[0].usages[0].line, 7);
    });

    await t.step(
      "check_project with fixes → execute_code_action → check_project clean",
      async () => {
        const check = JSON.parse(await s.ok("check_project", { include_fixes: true }));
        assertEquals(check.ok, false);
        assertEquals(check.summary, { error: 1, warning: 1, info: 0, hint: 0 });
        const error = check.diagnostics.find((d: { severity: string }) => d.severity === "error");
        assertEquals([error.file, error.line, error.code], ["src/shapes.rs", 8, "E0308"]);
        const warning = check.diagnostics.find((d: { severity: string }) =>
          d.severity === "warning"
        );
        assertEquals([warning.file, warning.line, warning.code], [
          "src/lib.rs",
          6,
          "unused_variables",
        ]);
        const fix = warning.available_fixes.find((f: { title: string }) =>
          f.title.includes("_unused")
        );
        assert(fix, JSON.stringify(warning.available_fixes));
        await s.ok("execute_code_action", { action_id: fix.id });
        assertStringIncludes(await s.read("broken/src/lib.rs"), "let _unused = 3;");
        // The error has no quick fix: the agent fixes it with a symbol edit, in the crate it
        // activates for Serena's file-based tools.
        await s.ok("activate_project", { project: broken });
        await s.ok("replace_symbol_body", {
          name_path: "area",
          relative_path: "src/shapes.rs",
          body: "pub fn area(width: u32, height: u32) -> u32 {\n    width * height\n}",
        });
        const clean = JSON.parse(await s.ok("check_project"));
        assertEquals([clean.ok, clean.summary.error, clean.summary.warning], [true, 0, 0]);
      },
    );

    await t.step("test_project names the failing test; test_name filters", async () => {
      const all = JSON.parse(await s.ok("test_project", { project_name: "tests_fail" }));
      assertEquals(all.ok, false);
      assertEquals([all.summary.passed, all.summary.failed, all.summary.ignored], [2, 1, 1]);
      const failures = all.runs[0].failures as Array<{ name: string; message: string }>;
      assertEquals(failures.map((f) => f.name), ["tests::subtracts_numbers"]);
      assertStringIncludes(failures[0]!.message, "subtract is wrong");
      const one = JSON.parse(
        await s.ok("test_project", {
          project_name: "tests_fail",
          test_name: "adds_numbers",
        }),
      );
      assertEquals([one.ok, one.summary.passed, one.summary.failed], [true, 1, 0]);
    });

    await t.step("rename preview → execute_code_action", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "double",
          relative_path: "src/shapes.rs",
          new_name: "twice",
          preview: true,
        }),
      );
      assertEquals(preview.files, { "src/lib.rs": 1, "src/shapes.rs": 1 });
      assertEquals(preview.applied, false);
      assertStringIncludes(await s.read("broken/src/shapes.rs"), "pub fn double(");
      await s.ok("execute_code_action", { action_id: preview.action_id });
      assertStringIncludes(await s.read("broken/src/shapes.rs"), "pub fn twice(width: u32)");
      assertStringIncludes(await s.read("broken/src/lib.rs"), "shapes::twice(width)");
      const check = JSON.parse(await s.ok("check_project"));
      assertEquals(check.ok, true);
    });
  },
});
