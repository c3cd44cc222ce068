import { assertEquals } from "../../../tests/helpers/assert.ts";
import { maskPython, pythonStatements } from "./python_statements.ts";

Deno.test("python statements: strings and comments are masked, offsets kept", () => {
  const source = 'x = "import a"  # from b import c\ny = """\nimport d\n"""\n';
  const masked = maskPython(source);
  assertEquals(masked.length, source.length);
  assertEquals(masked.split("\n").length, source.split("\n").length);
  assertEquals(pythonStatements(source), []);
});

Deno.test("python statements: items with aliases across lines, at any indentation", () => {
  const source = "import a.b as x, c\nif t:\n    from ..p import (\n        q,  # why\n" +
    "        r as s,\n    )\nfrom . import *\n";
  const found = pythonStatements(source).map((s) => ({
    kind: s.kind,
    module: s.module?.text ?? null,
    items: s.items.map((i) => [i.name.text, i.alias, source.slice(i.start, i.end)]),
    indent: s.indent,
    text: source.slice(s.start, s.end),
  }));
  assertEquals(found, [
    {
      kind: "import",
      module: null,
      items: [["a.b", "x", "a.b as x"], ["c", null, "c"]],
      indent: "",
      text: "import a.b as x, c",
    },
    {
      kind: "from",
      module: "..p",
      items: [["q", null, "q"], ["r", "s", "r as s"]],
      indent: "    ",
      text: "from ..p import (\n        q,  # why\n        r as s,\n    )",
    },
    { kind: "from", module: ".", items: [], indent: "", text: "from . import *" },
  ]);
});
