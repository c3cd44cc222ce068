/**
 * replace_content (one file) and replace_in_files (many files, with a dry run, occurrence ids
 * and an expected count).
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { applyMatches, findMatches, replaceContent, replacementFor } from "../../edit/replace.ts";
import { globMatcher } from "./search_for_pattern.ts";
import { editFile, writeFiles } from "../shared/write.ts";
import { defineTool, SUCCESS_RESULT } from "../tool.ts";
import type { TextFormat } from "../../edit/text_file.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { replaceMode } from "../shared/params.ts";

export const replaceContentTool = defineTool({
  name: "replace_content",
  description:
    "Replaces text in a file, literally or by regex. Fails, changing nothing, when the " +
    "needle matches nowhere, or more than once unless allow_multiple_occurrences. Returns " +
    "OK.",
  params: {
    relative_path: z.string().describe("The file."),
    needle: z.string().min(1).describe("Literal text or regular expression to find."),
    repl: z.string().describe("Replacement; in regex mode $!1, $!2 insert groups."),
    mode: replaceMode,
    allow_multiple_occurrences: z.boolean().default(false).describe(
      "Replace every match (else several are refused).",
    ),
  },
  markers: ["can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    await editFile(
      ctx,
      args.relative_path,
      (text, resolved) =>
        replaceContent(text, args.needle, args.repl, args.mode, {
          allowMultipleOccurrences: args.allow_multiple_occurrences,
          fileLabel: resolved.relative,
        }).text,
    );
    return SUCCESS_RESULT;
  },
});

/** An occurrence id: `path#n@digest`, the digest binding the file's text and the match's range. */
const OCCURRENCE_ID = /^(.+)#(\d+)@([0-9a-f]{8})$/;

async function sha256Hex(text: string, bytes = 32): Promise<string> {
  const hash = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return [...hash.subarray(0, bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Why an occurrence id from a dry run no longer names an occurrence (Serena 2.1's four cases). */
function staleReason(id: string, matchCounts: Map<string, number>): string {
  const parsed = OCCURRENCE_ID.exec(id);
  if (!parsed) return "malformed id (expected 'path#n@digest' as a dry run lists it)";
  const count = matchCounts.get(parsed[1]!);
  if (count === undefined) return "the needle now matches nowhere in this file";
  if (Number(parsed[2]) > count) return "the file now has fewer matches than at the dry run";
  return "the file or the matched text changed since the dry run";
}

interface Occurrence {
  id: string;
  line: number;
  before: string;
  after: string;
}

export const replaceInFiles = defineTool({
  name: "replace_in_files",
  description: "Replaces a literal or regex needle across files, all or none. dry_run " +
    "(default) lists occurrences with ids; apply with dry_run=false.",
  params: {
    needle: z.string().min(1),
    repl: z.string(),
    mode: replaceMode,
    relative_path: z.string().default("").describe("Folder or file to limit the change to."),
    paths_include_glob: z.string().default(""),
    paths_exclude_glob: z.string().default(""),
    dry_run: z.boolean().default(true).describe("Only list what would change (default)."),
    occurrence_ids: z.array(z.string()).optional().describe(
      "Only these ids (from a dry run).",
    ),
    expected_count: z.number().int().min(0).optional().describe(
      "Refuse unless exactly this many are replaced.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const project = ctx.project();
    const scope = project.resolve(args.relative_path || ".");
    const include = args.paths_include_glob ? globMatcher(args.paths_include_glob) : null;
    const exclude = args.paths_exclude_glob ? globMatcher(args.paths_exclude_glob) : null;
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
    // Hold every candidate file while reading and writing, so a parallel edit is not lost.
    const reals = paths.map((path) => project.resolveFile(path).real);
    return await writeFiles(ctx, {
      lock: reals,
      prepare: async () => {
        const wanted = args.occurrence_ids ? new Set(args.occurrence_ids) : null;
        const seen = new Set<string>();
        const matchCounts = new Map<string, number>();
        const occurrences: Occurrence[] = [];
        const writes: Array<{ path: string; real: string; text: string; format: TextFormat }> = [];
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
          const matches = findMatches(file.text, args.needle, args.mode);
          if (matches.length === 0) continue;
          matchCounts.set(path, matches.length);
          const fileDigest = await sha256Hex(file.text);
          const chosen = [];
          for (const [i, match] of matches.entries()) {
            const end = match.index + match[0].length;
            const id = `${path}#${i + 1}@${await sha256Hex(
              `${fileDigest}:${match.index}:${end}`,
              4,
            )}`;
            seen.add(id);
            if (wanted && !wanted.has(id)) continue;
            const line = file.text.slice(0, match.index).split("\n").length - 1;
            const lineStart = file.text.lastIndexOf("\n", match.index - 1) + 1;
            const lineEndAt = file.text.indexOf("\n", end);
            const lineEnd = lineEndAt === -1 ? file.text.length : lineEndAt;
            const before = file.text.slice(lineStart, lineEnd);
            const after = file.text.slice(lineStart, match.index) +
              replacementFor(match, args.repl, args.mode) + file.text.slice(end, lineEnd);
            occurrences.push({ id, line, before, after });
            chosen.push(match);
          }
          if (chosen.length > 0) {
            writes.push({
              path,
              real: resolved.real,
              text: applyMatches(file.text, chosen, args.repl, args.mode),
              format: file.format,
            });
          }
        }
        const unknown = wanted ? [...wanted].filter((id) => !seen.has(id)) : [];
        if (unknown.length > 0) {
          throw new ToolError(
            `${unknown.length} of the given occurrence_ids could not be resolved; nothing was ` +
              `changed:\n${
                unknown.map((id) => `  ${id}: ${staleReason(id, matchCounts)}`).join("\n")
              }` +
              "\nRun the dry run again to get current ids.",
          );
        }
        if (occurrences.length === 0) {
          throw new ToolError("No matches of search expression found in the selected files.");
        }
        if (args.expected_count !== undefined && args.expected_count !== occurrences.length) {
          throw new ToolError(
            `Expected ${args.expected_count} occurrence(s) but found ${occurrences.length}; ` +
              "nothing was changed. Check the dry run.",
          );
        }
        const listing = occurrences.map((o) => ({
          id: o.id,
          line: o.line,
          before: o.before,
          after: o.after,
        }));
        if (args.dry_run) {
          const result = JSON.stringify({
            dry_run: true,
            occurrences: listing,
            count: occurrences.length,
            files: writes.length,
          });
          return { changes: [], result };
        }
        return {
          changes: writes.map((w) => ({ real: w.real, after: w.text, format: w.format })),
          result: JSON.stringify({ applied: occurrences.length, files: writes.map((w) => w.path) }),
        };
      },
    });
  },
});
