/**
 * The process that runs user regular expressions (search_for_pattern, replace_content and
 * replace_in_files in regex mode, find_declaration). A backtracking pattern can run for minutes
 * on one short line, and V8 cannot stop a busy regex on a thread (Deno's `Worker.terminate()`
 * leaves it spinning), so the regex runs here, where the service can kill it
 * (`regex.ts`). Requests and answers are JSON lines on stdin and stdout, one at a time
 * (src/own_child.ts).
 * @module
 */
import { lineStarts, positionAt } from "../../edit/line_index.ts";
import { decodeText } from "../../edit/text_file.ts";
import { writeAll } from "../../bytes.ts";
import { readLines } from "../../own_child.ts";
import { formatMatch } from "./matches.ts";

/**
 * Matches one `matches` request may give: each crosses into the service as a record that its
 * main thread parses (`x*` on a 6 MB file would be 6 million), so past it the request fails.
 */
export const MAX_MATCHES = 100_000;
/** Characters of matched text and groups one `matches` request may give; past it, it fails. */
export const MAX_MATCHED_CHARS = 16 * 1024 * 1024;
/**
 * Characters of answer a search builds at most, whatever `max_answer_chars` asks: a longer form
 * is measured, not built, and never crosses into the service.
 */
export const MAX_SEARCH_CHARS = 4 * 1024 * 1024;

/** Every match of a pattern in one text. */
export interface MatchesRequest {
  op: "matches";
  source: string;
  flags: string;
  text: string;
}

/** One match: its offset, its groups (index 0 is the whole match) and named groups. */
export interface MatchRecord {
  index: number;
  groups: (string | null)[];
  named: Record<string, string | null> | null;
  /** A multi-line match in which the pattern matches again (after its first character). */
  again: boolean;
  /** Where each group starts, with the `d` flag; null without it or for a group not taken. */
  starts: (number | null)[] | null;
}

/** search_for_pattern over files the caller has resolved in the sandbox. */
export interface SearchRequest {
  op: "search";
  source: string;
  flags: string;
  /** Project-relative path (for the answer) and absolute path (to read). */
  files: { path: string; absolute: string }[];
  encoding: string;
  contextBefore: number;
  contextAfter: number;
  /** The longest answer the caller takes: forms longer than this are measured, not built. */
  maxChars: number;
}

/** A match's first matched line: its 0-based number and its text, trimmed. */
export interface MatchLine {
  line: number;
  text: string;
}

/**
 * search_for_pattern's answer and its shorter forms (Serena's stages), each built only while it
 * fits in the caller's `maxChars`, null past it; the full answer's length is always given.
 */
export interface SearchAnswer {
  /** `{path: [formatted match]}`, in file order. */
  results: Record<string, string[]> | null;
  /** The length of `JSON.stringify(results)` (also when it was not built). */
  length: number;
  /** Each match's first line, trimmed. */
  firstLines: Record<string, MatchLine[]> | null;
  /** The same with texts over {@linkcode TRUNCATE_AT} characters cut, marked with `...`. */
  cutLines: Record<string, MatchLine[]> | null;
  /** Each match's first line number. */
  lineNumbers: Record<string, number[]> | null;
  /** Matches per file. */
  counts: Record<string, number>;
  total: number;
}

/** Serena's limit for a line's text in the truncated stage of a too-long answer. */
export const TRUNCATE_AT = 60;

/**
 * One form of the answer, `{path: [item, ...], ...}` as JSON, measured as it grows and dropped
 * once longer than `max`.
 */
class BoundedForm<T> {
  value: Record<string, T[]> | null = {};
  /** JSON.stringify(value)'s length, kept exact after `value` was dropped. */
  length = 2;
  #files = 0;
  #inFile = 0;
  #current: T[] | null = null;
  constructor(readonly max: number) {}

