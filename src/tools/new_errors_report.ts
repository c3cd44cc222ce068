/**
 * What the check of an editing call found (new_errors.ts) and how an answer says it: the
 * report's lines, the answer with the report as its last line, and an answer with earlier
 * edits' late reports as notes beside it. Lines are 0-based, as the editing tools' own answers
 * and arguments count them.
 * @module
 */
import type { ToolAnswer } from "./answer.ts";

/** Errors listed in the answer. */
const MAX_SHOWN = 10;

/** One error the edit introduced (or found in an edited file; see {@linkcode EditReport}). */
export interface NewError {
  relPath: string;
  /** 0-based line, as Serena's tools count them. */
  line: number;
  message: string;
}

/** What the check of one editing call found. */
export interface EditReport {
  /** Errors not in the file's "before". */
  introduced: NewError[];
  /** Every error of an edited file whose "before" could not be taken: maybe old, maybe new. */
  unchecked: NewError[];
  /** Changed files the check covered, and how many there were (when it could not cover all). */
  covered?: { checked: number; of: number };
}

/**
 * `2 errors (0-based lines): a.ts:1 message. b.ts:4 message.` (the first {@linkcode MAX_SHOWN}):
 * lines counted as the editing tools' own answers and arguments count them.
 */
function describeErrors(errors: readonly NewError[]): string {
  const shown = errors.slice(0, MAX_SHOWN).map((e) =>
    `${e.relPath}:${e.line} ${e.message.split("\n")[0]!.replace(/\.$/, "")}.`
  );
  const more = errors.length > MAX_SHOWN ? ` … and ${errors.length - MAX_SHOWN} more.` : "";
  const noun = errors.length === 1 ? "error" : "errors";
  return `${errors.length} ${noun} (0-based lines): ${shown.join(" ")}${more}`;
}

/** `Introduced 2 errors (0-based lines): a.ts:2 message. b.ts:5 message.` (the first {@linkcode MAX_SHOWN}). */
export function formatNewErrors(errors: readonly NewError[]): string {
  return `Introduced ${describeErrors(errors)}`;
}

/** `Your previous edit of a.ts introduced 1 error (0-based lines): b.ts:2 message.` */
export function formatPreviousErrors(
  files: readonly string[],
  errors: readonly NewError[],
): string {
  return `${previousEdit(files)} introduced ${describeErrors(errors)}`;
}

/** `Your previous edit of a.ts, b.ts and 2 more files` */
function previousEdit(files: readonly string[]): string {
  const named = files.length === 0
    ? ""
    : ` of ${files.slice(0, 2).join(", ")}${
      files.length > 2 ? ` and ${files.length - 2} more files` : ""
    }`;
  return `Your previous edit${named}`;
}

/**
 * A check's report, one line per part; null when it has nothing to say. `previousOf`: the
 * files of an earlier edit whose report is late (then each line names that edit).
 */
export function formatReport(report: EditReport, previousOf?: readonly string[]): string | null {
  const lines: string[] = [];
  const edit = previousOf ? previousEdit(previousOf) : null;
  if (report.introduced.length > 0) {
    lines.push(
      edit
        ? formatPreviousErrors(previousOf!, report.introduced)
        : formatNewErrors(report.introduced),
    );
  }
  if (report.unchecked.length > 0) {
    const errors = describeErrors(report.unchecked);
    lines.push(
      edit
        ? `${edit}: its files not checked before it have ${errors}`
        : `Edited files not checked before the edit have ${errors}`,
    );
  }
  if (report.covered) {
    const counted = `${report.covered.checked} of ${report.covered.of} changed files`;
    lines.push(edit ? `${edit}: checked ${counted} for errors.` : `Checked ${counted} for errors.`);
  }
  return lines.length > 0 ? lines.join("\n") : null;
}

/** The answer with `report` as its last line (a JSON object answer gets it under `key`). */
export function withReport(answer: ToolAnswer, report: string, key: string): ToolAnswer {
  return mapAnswer(answer, (text) => {
    const json = jsonObject(text);
    if (json) return JSON.stringify({ ...json, [key]: report });
    return `${text}\n${report}`;
  });
}

/**
 * The answer with earlier edits' reports as notes beside it (tools/answer.ts `ToolAnswer`): the
 * MCP answer carries them in a content block of their own, so the answer's text, JSON or not,
 * keeps the shape its tool gives it.
 */
export function withNotes(answer: ToolAnswer, reports: readonly string[]): ToolAnswer {
  if (reports.length === 0) return answer;
  const text = typeof answer === "string" ? { text: answer } : answer;
  return { ...text, notes: [...(text.notes ?? []), ...reports] };
}

function jsonObject(text: string): Record<string, unknown> | null {
  if (!text.trimStart().startsWith("{")) return null;
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch { /* not JSON after all */ }
  return null;
}

function mapAnswer(answer: ToolAnswer, add: (text: string) => string): ToolAnswer {
  if (typeof answer === "string") return add(answer);
  return {
    text: add(answer.text),
    ...(answer.shorter
      ? { shorter: answer.shorter.map((s) => ({ note: s.note, text: () => add(s.text()) })) }
      : {}),
    ...(answer.notes ? { notes: answer.notes } : {}),
  };
}
