/**
 * Go on real code with dependencies: the `github.com/spf13/cobra` module from the Go module
 * proxy (pinned; its dependencies in a module cache of its own, used offline;
 * tests/helpers/real_code.ts) through MCP on real gopls and go. References are checked against
 * the raw gopls's own `textDocument/references` answer on another copy; a definition leads into
 * a dependency (pflag) where the raw server's does. Then the dev-tools workflow's three flows as an agent
 * runs them in the devtools context: understanding code, fixing errors with a quick fix executed
 * by id, a rename preview executed by id, with test_project filtered by test name.
 * @module
 */
import { join } from "node:path";
import { flattenReferences, overviewNames } from "../helpers/symbols.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { IDE_TOOLS } from "../helpers/lang.ts";
import { hasServer } from "../helpers/lsp.ts";
import {
  positionOf,
  rawAnswers,
  realOrReason,
  realSession,
  sextantKeys,
} from "../helpers/real_code.ts";

const servers = hasServer("gopls", ["version"]) && hasServer("go", ["version"]);
const real = servers ? await realOrReason("go") : "gopls or go is not installed";
if (typeof real === "string") console.log(`skipping real Go code tests: ${real}`);

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

/** `Root` in `func (c *Command) Root() *Command {` (command.go). */
const ROOT = { file: "command.go", needle: "func (c *Command) Root()", offset: 18 };
/** `FlagSet` in the `flags *flag.FlagSet` field of Command (pflag, a dependency). */
const FLAG_SET = { file: "command.go", needle: "\tflags *flag.FlagSet", offset: 13 };

Deno.test({
  name: "real go: cobra v1.8.1 from the module proxy, checked against raw gopls",
  ignore: typeof real === "string",
  async fn(t) {
    if (typeof real === "string") return;
    const raw = await rawAnswers(real, ROOT, [FLAG_SET]);
    assert(raw.references.length > 20, `raw references: ${raw.references}`);
    await using s = await realSession(real, { included_tools: IDE_TOOLS });

    await t.step("find_references equals the raw server's references", async () => {
      const text = await s.ok("find_references", {
        relative_path: ROOT.file,
        name_path: "(*Command).Root",
      });
      assertEquals(sextantKeys(text), raw.references);
    });

    await t.step("find_referencing_symbols covers the files of the raw answer", async () => {
      const refs = flattenReferences(
        await s.ok("find_referencing_symbols", {
          name_path: "(*Command).Root",
          relative_path: ROOT.file,
        }),
      );
      const files = (keys: string[]) => [...new Set(keys.map((k) => k.split(":")[0]))].sort();
      // The raw answer includes the declaration; its file has calls of Root as well.
      assertEquals(files(refs.map((r) => r.relative_path)), files(raw.references));
      assert(refs.some((r) => r.name_path.includes("(*Command).")), JSON.stringify(refs));
    });

    await t.step("get_symbols_overview of a real file", async () => {
      const names = overviewNames(
        await s.ok("get_symbols_overview", { relative_path: "args.go" }),
      );
      for (const name of ["PositionalArgs", "NoArgs", "ExactArgs", "MatchAll"]) {
        assert(names.includes(name), `${name} missing from ${names}`);
      }
    });

    await t.step("find_symbol by name path, with body", async () => {
      const found = JSON.parse(
        await s.ok("find_symbol", { name_path_pattern: "(*Command).Root", include_body: true }),
      ) as Sym[];
      assertEquals(found.map((x) => [x.name_path, x.relative_path]), [[
        "(*Command).Root",
        ROOT.file,
      ]]);
      assert(found[0]!.body!.startsWith("func (c *Command) Root() *Command {"), found[0]!.body);
    });

    await t.step("goto_definition into pflag, where the raw server leads", async () => {
      const at = positionOf(
        await Deno.readTextFile(join(s.root, FLAG_SET.file)),
        FLAG_SET.needle,
        FLAG_SET.offset,
      );
      const def = JSON.parse(
        await s.ok("goto_definition", {
          relative_path: FLAG_SET.file,
          line: at.line + 1,
          column: at.character + 1,
        }),
      );
      assertEquals(def.found, true);
      assert(/spf13\/pflag@v[\d.]+\/flag\.go$/.test(def.file), def.file);
      assertEquals([`${def.file}:${def.line}:${def.column}`], raw.definitions[0]);
    });

    await t.step("check_project: the module builds and vets clean", async () => {
      const check = JSON.parse(await s.ok("check_project"));
      assertEquals([check.ok, check.summary.error], [true, 0], JSON.stringify(check));
    });

    await t.step("test_project with a test_name filter runs the real tests", async () => {
      const run = JSON.parse(await s.ok("test_project", { test_name: "^TestNoArgs$" }));
      assertEquals([run.ok, run.summary.passed, run.summary.failed], [true, 1, 0]);
    });

    await t.step("test_project locates a build error of the module", async () => {
      const file = join(s.root, "args.go");
      const text = await Deno.readTextFile(file);
      const head = "func NoArgs(cmd *Command, args []string) error {\n";
      assert(text.includes(head));
      await Deno.writeTextFile(file, text.replace(head, head + "\tlimit := 3\n"));
      const run = JSON.parse(await s.ok("test_project", { test_name: "^TestNoArgs$" }));
      assertEquals(run.ok, false);
      const errors = run.runs[0].build_errors as Array<Record<string, unknown>>;
      assertEquals(errors.map((e) => [e.file, e.line, e.message]), [[
        "args.go",
        43,
        "declared and not used: limit",
      ]]);
    });
  },
});

