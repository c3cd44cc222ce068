import { assertEquals } from "../../../tests/helpers/assert.ts";
import { textWords, UnparsedWords } from "./unparsed_words.ts";

/** A small deterministic generator (the same cases every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const PIECES = [
  "Widget1",
  "Widget12",
  "_x",
  "$y",
  "é",
  "naïve",
  "日本",
  "𝑥",
  "0",
  " ",
  "\n",
  ".",
  "-",
  "/*",
  "'",
  "`${",
  "}",
  "::",
  "\t",
  "\u00a0",
];

Deno.test("textWords: a needle of word characters is in the words exactly when in the text", () => {
  const next = random(7);
  const pick = () => PIECES[Math.floor(next() * PIECES.length)]!;
  const needles = ["Widget1", "Widget12", "idget", "1", "_", "$", "x", "$y", "é", "ïve", "日", "𝑥"];
  for (let i = 0; i < 2000; i++) {
    let text = "";
    const length = Math.floor(next() * 12);
    for (let j = 0; j < length; j++) text += pick();
    const words = textWords(text);
    for (const needle of needles) {
      assertEquals(words.includes(needle), text.includes(needle), JSON.stringify({ text, needle }));
    }
  }
});

Deno.test("textWords: each word once, separated by spaces", () => {
  assertEquals(
    textWords("export class Widget12 {\n  n = Widget12.size; // size\n}\n"),
    "export class Widget12 n size",
  );
  assertEquals(textWords(""), "");
  assertEquals(textWords("  {}  "), "");
});

Deno.test("UnparsedWords: decides word needles only, and forgets", () => {
  const words = new UnparsedWords();
  words.set("a.ts", textWords("export const Options42 = 1;"));
  assertEquals(words.contains("a.ts", "Options4"), true);
  assertEquals(words.contains("a.ts", "Options43"), false);
  assertEquals(words.contains("b.ts", "Options42"), undefined, "not read");
  assertEquals(words.contains("a.ts", "Options42 = 1"), undefined, "not a word needle");
  words.delete("a.ts");
  assertEquals(words.contains("a.ts", "Options42"), undefined);
  assertEquals(words.size, 0);
});
