/**
 * Tool answers as compact JSON: no indentation, which costs tokens and says nothing.
 * @module
 */

/** `value` as one line of JSON. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
