/**
 * A tool's answer, on its own so that what wraps a handler (new_errors.ts) needs nothing of the
 * tool definition (tool.ts imports those wrappers).
 * @module
 */

/**
 * A tool's answer. A plain string is returned as-is (subject to `max_answer_chars`). `shorter`
 * lists progressively shorter forms, tried in order when the full text is too long; each is
 * shown after Serena's "too long" line with its `note` as a header line (see limit.ts).
 */
export type ToolAnswer = string | {
  text: string;
  /**
   * The full answer's length when `text` was not built because it could not fit (a search cut in
   * its child process); the shorter forms are then what is shown.
   */
  length?: number;
  shorter?: ReadonlyArray<{ note: string; text: () => string }>;
  /**
   * Reports beside the answer (an earlier edit's new errors; the occurrences a references answer
   * could not analyse), each a content block of its own, never inside the answer: an answer's
   * shape never depends on another tool, nor on what the server could see.
   */
  notes?: readonly string[];
};
