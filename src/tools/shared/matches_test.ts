import { assertEquals } from "../../../tests/helpers/assert.ts";
import { formatMatch, LineIndex } from "./matches.ts";

Deno.test("LineIndex: the lines split gives, and the same formatted matches", () => {
  for (const text of ["", "one", "one\n", "a\nb\nc", "a\n\nc\n", "\n\n", "x\r\ny\n"]) {
    const lines = text.split("\n");
    for (let line = 0; line < lines.length; line++) {
      // A fresh index each time: the scan goes only as far as the lines asked for.
      assertEquals(
        formatMatch(new LineIndex(text), line, line, 1, 1),
        formatMatch(lines, line, line, 1, 1),
      );
    }
    const index = new LineIndex(text);
    for (let i = lines.length; i >= -1; i--) assertEquals(index.at(i), lines[i], `${i}`);
    assertEquals(index.at(1.5), undefined);
  }
});
