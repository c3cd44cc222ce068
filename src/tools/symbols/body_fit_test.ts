import { assertEquals, assertStringIncludes } from "../../../tests/helpers/assert.ts";
import { fitBody } from "./body_fit.ts";
import { declarationIn, leadSyntaxFor } from "./declaration_parts.ts";

/**
 * Replace the symbol marked in `file` by «range» with its name in ‹name› (as a server gives
 * them) by `body`; the resulting file, or the refusal.
 */
function replace(file: string, body: string, relPath = "src/a.ts"): string {
  const start = file.indexOf("«");
  const nameStart = file.indexOf("‹") - 1;
  const nameEnd = file.indexOf("›") - 2;
  const end = file.indexOf("»") - 3;
  const text = file.replace(/[«»‹›]/g, "");
  const ext = relPath.slice(relPath.lastIndexOf("."));
  const syntax = leadSyntaxFor(relPath);
  const declaration = declarationIn(text, { start, end, nameStart, nameEnd, floor: 0 }, syntax);
  const fit = fitBody(body, { text, declaration, syntax, ext, namePath: "x", relPath });
  return "refused" in fit ? `refused: ${fit.refused}` : text.slice(0, fit.from) + fit.text +
    text.slice(fit.to);
}

Deno.test("TypeScript: `export const` with JSDoc, the body with or without either", () => {
  const file = "/** Splits. */\nexport const «‹splitPath› = (p: string) => p.split('/')»;\n";
  const want = (value: string, doc = "/** Splits. */") =>
    `${doc}\nexport const splitPath = ${value};\n`;
  assertEquals(replace(file, "splitPath = () => []"), want("() => []"));
  assertEquals(replace(file, "const splitPath = () => []"), want("() => []"));
  assertEquals(replace(file, "export const splitPath = () => []"), want("() => []"));
  assertEquals(
    replace(file, "/** Splits a path. */\nexport const splitPath = () => []"),
    want("() => []", "/** Splits a path. */"),
  );
  // A body that starts at the name, with a doc comment: the head stays.
  assertEquals(
    replace(file, "/**\n * New.\n */\nsplitPath = () => []"),
    want("() => []", "/**\n * New.\n */"),
  );
});

Deno.test("TypeScript: `export function` (tsserver's range starts at export)", () => {
  const file =
    "/**\n * Doubles.\n */\n«export function ‹double›(n: number) {\n  return n * 2;\n}»\n";
  const rest = "double(n: number) {\n  return 2 * n;\n}\n";
  const doc = "/**\n * Doubles.\n */\n";
  assertEquals(replace(file, `function ${rest.trimEnd()}`), `${doc}export function ${rest}`);
  assertEquals(replace(file, `export function ${rest.trimEnd()}`), `${doc}export function ${rest}`);
  assertEquals(
    replace(file, `/** Twice. */\nexport function ${rest.trimEnd()}`),
    `/** Twice. */\nexport function ${rest}`,
  );
  // Another form of the declaration keeps what makes it visible, or is refused.
  assertEquals(
    replace(file, "export const double = (n: number) => 2 * n;"),
    `${doc}export const double = (n: number) => 2 * n;\n`,
  );
  const refused = replace(file, "const double = (n: number) => 2 * n;");
  assertStringIncludes(refused, "refused: The new body declares 'x' without 'export'");
  assertStringIncludes(refused, "src/a.ts line 4 ('export function double(n: number) {')");
  assertStringIncludes(refused, "'export const double'");
});

Deno.test("TypeScript: a new JSDoc keeps the other comments and the decorators", () => {
  const file = "/** Old. */\n// eslint-disable-next-line no-explicit-any\n" +
    "«export function ‹f›(x: any) {}»\n";
  assertEquals(
    replace(file, "/** New. */\nexport function f(x: any) { return x; }"),
    "/** New. */\n// eslint-disable-next-line no-explicit-any\n" +
      "export function f(x: any) { return x; }\n",
  );
  assertEquals(
    replace(file, "// Plain.\nexport function f(x: any) { return x; }"),
    "/** Old. */\n// Plain.\nexport function f(x: any) { return x; }\n",
  );
});

