import { assertEquals } from "../../tests/helpers/assert.ts";
import { containsWord, wordOccurrences } from "./occurrences.ts";

const sites = (text: string, name: string, path: string) =>
  wordOccurrences(text, name, path).map((o) => `${o.line}:${o.character}:${o.site}`);

Deno.test("containsWord finds whole words only", () => {
  assertEquals(containsWord("getPathname(x)", "getPath"), false);
  assertEquals(containsWord("a.getPath(x)", "getPath"), true);
  assertEquals(containsWord("$getPath", "getPath"), false);
  assertEquals(containsWord("get_path_x get_path", "get_path"), true);
});

Deno.test("TypeScript: comments, strings, template literals and their code", () => {
  const text = [
    "// getPath in a comment",
    'const a = "getPath"; getPath();',
    "/* getPath",
    "   getPath */ x",
    "const t = `getPath ${getPath(1)} getPath`;",
    "const r = /getPath/; // x",
    "expect(t).toMatch(/^getPath [/]x/i, getPath);",
    "const q = a / getPath / 2;",
    "if (x) return /getPath/.test(y);",
  ].join("\n");
  assertEquals(sites(text, "getPath", "a.ts"), [
    "0:3:comment",
    "1:11:string",
    "1:21:code",
    "2:3:comment",
    "3:3:comment",
    "4:11:string",
    "4:21:code",
    "4:33:string",
    // Regular expression literals are not code; a division is.
    "5:11:string",
    "6:20:string",
    "6:36:code",
    "7:14:code",
    "8:15:string",
  ]);
});

Deno.test("Python: comments, docstrings, f-strings", () => {
  const text = [
    "# get_debug_flag",
    '"""get_debug_flag',
    'still get_debug_flag"""',
    "x = get_debug_flag()",
    "y = f'{get_debug_flag()} get_debug_flag'",
    "__all__ = ['get_debug_flag']",
  ].join("\n");
  assertEquals(sites(text, "get_debug_flag", "m.py"), [
    "0:2:comment",
    "1:3:string",
    "2:6:string",
    "3:4:code",
    "4:7:code",
    "4:25:string",
    "5:12:string",
  ]);
});

Deno.test("Rust: lifetimes are not strings, char literals are", () => {
  const text = "fn f<'a>(x: &'a str) -> Foo { let c = 'F'; Foo::new() } // Foo";
  assertEquals(sites(text, "Foo", "lib.rs"), ["0:24:code", "0:43:code", "0:59:comment"]);
});

Deno.test("Unknown extensions: every occurrence is code", () => {
  assertEquals(sites("# Foo\nFoo", "Foo", "notes.txt"), ["0:2:code", "1:0:code"]);
});
