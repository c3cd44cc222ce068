/**
 * Serena's symbol edit tools: replace_symbol_body, insert_after_symbol, insert_before_symbol,
 * rename_symbol (a language-server WorkspaceEdit applied to all files or none) and
 * safe_delete_symbol. Symbols are located with the symbol model; single-file edits go through
 * editFile, so language servers see them at once.
 * @module
 */
import { checkNewName } from "../lsp/identifiers.ts";
import { extname } from "node:path";
import { z } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { commitPlannedEdits, planWorkspaceEdit } from "../edit/workspace_edit.ts";
import { previewWorkspaceEdit } from "../lsp/code_actions.ts";
import { parseNamePath } from "../lsp/name_path.ts";
import {
  lineStarts,
  namePathOf,
  offsetAt,
  SymbolKind,
  type SymbolNode,
  walkSymbols,
} from "../lsp/symbols.ts";
import type { SymbolMatch } from "../lsp/symbols_index.ts";
import { findReferences, namePosition, requestRename } from "../lsp/symbols_queries.ts";
import type { LanguageServer, RequestOptions } from "../lsp/types.ts";
import type { Project } from "../project/project.ts";
import { editFile } from "./file_edit.ts";
import { describe, indexOf, requestOptions, toJson } from "./symbol_common.ts";
import { defineTool, SUCCESS_RESULT, type ToolContext } from "./tool.ts";

/** Kinds whose neighbours are usually separated by a blank line. */
const DEFINITION_KINDS: ReadonlySet<number> = new Set([
  SymbolKind.Class,
  SymbolKind.Method,
  SymbolKind.Constructor,
  SymbolKind.Function,
  SymbolKind.Interface,
  SymbolKind.Struct,
  SymbolKind.Enum,
]);

/** Languages whose indentation is syntax (re-indenting rules differ, see reindent). */
const INDENTATION_SYNTAX = new Set([".py", ".pyi"]);
/** Languages with `#` line comments. */
const HASH_COMMENTS = new Set([".py", ".pyi", ".sh", ".bash", ".rb", ".pl", ".r", ".yaml", ".yml"]);

function resolveFile(project: Project, relativePath: string): string {
  return project.resolveFile(relativePath).relative;
}

/** Locate the one symbol a name path denotes in a file. */
async function locate(
  ctx: ToolContext,
  namePath: string,
  relativePath: string,
): Promise<SymbolMatch> {
  const relPath = resolveFile(ctx.project(), relativePath);
  return await indexOf(ctx).resolveUnique(parseNamePath(namePath), relPath, requestOptions(ctx));
}

