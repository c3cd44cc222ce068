/**
 * replace_symbol_body, insert_after_symbol and insert_before_symbol: edits located by a symbol's
 * name path. Bodies are re-indented to their place and separated from neighbours as the file's
 * own symbols are; the helpers that measure a symbol's extent are shared with safe_delete_symbol.
 * @module
 */
import { extname } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { lineStarts, offsetAt, SymbolKind, type SymbolNode } from "../../symbols/model.ts";
import type { SymbolMatch } from "../../symbols/lookup.ts";
import { defineTool, SUCCESS_RESULT, type ToolContext } from "../tool.ts";
import { editAt, locate, symbolEditParams } from "../shared/symbols.ts";
import { type BodyRange, fitBody } from "./body_fit.ts";

/** Languages whose indentation is syntax (re-indenting rules differ, see reindent). */
const INDENTATION_SYNTAX = new Set([".py", ".pyi"]);
/** Languages with `#` line comments. */
const HASH_COMMENTS = new Set([".py", ".pyi", ".sh", ".bash", ".rb", ".pl", ".r", ".yaml", ".yml"]);

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === "";
}

/**
 * Fit a body's indentation to a symbol indented by `anchor`. A body whose first line is flush
 * left is either written relative to column 0 (then every line is indented by `anchor`) or copied
 * from a symbol body (later lines already absolute, as find_symbol shows them). `firstAlready`:
 * the first line lands after existing indentation (replace), so it never gets `anchor`.
 */
export function reindent(body: string, anchor: string, ext: string, firstAlready: boolean): string {
  const lines = body.split("\n");
  if (anchor === "" || indentOf(lines[0]!) !== "") return body;
  const rest = lines.slice(1).filter((l) => !isBlank(l));
  const restMin = rest.length === 0 ? Infinity : Math.min(...rest.map((l) => indentOf(l).length));
  const copied = rest.length > 0 &&
    (INDENTATION_SYNTAX.has(ext) ? restMin > anchor.length : restMin >= anchor.length);
  return lines.map((line, i) => {
    if (isBlank(line)) return line;
    if (i === 0) return firstAlready ? line : anchor + line;
    return copied ? line : anchor + line;
  }).join("\n");
}

function siblingsOf(node: SymbolNode, roots: readonly SymbolNode[]): readonly SymbolNode[] {
  return node.parent ? node.parent.children : roots;
}

/** The last line a symbol occupies (an end at column 0 belongs to the line before). */
export function lastLine(node: SymbolNode): number {
  const end = node.range.end;
  return end.character === 0 && end.line > node.range.start.line ? end.line - 1 : end.line;
}

/**
 * Kinds whose neighbouring definitions Serena separates by a blank line (its
 * `is_neighbouring_definition_separated_by_empty_line`): an insert next to one of them leaves
 * at least one blank line between the two, others none unless the body brings its own.
 */
const SEPARATED_KINDS: ReadonlySet<number> = new Set([
  SymbolKind.Function,
  SymbolKind.Method,
  SymbolKind.Class,
  SymbolKind.Interface,
  SymbolKind.Struct,
]);

/** Serena's minimum number of blank lines between the symbol and an inserted body. */
function minBlankLines(node: SymbolNode): number {
  return SEPARATED_KINDS.has(node.kind) ? 1 : 0;
}

/**
 * The first line of a symbol including the comments and decorators directly above it (no blank
 * line between), never reaching into the previous sibling or the parent's first line.
 */
