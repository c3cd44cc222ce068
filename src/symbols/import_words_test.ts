import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  DECLARE,
  EXPORT,
  FROM,
  IMPORT,
  ImportWords,
  JSX_PRAGMA,
  MODULE,
  NAMESPACE,
  REQUIRE,
  TRIPLE_SLASH,
} from "./import_words.ts";

/** What `text.matchAll` finds of a pattern, as [index, match] pairs. */
function everywhere(text: string, pattern: RegExp): Array<[number, string]> {
  const global = new RegExp(pattern.source, pattern.flags.replace("y", "") + "g");
  return [...text.matchAll(global)].map((m) => [m.index, m[0]]);
}

function found(matches: Iterable<RegExpExecArray>): Array<[number, string]> {
  return [...matches].map((m) => [m.index, m[0]]);
}

Deno.test("ImportWords: a pattern tried at its words finds what a scan of the text finds", () => {
  const call = /(?<![\w$.])(?:import|require)\s*\(/y;
  const from = /\b(?:from|import)\s*["']([^"'\n]+)["']/y;
  const text = [
    'import a from "./a";',
    'const b = require("./b"), c = import("./c");',
    'x.require("./not"); reimport("./not"); import\n("./d");',
    'export { e } from "./e"; import "./f"',
  ].join("\n");
  const words = new ImportWords(text);
  assertEquals(found(words.matches(call, IMPORT | REQUIRE)), everywhere(text, call));
  assertEquals(found(words.matches(from, FROM | IMPORT)), everywhere(text, from));
  assertEquals(found(words.matches(call, IMPORT | REQUIRE)).length, 3);
  // Tried only at the words asked for: `require(` is not an `import`.
  assertEquals(found(words.matches(call, IMPORT)).length, 2);
});

Deno.test("ImportWords: a match does not begin inside the one before it", () => {
  // As matchAll, the `from` inside the first match is not a match of its own.
  const pattern = /\bimport\s+\w+\s+from\b|\bfrom\b/y;
  const text = "import a from b; from";
  assertEquals(found(new ImportWords(text).matches(pattern, IMPORT | FROM)), [
    [0, "import a from"],
    [17, "from"],
  ]);
  assertEquals(everywhere(text, pattern), [[0, "import a from"], [17, "from"]]);
});

Deno.test("ImportWords: every occurrence counts where one word ends as another begins", () => {
  // `fromodule `: a plain search for "module " finds it; a scan moving past `from` would not.
  const words = new ImportWords("fromodule x");
  assertEquals(words.has(FROM), true);
  assertEquals(words.hasFollowedBy(MODULE, / /), true);
  assertEquals(new ImportWords("requirexport").has(EXPORT), true);
  // `////`: a triple slash at each of two offsets.
  const reference = /^[ \t]*\/\/\/x/my;
  assertEquals(found(new ImportWords("////x").matches(reference, TRIPLE_SLASH)), []);
  assertEquals(found(new ImportWords("///x").matches(reference, TRIPLE_SLASH)), [[0, "///x"]]);
  assertEquals(new ImportWords("/** @jsx h */").has(JSX_PRAGMA), true);
});

Deno.test("ImportWords: a word followed by a character of a class", () => {
  const space = /\s/;
  assertEquals(new ImportWords("namespace\tN {}").hasFollowedBy(NAMESPACE | MODULE, space), true);
  assertEquals(new ImportWords("namespace N {}").hasFollowedBy(NAMESPACE | MODULE, space), true);
  assertEquals(new ImportWords("namespace\tN {}").hasFollowedBy(NAMESPACE, / /), false);
  assertEquals(
    new ImportWords("module.exports = 1").hasFollowedBy(NAMESPACE | MODULE, space),
    false,
  );
  assertEquals(new ImportWords("a module").hasFollowedBy(NAMESPACE | MODULE, space), false);
  assertEquals(new ImportWords("").has(IMPORT | EXPORT | DECLARE), false);
});

Deno.test("ImportWords: a line's pattern is tried at the start of the blanks before its word", () => {
  const statement = /^[ \t]*(?:export\b|import\b)/my;
  const atColumn0 = /^(?:export\b|import\b)/my;
  const namespace = /^[ \t]*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+[\w$.]+\s*\{/my;
  const text = [
    "namespace N {",
    "  export class A {}",
    "\t import B = N.C;",
    "}",
    "x; export const y = 1;",
    "export",
    "  declare",
    "  module M {}",
    "declare module\r'r' {}\u2028export {}",
  ].join("\n");
  const words = new ImportWords(text);
  assertEquals(
    found(words.lineMatches(statement, EXPORT | IMPORT, true)),
    everywhere(text, statement),
  );
  assertEquals(found(words.lineMatches(statement, EXPORT | IMPORT, true)).length, 4);
  assertEquals(
    found(words.lineMatches(atColumn0, EXPORT | IMPORT, false)),
    everywhere(text, atColumn0),
  );
  // A multiline match from its first word's line (`export\n  declare\n  module M {`).
  const namespaces = found(
    words.lineMatches(namespace, EXPORT | DECLARE | NAMESPACE | MODULE, true),
  );
  assertEquals(namespaces, everywhere(text, namespace));
  assertEquals(namespaces.map(([, m]) => m.split(/\s+/)[0]), ["namespace", "export"]);
});
