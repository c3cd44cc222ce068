/**
 * `max_answer_chars` limiting as Serena 2.1 does it: when the full answer is too long, its
 * shorter forms are tried in order, each shown after Serena's "The answer is too long" line;
 * when none fits, that line alone is the answer.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { ToolAnswer } from "./tool.ts";

/** Serena's message for an answer of `length` characters over the limit. */
export function tooLongMessage(length: number): string {
  return `The answer is too long (${length} characters). ` +
    "You can adjust your query or raise the max_answer_chars parameter.";
}

/**
 * A shorter form as Serena shows it: the "too long" line, then the form's own header line (its
 * note, when not empty), then the form.
 */
export function shortenedAnswer(fullLength: number, note: string, text: string): string {
  return `${tooLongMessage(fullLength)}\n${note ? `${note}\n` : ""}${text}`;
}

/**
 * Fit an answer into `maxChars` (-1 means `defaultMax`): the full text if it fits, else the first
 * shorter form that fits (see {@linkcode shortenedAnswer}), else Serena's "too long" message.
 */
export function limitAnswer(answer: ToolAnswer, maxChars: number, defaultMax: number): string {
  const max = maxChars === -1 ? defaultMax : maxChars;
  if (!Number.isInteger(max) || max <= 0) {
    throw new ToolError(`max_answer_chars must be a positive integer or -1, got: ${maxChars}`);
  }
  const full = typeof answer === "string" ? answer : answer.text;
  // An answer measured but not built (`length`) never fits.
  const length = typeof answer === "string" ? full.length : answer.length ?? full.length;
  if (typeof answer === "string" || answer.length === undefined) {
    if (full.length <= max) return full;
  }
  if (typeof answer !== "string") {
    for (const form of answer.shorter ?? []) {
      const text = shortenedAnswer(length, form.note, form.text());
      if (text.length <= max) return text;
    }
  }
  return tooLongMessage(length);
}
