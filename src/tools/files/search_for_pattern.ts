/**
 * search_for_pattern: a regex (DOTALL, MULTILINE) over project files, with include/exclude
 * globs, context lines and a code-files restriction, answered as JSON {path: [match, ...]}.
 * @module
 */
import { picomatch, z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { compilePattern } from "../../edit/replace.ts";
import { isCodeFile } from "../../project/source_languages.ts";
import type { Project } from "../../project/project.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { regexSearch } from "../shared/regex.ts";
import { type SearchAnswer, TRUNCATE_AT } from "../shared/regex_child.ts";

/** Glob matcher with `**`, `{a,b}`; a pattern without `/` matches the base name anywhere. */
export function globMatcher(glob: string): (path: string) => boolean {
  const normalized = glob.replace(/\\/g, "/").replace(/^\.\//, "");
  return picomatch(normalized, { dot: true, basename: !normalized.includes("/") });
}

export interface SearchOptions {
  pattern: string;
  contextBefore: number;
  contextAfter: number;
  include: string;
  exclude: string;
  relativePath: string;
  codeOnly: boolean;
  /** Search ignored files too (default: skip them). */
  includeIgnored?: boolean;
  /** DOTALL and MULTILINE (Serena's default); false matches `.`, `^` and `$` plainly. */
  multiline?: boolean;
  signal?: AbortSignal;
  /** The longest answer the caller takes: longer forms are measured in the child, not built. */
  maxChars: number;
  /**
   * Filled, when given, with the files and folders (ending in `/`) that could not be searched
   * because their names are not valid UTF-8 (see {@linkcode unopenableName}).
   */
  unopenable?: string[];
}

/**
 * Whether a walked path is one this process cannot open: Deno gives names that are not valid
 * UTF-8 with U+FFFD in place of the bad bytes, and that name leads nowhere.
 */
function unopenableName(absolute: string): boolean {
  if (!absolute.includes("\uFFFD")) return false;
  try {
    Deno.lstatSync(absolute);
    return false; // a name that really holds U+FFFD
  } catch {
    return true;
  }
}

/** The note for files a search could not open, listing the first of them. */
export function unopenableNote(paths: readonly string[]): string {
  const shown = paths.slice(0, 20).join(", ");
  const more = paths.length > 20 ? `, and ${paths.length - 20} more` : "";
  return `Not searched: ${paths.length} file(s) or folder(s) whose names are not valid UTF-8, ` +
    `which Sextant cannot open (the bad bytes are shown as \uFFFD): ${shown}${more}. ` +
    "Rename them to search them.";
}

/** The matches, and the shorter forms of the answer that fit (see regex_child.ts). */
export async function searchProject(
  project: Project,
  options: SearchOptions,
): Promise<SearchAnswer> {
  const regex = compilePattern(options.pattern, options.multiline === false ? "g" : "gms");
  const include = options.include ? globMatcher(options.include) : null;
  const exclude = options.exclude ? globMatcher(options.exclude) : null;
  // As in Serena, skip_ignored_files=false searches an ignored folder named as relative_path.
  const scope = project.resolve(options.relativePath || ".", {
    requireNotIgnored: options.includeIgnored !== true,
  });
  const files: string[] = [];
  if (Deno.statSync(scope.real).isDirectory) {
    const walk = { signal: options.signal, skipIgnored: options.includeIgnored !== true };
    for await (const entry of project.walk(scope.relative, walk)) {
      if (unopenableName(project.absolute(entry.path))) {
        options.unopenable?.push(entry.isDirectory ? `${entry.path}/` : entry.path);
        continue;
      }
      if (!entry.isDirectory) files.push(entry.path);
    }
  } else {
    files.push(scope.relative);
  }
  const chosen: { path: string; absolute: string }[] = [];
  for (const path of files.sort()) {
    if (exclude?.(path)) continue;
    if (include && !include(path)) continue;
    if (options.codeOnly && !isCodeFile(path)) continue;
    chosen.push({ path, absolute: project.absolute(path) });
  }
  // The pattern runs in a process that a timeout or a cancel kills (shared/regex.ts); it cuts
  // the answer there, so a huge one never reaches this process.
  return await regexSearch({
    source: regex.source,
    flags: regex.flags,
    files: chosen,
    encoding: project.settings.encoding,
    contextBefore: options.contextBefore,
    contextAfter: options.contextAfter,
    maxChars: options.maxChars,
  }, options.signal);
}

export const searchForPattern = defineTool({
  name: "search_for_pattern",
  description: "Searches files for a regex ('.' crosses lines). JSON {path: [match]}, " +
    "0-based lines, matches marked '>'.",
  params: {
    substring_pattern: z.string().min(1).describe("The regex."),
    context_lines_before: z.number().int().min(0).default(0),
    context_lines_after: z.number().int().min(0).default(0),
    paths_include_glob: z.string().default("").describe(
      "e.g. 'src/**/*.{ts,tsx}'.",
    ),
    paths_exclude_glob: z.string().default("").describe(
      "Glob of files to skip (wins).",
    ),
    relative_path: z.string().default("").describe("Only this file or folder."),
    restrict_search_to_code_files: z.boolean().default(false).describe(
      "Only code files.",
    ),
    skip_ignored_files: z.boolean().default(true).describe("Skip ignored files."),
    multiline: z.boolean().default(true).describe("false: '.' stops at line ends."),
    max_answer_chars: maxAnswerChars,
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    if (args.relative_path) {
      try {
        project.resolve(args.relative_path, { requireNotIgnored: args.skip_ignored_files });
      } catch (error) {
        if (error instanceof ToolError && error.message.startsWith("No file or directory")) {
          throw new ToolError(`Relative path '${args.relative_path}' does not exist.`);
        }
        throw error;
      }
    }
    const max = args.max_answer_chars === -1
      ? project.settings.default_max_tool_answer_chars
      : args.max_answer_chars;
    const unopenable: string[] = [];
    const answer = await searchProject(project, {
      pattern: args.substring_pattern,
      contextBefore: args.context_lines_before,
      contextAfter: args.context_lines_after,
      include: args.paths_include_glob,
      exclude: args.paths_exclude_glob,
      relativePath: args.relative_path,
      codeOnly: args.restrict_search_to_code_files,
      includeIgnored: !args.skip_ignored_files,
      multiline: args.multiline,
      signal: ctx.signal,
      maxChars: max,
      unopenable,
    });
    const { results, firstLines, cutLines, lineNumbers, counts, total } = answer;
    // Serena's stages, least shortened first; the child built only those that can fit.
    const stage = (note: string, form: unknown) =>
      form === null ? [] : [{ note, text: () => JSON.stringify(form) }];
    return {
      text: results === null ? "" : JSON.stringify(results),
      ...(results === null ? { length: answer.length } : {}),
      shorter: [
        ...stage(
          "Matched lines per file; use read_file with the line numbers for surrounding " +
            "context:",
          firstLines,
        ),
        ...stage(
          `Matched lines (text over ${TRUNCATE_AT} chars is truncated, marked with a ` +
            "trailing '...'); use read_file with the line numbers for full content:",
          cutLines,
        ),
        ...stage("Match lines per file:", lineNumbers),
        ...stage("Match counts per file:", counts),
        {
          note: "",
          text: () => `Found ${total} matches in ${Object.keys(counts).length} files.`,
        },
      ],
      ...(unopenable.length > 0 ? { notes: [unopenableNote(unopenable)] } : {}),
    };
  },
});
