/**
 * Python through MCP on the second and third servers of the registry: basedpyright and
 * python-lsp-server, each chosen with `language_servers.python.command` in the user's global config
 * (fixture fixtures/python: a base class, two subclasses, a registry, a file with a type error).
 * Neither pyright nor basedpyright formats: format_file is tested on pylsp (autopep8).
 * @module
 */
import { flattenReferences, referenceLines } from "../helpers/symbols.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { IDE_TOOLS, langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { serverSpecs } from "../../src/lsp/registry.ts";

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

const names = (text: string) => (JSON.parse(text) as Sym[]).map((s) => s.name_path);

/** Whether the Python that runs pylsp has autopep8, pylsp's built-in formatter plugin. */
const hasAutopep8 = (() => {
  try {
    return new Deno.Command("python3", { args: ["-c", "import autopep8"], stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

const config = (command: string) => ({
  included_tools: IDE_TOOLS,
  language_servers: { python: { command } },
});

Deno.test("language_servers.<id>.command naming a known server keeps its options", () => {
  const specs = serverSpecs("/nowhere", { python: { command: "basedpyright-langserver" } });
  const python = specs.find((s) => s.id === "python")!;
  assertEquals(python.commands.map((c) => c.command), ["basedpyright-langserver"]);
  assertEquals(python.commands[0]!.args, ["--stdio"]);
  assert(python.commands[0]!.readyLogPattern, "the ready pattern of pyright-based servers");
  const custom = serverSpecs("/nowhere", { python: { command: "my-pyls", args: ["-v"] } })
    .find((s) => s.id === "python")!;
  assertEquals(custom.commands.map((c) => [c.command, c.args]), [["my-pyls", ["-v"]]]);
});

Deno.test({
  name: "python on basedpyright: symbols, navigation, edits, diagnostics, a quick fix",
  ignore: skipUnless(hasServer("basedpyright-langserver"), "basedpyright tests"),
  async fn(t) {
    await using s = await langSession("python", {
      globalConfig: config("basedpyright-langserver"),
    });

    await t.step("overview and find_symbol by name path", async () => {
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "shapes/circle.py" }),
        '{"Class":["Circle"]}',
      );
      const found = JSON.parse(
        await s.ok("find_symbol", {
          name_path_pattern: "Circle/area",
          include_body: true,
        }),
      ) as Sym[];
      assertEquals(found.map((x) => x.relative_path), ["shapes/circle.py"]);
      assertEquals(
        found[0]!.body,
        "def area(self) -> float:\n        return math.pi * self.radius * self.radius",
      );
    });

    await t.step("references and implementations", async () => {
      const refs = flattenReferences(
        await s.ok("find_referencing_symbols", {
          name_path: "Circle",
          relative_path: "shapes/circle.py",
        }),
      );
      assertEquals([...new Set(refs.map((r) => r.relative_path))].sort(), [
        "app.py",
        "broken.py",
        "shapes/__init__.py",
        "shapes/circle.py",
        "shapes/registry.py",
      ]);
      assertEquals(
        names(
          await s.ok("find_implementations", {
            name_path: "Shape/area",
            relative_path: "shapes/base.py",
          }),
        ),
        ["Circle/area", "Square/area"],
      );
    });

    await t.step("hover and goto_definition", async () => {
      const hover = JSON.parse(
        await s.ok("hover", {
          relative_path: "shapes/base.py",
          name_path: "Shape/describe",
        }),
      );
      assertStringIncludes(hover.contents, "def describe(self: Self@Shape) -> str");
      // broken.py line 8: `    return circle.radius`, on `radius`.
      const def = JSON.parse(
        await s.ok("goto_definition", {
          relative_path: "broken.py",
          line: 8,
          column: 19,
        }),
      );
      assertEquals([def.file, def.preview], ["shapes/circle.py", "self.radius = radius"]);
    });

    await t.step("type_definition of a variable: its class", async () => {
      // app.py line 7: `    registry = ShapeRegistry()`, on `registry`.
      const typeDef = JSON.parse(
        await s.ok("type_definition", { relative_path: "app.py", line: 7, column: 6 }),
      );
      assertEquals([typeDef.file, typeDef.line, typeDef.preview], [
        "shapes/registry.py",
        8,
        "class ShapeRegistry:",
      ]);
    });

    await t.step("basedpyright's quick fix executed by id; it has no formatter", async () => {
      const listed = JSON.parse(
        await s.ok("code_actions", { relative_path: "broken.py", start_line: 4 }),
      );
      const fix = listed.actions.find((a: { title: string }) =>
        a.title === "Add `# pyright: ignore[reportAssignmentType]`"
      );
      assert(fix, JSON.stringify(listed));
      await s.ok("execute_code_action", { action_id: fix.id });
      assertStringIncludes(
        await s.read("broken.py"),
        'count: int = "three"  # pyright: ignore[reportAssignmentType]\n',
      );
      assertEquals(
        await s.ok("get_diagnostics_for_file", { relative_path: "broken.py", min_severity: 1 }),
        "{}",
      );
      await s.write(
        "broken.py",
        (await s.read("broken.py")).replace("  # pyright: ignore[reportAssignmentType]", ""),
      );
      const format = await s.call("format_file", { relative_path: "broken.py" });
      assertEquals(format.isError, true);
      assertStringIncludes(format.text, "does not support formatting");
    });

    await t.step("diagnostics come from basedpyright and follow an edit", async () => {
      const before = JSON.parse(
        await s.ok("get_diagnostics_for_file", {
          relative_path: "broken.py",
          min_severity: 1,
        }),
      );
      // As Serena groups it: the variable's range is its name, so the error is the file's.
      const errors = before["broken.py"].Error["<file>"] as Array<{ code: string; source: string }>;
      assertEquals(errors.map((e) => [e.code, e.source]), [[
        "reportAssignmentType",
        "basedpyright",
      ]]);
      const text = await s.read("broken.py");
      await s.write("broken.py", text.replace('"three"', "3"));
      assertEquals(
        await s.ok("get_diagnostics_for_file", { relative_path: "broken.py", min_severity: 1 }),
        "{}",
      );
    });

    await t.step("rename, replace_symbol_body, insert_after_symbol", async () => {
      await s.ok("rename_symbol", {
        name_path: "Shape/describe",
        relative_path: "shapes/base.py",
        new_name: "summary",
      });
      assertStringIncludes(await s.read("shapes/base.py"), "def summary(self) -> str:");
      await s.ok("replace_symbol_body", {
        name_path: "radius_of",
        relative_path: "broken.py",
        body: "def radius_of(circle: Circle) -> float:\n    return 2 * circle.radius",
      });
      await s.ok("insert_after_symbol", {
        name_path: "radius_of",
        relative_path: "broken.py",
        body: "\n\ndef diameter_of(circle: Circle) -> float:\n    return radius_of(circle)\n",
      });
      assertEquals(
        await s.ok("get_symbols_overview", { relative_path: "broken.py" }),
        '{"Variable":["count"],"Function":["radius_of","diameter_of"]}',
      );
    });
  },
});

Deno.test({
  name: "python on python-lsp-server: symbols, references, rename, type definition, format",
  ignore: skipUnless(hasServer("pylsp", ["--version"]), "python-lsp-server tests"),
  async fn() {
    await using s = await langSession("python", { globalConfig: config("pylsp") });
    const overview = await s.ok("get_symbols_overview", { relative_path: "shapes/circle.py" });
    // pylsp also lists the imported class.
    assertEquals(JSON.parse(overview).Class, ["Shape", "Circle"]);
    const found = JSON.parse(
      await s.ok("find_symbol", { name_path_pattern: "Circle/area" }),
    ) as Sym[];
    assertEquals(found.map((x) => x.relative_path), ["shapes/circle.py"]);
    const refs = referenceLines(
      await s.ok("find_referencing_symbols", {
        name_path: "ShapeRegistry/add",
        relative_path: "shapes/registry.py",
      }),
    );
    assertEquals(refs.map((r) => r.split("|").slice(0, 3).join(":")), [
      "app.py:Function:main",
      "app.py:Function:main",
      "app.py:Function:main",
      "app.py:Function:main",
    ]);
    await s.ok("rename_symbol", {
      name_path: "ShapeRegistry/add",
      relative_path: "shapes/registry.py",
      new_name: "put",
    });
    assertEquals((await s.read("app.py")).match(/registry\.put\(/g)?.length, 4);

    // app.py line 7: `    registry = ShapeRegistry()`, on `registry` (jedi's answer).
    const typeDef = JSON.parse(
      await s.ok("type_definition", { relative_path: "app.py", line: 7, column: 6 }),
    );
    assertEquals([typeDef.file, typeDef.line], ["shapes/registry.py", 8]);

    // pylsp formats with autopep8 (its built-in plugin) when that is installed.
    if (!hasAutopep8) {
      console.log(
        "skipping format_file on pylsp: autopep8 is not installed (pip install autopep8)",
      );
      return;
    }
    await s.write("messy.py", "def f( a,b ):\n  return a+b\n");
    const preview = JSON.parse(
      await s.ok("format_file", { relative_path: "messy.py", preview: true }),
    );
    assertEquals([preview.formatted, preview.applied], [false, false]);
    assertStringIncludes(preview.diff, "+def f(a, b):");
    assertEquals(await s.read("messy.py"), "def f( a,b ):\n  return a+b\n");
    const applied = JSON.parse(await s.ok("format_file", { relative_path: "messy.py" }));
    assertEquals([applied.formatted, applied.applied], [true, true]);
    assertEquals(await s.read("messy.py"), "def f(a, b):\n    return a+b\n");
  },
});
