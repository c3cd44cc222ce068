/**
 * What replace_symbol_body's new body replaces, as the agent means it. A symbol's range is the
 * server's: tsserver starts `export const splitPath = ...` at `splitPath`, so `export const`
 * stands before it and stays; pyright starts a decorated function at its decorators. An agent
 * writes the whole declaration as it reads it. A body that repeats the text before the range on
 * its first line (`export const`, `pub`, `async`), or the decorators just above the range, has
 * that part kept once; a body that would double a modifier or drop the range's decorators is
 * refused, naming the exact range.
 * @module
 */

/** The symbol's range and the text around it that a body may repeat. */
export interface BodyRange {
  /** The text of the range. */
  rangeText: string;
  /** What stands before the range on its first line, after the indentation. */
  prefix: string;
  /** The decorator lines directly above the range (trimmed), in order. */
  decoratorsAbove: readonly string[];
  /** For messages: "src/x.ts, line 3 column 14 to line 9 column 2" (1-based). */
  where: string;
}

/** The body to write, or why it is refused (nothing was changed). */
export type BodyFit = { body: string } | { refused: string };

const FIRST_WORD = /^[@#]?[\p{L}\p{N}_$]+/u;

/** Fit a new body (trimmed, flush left) to the range it replaces. */
export function fitBody(body: string, range: BodyRange): BodyFit {
  let fitted = body;
  const decorators = range.decoratorsAbove;
  if (decorators.length > 0) {
    const lines = fitted.split("\n");
    if (decorators.every((d, i) => lines[i]?.trim() === d)) {
      fitted = lines.slice(decorators.length).join("\n").trimStart();
    }
  }
  const prefix = range.prefix.trim();
  if (prefix !== "" && startsWithWords(fitted, prefix)) {
    fitted = fitted.slice(fitted.indexOf(lastWord(prefix)) + lastWord(prefix).length).trimStart();
  }
  const bodyFirst = FIRST_WORD.exec(fitted)?.[0] ?? "";
  const rangeFirst = FIRST_WORD.exec(range.rangeText.trimStart())?.[0] ?? "";
  if (bodyFirst === rangeFirst) return { body: fitted };
  const opening = JSON.stringify(range.rangeText.split("\n")[0]!.slice(0, 60));
  const scope = `replace_symbol_body replaces ${range.where}, from ${opening}` +
    (prefix ? `; the ${JSON.stringify(prefix)} before it on that line stays` : "");
  if (prefix.split(/\s+/).includes(bodyFirst)) {
    return {
      refused: `${scope}. The new body starts with '${bodyFirst}', which would stand twice. ` +
        `Start the body with ${JSON.stringify(prefix + " ")} followed by the rest, or at ` +
        `'${rangeFirst}'. Nothing was changed.`,
    };
  }
  if (rangeFirst.startsWith("@") && !bodyFirst.startsWith("@")) {
    return {
      refused: `${scope}: its decorators are part of it and the new body has none, so they ` +
        "would be lost. Give the body with its decorators. Nothing was changed.",
    };
  }
  return { body: fitted };
}

function lastWord(text: string): string {
  const words = text.split(/\s+/);
  return words[words.length - 1]!;
}

/** Whether `text` starts with the words of `words` (any whitespace between them). */
function startsWithWords(text: string, words: string): boolean {
  const pattern = words.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s+");
  return new RegExp(`^${pattern}(?![\\p{L}\\p{N}_$])`, "u").test(text);
}