Deno.test("TypeScript: a decorated method in a class, indented", () => {
  const file =
    "class K {\n  /** Doc. */\n  «@dec()\n  static async ‹m›() {\n    return 1;\n  }»\n}\n";
  assertEquals(
    replace(file, "m() {\n  return 2;\n}"),
    "class K {\n  /** Doc. */\n  @dec()\n  static async m() {\n    return 2;\n  }\n}\n",
  );
  // Copied from find_symbol (later lines where they stand), with a new decorator.
  assertEquals(
    replace(file, "@other\n  static async m() {\n    return 2;\n  }"),
    "class K {\n  /** Doc. */\n  @other\n  static async m() {\n    return 2;\n  }\n}\n",
  );
});

Deno.test("Rust: doc comments and attributes inside rust-analyzer's range stay", () => {
  const file = "mod tests {\n    «/// Checks add.\n    #[test]\n    fn ‹adds›() {\n" +
    "        assert_eq!(1, 1);\n    }»\n}\n";
  const kept = "mod tests {\n    /// Checks add.\n    #[test]\n    fn adds() {\n" +
    "        assert_eq!(2, 2);\n    }\n}\n";
  const rs = (body: string) => replace(file, body, "src/lib.rs");
  assertEquals(rs("fn adds() {\n    assert_eq!(2, 2);\n}"), kept);
  // A body with its attributes but no doc comment keeps the doc comment.
  assertEquals(rs("#[test]\nfn adds() {\n    assert_eq!(2, 2);\n}"), kept);
  // Its own doc comment replaces the old one; the attribute stays.
  assertEquals(
    rs("/// Adds again.\nfn adds() {\n    assert_eq!(2, 2);\n}"),
    kept.replace("/// Checks add.", "/// Adds again."),
  );
  // Both of its own: as given.
  assertEquals(
    rs("/// New.\n#[test]\n#[ignore]\nfn adds() {\n    assert_eq!(2, 2);\n}"),
    kept.replace("/// Checks add.\n    #[test]", "/// New.\n    #[test]\n    #[ignore]"),
  );
});

Deno.test("Rust: `pub` and a multi-line attribute", () => {
  const file = "«/// A point.\n#[derive(\n    Debug,\n)]\npub struct ‹P› {\n    x: i32,\n}»\n";
  assertEquals(
    replace(file, "struct P {\n    x: i64,\n}", "src/lib.rs"),
    "/// A point.\n#[derive(\n    Debug,\n)]\npub struct P {\n    x: i64,\n}\n",
  );
  assertEquals(
    replace(file, "pub(crate) struct P {}", "src/lib.rs"),
    "/// A point.\n#[derive(\n    Debug,\n)]\npub(crate) struct P {}\n",
  );
});

Deno.test("Go: a doc comment above gopls's range, and a type's range at its name", () => {
  const file =
    "// Add adds.\n// Second line.\n«func ‹Add›(a, b int) int {\n\treturn a + b\n}»\n\n" +
    "// T is a type.\ntype «‹T› struct{}»\n";
  const go = (body: string) => replace(file, body, "a.go");
  assertEquals(
    go("// Add sums.\nfunc Add(a, b int) int {\n\treturn b + a\n}"),
    "// Add sums.\nfunc Add(a, b int) int {\n\treturn b + a\n}\n\n// T is a type.\ntype T struct{}\n",
  );
  assertEquals(
    go("func Add(a, b int) int {\n\treturn b + a\n}"),
    "// Add adds.\n// Second line.\nfunc Add(a, b int) int {\n\treturn b + a\n}\n\n" +
      "// T is a type.\ntype T struct{}\n",
  );
  const typeFile = "// T is a type.\ntype «‹T› struct{}»\n";
  assertEquals(
    replace(typeFile, "// T holds X.\ntype T struct{ X int }", "a.go"),
    "// T holds X.\ntype T struct{ X int }\n",
  );
  assertEquals(
    replace(typeFile, "type T struct{ X int }", "a.go"),
    "// T is a type.\ntype T struct{ X int }\n",
  );
});

