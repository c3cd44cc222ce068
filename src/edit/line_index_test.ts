import { assertEquals } from "../../tests/helpers/assert.ts";
import { LineIndex, lineStarts, offsetAt, positionAt } from "./line_index.ts";

const TEXTS = ["", "one", "one\n", "a\nb\nc", "a\n\nc\n", "\n\n", "x\r\ny\n", "héllo\nwörld"];

Deno.test("line_index: offsets and positions agree both ways, clamped past a line's end", () => {
  for (const text of TEXTS) {
    const starts = lineStarts(text);
    for (let offset = 0; offset <= text.length; offset++) {
      const pos = positionAt(starts, offset);
      assertEquals(offsetAt(text, starts, pos), offset, `${JSON.stringify(text)} @${offset}`);
      // The lazy index answers the same, asked in any order.
      assertEquals(new LineIndex(text).positionAt(offset), pos);
    }
    const lines = text.split("\n");
    for (let line = 0; line < lines.length; line++) {
      const end = starts[line]! + lines[line]!.length;
      assertEquals(offsetAt(text, starts, { line, character: 999 }), end, "clamped to the line");
      assertEquals(new LineIndex(text).lineStart(line), starts[line]);
    }
    assertEquals(offsetAt(text, starts, { line: lines.length, character: 0 }), text.length);
    assertEquals(offsetAt(text, starts, { line: -1, character: 3 }), 0);
    assertEquals(new LineIndex(text).lineStart(lines.length + 2), text.length);
  }
});

Deno.test("line_index: LineIndex.at gives the lines split gives, scanning only as far as asked", () => {
  for (const text of TEXTS) {
    const lines = text.split("\n");
    const index = new LineIndex(text);
    for (let i = lines.length; i >= -1; i--) assertEquals(index.at(i), lines[i], `${i}`);
    assertEquals(index.at(1.5), undefined);
    for (let i = 0; i < lines.length; i++) assertEquals(new LineIndex(text).at(i), lines[i]);
  }
});
