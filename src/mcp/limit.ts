/**
 * `max_answer_chars` limiting with Serena's message, trying shorter forms of an answer first.
 * @module
 */
import { ToolError } from "../errors.ts";
import { type ToolAnswer, withNote } from "../tools/tool.ts";

export function tooLongMessage(length: number): string {
  return `The answer is too long (${length} characters). ` +
    "Please try a more specific tool query or raise max_answer_chars.";
}

/**
 * Fit an answer into `maxChars` (-1 means `defaultMax`): the full text if it fits, else the first
 * shorter form that fits (with its note, see {@linkcode withNote}), else Serena's "too long"
 * message.
 */
export function limitAnswer(answer: ToolAnswer, maxChars: number, defaultMax: number): string {
  const max = maxChars === -1 ? defaultMax : maxChars;
  if (!Number.isInteger(max) || max <= 0) {
    throw new ToolError(`max_answer_chars must be a positive integer or -1, got: ${maxChars}`);
  }
  const full = typeof answer === "string" ? answer : answer.text;
  if (full.length <= max) return full;
  if (typeof answer !== "string") {
    for (const form of answer.shorter ?? []) {
      const text = withNote(form.note, form.text());
      if (text.length <= max) return text;
    }
  }
  return tooLongMessage(full.length);
}