Deno.test("Python: decorators inside pyright's range, comments above", () => {
  const file = "# Cached.\n«@functools.cache\ndef ‹answer›() -> int:\n    return 41»\n";
  const py = (body: string) => replace(file, body, "app.py");
  const want = (decorator: string, comment = "# Cached.") =>
    `${comment}\n${decorator}\ndef answer() -> int:\n    return 42\n`;
  assertEquals(py("def answer() -> int:\n    return 42"), want("@functools.cache"));
  assertEquals(
    py("@functools.cache\ndef answer() -> int:\n    return 42"),
    want("@functools.cache"),
  );
  assertEquals(
    py("@functools.lru_cache(maxsize=2)\ndef answer() -> int:\n    return 42"),
    want("@functools.lru_cache(maxsize=2)"),
  );
  assertEquals(
    py("# Answers.\ndef answer() -> int:\n    return 42"),
    want("@functools.cache", "# Answers."),
  );
});

Deno.test("C and Java: modifiers before the name; Javadoc and annotations", () => {
  const c = "/** Adds. */\n«static inline int ‹add›(int a, int b) {\n    return a + b;\n}»\n";
  assertEquals(
    replace(c, "int add(int a, int b) {\n    return b + a;\n}", "a.c"),
    "/** Adds. */\nstatic inline int add(int a, int b) {\n    return b + a;\n}\n",
  );
  // Words left out before the body's first word stay; a head of its own replaces the head.
  assertEquals(
    replace(c, "inline int add(int a, int b) { return 0; }", "a.c"),
    "/** Adds. */\nstatic inline int add(int a, int b) { return 0; }\n",
  );
  assertEquals(
    replace(c, "static long add(int a, int b) { return 0; }", "a.c"),
    "/** Adds. */\nstatic long add(int a, int b) { return 0; }\n",
  );
  const refused = replace(c, "inline long add(int a, int b) { return 0; }", "a.c");
  assertStringIncludes(refused, "without 'static'");
  const java = "class A {\n    /** Doc. */\n    «@Override\n    public String ‹toString›() {\n" +
    '        return "a";\n    }»\n}\n';
  assertEquals(
    replace(java, 'public String toString() {\n    return "b";\n}', "A.java"),
    "class A {\n    /** Doc. */\n    @Override\n    public String toString() {\n" +
      '        return "b";\n    }\n}\n',
  );
});

Deno.test("refusals say what would be lost, in words", () => {
  const file = "export function «‹double›(n: number) {\n  return n * 2;\n}»\n";
  const noSignature = replace(file, "{\n  return 2 * n;\n}");
  assertStringIncludes(noSignature, "refused: replace_symbol_body replaces the whole definition");
  assertStringIncludes(noSignature, "starts with '{'");
  assertStringIncludes(noSignature, "Nothing was changed.");
  const onlyDoc = replace(file, "/** Doubles. */");
  assertStringIncludes(onlyDoc, "refused: The new body holds only comments or attributes");
  // Declared after other code on its line: the body starts at the name.
  const shared = "export const a = 1, «‹b› = 2»;\n";
  assertEquals(replace(shared, "b = 3"), "export const a = 1, b = 3;\n");
  assertStringIncludes(replace(shared, "let b = 3"), "must start at 'b', not with 'let'");
  // No message quotes an empty text.
  for (const message of [noSignature, onlyDoc, replace(shared, "let b = 3")]) {
    assertEquals(message.includes("''"), false, message);
  }
});
