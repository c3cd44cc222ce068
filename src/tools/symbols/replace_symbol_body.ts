/**
 * replace_symbol_body, insert_after_symbol and insert_before_symbol: edits located by a symbol's
 * name path. Bodies are re-indented to their place and separated from neighbours as the file's
 * own symbols are; the helpers that measure a symbol's extent are shared with safe_delete_symbol.
 * @module
 */
import { extname } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { lineStarts, offsetAt, positionAt } from "../../edit/line_index.ts";
import { namePathOf, SymbolKind, type SymbolNode } from "../../symbols/model.ts";
import type { SymbolMatch } from "../../symbols/lookup.ts";
import { defineTool, SUCCESS_RESULT, type ToolContext } from "../tool.ts";
import { editAt, locate } from "../shared/locate_symbol.ts";
import { symbolEditParams } from "../shared/symbol_params.ts";
import { fitBody } from "./body_fit.ts";
import { indentOf, reindent } from "./body_indent.ts";
import {
  type Declaration,
  declarationIn,
  leadSyntaxFor,
  type SymbolSpan,
} from "./declaration_parts.ts";

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

/** The previous sibling's last line, or the parent's first: a lead above the symbol starts below. */
function floorLine(node: SymbolNode, roots: readonly SymbolNode[]): number {
  const siblings = siblingsOf(node, roots);
  const prev = siblings[siblings.indexOf(node) - 1];
  return prev ? lastLine(prev) : node.parent ? node.parent.range.start.line : -1;
}

/** The parts of a symbol's declaration in the file's text (see declaration_parts.ts). */
export function declarationOf(
  node: SymbolNode,
  roots: readonly SymbolNode[],
  text: string,
  starts: readonly number[] = lineStarts(text),
): Declaration {
  const floor = floorLine(node, roots);
  const span: SymbolSpan = {
    start: offsetAt(text, starts, node.range.start),
    end: offsetAt(text, starts, node.range.end),
    nameStart: offsetAt(text, starts, node.selectionRange.start),
    nameEnd: offsetAt(text, starts, node.selectionRange.end),
    floor: floor < 0 ? 0 : (starts[floor + 1] ?? text.length),
  };
  return declarationIn(text, span, leadSyntaxFor(node.relPath));
}

/**
 * The first line of a symbol including its lead: the doc comments, comments, attributes and
 * decorators directly above it (no blank line between), never reaching into the previous
 * sibling or the parent's first line.
 */
export function attachedStart(
  node: SymbolNode,
  roots: readonly SymbolNode[],
  text: string,
): number {
  const starts = lineStarts(text);
  const first = declarationOf(node, roots, text, starts).lead[0];
  return first ? positionAt(starts, first.from).line : node.range.start.line;
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

export const replaceSymbolBody = defineTool({
  name: "replace_symbol_body",
  description:
    "Replaces a symbol's definition, signature included. Its doc comments, attributes and " +
    "decorators stay unless the body brings its own. Returns OK.",
  params: {
    ...symbolEditParams,
    body: z.string().describe("The new definition from its signature (or its doc comment) on."),
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
      const ext = extname(node.relPath).toLowerCase();
      const fit = fitBody(body, {
        text,
        declaration: declarationOf(node, target.file.roots, text, starts),
        syntax: leadSyntaxFor(node.relPath),
        ext,
        namePath: namePathOf(node),
        relPath: node.relPath,
      });
      if ("refused" in fit) throw new ToolError(fit.refused);
      return text.slice(0, fit.from) + fit.text + text.slice(fit.to);
    });
    return SUCCESS_RESULT;
  },
});

/** What an insert next to a symbol works with: the file now, and the body fitted to it. */
interface InsertSite {
  text: string;
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
    const starts = lineStarts(text);
    const line = text.slice(starts[node.range.start.line] ?? text.length);
    const fitted = reindent(block, indentOf(line), extname(node.relPath).toLowerCase(), false);
    return place({ text, starts, fitted, node, file });
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
    await insertNear(ctx, args, ({ text, starts, fitted, node, file }) => {
      // Serena's rule: the blank lines the body ends with, at least one before a definition.
      const gap = Math.max(trailingNewlines(args.body) - 1, minBlankLines(node));
      const offset = starts[attachedStart(node, file.roots, text)] ?? text.length;
      return text.slice(0, offset) + fitted + "\n" + "\n".repeat(gap) + text.slice(offset);
    });
    return SUCCESS_RESULT;
  },
});