Deno.test({
  name: "real go: the dev-tools workflows on cobra over MCP (devtools context)",
  ignore: typeof real === "string",
  async fn(t) {
    if (typeof real === "string") return;
    await using s = await realSession(real, {}, ["--context", "devtools"]);
    const read = (rel: string) => Deno.readTextFile(join(s.root, rel));

    await t.step("manage_projects adds the module", async () => {
      const added = JSON.parse(await s.ok("manage_projects", { add_project_path: s.root }));
      const cobra = added.projects.find((p: { path: string }) => p.path === s.root);
      assertEquals([cobra?.name, cobra?.toolchains, added.default_project], [
        "cobra",
        ["go"],
        "cobra",
      ]);
    });

    await t.step("understanding code: get_symbol_info, find_symbol_usages", async () => {
      const info = JSON.parse(
        await s.ok("get_symbol_info", { symbol_name: "Command", file_hint: "command.go" }),
      );
      assertEquals([info.kind, info.file_path, info.line], ["Struct", "command.go", 51]);
      const usages = JSON.parse(
        await s.ok("find_symbol_usages", { symbol_name: "OnlyValidArgs", file_hint: "args.go" }),
      );
      const files = usages.files.map((f: { file: string }) => f.file).sort();
      assertEquals(files, [
        "args.go",
        "args_test.go",
        "bash_completions_test.go",
        "completions_test.go",
      ]);
    });

    await t.step("fixing errors: check_project fixes → execute_code_action → clean", async () => {
      const head = "func OnlyValidArgs(cmd *Command, args []string) error {\n";
      const text = await read("args.go");
      assert(text.includes(head));
      await Deno.writeTextFile(
        join(s.root, "args.go"),
        text.replace(head, head + '\t_ = os.Getenv("COBRA_TEST")\n'),
      );
      const check = JSON.parse(await s.ok("check_project", { include_fixes: true }));
      assertEquals(check.ok, false);
      const error = check.diagnostics.find((d: { message: string }) =>
        d.message === "undefined: os"
      );
      assert(error, JSON.stringify(check.diagnostics));
      assertEquals(error.file, "args.go");
      const fix = error.available_fixes.find((f: { title: string }) => f.title.includes('"os"'));
      assert(fix, JSON.stringify(error.available_fixes));
      const listed = JSON.parse(await s.ok("list_code_actions"));
      assert(
        listed.code_actions.some((a: { id: string }) => a.id === fix.id),
        JSON.stringify(listed),
      );
      await s.ok("execute_code_action", { action_id: fix.id });
      assert((await read("args.go")).includes('\t"os"\n'), await read("args.go"));
      const clean = JSON.parse(await s.ok("check_project"));
      assertEquals([clean.ok, clean.summary.error], [true, 0]);
    });

    await t.step("test_project with a test_name filter", async () => {
      const run = JSON.parse(await s.ok("test_project", { test_name: "^TestOnlyValidArgs$" }));
      assertEquals([run.ok, run.summary.passed, run.summary.failed], [true, 1, 0]);
    });

    await t.step("refactoring: rename preview → execute_code_action → clean", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "OnlyValidArgs",
          relative_path: "args.go",
          new_name: "OnlyValidArguments",
          preview: true,
        }),
      );
      assertEquals(preview.applied, false);
      assert((await read("args.go")).includes("func OnlyValidArgs("));
      await s.ok("execute_code_action", { action_id: preview.action_id });
      assert((await read("args.go")).includes("func OnlyValidArguments("));
      assert(!(await read("args_test.go")).includes("OnlyValidArgs,"));
      const clean = JSON.parse(await s.ok("check_project"));
      assertEquals([clean.ok, clean.summary.error], [true, 0]);
    });
  },
});
