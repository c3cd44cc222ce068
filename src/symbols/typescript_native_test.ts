import { assertEquals } from "../../tests/helpers/assert.ts";
import { positionAt } from "../edit/line_index.ts";
import { lineStarts } from "../edit/line_index.ts";
import { SymbolKind as K, type SymbolNode } from "./model.ts";
import { normalizeNativeTypeScript } from "./typescript_native.ts";

/** A Variable node per occurrence of each name (its first from `from`), as TypeScript 7 lists them. */
function variables(text: string, names: string[], from = 0): SymbolNode[] {
  const starts = lineStarts(text);
  let at = from;
  return names.map((name) => {
    at = text.indexOf(name, at);
    const range = { start: positionAt(starts, at), end: positionAt(starts, at + name.length) };
    at += name.length;
    return {
      name,
      kind: K.Variable,
      overloadIndex: null,
      range,
      selectionRange: range,
      relPath: "index.mjs",
      parent: null,
      children: [],
    };
  });
}

Deno.test("normalizeNativeTypeScript: the names of long import and export clauses are not variables", () => {
  // typeorm's `index.mjs`: hundreds of names in a destructuring, then in an export clause.
  const names = Array.from({ length: 300 }, (_, i) => `Name${i}`);
  const text = `import T from "./index.js";\nconst {\n    ${names.join(",\n    ")},\n} = T;\n` +
    `const kept = 1;\nexport {\n    ${names.join(",\n    ")},\n};\n`;
  const exportAt = text.indexOf("export {");
  const nodes = [
    ...variables(text, names),
    ...variables(text, ["kept"]),
    ...variables(text, names, exportAt),
  ];
  const kept = normalizeNativeTypeScript(nodes, text, "index.mjs");
  // The destructured names and `kept` are constants; the re-exported names are no symbols.
  assertEquals(kept.length, 301);
  assertEquals(kept.filter((n) => n.kind === K.Constant).length, 301);
  assertEquals(kept.at(-1)!.name, "kept");
  // An export clause with one name, after a long one, is read on its own.
  const short = `export {\n  ${names.join(",\n  ")}\n};\nlet x;\nexport { x };\n`;
  const alone = normalizeNativeTypeScript(
    [...variables(short, names), ...variables(short, ["x"], short.indexOf("let x"))],
    short,
    "a.ts",
  );
  assertEquals(alone.map((n) => [n.name, n.kind]), [["x", K.Variable]]);
});
