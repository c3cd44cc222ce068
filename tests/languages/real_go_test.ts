/**
 * Go on real code with dependencies: the `github.com/spf13/cobra` module from the Go module
 * proxy (pinned; its dependencies in a module cache of its own, used offline;
 * tests/helpers/real_code.ts) through MCP on real gopls and go. References are checked against
 * the raw gopls's own `textDocument/references` answer on another copy; a definition leads into
 * a dependency (pflag) where the raw server's does.
 * @module
 */
import { join } from "node:path";
import { flattenReferences } from "../helpers/symbols.ts";
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
      const names = (JSON.parse(
        await s.ok("get_symbols_overview", { relative_path: "args.go" }),
      ) as Sym[]).map((x) => x.name_path);
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
