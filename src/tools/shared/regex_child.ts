/**
 * The process that runs user regular expressions (search_for_pattern, replace_content and
 * replace_in_files in regex mode, find_declaration). A backtracking pattern can run for minutes
 * on one short line, and V8 cannot stop a busy regex on a thread (Deno's `Worker.terminate()`
 * leaves it spinning), so the regex runs here, where the service can kill it
 * (`regex.ts`). Requests and answers are JSON lines on stdin and stdout, one at a time.
 * @module
 */
import { decodeText } from "../../edit/text_file.ts";
import { formatMatch } from "./matches.ts";

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
}

export interface SearchAnswer {
  results: Record<string, string[]>;
  firstLines: Record<string, { line: number; text: string }[]>;
}

export type RegexRequest = MatchesRequest | SearchRequest;

export function allMatches(request: Omit<MatchesRequest, "op">): MatchRecord[] {
  const regex = new RegExp(
    request.source,
    request.flags.includes("g") ? request.flags : request.flags + "g",
  );
  const inner = new RegExp(request.source, regex.flags.replace("g", ""));
  const out: MatchRecord[] = [];
  for (let match = regex.exec(request.text); match !== null; match = regex.exec(request.text)) {
    if (match[0] === "") regex.lastIndex++;
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
  const results: Record<string, string[]> = {};
  const firstLines: SearchAnswer["firstLines"] = {};
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
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
    const lineOf = (offset: number) => {
      let lo = 0, hi = lineStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lineStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const found: string[] = [];
    const first: { line: number; text: string }[] = [];
    while (match !== null) {
      const start = lineOf(match.index);
      const last = lineOf(match.index + Math.max(match[0].length - 1, 0));
      found.push(formatMatch(lines, start, last, request.contextBefore, request.contextAfter));
      first.push({ line: start, text: lines[start]!.trim() });
      if (match[0] === "") regex.lastIndex++;
      match = regex.exec(text);
    }
    results[path] = found;
    firstLines[path] = first;
  }
  return { results, firstLines };
}

/** Answer requests from stdin until it closes. */
export async function serveRegexRequests(): Promise<void> {
  const encoder = new TextEncoder();
  const textDecoder = new TextDecoder();
  // Only a chunk with a newline ends a request: earlier chunks are kept, not rescanned.
  let parts: string[] = [];
  for await (const chunk of Deno.stdin.readable) {
    let text = textDecoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = text.indexOf("\n")) !== -1) {
      const line = parts.join("") + text.slice(0, newline);
      parts = [];
      text = text.slice(newline + 1);
      let answer: unknown;
      try {
        const request = JSON.parse(line) as RegexRequest;
        answer = { ok: request.op === "search" ? searchFiles(request) : allMatches(request) };
      } catch (error) {
        answer = { error: error instanceof Error ? error.message : String(error) };
      }
      const bytes = encoder.encode(JSON.stringify(answer) + "\n");
      for (let written = 0; written < bytes.length;) {
        written += await Deno.stdout.write(bytes.subarray(written));
      }
    }
    if (text !== "") parts.push(text);
  }
}

if (import.meta.main) await serveRegexRequests();
