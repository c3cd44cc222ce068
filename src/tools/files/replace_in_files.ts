/**
 * replace_in_files: replaces a needle across many files, all or nothing, with a dry run,
 * occurrence ids (Serena 2.1's `path:index@digest`) and an expected count.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { compilePattern, escapeRegExp, replacementFor } from "../../edit/replace.ts";
import { replaceSpans } from "../../edit/text_spans.ts";
import { globMatcher } from "./search_for_pattern.ts";
import { regexMatches } from "../shared/regex.ts";
import { writeFiles } from "../shared/write.ts";
import { defineTool, type ToolAnswer } from "../tool.ts";
import { limitAnswer } from "../limit.ts";
import { toJson } from "../shared/json.ts";
import type { TextFormat } from "../../edit/text_file.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { replaceMode } from "../shared/params.ts";

/** An occurrence id as Serena 2.1 makes it: `path:index@digest`, index 0-based in the file. */
const OCCURRENCE_ID = /^(?<path>.+):(?<index>\d+)@(?<digest>[0-9a-f]{16})$/;

/** The first 16 hex digits of the SHA-256 of `text` (UTF-8), as Serena's ids use. */
async function digest16(text: string): Promise<string> {
  const hash = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return [...hash.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** One prospective replacement (Serena's `ReplacementOccurrence`). */
interface Occurrence {
  id: string;
  path: string;
  index: number;
  start: number;
  end: number;
  replacement: string;
  startLine: number;
  endLine: number;
  /** A multi-line match in which the pattern matches again: possibly over-matched. */
  ambiguous: boolean;
}

/** Every match of the needle in `text`, in order, with Serena's content-bound ids. */
async function occurrencesIn(
  path: string,
  text: string,
  needle: string,
  repl: string,
  mode: "literal" | "regex",
  signal: AbortSignal,
): Promise<Occurrence[]> {
  const textDigest = await digest16(text);
  const out: Occurrence[] = [];
  for (const match of await occurrenceMatches(text, needle, mode, signal)) {
    const start = match.index;
    const end = start + match[0].length;
    const startLine = countNewlines(text, 0, start);
    let endLine = countNewlines(text, 0, end);
    if (endLine > startLine && match[0].endsWith("\n")) endLine--;
    out.push({
      id: `${path}:${out.length}@${await digest16(`${textDigest}:${start}:${end}`)}`,
      path,
      index: out.length,
      start,
      end,
      replacement: replacementFor(match, repl, mode),
      startLine,
      endLine,
      ambiguous: match.again,
    });
  }
  return out;
}

/** A needle's matches: a literal one here, a user regex in a process that can be killed. */
async function occurrenceMatches(
  text: string,
  needle: string,
  mode: "literal" | "regex",
  signal: AbortSignal,
): Promise<(RegExpExecArray & { again: boolean })[]> {
  if (mode === "regex") return await regexMatches(compilePattern(needle), text, signal);
  const regex = new RegExp(escapeRegExp(needle), "gms");
  const again = new RegExp(regex.source, "ms");
  const out: (RegExpExecArray & { again: boolean })[] = [];
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    out.push(
      Object.assign(match, { again: match[0].includes("\n") && again.test(match[0].slice(1)) }),
    );
  }
  return out;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** A diff side as Serena shows it: at most 6 lines of at most 200 characters, indented. */
function diffSide(block: string, sign: string): string[] {
  const lines = block.split("\n");
  const out = lines.slice(0, 6).map((line) =>
    `    ${sign} ${
      line.length > 200 ? `${line.slice(0, 200)}… (+${line.length - 200} chars)` : line
    }`
  );
  if (lines.length > 6) out.push(`    ${sign} … (${lines.length - 6} more lines)`);
  return out;
}

/** Serena's minimal line diff of one occurrence: the whole lines it spans, before and after. */
function occurrenceDiff(o: Occurrence, text: string): string {
  const lineStart = text.lastIndexOf("\n", o.start - 1) + 1;
  const found = text.indexOf("\n", o.end);
  const lineEnd = found === -1 ? text.length : found;
  let before = text.slice(lineStart, lineEnd);
  let after = text.slice(lineStart, o.start) + o.replacement + text.slice(o.end, lineEnd);
  if (lineEnd === text.length) {
    before = before.replace(/\n$/, "");
    after = after.replace(/\n$/, "");
  }
  // A match that consumed a line break pulls in the next line on both sides: drop what is equal.
  const old = before.split("\n");
  const neu = after.split("\n");
  while (old.length > 1 && neu.length > 1 && old.at(-1) === neu.at(-1)) {
    old.pop();
    neu.pop();
  }
  const where = o.startLine === o.endLine
    ? `line ${o.startLine}`
    : `lines ${o.startLine}-${o.endLine}`;
  const header = `  [${o.id}] ${where}` +
    (o.ambiguous
      ? "  (WARNING: the pattern matches again inside this match — possible over-match, " +
        "verify the diff)"
      : "");
  return [header, ...diffSide(old.join("\n"), "-"), ...diffSide(neu.join("\n"), "+")].join("\n");
}

/** Serena's listing of prospective changes, with its shorter forms. */
function listing(
  occurrences: readonly Occurrence[],
  texts: ReadonlyMap<string, string>,
  dryRun: boolean,
): ToolAnswer & { shorter: NonNullable<Exclude<ToolAnswer, string>["shorter"]> } {
  const files = [...new Set(occurrences.map((o) => o.path))].sort();
  let header = `Found ${occurrences.length} occurrence(s) in ${files.length} file(s).`;
  if (dryRun) {
    header += " DRY RUN - no changes were applied.\n" +
      "Re-issue with dry_run=False to replace all of them, or additionally pass " +
      "occurrence_ids with the ids of the occurrences to replace.";
  }
  const parts = [header];
  for (const file of files) {
    const inFile = occurrences.filter((o) => o.path === file);
    parts.push(`\n${file} (${inFile.length} occurrence(s)):`);
    for (const o of inFile) parts.push(occurrenceDiff(o, texts.get(file)!));
  }
  const counts = Object.fromEntries(
    files.map((f) => [f, occurrences.filter((o) => o.path === f).length]),
  );
  return {
    text: parts.join("\n"),
    shorter: [
      {
        note: "",
        text: () =>
          [header, ...occurrences.map((o) => `  [${o.id}] line ${o.startLine}`)].join("\n"),
      },
      { note: "", text: () => `${header}\nOccurrence counts per file:\n${toJson(counts)}` },
      { note: "", text: () => header },
    ],
  };
}

/** Why an occurrence id no longer names an occurrence (Serena 2.1's four cases). */
function staleReason(id: string, occurrences: readonly Occurrence[]): string {
  const parsed = OCCURRENCE_ID.exec(id);
  if (!parsed) return "malformed id (expected '<path>:<index>@<digest>' as returned by a dry run)";
  const inFile = occurrences.filter((o) => o.path === parsed.groups!.path);
  if (inFile.length === 0) return "the pattern currently has no matches in this file";
  if (!inFile.some((o) => o.index === Number(parsed.groups!.index))) {
    return "the file now has fewer matches than at dry-run time (content changed)";
  }
  return "the file content or matched range changed since the dry run";
}

export const replaceInFiles = defineTool({
  name: "replace_in_files",
  description: "Replaces a needle across files, all or nothing. dry_run lists changes with " +
    "ids; apply all or occurrence_ids.",
  params: {
    needle: z.string().min(1),
    repl: z.string(),
    mode: replaceMode,
    relative_path: z.string().default("").describe("Only this folder or file."),
    paths_include_glob: z.string().default(""),
    paths_exclude_glob: z.string().default(""),
    dry_run: z.boolean().default(false).describe("Only list what would change."),
    occurrence_ids: z.array(z.string()).optional().describe(
      "Only these ids (from a dry run).",
    ),
    expected_count: z.number().int().min(-1).default(-1).describe(
      "Refuse unless this many match (-1: any).",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const project = ctx.project();
    const scope = project.resolve(args.relative_path.trim() || ".");
    const include = args.paths_include_glob.trim()
      ? globMatcher(args.paths_include_glob.trim())
      : null;
    const exclude = args.paths_exclude_glob.trim()
      ? globMatcher(args.paths_exclude_glob.trim())
      : null;
    const paths: string[] = [];
    if (Deno.statSync(scope.real).isDirectory) {
      for await (const entry of project.walk(scope.relative, { signal: ctx.signal })) {
        if (entry.isDirectory || exclude?.(entry.path)) continue;
        if (include && !include(entry.path)) continue;
        paths.push(entry.path);
      }
    } else {
      paths.push(scope.relative);
    }
    const max = args.max_answer_chars === -1
      ? project.settings.default_max_tool_answer_chars
      : args.max_answer_chars;
    // Hold every candidate file while reading and writing, so a parallel edit is not lost.
    const reals = paths.map((path) => project.resolveFile(path).real);
    return await writeFiles<ToolAnswer>(ctx, {
      lock: reals,
      prepare: async () => {
        const occurrences: Occurrence[] = [];
        const texts = new Map<string, string>();
        const files = new Map<string, { real: string; format: TextFormat }>();
        const realSeen = new Set<string>();
        for (const path of paths.sort()) {
          const resolved = project.resolveFile(path);
          // A file reached twice (through a symlink) is replaced once.
          if (realSeen.has(resolved.real)) continue;
          realSeen.add(resolved.real);
          let file;
          try {
            file = await project.readText(resolved);
          } catch {
            continue; // binary or undecodable
          }
          const found = await occurrencesIn(
            path,
            file.text,
            args.needle,
            args.repl,
            args.mode,
            ctx.signal,
          );
          if (found.length === 0) continue;
          occurrences.push(...found);
          texts.set(path, file.text);
          files.set(path, { real: resolved.real, format: file.format });
        }
        if (args.dry_run) return { changes: [], result: listing(occurrences, texts, true) };
        const refuse = (message: string, showChanges: boolean): never => {
          throw new ToolError(
            showChanges
              ? `${message}\n${limitAnswer(listing(occurrences, texts, false), max, max)}`
              : message,
          );
        };
        let chosen: Occurrence[];
        if (args.occurrence_ids !== undefined) {
          const byId = new Map(occurrences.map((o) => [o.id, o]));
          const problems = args.occurrence_ids.filter((id) => !byId.has(id))
            .map((id) => `  ${id}: ${staleReason(id, occurrences)}`);
          if (problems.length > 0) {
            refuse(
              `${problems.length} of the given occurrence_ids could not be resolved - NO ` +
                `changes were applied:\n${problems.join("\n")}\n` +
                "Re-run with dry_run=True to obtain current occurrence ids.",
              false,
            );
          }
          if (args.occurrence_ids.length === 0) {
            refuse(
              "occurrence_ids is empty - pass at least one id from a dry run, or omit the " +
                "parameter to replace all.",
              false,
            );
          }
          // In the order given, as Serena applies them.
          chosen = [...new Set(args.occurrence_ids)].map((id) => byId.get(id)!);
        } else {
          if (occurrences.length === 0) {
            refuse(
              "No occurrences of the pattern were found - NO changes were applied. Check the " +
                "mode (a literal needle containing regex metacharacters must use mode " +
                "'literal'; wildcards require mode 'regex') and the path/glob restrictions, " +
                "or locate the content with search_for_pattern first.",
              false,
            );
          }
          if (args.expected_count >= 0 && occurrences.length !== args.expected_count) {
            refuse(
              `expected_count=${args.expected_count}, but the pattern matches ` +
                `${occurrences.length} occurrence(s) - NO changes were applied. Review the ` +
                "prospective changes below; re-issue with the corrected expectation, a refined " +
                "pattern, or occurrence_ids selecting the intended subset.",
              true,
            );
          }
          const ambiguous = occurrences.filter((o) => o.ambiguous).length;
          if (ambiguous > 0) {
            refuse(
              `${ambiguous} occurrence(s) are ambiguous (the pattern matches again inside the ` +
                "matched text, indicating possible over-matching) - NO changes were applied. " +
                "Review the prospective changes below and either refine the pattern or " +
                "explicitly select occurrences via occurrence_ids.",
              true,
            );
          }
          chosen = occurrences;
        }
        const perFile = new Map<string, Occurrence[]>();
        for (const o of chosen) perFile.set(o.path, [...(perFile.get(o.path) ?? []), o]);
        const changes = [...perFile].map(([path, list]) => {
          const text = replaceSpans(
            texts.get(path)!,
            list.map((o) => ({ start: o.start, end: o.end, text: o.replacement })),
          );
          return { real: files.get(path)!.real, after: text, format: files.get(path)!.format };
        });
        const lines = [...perFile].map(([path, list]) => `  ${path}: ${list.length}`);
        return {
          changes,
          result: `Replaced ${chosen.length} occurrence(s) in ${perFile.size} file(s):\n` +
            lines.join("\n"),
        };
      },
    });
  },
});