  startFile(path: string): void {
    this.length += (this.#files++ > 0 ? 1 : 0) + JSON.stringify(path).length + 3;
    this.#inFile = 0;
    this.#current = [];
    if (this.value) this.value[path] = this.#current;
  }

  add(item: T, json: number): void {
    this.length += (this.#inFile++ > 0 ? 1 : 0) + json;
    if (this.length > this.max) this.value = null;
    if (this.value) this.#current!.push(item);
  }
}

export type RegexRequest = MatchesRequest | SearchRequest;

export function allMatches(request: Omit<MatchesRequest, "op">): MatchRecord[] {
  const regex = new RegExp(
    request.source,
    request.flags.includes("g") ? request.flags : request.flags + "g",
  );
  const inner = new RegExp(request.source, regex.flags.replace("g", ""));
  const out: MatchRecord[] = [];
  let chars = 0;
  for (let match = regex.exec(request.text); match !== null; match = regex.exec(request.text)) {
    if (match[0] === "") regex.lastIndex++;
    for (const group of match) chars += group?.length ?? 0;
    if (out.length >= MAX_MATCHES || chars > MAX_MATCHED_CHARS) {
      throw new RangeError(
        out.length >= MAX_MATCHES
          ? `The pattern matches more than ${MAX_MATCHES} times; nothing was changed. ` +
            "Make it more specific (a pattern that can match empty text matches at every " +
            "position)."
          : `The pattern's matches hold more than ${MAX_MATCHED_CHARS} characters; nothing ` +
            "was changed. Make it more specific.",
      );
    }
    out.push({
      index: match.index,
      groups: [...match].map((g) => g ?? null),
      named: match.groups
        ? Object.fromEntries(Object.entries(match.groups).map(([k, v]) => [k, v ?? null]))
        : null,
      again: match[0].includes("\n") && inner.test(match[0].slice(1)),
      starts: match.indices ? [...match.indices].map((range) => range?.[0] ?? null) : null,
    });
  }
  return out;
}

const decoder = new TextDecoder();

export function searchFiles(request: Omit<SearchRequest, "op">): SearchAnswer {
  const regex = new RegExp(request.source, request.flags);
  const max = Math.min(request.maxChars, MAX_SEARCH_CHARS);
  const results = new BoundedForm<string>(max);
  const firstLines = new BoundedForm<MatchLine>(max);
  const cutLines = new BoundedForm<MatchLine>(max);
  const lineNumbers = new BoundedForm<number>(max);
  const counts: Record<string, number> = {};
  let total = 0;
  for (const { path, absolute } of request.files) {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(absolute);
    } catch {
      continue;
    }
    // Cheap prefilter for the common case; decode properly only when needed.
    let text: string;
    try {
      text = /^utf-?8$/i.test(request.encoding) && !bytes.subarray(0, 8192).includes(0)
        ? decoder.decode(bytes).replace(/\r\n/g, "\n")
        : decodeText(bytes, request.encoding, path).text;
    } catch {
      continue; // binary or undecodable: not searchable text
    }
    regex.lastIndex = 0;
    let match = regex.exec(text);
    if (match === null) continue;
    const lines = text.split("\n");
    const starts = lineStarts(text);
    const lineOf = (offset: number) => positionAt(starts, offset).line;
    for (const form of [results, firstLines, cutLines, lineNumbers]) form.startFile(path);
    let count = 0;
    while (match !== null) {
      const start = lineOf(match.index);
      const last = lineOf(match.index + Math.max(match[0].length - 1, 0));
      // Every form is measured whole (the answer says how long it is), kept only while it fits.
      const found = formatMatch(lines, start, last, request.contextBefore, request.contextAfter);
      results.add(found, JSON.stringify(found).length);
      const line = lines[start]!.trim();
      const first = { line: start, text: line };
      firstLines.add(first, JSON.stringify(first).length);
      const cut = {
        line: start,
        text: line.length > TRUNCATE_AT ? `${line.slice(0, TRUNCATE_AT)}...` : line,
      };
      cutLines.add(cut, JSON.stringify(cut).length);
      lineNumbers.add(start, String(start).length);
      count++;
      if (match[0] === "") regex.lastIndex++;
      match = regex.exec(text);
    }
    counts[path] = count;
    total += count;
  }
  // Only what can be shown crosses into the service: the first form that fits, and the next
  // one (the "too long" line before a form may push it over).
  const forms = [results, firstLines, cutLines, lineNumbers];
  const first = forms.findIndex((form) => form.value !== null);
  if (first !== -1) {
    for (const [i, form] of forms.entries()) {
      if (i < first || i > first + (first === 0 ? 0 : 1)) form.value = null;
    }
  }
  return {
    results: results.value,
    length: results.length,
    firstLines: firstLines.value,
    cutLines: cutLines.value,
    lineNumbers: lineNumbers.value,
    counts,
    total,
  };
}

/** Answer requests from stdin until it closes. */
export async function serveRegexRequests(): Promise<void> {
  const encoder = new TextEncoder();
  await readLines(Deno.stdin.readable, async (line) => {
    let answer: unknown;
    try {
      const request = JSON.parse(line) as RegexRequest;
      answer = { ok: request.op === "search" ? searchFiles(request) : allMatches(request) };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    await writeAll(Deno.stdout, encoder.encode(JSON.stringify(answer) + "\n"));
  });
}

if (import.meta.main) await serveRegexRequests();
