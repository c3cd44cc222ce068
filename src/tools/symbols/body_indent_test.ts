import { assertEquals } from "../../../tests/helpers/assert.ts";
import { indentLater, reindent, relativeBody } from "./body_indent.ts";

Deno.test("reindent: flush-left bodies get the symbol's indentation, copied ones stay", () => {
  // Written relative to column 0 (Python): every line moves in.
  assertEquals(
    reindent("def f(self):\n    return 1", "    ", ".py", false),
    "    def f(self):\n        return 1",
  );
  // Copied from a symbol body (later lines absolute): only the first line moves in.
  assertEquals(
    reindent("def f(self):\n        return 1", "    ", ".py", false),
    "    def f(self):\n        return 1",
  );
  // Braces: a closing brace at the symbol's indentation means "copied".
  assertEquals(reindent("f() {\n    x;\n  }", "  ", ".ts", false), "  f() {\n    x;\n  }");
  assertEquals(reindent("f() {\n  x;\n}", "  ", ".ts", false), "  f() {\n    x;\n  }");
  // Replacing a body: the first line already sits after the indentation.
  assertEquals(reindent("f() {\n  x;\n}", "  ", ".ts", true), "f() {\n    x;\n  }");
  // Already indented, or a top-level symbol: unchanged; blank lines stay empty.
  assertEquals(reindent("  a\n\n  b", "  ", ".ts", false), "  a\n\n  b");
  assertEquals(reindent("a\n  b", "", ".ts", false), "a\n  b");
  assertEquals(reindent("x = 1", "    ", ".py", false), "    x = 1");
});

Deno.test("relativeBody: a copied body's later lines lose the symbol's indentation", () => {
  assertEquals(relativeBody("f() {\n    x;\n  }", "  ", ".ts"), "f() {\n  x;\n}");
  assertEquals(relativeBody("f() {\n  x;\n}", "  ", ".ts"), "f() {\n  x;\n}");
  assertEquals(
    relativeBody("def f(self):\n        return 1", "    ", ".py"),
    "def f(self):\n    return 1",
  );
  // Placed again: the same text as reindent gives.
  assertEquals(
    indentLater(relativeBody("f() {\n    x;\n  }", "  ", ".ts"), "  "),
    reindent("f() {\n    x;\n  }", "  ", ".ts", true),
  );
  assertEquals(indentLater("a\n\nb", "  "), "a\n\n  b");
});
