/**
 * Serena's text replacement: literal or regex needles (regex with DOTALL and MULTILINE),
 * `$!N` backreferences in the replacement, refusal of unexpected multiple matches, and
 * detection of ambiguous multi-line matches.
 * @module
 */
import { ToolError } from "../errors.ts";
import { replaceSpans } from "./text_spans.ts";

export type ReplaceMode = "literal" | "regex";

/** Escape text for literal use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * Compile a pattern written in Python's `re` dialect (what Serena users write) to a JS RegExp:
 * named groups `(?P<n>...)`/`(?P=n)`, `\A`/`\Z` anchors, and leading inline flags like `(?i)`.
 */
export function compilePattern(pattern: string, flags = "gms"): RegExp {
  let body = pattern;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(pattern);
  if (inline) {
    if (inline[1]!.includes("x")) {
      throw new ToolError(`Verbose patterns ('(?x)') are not supported: '${pattern}'.`);
    }
    // m and s are always on; a, L and u change nothing that matters here.
    if (inline[1]!.includes("i") && !flags.includes("i")) flags += "i";
    body = pattern.slice(inline[0].length);
  }
  const translated = body
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, "(?<$1>")
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, "\\k<$1>")
    .replace(/(^|[^\\])\\A/g, "$1^(?<![\\s\\S])")
    .replace(/(^|[^\\])\\Z/g, "$1(?![\\s\\S])");
  try {
    return new RegExp(translated, flags);
  } catch (error) {
    // V8 says "Invalid regular expression: /<source>/<flags>: <reason>": keep the reason.
    const reason = (error as Error).message.replace(
      /^Invalid regular expression: \/.*\/\w*: /s,
      "",
    );
    throw new ToolError(`Invalid regular expression '${pattern}': ${reason}`);
  }
}

/** Expand `$!N` in a replacement with match group N (Serena's backreference syntax). */
export function expandBackreferences(repl: string, match: RegExpExecArray): string {
  return repl.replace(/\$!(\d+)/g, (_whole, digits: string) => {
    const index = Number(digits);
    if (index >= match.length) {
      throw new ToolError(
        `Replacement refers to group $!${index}, but the pattern has only ${
          match.length - 1
        } group(s).`,
      );
    }
    return match[index] ?? "";
  });
}

export interface ReplaceResult {
  text: string;
  count: number;
}

export interface ReplaceOptions {
  allowMultipleOccurrences?: boolean;
  /**
   * The needle's matches, found elsewhere (a user regex runs in a process that can be killed);
   * `again` marks a multi-line match in which the pattern matches again.
   */
  matches?: readonly (RegExpExecArray & { again?: boolean })[];
  /** Name used in error messages. */
  fileLabel?: string;
}

/** Find all matches of the needle; shared by replacement and by the dry runs that preview it. */
export function findMatches(text: string, needle: string, mode: ReplaceMode): RegExpExecArray[] {
  if (needle === "") throw new ToolError("The needle must not be empty.");
  const regex = mode === "regex" ? compilePattern(needle) : new RegExp(escapeRegExp(needle), "g");
  // Non-global twin for the ambiguity check, compiled once rather than per match.
  const inner = mode === "regex" ? compilePattern(needle, "ms") : null;
  const matches: RegExpExecArray[] = [];
  let match: RegExpExecArray | null;
  while ((match = regex.exec(text)) !== null) {
    matches.push(match);
    if (match[0] === "") regex.lastIndex++;
    if (inner && match[0].includes("\n")) {
      // A multi-line match that contains another match of the same pattern is ambiguous:
      // the agent probably meant a shorter span.
      const rest = match[0].slice(1);
      if (inner.test(rest)) throw ambiguousMatch();
    }
  }
  return matches;
}

function ambiguousMatch(): ToolError {
  return new ToolError(
    "Match is ambiguous: the search pattern matches again inside a multi-line match. " +
      "Make the pattern more specific (e.g. use non-greedy quantifiers like .*?).",
  );
}

/** The replacement text for one match. */
export function replacementFor(match: RegExpExecArray, repl: string, mode: ReplaceMode): string {
  return mode === "regex" ? expandBackreferences(repl, match) : repl;
}

/** Apply the replacement to the given matches (sorted by index), returning the new text. */
export function applyMatches(
  text: string,
  matches: readonly RegExpExecArray[],
  repl: string,
  mode: ReplaceMode,
): string {
  return replaceSpans(
    text,
    matches.map((match) => ({
      start: match.index,
      end: match.index + match[0].length,
      text: replacementFor(match, repl, mode),
    })),
  );
}

/** Serena's `replace_content` semantics on a string. */
export function replaceContent(
  text: string,
  needle: string,
  repl: string,
  mode: ReplaceMode,
  options: ReplaceOptions = {},
): ReplaceResult {
  const label = options.fileLabel ? ` in file '${options.fileLabel}'` : "";
  if (needle === "") throw new ToolError("The needle must not be empty.");
  if (options.matches?.some((m) => m.again)) throw ambiguousMatch();
  const matches = options.matches ?? findMatches(text, needle, mode);
  if (matches.length === 0) {
    throw new ToolError(
      `No matches of search expression found${label}. ` +
        "Read the file to check the exact text (whitespace and indentation count).",
    );
  }
  if (matches.length > 1 && !options.allowMultipleOccurrences) {
    throw new ToolError(
      `Expression matches ${matches.length} occurrences${label}. ` +
        "Please revise the expression to be more specific or enable allow_multiple_occurrences " +
        "if this is expected.",
    );
  }
  return { text: applyMatches(text, matches, repl, mode), count: matches.length };
}
