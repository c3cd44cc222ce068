/**
 * The dev-tools workflow's flows 1 and 2 in the `devtools` context, over MCP with real rust-analyzer and
 * cargo: check_project(include_fixes) → list_code_actions → execute_code_action → check_project
 * clean; rename preview → list_code_actions → execute_code_action. Between the steps the
 * code-action cache is brought up to date (stale ids dropped, fixes asked again) and the client
 * hears of it through a logging notification.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { LoggingMessageNotificationSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

const available = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);

interface Listed {
  code_actions: Array<{ id: string; title: string; file: string; line: number }>;
  count: number;
}

Deno.test({
  name: "rust: the dev-tools code-action workflows in the devtools context",
  ignore: skipUnless(available, "the Rust code-action workflow test (rust-analyzer, cargo)"),
  async fn(t) {
    await using s = await langSession("rust/broken", { args: ["--context", "devtools"] });
    const logs: unknown[] = [];
    s.connected.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === "sextant.code_actions") logs.push(n.params.data);
    });
    const list = async () => JSON.parse(await s.ok("list_code_actions")) as Listed;

    await t.step("check_project(include_fixes) → list_code_actions → execute", async () => {
      const check = JSON.parse(await s.ok("check_project", { include_fixes: true }));
      assertEquals(check.ok, false);
      const warning = check.diagnostics.find((d: { code: string }) =>
        d.code === "unused_variables"
      );
      const fix = warning.available_fixes.find((f: { title: string }) =>
        f.title.includes("_unused")
      );
      assert(fix, JSON.stringify(warning.available_fixes));
      // The fix check_project named is listed under the same id.
      const before = await list();
      assert(before.code_actions.some((a) => a.id === fix.id), JSON.stringify(before));
      await s.ok("execute_code_action", { action_id: fix.id });
      assertStringIncludes(await s.read("src/lib.rs"), "let _unused = 3;");
      // Stale ids (other fixes for the edited file) are gone; what is listed can still run.
      const after = await list();
      assert(!after.code_actions.some((a) => a.id === fix.id));
      const staleBefore = before.code_actions.filter((a) => a.file === "src/lib.rs");
      for (const a of staleBefore) {
        assert(!after.code_actions.some((b) => b.id === a.id), `${a.id} is stale`);
      }
      assert(logs.length > 0, "the client was told the code actions changed");
      // The type error has no quick fix: a symbol edit fixes it, and the check is clean.
      await s.ok("replace_symbol_body", {
        name_path: "area",
        relative_path: "src/shapes.rs",
        body: "pub fn area(width: u32, height: u32) -> u32 {\n    width * height\n}",
      });
      const clean = JSON.parse(await s.ok("check_project"));
      assertEquals([clean.ok, clean.summary.error, clean.summary.warning], [true, 0, 0]);
    });

    await t.step("after the client's own edit, get_symbol_info refreshes the fixes", async () => {
      // An error rust-analyzer finds itself (missing field y), written by the client's own tool.
      const text = await s.read("src/lib.rs");
      await s.write(
        "src/lib.rs",
        text + "\npub struct Point {\n    pub x: u32,\n    pub y: u32,\n}\n\n" +
          "pub fn origin() -> Point {\n    Point { x: 0 }\n}\n",
      );
      logs.length = 0;
      await s.ok("get_symbol_info", { symbol_name: "describe", file_hint: "src/lib.rs" });
      const listed = await list();
      const fix = listed.code_actions.find((a) => a.file === "src/lib.rs");
      assert(fix, JSON.stringify(listed));
      assert(logs.length > 0, "the client was told the code actions changed");
      await s.ok("execute_code_action", { action_id: fix.id });
      assertStringIncludes(await s.read("src/lib.rs"), "y: ");
      assertEquals(JSON.parse(await s.ok("check_project")).summary.error, 0);
    });

    await t.step("rename preview → list_code_actions → execute", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "double",
          relative_path: "src/shapes.rs",
          new_name: "twice",
          preview: true,
        }),
      );
      assertEquals(preview.applied, false);
      const listed = await list();
      const entry = listed.code_actions.find((a) => a.id === preview.action_id);
      assert(entry, JSON.stringify(listed));
      await s.ok("execute_code_action", { action_id: preview.action_id });
      assertStringIncludes(await s.read("src/shapes.rs"), "pub fn twice(width: u32)");
      assertStringIncludes(await s.read("src/lib.rs"), "shapes::twice(width)");
      assert(!(await list()).code_actions.some((a) => a.id === preview.action_id));
      assertEquals(JSON.parse(await s.ok("check_project")).ok, true);
    });
  },
});
