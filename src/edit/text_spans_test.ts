import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { replaceSpans, SpanConflict } from "./text_spans.ts";

Deno.test("replaceSpans: spans in any order, inserts at one offset in the order given", () => {
  const text = "abcdef";
  assertEquals(
    replaceSpans(text, [
      { start: 4, end: 6, text: "EF" },
      { start: 0, end: 1, text: "A" },
      { start: 2, end: 2, text: "1" },
      { start: 2, end: 2, text: "2" },
    ]),
    "Ab12cdEF",
  );
  assertEquals(replaceSpans(text, []), text);
  // Adjacent spans are not overlapping.
  assertEquals(
    replaceSpans(text, [{ start: 0, end: 3, text: "x" }, { start: 3, end: 6, text: "y" }]),
    "xy",
  );
});

Deno.test("replaceSpans: an inverted span or overlapping spans are refused", () => {
  const inverted = assertThrows(() => replaceSpans("abc", [{ start: 2, end: 1, text: "" }]));
  assert(inverted instanceof SpanConflict && inverted.kind === "inverted");
  const overlap = assertThrows(() =>
    replaceSpans("abcdef", [{ start: 0, end: 3, text: "" }, { start: 2, end: 4, text: "" }])
  );
  assert(overlap instanceof SpanConflict && overlap.kind === "overlap");
});
