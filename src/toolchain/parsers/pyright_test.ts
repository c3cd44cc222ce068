/**
 * The pyright parser on recorded output: pyright's JSON output.
 * @module
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parsePyright } from "./pyright.ts";

Deno.test("pyright JSON: 0-based ranges become 1-based, information becomes info", () => {
  const report = {
    generalDiagnostics: [
      {
        file: "/p/m.py",
        severity: "information",
        message: "hint",
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
        rule: "reportX",
      },
    ],
  };
  const [d] = parsePyright(JSON.stringify(report), "/p")!;
  assertEquals([d?.file, d?.line, d?.column, d?.end_column, d?.severity, d?.code], [
    "m.py",
    1,
    1,
    4,
    "info",
    "reportX",
  ]);
  assertEquals(parsePyright("pyright crashed", "/p"), null);
});
