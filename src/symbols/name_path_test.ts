/**
 * Name-path matching (Serena's rules) on symbol trees built from mock documentSymbol answers:
 * our own logic, so mocks are right here.
 */
import type { DocumentSymbol } from "../deps.ts";
import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import {
  findInTree,
  matchesNamePath,
  parseNamePath,
  pickUnique,
  suggestNamePaths,
} from "./name_path.ts";
import { buildSymbolTree, namePathOf, type SymbolNode, walkSymbols } from "./model.ts";

/** Given out of order on purpose: the model sorts siblings by position. */
function tree(): SymbolNode[] {
  const a = {
    name: "Outer",
    kind: 5,
    range: { start: { line: 0, character: 0 }, end: { line: 20, character: 1 } },
    selectionRange: { start: { line: 0, character: 6 }, end: { line: 0, character: 11 } },
    children: [
      r("method", 6, 1, 3),
      r("method", 6, 4, 6),
      r("getValue", 6, 7, 9),
      r("getData", 6, 10, 12),
      {
        ...r("Inner", 5, 13, 19),
        children: [r("method", 6, 14, 16), r("value", 7, 17, 17)],
      },
    ],
  };
  const b = r("method", 12, 21, 23);
  const c = {
    ...r("Other", 5, 24, 30),
    children: [{ ...r("Outer", 5, 25, 29), children: [r("method", 6, 26, 28)] }],
  };
  return buildSymbolTree([c, b, a], "src/x.ts");
}

function r(name: string, kind: number, from: number, to: number): DocumentSymbol {
  return {
    name,
    kind: kind as DocumentSymbol["kind"],
    range: { start: { line: from, character: 2 }, end: { line: to, character: 3 } },
    selectionRange: {
      start: { line: from, character: 6 },
      end: { line: from, character: 6 + name.length },
    },
  };
}

function paths(nodes: SymbolNode[]): string[] {
  return nodes.map(namePathOf);
}

function find(pattern: string, options: Parameters<typeof findInTree>[2] = {}): string[] {
  return paths(findInTree(tree(), parseNamePath(pattern), options));
}

Deno.test("name paths: tree order, nesting and overload indexes", () => {
  const all = paths([...walkSymbols(tree())]);
  assertEquals(all, [
    "Outer",
    "Outer/method[0]",
    "Outer/method[1]",
    "Outer/getValue",
    "Outer/getData",
    "Outer/Inner",
    "Outer/Inner/method",
    "Outer/Inner/value",
    "method",
    "Other",
    "Other/Outer",
    "Other/Outer/method",
  ]);
});

Deno.test("name paths: a simple name matches every symbol with that last segment", () => {
  assertEquals(find("method"), [
    "Outer/method[0]",
    "Outer/method[1]",
    "Outer/Inner/method",
    "method",
    "Other/Outer/method",
  ]);
  assertEquals(find("Outer"), ["Outer", "Other/Outer"]);
  assertEquals(find("nothing"), []);
});

Deno.test("name paths: a relative path matches a suffix", () => {
  assertEquals(find("Outer/method"), [
    "Outer/method[0]",
    "Outer/method[1]",
    "Other/Outer/method",
  ]);
  assertEquals(find("Inner/method"), ["Outer/Inner/method"]);
  assertEquals(find("Outer/Inner/method"), ["Outer/Inner/method"]);
  // A suffix must be whole segments: "ner/method" is not "Inner/method".
  assertEquals(find("ner/method"), []);
  // Longer than any name path.
  assertEquals(find("X/Outer/Inner/method"), []);
});

Deno.test("name paths: an absolute path matches from the file's top level", () => {
  assertEquals(find("/Outer/method"), ["Outer/method[0]", "Outer/method[1]"]);
  assertEquals(find("/method"), ["method"]);
  assertEquals(find("/Outer"), ["Outer"]);
  assertEquals(find("/Inner/method"), []);
  assertEquals(find("/Other/Outer/method"), ["Other/Outer/method"]);
});

Deno.test("name paths: overload index selects one overload", () => {
  assertEquals(find("Outer/method[1]"), ["Outer/method[1]"]);
  assertEquals(find("/Outer/method[0]"), ["Outer/method[0]"]);
  assertEquals(find("method[0]"), ["Outer/method[0]"]);
  // No overloads at that level: an index never matches a non-overloaded symbol.
  assertEquals(find("Inner/method[0]"), []);
  assertEquals(find("Outer/method[2]"), []);
});

Deno.test("name paths: substring matching applies to the last segment only", () => {
  assertEquals(find("Outer/get", { substring: true }), ["Outer/getValue", "Outer/getData"]);
  assertEquals(find("get", { substring: true }), ["Outer/getValue", "Outer/getData"]);
  assertEquals(find("Out/get", { substring: true }), []);
  assertEquals(find("eth", { substring: true }).length, 5);
  assertEquals(find("/Outer/Data", { substring: true }), ["Outer/getData"]);
  // Case-sensitive, like Serena.
  assertEquals(find("getvalue", { substring: true }), []);
  assertEquals(find("Outer/method[1]", { substring: true }), ["Outer/method[1]"]);
});

Deno.test("name paths: include and exclude kinds (exclude wins)", () => {
  assertEquals(find("method", { includeKinds: [12] }), ["method"]);
  assertEquals(find("method", { excludeKinds: [6] }), ["method"]);
  assertEquals(find("method", { includeKinds: [6, 12], excludeKinds: [6] }), ["method"]);
  assertEquals(find("Outer", { includeKinds: [] }), ["Outer", "Other/Outer"]);
  assertEquals(find("value", { includeKinds: [5] }), []);
});

