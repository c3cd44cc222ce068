import { assertEquals } from "../../tests/helpers/assert.ts";
import { renderTable, replaceRanges, tomlTables } from "./toml_edit.ts";

Deno.test("tomlTables: headers, quoted keys, arrays of tables; strings are not headers", () => {
  const lines = [
    'a = """',
    "[not.a.table]",
    '"""',
    '[mcp_servers."sextant"] # note',
    "x = 1",
    "[[hooks.PreToolUse]]",
  ];
  const tables = tomlTables(lines);
  assertEquals(tables.map((t) => [t.path, t.array, t.start, t.end]), [
    [["mcp_servers", "sextant"], false, 3, 5],
    [["hooks", "PreToolUse"], true, 5, 6],
  ]);
});

Deno.test("replaceRanges: replaces in place, appends when absent, keeps the rest", () => {
  const text = "a = 1\n\n[t]\nx = 1\n\n# next\n[u]\ny = 2\n";
  assertEquals(
    replaceRanges(text, [{ start: 2, end: 6 }], "[t]\nx = 2\n"),
    "a = 1\n\n[t]\nx = 2\n\n# next\n[u]\ny = 2\n",
  );
  assertEquals(
    replaceRanges("a = 1\n", [], renderTable(["t"], { x: "s" })),
    'a = 1\n\n[t]\nx = "s"\n',
  );
  assertEquals(replaceRanges("", [], "[t]\n"), "[t]\n");
  assertEquals(replaceRanges("a = 1\r\n", [], "[t]\n"), "a = 1\r\n\r\n[t]\r\n");
});
