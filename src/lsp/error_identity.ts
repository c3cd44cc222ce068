/**
 * How an error of a file is recognised after an edit of that file, so that the errors an edit
 * introduced are told from those that were there before. An edit moves errors (lines inserted
 * above them) and changes the text they point at and their message (a rename changes the name in
 * `"getPath" is not defined` and under its range), so neither the line nor the message and text
 * alone says "the same error". An error after the edit is an old one when an error before it:
 * - had the same message and pointed at the same text (code that only moved), or
 * - had the same code and the same message once quoted names are masked, on the line the edit
 *   maps its old line to (the edit's hunks, from a line diff of the two texts).
 * Each error before explains one error after (so a second copy of an old error is new).
 *
 * It knows nothing of tools: the report of new errors (tools/new_errors.ts) compares with it,
 * and a project's record of its edit checks (edit_checks.ts) keeps the errors it describes.
 * @module
 */
import type { Diagnostic } from "../deps.ts";
import { structuredPatch } from "../deps.ts";

/** One error of a file and the keys it is recognised by. */
export interface FileError {
  /** 0-based line of its start. */
  line: number;
  message: string;
  /** Its message and the text of its range. */
  exact: string;
  /** Its code and its message with quoted names masked. */
  loose: string;
}

/** A file's errors (severity 1), with the text they were found in. */
export interface FileErrors {
  text: string;
  errors: FileError[];
}

/** Quoted names in messages: `"getPath"`, `'x'`, `` `y` `` (their content is what edits change). */
const QUOTED = /"[^"\n]*"|'[^'\n]*'|`[^`\n]*`/g;

/** The errors (severity 1) of `diagnostics`, found in `text`. */
export function fileErrors(diagnostics: readonly Diagnostic[], text: string): FileErrors {
  const lines = text.split("\n");
  const errors: FileError[] = [];
  for (const d of diagnostics) {
    if ((d.severity ?? 1) !== 1) continue;
    const { start, end } = d.range;
    const line = lines[start.line] ?? "";
    const token = start.line === end.line
      ? line.slice(start.character, end.character)
      : line.slice(start.character);
    errors.push({
      line: start.line,
      message: d.message,
      exact: `${d.message}\u0000${token.trim()}`,
      loose: `${d.code ?? ""}\u0000${d.message.replace(QUOTED, '""')}`,
    });
  }
  return { text, errors };
}

/**
 * Where each 0-based line of `before` is in `after`: unchanged lines follow their shift, a line an
 * edit replaced goes to the same place in the replacement (its last line when that is shorter),
 * a line deleted with nothing in its place to the line after the replacement point.
 */
export function lineMapping(before: string, after: string): (line: number) => number {
  if (before === after) return (line) => line;
  const hunks = structuredPatch("a", "b", before, after, "", "", { context: 0 }).hunks;
  return (line) => {
    let shift = 0;
    for (const hunk of hunks) {
      // Hunks count lines from 1 (an empty side: the line it stands before).
      const oldFirst = hunk.oldStart - 1;
      const newFirst = hunk.newStart - 1;
      if (line < oldFirst) break;
      if (line < oldFirst + hunk.oldLines) {
        const offset = line - oldFirst;
        return newFirst + Math.min(offset, Math.max(0, hunk.newLines - 1));
      }
      shift = newFirst + hunk.newLines - (oldFirst + hunk.oldLines);
    }
    return line + shift;
  };
}

/** The errors of `after` that no error of `before` explains (see the module documentation). */
export function introducedErrors(before: FileErrors, after: FileErrors): FileError[] {
  const map = lineMapping(before.text, after.text);
  const unused = before.errors.map((error) => ({ error, at: map(error.line), used: false }));
  const left: FileError[] = [];
  // Code that only moved first: its message and text are unchanged; the closest one explains it.
  for (const error of after.errors) {
    let best: (typeof unused)[number] | null = null;
    for (const old of unused) {
      if (old.used || old.error.exact !== error.exact) continue;
      if (!best || Math.abs(old.at - error.line) < Math.abs(best.at - error.line)) best = old;
    }
    if (best) best.used = true;
    else left.push(error);
  }
  return left.filter((error) => {
    const old = unused.find((o) => !o.used && o.at === error.line && o.error.loose === error.loose);
    if (old) old.used = true;
    return !old;
  });
}
