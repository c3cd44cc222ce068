/**
 * What a client's tool call does, judged by its input, not its tool name: a text search (a
 * `pattern`/`query`/`glob` input, or a shell command running grep, rg, find, ...), a whole-file
 * read of a source file (a path without offset or limit, or cat/head/tail on one), a Sextant
 * symbolic tool, or something else. A client that renames its tools keeps being understood.
 * Pure, and imports only the table of source extensions: `sextant hook` runs on every tool call.
 * @module
 */
import { PROGRAM_EXTENSIONS } from "../project/source_languages.ts";

/** The kinds of tool use the hooks count. */
export type ToolUseKind = "search" | "read" | "sextant" | "other";

/** A classified tool call. */
export interface ToolUse {
  kind: ToolUseKind;
  /** The searched text, when the call is a search and it could be told. */
  pattern?: string;
  /** The Sextant tool's own name, for `sextant` calls. */
  tool?: string;
}

// deno-fmt-ignore

/** Sextant tools that are plain file tools, not symbolic ones: they neither count nor reset. */
const SEXTANT_FILE_TOOLS = new Set(["search_for_pattern", "read_file", "list_dir", "find_file"]);

/** Programs that search text or file names. */
const SEARCH_PROGRAMS = new Set([
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "find",
  "fd",
  "fdfind",
]);
/** Programs that print a file (whole, or its start or end). */
const READ_PROGRAMS = new Set(["cat", "bat", "head", "tail", "less", "more", "nl", "sed", "awk"]);
/** Words that run the next word as the program. */
const PREFIXES = new Set(["sudo", "command", "exec", "time", "nice", "env", "xargs"]);
/** Shells whose `-c` argument is the real command. */
const SHELLS = /^(ba|z|da|k|fi)?sh$|^pwsh$|^powershell(\.exe)?$|^cmd(\.exe)?$/;

/** Whether a path names a source file (by its extension). */
export function isSourcePath(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? "";
  const dot = name.lastIndexOf(".");
  // Reading these whole is what symbolic tools replace.
  return dot > 0 && PROGRAM_EXTENSIONS.has(name.slice(dot).toLowerCase());
}

/** The name of a Sextant MCP tool (`mcp__sextant__find_symbol` → `find_symbol`), or null. */
export function sextantToolName(toolName: string): string | null {
  const match = toolName.match(/(?:^|[^a-z0-9])sextant(?:__|[.:/])([A-Za-z0-9_-]+)$/i);
  return match ? match[1]! : null;
}

/** Split a command line into words, honouring simple quotes (enough to find programs and files). */
function words(command: string): string[] {
  const out: string[] = [];
  for (const match of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    out.push(match[1] ?? match[2] ?? match[3] ?? "");
  }
  return out;
}

/** The command a shell runs: `["bash", "-lc", "rg x"]` → `rg x`; a string stays itself. */
function shellText(command: unknown): string | null {
  if (typeof command === "string") return command;
  if (!Array.isArray(command) || !command.every((w) => typeof w === "string")) return null;
  const list = command as string[];
  const program = list[0]?.split(/[\\/]/).pop() ?? "";
  if (SHELLS.test(program)) {
    const flag = list.findIndex((w, i) => i > 0 && /^(-\w*c|\/c|-Command)$/i.test(w));
    if (flag > 0 && list[flag + 1] !== undefined) return list[flag + 1]!;
  }
  return list.map((w) => (/\s/.test(w) ? `'${w}'` : w)).join(" ");
}

/** Classify one shell command line: the first program of each pipeline counts. */
export function classifyShell(command: string): ToolUse {
  let found: ToolUse = { kind: "other" };
  for (const part of command.split(/&&|\|\||;|\n/)) {
    const first = part.split(/(?<!\|)\|(?!\|)/)[0] ?? "";
    let list = words(first.trim());
    while (list.length > 0 && (/^\w+=/.test(list[0]!) || PREFIXES.has(list[0]!))) {
      list = list.slice(1);
    }
    const program = (list[0] ?? "").split(/[\\/]/).pop() ?? "";
    const args = list.slice(1);
    const operands = args.filter((a) => !a.startsWith("-"));
    if (program === "git" && args[0] === "grep") {
      return { kind: "search", ...patternOf(args.slice(1)) };
    }
    if (SEARCH_PROGRAMS.has(program)) {
      // A search of named files that are all non-source files (a log, a README) is not code search.
      const files = operands.slice(1).filter((a) => /\.\w+$/.test(a));
      if (program !== "find" && files.length > 0 && !files.some(isSourcePath)) continue;
      return { kind: "search", ...(program === "find" ? {} : patternOf(args)) };
    }
    if (READ_PROGRAMS.has(program) && operands.some(isSourcePath)) found = { kind: "read" };
  }
  return found;
}

