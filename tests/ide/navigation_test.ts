/**
 * The IDE navigation tools against the real servers (typescript-language-server, pyright) on
 * copies of fixtures/typescript and fixtures/python, plus a few inline files (non-ASCII lines,
 * an unfinished member access). One server per language for the whole file; answers are checked
 * against known truth on the first call. Pure position conversions are unit-tested first.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { disposeAndCheck, fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import {
  codePointLength,
  columnOfUtf16,
  toAgentPosition,
  toLspPosition,
  utf16OfColumn,
} from "../../src/lsp/positions.ts";
import { ADA_ALIAS_NAMES } from "../../src/tools/ada/aliases.ts";
import { DEFAULT_SETTINGS } from "../../src/config/schema.ts";
import { selectTools } from "../../src/config/tool_selection.ts";
import { ADA_ALIAS_TOOLS, ALL_TOOLS } from "../../src/tools/mod.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { completions } from "../../src/tools/ide/completions.ts";
import { signatureHelp } from "../../src/tools/ide/signature_help.ts";
import { findReferences } from "../../src/tools/ide/find_references.ts";
import {
  gotoDefinition,
  implementation,
  typeDefinition,
} from "../../src/tools/ide/goto_definition.ts";
import { hover } from "../../src/tools/ide/hover.ts";
import { callHierarchy } from "../../src/tools/ide/call_hierarchy.ts";
import { documentSymbols } from "../../src/tools/ide/document_symbols.ts";
import { kindsOf, nameRank, workspaceSymbols } from "../../src/tools/ide/workspace_symbols.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_PY = hasServer("pyright-langserver");

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("positions: 1-based code-point columns <-> UTF-16 offsets", () => {
  const line = 'const s = "😀é"; let x = 1;';
  assertEquals(codePointLength(line), line.length - 1); // the emoji is two UTF-16 units
  const x = line.indexOf("x"); // UTF-16 offset
  assertEquals(columnOfUtf16(line, x), x); // one column less than offset + 1
  assertEquals(utf16OfColumn(line, x), x);
  assertEquals(utf16OfColumn(line, 13), 13); // é, after the two-unit emoji
  assertEquals(utf16OfColumn(line, 1), 0);
  assertEquals(columnOfUtf16(line, line.length), codePointLength(line) + 1);
  // Inside the surrogate pair: the emoji's own column.
  assertEquals(columnOfUtf16(line, 12), 12);
  const lines = ["ab", line, ""];
  assertEquals(toLspPosition(lines, 2, 12, "f"), { line: 1, character: 11 });
  assertEquals(toLspPosition(lines, 2, 13, "f"), { line: 1, character: 13 });
  assertEquals(toAgentPosition(lines, { line: 1, character: 13 }), { line: 2, column: 13 });
  assertEquals(toLspPosition(lines, 3, 1, "f"), { line: 2, character: 0 });
});

Deno.test("positions: out-of-range lines and columns are clear errors", () => {
  const lines = ["abc", "é"];
  const fail = (line: number, column: number, expected: RegExp) => {
    try {
      toLspPosition(lines, line, column, "src/a.ts");
    } catch (error) {
      assertMatch((error as Error).message, expected);
      return;
    }
    throw new Error(`no error for ${line}:${column}`);
  };
  fail(0, 1, /Line 0 is outside 'src\/a.ts', which has 2 line\(s\)/);
  fail(3, 1, /Line 3 is outside/);
  fail(2, 3, /Column 3 is outside line 2 of 'src\/a.ts', which has 1 character\(s\).*1\.\.2/);
  fail(1, 0, /Column 0/);
});

Deno.test("workspace symbol ranking and kind filters", () => {
  const names = ["circles", "Circle", "makeCircle", "circle", "Circ", "xCxixrc"];
  const ranked = [...names].sort((a, b) => nameRank(a, "Circ") - nameRank(b, "Circ"));
  assertEquals(ranked, ["Circ", "Circle", "circles", "circle", "makeCircle", "xCxixrc"]);
  assertEquals(kindsOf("all"), null);
  assertEquals([...kindsOf("class, method")!].sort(), [5, 6]);
  assert(kindsOf("type")!.has(11));
  let message = "";
  try {
    kindsOf("widget");
  } catch (error) {
    message = (error as Error).message;
  }
  assertStringIncludes(message, "Unknown kind 'widget'");
});

Deno.test("ada aliases share the implementation, rename the file parameter, are optional", () => {
  assertEquals(ADA_ALIAS_TOOLS.length, 14);
  assertEquals(ADA_ALIAS_NAMES.includes("ada_rename_symbol"), true);
  for (const tool of ADA_ALIAS_TOOLS) {
    assert(tool.markers.includes("optional"), `${tool.name} is optional`);
    assert(!("relative_path" in tool.params), `${tool.name} has no relative_path`);
    assert(tool.description.length < 1024, `${tool.name} description too long`);
  }
  const def = ADA_ALIAS_TOOLS.find((t) => t.name === "ada_goto_definition")!;
  assert("file" in def.params && "line" in def.params && "name_path" in def.params);
  const ws = ADA_ALIAS_TOOLS.find((t) => t.name === "ada_workspace_symbols")!;
  assert("query" in ws.params && !("file" in ws.params));
  // Only the ada context exposes them; the default context keeps the core IDE tools.
  const names = (context: string) =>
    selectTools(ALL_TOOLS, { settings: DEFAULT_SETTINGS, context, modes: [] }).map((t) => t.name);
  const ada = names("ada");
  for (const alias of ADA_ALIAS_NAMES) assert(ada.includes(alias), `${alias} in ada`);
  const desktop = names("desktop-app");
  assert(!desktop.some((n) => n.startsWith("ada_")), "no aliases by default");
  // Serena 2.1's desktop-app and agent lists have neither; the ide context keeps both.
  for (const core of ["goto_definition", "hover"]) {
    assert(!desktop.includes(core), `${core} not in desktop-app`);
    assert(!names("agent").includes(core), `${core} not in agent`);
    assert(names("ide").includes(core), `${core} in ide`);
  }
  assert(!desktop.includes("completions"), "completions is optional");
  // Raw references and project diagnostics duplicate Serena's tools by default; ide adds them.
  assert(!desktop.includes("find_references") && !desktop.includes("diagnostics"));
  const ide = names("ide");
  assert(ide.includes("find_references") && ide.includes("diagnostics"), "ide adds them");
});

Deno.test({
  name: "IDE navigation on TypeScript (typescript-language-server)",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const tree = await fixtureTree("typescript");
  tree["src/use.ts"] = 'import { Circle } from "./shapes.ts";\nconst c = new Circle(1);\nc.\n';
  tree["src/uni.ts"] = 'export const s = "😀😀"; const café = 1; export const x = café;\n';
  await using h = await toolHarness(tree);
  const json = async (tool: Tool, args: Json) => JSON.parse(await h.call(tool, args));
  const error = async (tool: Tool, args: Json) => {
    const r = await h.run(tool, args);
    assert(r.isError, `expected an error, got ${r.text}`);
    return r.text;
  };

  await t.step("goto_definition across files (first call, cold server)", async () => {
    // main.ts line 7: `  const registry = new ShapeRegistry();`
    assertEquals(
      await json(gotoDefinition, { relative_path: "src/main.ts", line: 7, column: 24 }),
      {
        found: true,
        file: "src/registry.ts",
        line: 4,
        column: 14,
        preview: "export class ShapeRegistry {",
      },
    );
  });

  await t.step("columns are code points on non-ASCII lines (emoji = 1 column)", async () => {
    const r = await json(gotoDefinition, { relative_path: "src/uni.ts", line: 1, column: 58 });
    assertEquals([r.file, r.line, r.column], ["src/uni.ts", 1, 30]);
  });

  await t.step("definition into a library is an absolute path", async () => {
    // registry.ts line 8: `    this.shapes.set(key, shape);` → Map.set in lib.es2015.collection.d.ts
    const r = await json(gotoDefinition, { relative_path: "src/registry.ts", line: 8, column: 17 });
    assert(r.found);
    assert(r.file.startsWith("/") && r.file.endsWith(".d.ts"), r.file);
    assertStringIncludes(r.preview, "set(");
  });

  await t.step("type_definition of a variable is its class", async () => {
    // main.ts line 9: `  const big: Circle = scale(small, 3);` — `big`
    const r = await json(typeDefinition, { relative_path: "src/main.ts", line: 9, column: 9 });
    assertEquals([r.file, r.line, r.column], ["src/shapes.ts", 9, 14]);
  });

  await t.step("implementation of an interface (by name_path) lists both classes", async () => {
    const r = await json(implementation, { relative_path: "src/shapes.ts", name_path: "Shape" });
    const where = r.locations.map((l: Json) => `${l.file}:${l.line}`);
    assert(where.includes("src/shapes.ts:9") && where.includes("src/shapes.ts:27"), where);
  });

  await t.step("hover shows the signature, at a position and by name_path", async () => {
    const r = await json(hover, { relative_path: "src/main.ts", line: 9, column: 24 });
    // The call resolves to the Circle overload; `scale` is an imported alias here.
    assertStringIncludes(r.contents, "scale(shape: Circle, factor: number): Circle");
    assertEquals(r.kind, "alias");
    const m = await json(hover, { relative_path: "src/shapes.ts", name_path: "Circle/area" });
    assertEquals(m.contents, "(method) Circle.area(): number");
    assertEquals(m.kind, "method");
  });

  await t.step("find_references: every reference to Circle, declaration flagged", async () => {
    const r = await json(findReferences, { relative_path: "src/shapes.ts", line: 9, column: 14 });
    assertEquals(r.symbol, "Circle");
    assertEquals(r.totalCount, 20 + 2); // 20 in the fixture (engine test) + 2 in src/use.ts
    const declarations = r.references.filter((x: Json) => x.is_definition);
    assertEquals(declarations.map((x: Json) => `${x.file}:${x.line}:${x.column}`), [
      "src/shapes.ts:9:14",
    ]);
    const without = await json(findReferences, {
      relative_path: "src/shapes.ts",
      name_path: "Circle",
      include_declaration: false,
    });
    assertEquals(without.totalCount, 21);
  });

  await t.step("find_references falls back to a compact form when too long", async () => {
    const text = await h.call(findReferences, {
      relative_path: "src/shapes.ts",
      name_path: "Circle",
      max_answer_chars: 700,
    });
    assertStringIncludes(text, "references as file");
    assertStringIncludes(text, '"src/main.ts":["4:10"');
  });

  await t.step("signature_help inside a call, and by name_path at the declaration", async () => {
    // main.ts line 9: `scale(small, 3)`, column 29 is on `small`.
    const r = await json(signatureHelp, { relative_path: "src/main.ts", line: 9, column: 29 });
    assert(r.found);
    const labels = r.signatures.map((s: Json) => s.label);
    assert(
      labels.some((l: string) => l.startsWith("scale(shape: Circle, factor: number)")),
      labels,
    );
    assertEquals(r.activeParameter, 0);
    const d = await json(signatureHelp, {
      relative_path: "src/geometry.ts",
      name_path: "totalArea",
    });
    assertEquals(d.signatures[0].label, "function totalArea(shapes: readonly Shape[]): number");
  });

  await t.step("completions after '.' contain the class members", async () => {
    const r = await json(completions, {
      relative_path: "src/use.ts",
      line: 3,
      column: 3,
      trigger: ".",
    });
    const labels = r.completions.map((c: Json) => c.label);
    for (const member of ["area", "name", "perimeter", "radius"]) {
      assert(labels.includes(member), `${member} missing: ${labels}`);
    }
    assertEquals(r.completions.find((c: Json) => c.label === "area").kind, "method");
  });

  await t.step("call_hierarchy: incoming and outgoing calls of totalArea", async () => {
    const r = await json(callHierarchy, {
      relative_path: "src/geometry.ts",
      name_path: "totalArea",
    });
    assertEquals([r.symbol, r.kind, r.file, r.line], [
      "totalArea",
      "function",
      "src/geometry.ts",
      13,
    ]);
    assertEquals(r.incoming.map((c: Json) => [c.name, c.file, c.line, c.call_lines]), [
      ["main", "src/main.ts", 6, [16]],
    ]);
    assert(r.outgoing.some((c: Json) => c.name === "areaOf" && c.file === "src/geometry.ts"));
    const only = await json(callHierarchy, {
      relative_path: "src/geometry.ts",
      name_path: "totalArea",
      direction: "incoming",
    });
    assertEquals("outgoing" in only, false);
  });

  await t.step("document_symbols is hierarchical with 1-based lines", async () => {
    const r = await json(documentSymbols, { relative_path: "src/shapes.ts" });
    assertEquals(r.symbols.map((s: Json) => `${s.name}:${s.kind}:${s.line}`), [
      "Shape:interface:3",
      "Circle:class:9",
      "Square:class:27",
    ]);
    assertEquals(r.symbols[1].children.map((c: Json) => c.name), [
      "name",
      "constructor",
      "radius",
      "area",
      "perimeter",
      "unit",
    ]);
    const top = await json(documentSymbols, { relative_path: "src/shapes.ts", depth: 0 });
    assertEquals(top.symbols.some((s: Json) => "children" in s), false);
  });

  await t.step(
    "workspace_symbols: partial names, exact and prefix first, kind filter",
    async () => {
      const r = await json(workspaceSymbols, { query: "Circ" });
      assertEquals(r.symbols[0], {
        name: "Circle",
        kind: "class",
        file: "src/shapes.ts",
        line: 9,
        column: 14,
        preview: "export class Circle implements Shape {",
      });
      assert(r.symbols.some((s: Json) => s.name === "circles"));
      const methods = await json(workspaceSymbols, { query: "area", kind: "method" });
      assert(methods.symbols.length >= 3);
      assert(methods.symbols.every((s: Json) => s.kind === "method"));
    },
  );

  await t.step("clear errors: bad positions, files and symbols", async () => {
    assertMatch(
      await error(gotoDefinition, { relative_path: "src/main.ts", line: 99, column: 1 }),
      /Line 99 is outside 'src\/main.ts', which has \d+ line/,
    );
    assertMatch(
      await error(hover, { relative_path: "src/main.ts", line: 7, column: 200 }),
      /Column 200 is outside line 7 of 'src\/main.ts'/,
    );
    assertMatch(
      await error(hover, { relative_path: "src/nope.ts", line: 1, column: 1 }),
      /No file or directory 'src\/nope.ts'/,
    );
    assertMatch(
      await error(findReferences, { relative_path: "src/shapes.ts", name_path: "Hexagon" }),
      /Hexagon/,
    );
    assertMatch(
      await error(hover, { relative_path: "src/main.ts", line: 7 }),
      /both line and column/,
    );
    assertMatch(
      await error(hover, { relative_path: "src/main.ts" }),
      /No position given/,
    );
    assertMatch(
      await error(hover, { relative_path: "src/main.ts", line: 7, column: 3, name_path: "main" }),
      /either line and column, or name_path/,
    );
    assertMatch(
      await error(gotoDefinition, { relative_path: "../outside.ts", line: 1, column: 1 }),
      /outside the project/,
    );
    // A position with nothing there is an answer, not an error.
    const nothing = await json(gotoDefinition, {
      relative_path: "src/main.ts",
      line: 5,
      column: 1,
    });
    assertEquals(nothing.found, false);
  });

  await t.step("the ada alias takes `file` and answers like the tool", async () => {
    const alias = ADA_ALIAS_TOOLS.find((x) => x.name === "ada_goto_definition")!;
    const r = await json(alias, { file: h.path("src/main.ts"), line: 7, column: 24 });
    assertEquals([r.file, r.line, r.column], ["src/registry.ts", 4, 14]);
  });

  await disposeAndCheck(h);
});

Deno.test({
  name: "IDE navigation on Python (pyright)",
  ignore: skipUnless(HAS_PY, "pyright"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(await fixtureTree("python"));
  const json = async (tool: Tool, args: Json) => JSON.parse(await h.call(tool, args));

  await t.step("goto_definition through a package re-export (first call)", async () => {
    // app.py line 8: `    small = Circle(1.0)`
    assertEquals(await json(gotoDefinition, { relative_path: "app.py", line: 8, column: 13 }), {
      found: true,
      file: "shapes/circle.py",
      line: 7,
      column: 7,
      preview: "class Circle(Shape):",
    });
  });

  await t.step("hover has the signature and the docstring", async () => {
    const r = await json(hover, { relative_path: "app.py", line: 8, column: 13 });
    assertEquals(r.contents, "class Circle(radius: float)");
    assertEquals(r.documentation, "A circle with a radius.");
  });

  await t.step("find_references of Shape across the package", async () => {
    const r = await json(findReferences, { relative_path: "shapes/base.py", name_path: "Shape" });
    const files = new Set(r.references.map((x: Json) => x.file));
    for (
      const f of ["shapes/base.py", "shapes/circle.py", "shapes/square.py", "shapes/registry.py"]
    ) {
      assert(files.has(f), `${f} missing`);
    }
    assertEquals(
      r.references.filter((x: Json) => x.is_definition).map((x: Json) => `${x.file}:${x.line}`),
      ["shapes/base.py:4"],
    );
  });

  await t.step("signature_help of total_area inside its call", async () => {
    // app.py line 14: `    return f"{total_area([small, big])} ..."`, column 26 is inside the call.
    const r = await json(signatureHelp, { relative_path: "app.py", line: 14, column: 26 });
    assertEquals(r.signatures[0].label, "(shapes: List[Shape]) -> float");
    assertEquals(r.signatures[0].parameters, [{ label: "shapes: List[Shape]" }]);
  });

  await t.step("completions of a member access include the methods", async () => {
    // app.py line 10: `    registry.add("small", small)`; the cursor right after `registry.`.
    const r = await json(completions, { relative_path: "app.py", line: 10, column: 14 });
    const labels = r.completions.map((c: Json) => c.label);
    for (const m of ["add", "circles", "get"]) assert(labels.includes(m), `${m}: ${labels}`);
  });

  await t.step("call_hierarchy: main calls total_area", async () => {
    const r = await json(callHierarchy, {
      relative_path: "shapes/registry.py",
      name_path: "total_area",
      direction: "incoming",
    });
    assertEquals(r.incoming.map((c: Json) => [c.name, c.file, c.line, c.call_lines]), [
      ["main", "app.py", 6, [14]],
    ]);
  });

  await t.step("workspace_symbols ranks exact names first", async () => {
    const r = await json(workspaceSymbols, { query: "area" });
    assertEquals(r.symbols.slice(0, 3).map((s: Json) => `${s.container}.${s.name}`), [
      "Shape.area",
      "Circle.area",
      "Square.area",
    ]);
    assertEquals(r.symbols.at(-1).name, "total_area");
  });

  await t.step("a capability the server lacks is a clear error", async () => {
    const r = await h.run(implementation, { relative_path: "shapes/base.py", name_path: "Shape" });
    assert(r.isError);
    assertMatch(r.text, /pyright-langserver\) does not support implementation/);
  });

  await disposeAndCheck(h);
});
