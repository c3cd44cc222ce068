import { assertEquals } from "../../../tests/helpers/assert.ts";
import { formatMatch, LineIndex } from "./matches.ts";

Deno.test("LineIndex: the lines split gives, and the same formatted matches", () => {
  for (const text of ["", "one", "one\n", "a\nb\nc", "a\n\nc\n", "\n\n", "x\r\ny\n"]) {
    const lines = text.split("\n");
    const index = new LineIndex(text);
    assertEquals(index.length, lines.length, JSON.stringify(text));
    for (let i = -1; i <= lines.length; i++) assertEquals(index.at(i), lines[i]);
    for (let line = 0; line < lines.length; line++) {
      assertEquals(formatMatch(index, line, line, 1, 1), formatMatch(lines, line, line, 1, 1));
    }
  }
});