/** The first operand of a grep-like command: its pattern. */
function patternOf(args: string[]): { pattern?: string } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-e" || arg === "--regexp") return args[i + 1] ? { pattern: args[i + 1]! } : {};
    if (arg.startsWith("-")) continue;
    return { pattern: arg };
  }
  return {};
}

/** Input keys of a plain file read (Claude Code Read, Gemini read_file, Cursor read_file, ...). */
const READ_KEYS = new Set([
  "file_path",
  "path",
  "filePath",
  "absolute_path",
  "target_file",
  "file",
  "should_read_entire_file",
]);

/**
 * Classify a tool call by its name and input.
 *
 * @example
 * ```ts
 * import { classifyToolUse } from "./hook_rules.ts";
 * console.log(classifyToolUse("Grep", { pattern: "parseArgs" }).kind); // "search"
 * console.log(classifyToolUse("Bash", { command: "cat src/main.ts" }).kind); // "read"
 * console.log(classifyToolUse("mcp__sextant__find_symbol", {}).kind); // "sextant"
 * ```
 */
export function classifyToolUse(toolName: string, input: unknown): ToolUse {
  const sextant = sextantToolName(toolName);
  if (sextant !== null) {
    return SEXTANT_FILE_TOOLS.has(sextant) ? { kind: "other" } : { kind: "sextant", tool: sextant };
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) return { kind: "other" };
  const fields = input as Record<string, unknown>;
  // Web tools take a query too; they search the web, not the code.
  if (/web|fetch|browse/i.test(toolName) || "url" in fields) return { kind: "other" };
  const shell = shellText(fields.command ?? fields.cmd);
  if (shell !== null) return classifyShell(shell);
  for (const key of ["pattern", "query", "regex", "glob", "glob_pattern"]) {
    const value = fields[key];
    if (typeof value === "string" && value !== "") return { kind: "search", pattern: value };
  }
  const keys = Object.keys(fields);
  const path = ["file_path", "path", "filePath", "absolute_path", "target_file", "file"]
    .map((k) => fields[k]).find((v): v is string => typeof v === "string");
  if (path && isSourcePath(path) && keys.every((k) => READ_KEYS.has(k))) {
    if (fields.should_read_entire_file === false) return { kind: "other" };
    return { kind: "read" };
  }
  return { kind: "other" };
}

/** Whether a searched text looks like a name a symbol could have. */
export function looksLikeIdentifier(pattern: string): boolean {
  return /^\\?b?[A-Za-z_$][\w$]*(\\b)?$/.test(pattern) ||
    /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(pattern);
}

/** The short reason a denied call gets: what happened, and the Sextant tool that answers it. */
export function denyReason(use: ToolUse, count: number, codeMode: boolean): string {
  const name = use.pattern && looksLikeIdentifier(use.pattern)
    ? use.pattern.replace(/\\b/g, "").replace(/^\\/, "")
    : null;
  const tools = use.kind === "read"
    ? "get_symbols_overview (a file's outline), then find_symbol with include_body=true for " +
      "just the part you need"
    : name
    ? `find_symbol name_path_pattern="${name}" (where it is declared) or ` +
      `find_referencing_symbols (who uses it)`
    : "find_symbol (declarations by name), find_referencing_symbols (usages) or " +
      "get_symbols_overview (a file's outline)";
  const what = use.kind === "read" ? "whole-file reads of source files" : "text searches";
  const how = codeMode ? `Sextant's repl tool with its symbol API: ${tools}` : `Sextant's ${tools}`;
  return `${count} ${what} in a row. Use ${how}; they answer from the language server in ` +
    "fewer tokens. After a Sextant tool, searching and reading are allowed again.";
}
