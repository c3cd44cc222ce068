/**
 * Bash through MCP on bash-language-server (with ShellCheck and shfmt), fixture fixtures/bash
 * (a library of functions sourced by a script): overview, find_symbol, references across files,
 * definition, hover, completions, rename, edits, ShellCheck's diagnostics and its fix executed
 * by id, and format. The server has no signature help, call hierarchy, implementations or
 * type definitions; that is asserted as the clear error it is.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { flattenReferences } from "../helpers/symbols.ts";
import { skipWithout } from "../helpers/toolchain.ts";

interface Sym {
  name_path: string;
  relative_path: string;
  body?: string;
}

const available = hasServer("bash-language-server");
const tools = !skipWithout("shellcheck") && !skipWithout("shfmt");

Deno.test({
  name:
    "bash: symbols, references, rename, edits, ShellCheck fix and shfmt on bash-language-server",
  ignore: skipUnless(available, "Bash language tests (bash-language-server)") || !tools,
  async fn(t) {
    await using s = await langSession("bash", { config: { included_tools: IDE_TOOLS } });

    await t.step("overview, find_symbol with body, references in the sourcing script", async () => {
      // Grouped by kind, as Serena 1.7/2.1 answers.
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "lib.sh" }),
        '{"Function":["greet","add"]}',
      );
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "deploy.sh" }),
        '{"Variable":["TARGET"],"Function":["deploy"]}',
      );
      const found = JSON.parse(
        await s.ok("find_symbol", {
          name_path_pattern: "greet",
          relative_path: "lib.sh",
          include_body: true,
        }),
      ) as Sym[];
      assertEquals(found.map((f) => f.body), [
        'greet() {\n  local name="$1"\n  echo "hello, ${name}"\n}',
      ]);
      const refs = flattenReferences(
        await s.ok("find_referencing_symbols", { name_path: "greet", relative_path: "lib.sh" }),
      );
      assertEquals(refs.map((r) => `${r.relative_path}:${r.name_path}`), ["deploy.sh:deploy"]);
      const raw = JSON.parse(
        await s.ok("find_references", { relative_path: "lib.sh", line: 5, column: 2 }),
      );
      assertEquals(
        raw.references.map((r: { file: string; line: number }) => `${r.file}:${r.line}`),
        ["deploy.sh:8", "lib.sh:5"],
      );
    });

    await t.step("definition, hover and completions of a sourced function", async () => {
      // deploy.sh line 8: `  greet "$TARGET"`, on `greet`.
      const def = JSON.parse(
        await s.ok("goto_definition", { relative_path: "deploy.sh", line: 8, column: 4 }),
      );
      assertEquals([def.file, def.line, def.preview], ["lib.sh", 5, "greet() {"]);
      const hover = JSON.parse(
        await s.ok("hover", { relative_path: "deploy.sh", line: 8, column: 4 }),
      );
      assertStringIncludes(
        `${hover.contents} ${hover.documentation}`,
        "Print a greeting for a name.",
      );
      const completions = JSON.parse(
        await s.ok("completions", { relative_path: "deploy.sh", line: 8, column: 4 }),
      );
      assert(
        completions.completions.some((c: { label: string }) => c.label === "greet"),
        JSON.stringify(completions),
      );
      const help = await s.call("signature_help", {
        relative_path: "deploy.sh",
        line: 8,
        column: 9,
      });
      assertEquals(help.isError, true);
      assertStringIncludes(help.text, "does not support signature help");
    });

    await t.step("rename across files, replace_symbol_body, insert_after_symbol", async () => {
      await s.ok("rename_symbol", {
        name_path: "greet",
        relative_path: "lib.sh",
        new_name: "welcome",
      });
      assertStringIncludes(await s.read("lib.sh"), "welcome() {");
      assertStringIncludes(await s.read("deploy.sh"), '  welcome "$TARGET"');
      await s.ok("replace_symbol_body", {
        name_path: "add",
        relative_path: "lib.sh",
        body: "add() {\n  echo $(($1 + $2 + 0))\n}",
      });
      await s.ok("insert_after_symbol", {
        name_path: "add",
        relative_path: "lib.sh",
        body: "\n\n# Print the difference of two numbers.\nsub() {\n  echo $(($1 - $2))\n}\n",
      });
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "lib.sh" }),
        '{"Function":["welcome","add","sub"]}',
      );
    });

    await t.step("ShellCheck's diagnostics, and its fix executed by id", async () => {
      await s.write("clean.sh", "#!/usr/bin/env bash\nrm -rf $1/tmp\n");
      const before = JSON.parse(
        await s.ok("get_diagnostics_for_file", { relative_path: "clean.sh" }),
      );
      assertStringIncludes(JSON.stringify(before), '"code":"SC2086","source":"shellcheck"');
      const listed = JSON.parse(
        await s.ok("code_actions", { relative_path: "clean.sh", start_line: 2 }),
      );
      const fix = listed.actions.find((a: { title: string }) => a.title === "Apply fix for SC2086");
      assert(fix, JSON.stringify(listed));
      await s.ok("execute_code_action", { action_id: fix.id });
      assertEquals(await s.read("clean.sh"), '#!/usr/bin/env bash\nrm -rf "$1"/tmp\n');
      assertEquals(await s.ok("get_diagnostics_for_file", { relative_path: "clean.sh" }), "{}");
    });

    await t.step("what the server does not offer is a clear error", async () => {
      const at = { relative_path: "deploy.sh", line: 8, column: 4 };
      for (
        const [tool, args, what] of [
          ["call_hierarchy", at, "call hierarchy"],
          ["type_definition", at, "type definition"],
          [
            "find_implementations",
            { name_path: "add", relative_path: "lib.sh" },
            "implementations",
          ],
        ] as const
      ) {
        const answer = await s.call(tool, args);
        assertEquals(answer.isError, true, tool);
        assertStringIncludes(
          answer.text,
          `does not support ${what === "implementations" ? "finding implementations" : what}`,
        );
      }
    });

    await t.step("format_file with shfmt", async () => {
      await s.write("messy.sh", "f() {\necho  hi\n}\n");
      const applied = JSON.parse(await s.ok("format_file", { relative_path: "messy.sh" }));
      assertEquals([applied.formatted, applied.applied], [true, true]);
      assertEquals(await s.read("messy.sh"), "f() {\n    echo hi\n}\n");
    });
  },
});