Deno.test("name paths: parsing trims slashes and spaces, refuses empty patterns", () => {
  const p = parseNamePath(" /A/b[2]/ ");
  assertEquals(p.absolute, true);
  assertEquals(p.segments, [{ name: "A", overloadIndex: null }, { name: "b", overloadIndex: 2 }]);
  assertEquals(parseNamePath("[Symbol.iterator]").segments, [
    { name: "[Symbol.iterator]", overloadIndex: null },
  ]);
  assertEquals(parseNamePath("[3]").segments, [{ name: "[3]", overloadIndex: null }]);
  assertThrows(() => parseNamePath("/"), "empty");
  assertThrows(() => parseNamePath("  "), "empty");
});

Deno.test("name paths: matchesNamePath on a single node", () => {
  const [outer] = tree().filter((n) => n.name === "Outer");
  assert(outer);
  assert(matchesNamePath(outer, parseNamePath("Outer")));
  assert(matchesNamePath(outer, parseNamePath("/Outer")));
  assert(!matchesNamePath(outer, parseNamePath("X/Outer")));
  assert(matchesNamePath(outer, parseNamePath("Out"), { substring: true }));
});

Deno.test("pickUnique: one candidate, exact name path wins, ambiguity lists candidates", () => {
  const roots = tree();
  const ctx = { relPath: "src/x.ts", roots };
  const pick = (p: string) => {
    const pattern = parseNamePath(p);
    return namePathOf(pickUnique(findInTree(roots, pattern), pattern, ctx));
  };
  assertEquals(pick("Inner/method"), "Outer/Inner/method");
  // "method" matches five; exactly one has the name path "method".
  assertEquals(pick("method"), "method");
  assertEquals(pick("/Outer"), "Outer");
  assertEquals(pick("Outer"), "Outer");
  const error = assertThrows(() => pick("Outer/method"), "matches 3 symbols");
  assert(error.message.includes("Outer/method[0] (Method, lines 1-3)"), error.message);
  assert(error.message.includes("Other/Outer/method (Method, lines 26-28)"), error.message);
  assertEquals(pick("Outer/method[1]"), "Outer/method[1]");
});

Deno.test("pickUnique: no match suggests close names", () => {
  const roots = tree();
  const pattern = parseNamePath("getvalue");
  const error = assertThrows(
    () => pickUnique(findInTree(roots, pattern), pattern, { relPath: "src/x.ts", roots }),
    "No symbol matching 'getvalue' in 'src/x.ts'",
  );
  assert(error.message.includes("Outer/getValue"), error.message);
  assertEquals(suggestNamePaths(roots, parseNamePath("metod")).slice(0, 2), [
    "method",
    "Other/Outer/method",
  ]);
  assertEquals(suggestNamePaths(roots, parseNamePath("zzzzzzzz")), []);
  const none = assertThrows(
    () => pickUnique([], parseNamePath("zzzzzzzz"), { relPath: "a.ts", roots }),
    "get_symbols_overview",
  );
  assert(none);
});

Deno.test("Go methods: T/M matches (*T).M and (T).M; the server's names keep matching", () => {
  const roots = buildSymbolTree([
    r("Command", 23, 0, 5),
    r("(*Command).CommandPath", 6, 6, 9),
    r("(Command).Name", 6, 10, 12),
    r("(*Other).CommandPath", 6, 13, 15),
    r("CommandPath", 12, 16, 18),
  ], "cmd.go");
  const find = (text: string, substring = false) =>
    paths(findInTree(roots, parseNamePath(text), { substring }));
  assertEquals(find("Command/CommandPath"), ["(*Command).CommandPath"]);
  assertEquals(find("Command/Name"), ["(Command).Name"]);
  assertEquals(find("/Command/Name"), ["(Command).Name"]);
  assertEquals(find("(*Command).CommandPath"), ["(*Command).CommandPath"]);
  assertEquals(find("CommandPath"), [
    "(*Command).CommandPath",
    "(*Other).CommandPath",
    "CommandPath",
  ]);
  assertEquals(find("Command/Path", true), ["(*Command).CommandPath"]);
  assertEquals(find("Missing/CommandPath"), []);
});

Deno.test("Rust methods: T/m matches in any impl block of T, inherent or trait, generic or not", () => {
  const impl = (name: string, from: number, method: string) => ({
    ...r(name, 19, from, from + 4),
    children: [r(method, 6, from + 1, from + 3)],
  });
  const roots = buildSymbolTree([
    r("Searcher", 23, 0, 2),
    impl("impl Searcher", 3, "new"),
    impl("impl<'s, M: Matcher> Searcher", 8, "multi_line_with_matcher"),
    impl("impl Default for Searcher", 13, "default"),
    impl("impl<T> From<T> for crate::search::Searcher<T>", 18, "from"),
    impl("impl Other", 23, "new"),
  ], "searcher.rs");
  const find = (text: string) => paths(findInTree(roots, parseNamePath(text)));
  assertEquals(find("Searcher/multi_line_with_matcher"), [
    "impl<'s, M: Matcher> Searcher/multi_line_with_matcher",
  ]);
  assertEquals(find("Searcher/default"), ["impl Default for Searcher/default"]);
  assertEquals(find("Searcher/from"), [
    "impl<T> From<T> for crate::search::Searcher<T>/from",
  ]);
  assertEquals(find("Searcher/new"), ["impl Searcher/new"]);
  assertEquals(find("/Searcher/new"), ["impl Searcher/new"]);
  // The impl block itself is not the type; the server's names keep working.
  assertEquals(find("Searcher"), ["Searcher"]);
  assertEquals(find("impl Searcher/new"), ["impl Searcher/new"]);
});