/** Edit the symbol's file; refuses when the file changed since the symbol was located. */
async function editAt(
  ctx: ToolContext,
  target: SymbolMatch,
  transform: (text: string) => string,
): Promise<void> {
  await editFile(ctx, target.node.relPath, (text) => {
    if (text !== target.file.text) {
      throw new ToolError(
        `'${target.node.relPath}' changed while the symbol was being located; try again.`,
      );
    }
    return transform(text);
  });
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function isBlank(line: string | undefined): boolean {
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
function lastLine(node: SymbolNode): number {
  const end = node.range.end;
  return end.character === 0 && end.line > node.range.start.line ? end.line - 1 : end.line;
}

function blankLinesBetween(lines: readonly string[], after: number, before: number): number {
  let count = 0;
  for (let i = after + 1; i < before; i++) if (isBlank(lines[i])) count++;
  return count;
}

/** Blank lines this file puts between the symbol and its neighbours. */
function separation(node: SymbolNode, roots: readonly SymbolNode[], lines: string[]): number {
  const siblings = siblingsOf(node, roots);
  const i = siblings.indexOf(node);
  const next = siblings[i + 1];
  if (next) return blankLinesBetween(lines, lastLine(node), next.range.start.line);
  const prev = siblings[i - 1];
  if (prev) return blankLinesBetween(lines, lastLine(prev), node.range.start.line);
  return DEFINITION_KINDS.has(node.kind) ? 1 : 0;
}

/**
 * The first line of a symbol including the comments and decorators directly above it (no blank
 * line between), never reaching into the previous sibling or the parent's first line.
 */
function attachedStart(
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

const symbolEditParams = {
  name_path: z.string().describe(describe.namePath),
  relative_path: z.string().describe(describe.relativePath),
};

export const replaceSymbolBody = defineTool({
  name: "replace_symbol_body",
  description: "Replaces the full definition of a symbol (from its signature to its end, as " +
    "find_symbol's body shows it; without the comments or docstrings above it). Returns OK.",
  params: {
    ...symbolEditParams,
    body: z.string().describe(
      "The new definition, including the signature line; not the preceding comments/imports.",
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
      const fitted = reindent(body, anchor, extname(node.relPath).toLowerCase(), true);
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
  description: "Inserts code on the lines after the end of a symbol's definition, e.g. a new " +
    "method after a method or a class after a class, keeping the file's blank-line spacing. " +
    "Returns OK.",
  params: {
    ...symbolEditParams,
    body: z.string().describe("The code to insert; it starts on the line after the symbol."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    await insertNear(ctx, args, ({ text, lines, starts, fitted, node, file }) => {
      const gap = Math.max(leadingNewlines(args.body), separation(node, file.roots, lines));
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
  description: "Inserts code before a symbol's definition (above its comments and decorators), " +
    "e.g. a new function before a function, or an import before the first symbol of a file, " +
    "keeping the file's blank-line spacing. Returns OK.",
  params: {
    ...symbolEditParams,
    body: z.string().describe("The code to insert before the symbol."),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    await insertNear(ctx, args, ({ text, lines, starts, fitted, node, file }) => {
      const siblings = siblingsOf(node, file.roots);
      const isFirst = siblings.indexOf(node) === 0;
      // Before the first symbol of a file (often an import): one blank line before a
      // definition, as Serena does, or what the caller asked for.
      const measured = isFirst && !node.parent
        ? (DEFINITION_KINDS.has(node.kind) ? 1 : 0)
        : separation(node, file.roots, lines);
      const gap = Math.max(trailingNewlines(args.body) - 1, measured);
      const offset = starts[attachedStart(node, file.roots, lines)] ?? text.length;
      return text.slice(0, offset) + fitted + "\n" + "\n".repeat(gap) + text.slice(offset);
    });
    return SUCCESS_RESULT;
  },
});

export const renameSymbol = defineTool({
  name: "rename_symbol",
  description: "Renames a symbol everywhere in the project with the language server's rename " +
    "refactoring; all files change or none. Returns the files changed and edit counts. " +
    "preview: true changes nothing and returns the changes plus an action_id for " +
    "execute_code_action.",
  params: {
    ...symbolEditParams,
    new_name: z.string().describe("The new name of the symbol."),
    preview: z.boolean().default(false).describe(
      "Only return the changes and an action_id to apply them later; change nothing.",
    ),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const newName = checkNewName(args.new_name);
    const target = await locate(ctx, args.name_path, args.relative_path);
    const oldPath = namePathOf(target.node);
    if (newName === target.node.name) {
      return `'${oldPath}' is already named '${newName}'; nothing to change.`;
    }
    const project = ctx.project();
    const index = indexOf(ctx);
    const { edit, server } = await requestRename(index, target, newName, requestOptions(ctx));
    if (args.preview) {
      return toJson(
        await previewWorkspaceEdit(project, edit, (uri) => server.relPathOf(uri), {
          title: `Rename '${oldPath}' to '${newName}'`,
          oldName: target.node.name,
          newName,
          relPath: target.node.relPath,
          line: target.node.selectionRange.start.line + 1,
          serverId: server.id,
        }),
      );
    }
    const plans = await planWorkspaceEdit(project, edit, (uri) => server.relPathOf(uri));
    const changed = plans.filter((p) => p.after !== p.before);
    if (changed.length === 0) {
      throw new ToolError(
        `The language server found nothing to rename for '${oldPath}' in ` +
          `'${target.node.relPath}'. Check the name path with find_symbol.`,
      );
    }
    // A server's rename can be wrong (e.g. through re-exports): compare the errors of the files
    // it touched before and after, so the agent hears of breakage at once.
    const checked = changed.slice(0, RENAME_CHECK_FILES).map((p) => p.relPath);
    const errorsBefore = await countErrors(server, checked, requestOptions(ctx));
    ctx.signal.throwIfAborted();
    await commitPlannedEdits(changed);
    for (const p of changed) ctx.session.reads.noteEdited(p.real);
    await ctx.session.filesChanged(changed.map((p) => p.real));
    const errorsAfter = await countErrors(server, checked, requestOptions(ctx));
    const worse = checked.filter((f) => (errorsAfter.get(f) ?? 0) > (errorsBefore.get(f) ?? 0));
    const edits = changed.reduce((n, p) => n + p.editCount, 0);
    return `Renamed '${oldPath}' to '${newName}': ${edits} edit(s) in ${changed.length} ` +
      `file(s): ${changed.map((p) => `${p.relPath} (${p.editCount})`).join(", ")}.` +
      (worse.length === 0
        ? ""
        : ` Warning: the rename added errors in ${
          worse.map((f) => `${f} (${errorsBefore.get(f) ?? 0} -> ${errorsAfter.get(f)})`).join(", ")
        }; check them with get_diagnostics_for_file.`);
  },
});

/** How many changed files a rename re-checks for new errors. */
const RENAME_CHECK_FILES = 20;

/** Errors per file as the server sees the files now; files it cannot check are left out. */
async function countErrors(
  server: LanguageServer,
  relPaths: readonly string[],
  options: RequestOptions,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const relPath of relPaths) {
    try {
      const diagnostics = await server.diagnostics(relPath, options);
      counts.set(relPath, diagnostics.filter((d) => (d.severity ?? 1) === 1).length);
    } catch (error) {
      if (options.signal?.aborted) throw error;
    }
  }
  return counts;
}

export const safeDeleteSymbol = defineTool({
  name: "safe_delete_symbol",
  description: "Deletes a symbol (with the comments and decorators directly above it) only if " +
    "nothing outside it references it; otherwise changes nothing and lists the references " +
    "(file → 0-based lines). Returns OK when deleted.",
  params: {
    name_path_pattern: z.string().describe(describe.namePath),
    relative_path: z.string().describe(describe.relativePath),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const target = await locate(ctx, args.name_path_pattern, args.relative_path);
    const { node, file } = target;
    // No references found from a position that is not the symbol's name proves nothing.
    if (namePosition(target) === null) {
      throw new ToolError(
        `Cannot check the references of ${namePathOf(node)}: its name '${node.name}' does not ` +
          "appear in its code, so the language server cannot be asked about it. Nothing was " +
          "deleted; delete it with an edit tool if you are sure it is unused.",
      );
    }
    const hits = await findReferences(indexOf(ctx), target, requestOptions(ctx));
    const outside = hits.filter((h) => {
      if (h.relPath !== node.relPath) return true;
      let s: SymbolNode | null = h.symbol;
      while (s && s !== node) s = s.parent;
      return s !== node;
    });
    if (outside.length > 0) {
      const where: Record<string, number[]> = {};
      for (const h of outside) (where[h.relPath] ??= []).push(h.position.line);
      throw new ToolError(
        `Cannot delete, the symbol ${namePathOf(node)} is referenced in: ${toJson(where)}`,
      );
    }
    const lines = file.text.split("\n");
    const first = attachedStart(node, file.roots, lines);
    const last = lastLine(node);
    const sharing = [...walkSymbols(file.roots)].filter((s) => {
      if (s === node || s.relPath !== node.relPath) return false;
      let a: SymbolNode | null = s;
      while (a && a !== node) a = a.parent;
      if (a === node) return false; // a descendant goes with it
      let d: SymbolNode | null = node;
      while (d && d !== s) d = d.parent;
      if (d === s) return false; // an ancestor contains it
      return lastLine(s) >= first && s.range.start.line <= last;
    });
    if (sharing.length > 0) {
      throw new ToolError(
        `${namePathOf(node)} shares its lines with ${namePathOf(sharing[0]!)}; delete it with ` +
          "an edit tool instead.",
      );
    }
    await editAt(ctx, target, (text) => {
      const all = text.split("\n");
      let start = first;
      let end = last + 1;
      const blankBefore = start === 0 || isBlank(all[start - 1]);
      if (blankBefore) { while (end < all.length - 1 && isBlank(all[end])) end++; }
      // At the end of the file, the blank lines that separated it go too.
      if (end >= all.length - 1) { while (start > 0 && isBlank(all[start - 1])) start--; }
      return [...all.slice(0, start), ...all.slice(end)].join("\n");
    });
    return SUCCESS_RESULT;
  },
});

/** The edit tools of this module, in registry order. */
export const SYMBOL_EDIT_TOOLS = [
  replaceSymbolBody,
  insertAfterSymbol,
  insertBeforeSymbol,
  renameSymbol,
  safeDeleteSymbol,
];