export function attachedStart(
  node: SymbolNode,
  roots: readonly SymbolNode[],
  lines: readonly string[],
): number {
  const siblings = siblingsOf(node, roots);
  const prev = siblings[siblings.indexOf(node) - 1];
  const floor = prev ? lastLine(prev) : node.parent ? node.parent.range.start.line : -1;
  const hash = HASH_COMMENTS.has(extname(node.relPath).toLowerCase());
  const attached = hash ? /^(#|@)/ : /^(\/\/|\/\*|\*|@)/;
  let line = node.range.start.line;
  while (line - 1 > floor && attached.test(lines[line - 1]!.trim())) line--;
  return line;
}

function leadingNewlines(text: string): number {
  return /^\n*/.exec(text.replace(/\r\n/g, "\n"))![0].length;
}

function trailingNewlines(text: string): number {
  return /\n*$/.exec(text.replace(/\r\n/g, "\n"))![0].length;
}

/** The body as given, without surrounding blank lines or trailing spaces. */
function trimBlock(body: string): string {
  return body.replace(/\r\n/g, "\n").replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

/** The symbol's range and what stands around it, for {@linkcode fitBody}. */
function bodyRange(
  node: SymbolNode,
  text: string,
  lines: readonly string[],
  starts: readonly number[],
): BodyRange {
  const { start, end } = node.range;
  const first = lines[start.line] ?? "";
  const decoratorsAbove: string[] = [];
  for (let line = start.line - 1; line >= 0 && /^\s*@/.test(lines[line]!); line--) {
    decoratorsAbove.unshift(lines[line]!.trim());
  }
  return {
    rangeText: text.slice(offsetAt(text, starts, start), offsetAt(text, starts, end)),
    prefix: first.slice(indentOf(first).length, Math.max(indentOf(first).length, start.character)),
    decoratorsAbove,
    where: `${node.relPath}, line ${start.line + 1} column ${start.character + 1} to line ` +
      `${end.line + 1} column ${end.character + 1}`,
  };
}

export const replaceSymbolBody = defineTool({
  name: "replace_symbol_body",
  description:
    "Replaces a symbol's definition as find_symbol shows it (Python: with decorators; no " +
    "comments above); may repeat what precedes it on its line (export const). Returns OK.",
  params: {
    ...symbolEditParams,
    body: z.string().describe(
      "The new definition, signature included, without the comments above.",
    ),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const body = trimBlock(args.body).replace(/^[ \t]+/, "");
    if (body === "") {
      throw new ToolError("The new body is empty. To delete a symbol use safe_delete_symbol.");
    }
    const target = await locate(ctx, args.name_path, args.relative_path);
    const { node } = target;
    await editAt(ctx, target, (text) => {
      const starts = lineStarts(text);
      const lines = text.split("\n");
      const anchor = indentOf(lines[node.range.start.line] ?? "");
      const fit = fitBody(body, bodyRange(node, text, lines, starts));
      if ("refused" in fit) throw new ToolError(fit.refused);
      const fitted = reindent(fit.body, anchor, extname(node.relPath).toLowerCase(), true);
      const from = offsetAt(text, starts, node.range.start);
      const to = offsetAt(text, starts, node.range.end);
      return text.slice(0, from) + fitted + text.slice(to);
    });
    return SUCCESS_RESULT;
  },
});

/** What an insert next to a symbol works with: the file now, and the body fitted to it. */
interface InsertSite {
  text: string;
  lines: string[];
  starts: number[];
  /** The body, trimmed and indented like the symbol. */
  fitted: string;
  node: SymbolMatch["node"];
  file: SymbolMatch["file"];
}

/** Shared by insert_after_symbol and insert_before_symbol: locate, fit the body, edit. */
async function insertNear(
  ctx: ToolContext,
  args: { name_path: string; relative_path: string; body: string },
  place: (site: InsertSite) => string,
): Promise<void> {
  const block = trimBlock(args.body);
  if (block === "") throw new ToolError("Nothing to insert: the body is empty.");
  const target = await locate(ctx, args.name_path, args.relative_path);
  const { node, file } = target;
  await editAt(ctx, target, (text) => {
    const lines = text.split("\n");
    const anchor = indentOf(lines[node.range.start.line] ?? "");
    const fitted = reindent(block, anchor, extname(node.relPath).toLowerCase(), false);
    return place({ text, lines, starts: lineStarts(text), fitted, node, file });
  });
}

export const insertAfterSymbol = defineTool({
  name: "insert_after_symbol",
  description:
    "Inserts code after the end of a symbol's definition (e.g. a method after a method).",
  params: {
    ...symbolEditParams,
    body: z.string().describe("Code; it starts on the line after the symbol."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    await insertNear(ctx, args, ({ text, starts, fitted, node }) => {
      // Serena's rule: the body's own leading line breaks, at least one blank line after a
      // definition; what followed the symbol (its blank lines) stays after the body.
      const gap = Math.max(leadingNewlines(args.body), minBlankLines(node));
      const at = lastLine(node) + 1;
      const offset = at < starts.length ? starts[at]! : text.length;
      const prefix = offset === text.length && text.length > 0 && !text.endsWith("\n") ? "\n" : "";
      return text.slice(0, offset) + prefix + "\n".repeat(gap) + fitted + "\n" +
        text.slice(offset);
    });
    return SUCCESS_RESULT;
  },
});

export const insertBeforeSymbol = defineTool({
  name: "insert_before_symbol",
  description:
    "Inserts code before a symbol and the comments above it (e.g. an import before the " +
    "first symbol).",
  params: {
    ...symbolEditParams,
    body: z.string().describe("The code to insert before the symbol."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    await insertNear(ctx, args, ({ text, lines, starts, fitted, node, file }) => {
      // Serena's rule: the blank lines the body ends with, at least one before a definition.
      const gap = Math.max(trailingNewlines(args.body) - 1, minBlankLines(node));
      const offset = starts[attachedStart(node, file.roots, lines)] ?? text.length;
      return text.slice(0, offset) + fitted + "\n" + "\n".repeat(gap) + text.slice(offset);
    });
    return SUCCESS_RESULT;
  },
});
