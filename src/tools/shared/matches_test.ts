import { assertEquals } from "../../../tests/helpers/assert.ts";
import { formatMatch } from "./matches.ts";
import { LineIndex } from "../../edit/line_index.ts";

Deno.test("formatMatch: a LineIndex formats as the lines split gives", () => {
  for (const text of ["", "one", "one\n", "a\nb\nc", "a\n\nc\n", "\n\n", "x\r\ny\n"]) {
    const lines = text.split("\n");
    for (let line = 0; line < lines.length; line++) {
      // A fresh index each time: the scan goes only as far as the lines asked for.
      assertEquals(
        formatMatch(new LineIndex(text), line, line, 1, 1),
        formatMatch(lines, line, line, 1, 1),
      );
    }
  }
});
