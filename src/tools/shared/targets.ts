/**
 * What the IDE tools share: the position parameters (`relative_path` + 1-based `line`/`column`,
 * or `relative_path` + `name_path`), resolving them to an LSP position on the file's server,
 * and turning server locations into the Ada MCP setup's shape (`file`, 1-based `line` and `column`, a
 * one-line `preview`), with paths relative to the project root when inside it.
 * @module
 */
import type { Position, Range } from "../../deps.ts";
import { fileURLToPath } from "node:url";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import {
  LineReader,
  preview,
  splitLines,
  toAgentPosition,
  toLspPosition,
  wordAt,
} from "../../lsp/positions.ts";
import { namePathOf, type SymbolNode } from "../../symbols/model.ts";
import type { LanguageServer, RequestOptions } from "../../lsp/language_server.ts";
import { locate, requestOptions } from "./locate_symbol.ts";
import type { ToolContext } from "../tool.ts";
import type { NormalizedLocation } from "../../symbols/queries.ts";

/** Parameter descriptions shared by the IDE tools. */
export const ideDescribe = {
  relativePath: "The file.",
  line: "1-based line (with column).",
  column: "1-based column (a tab or any character counts 1).",
  namePath: "Instead of line/column: a symbol's name path ('Outer/name'); its name's start.",
};

/** The parameters every position tool takes. */
export const positionParams = {
  relative_path: z.string().describe(ideDescribe.relativePath),
  line: z.number().int().optional().describe(ideDescribe.line),
  column: z.number().int().optional().describe(ideDescribe.column),
  name_path: z.string().optional().describe(ideDescribe.namePath),
};

/** A resolved file of the project with its server. */
export interface FileTarget {
  relPath: string;
  uri: string;
  server: LanguageServer;
  /** Content with `\n` line endings. */
  text: string;
  lines: string[];
  /** Reads (and caches) lines of other files for previews. */
  reader: LineReader;
  options: RequestOptions;
}

/** A position in a file, from line/column or from a name path. */
export interface PositionTarget extends FileTarget {
  position: Position;
  /** The symbol addressed by name_path, if any. */
  symbol: SymbolNode | null;
  /** The identifier at the position ("" when none). */
  word: string;
}

/** Resolve a project file (sandboxed, must exist) and the language server for it. */
export async function resolveFile(ctx: ToolContext, relativePath: string): Promise<FileTarget> {
  const project = ctx.project();
  if (relativePath.trim() === "") {
    throw new ToolError("relative_path is empty: name the file, relative to the project root.");
  }
  const resolved = project.resolveFile(relativePath);
  const relPath = resolved.relative;
  const pool = ctx.session.services(project).pool;
  const options = requestOptions(ctx);
  const server = await pool.serverFor(relPath, options);
  const text = (await project.readText(resolved)).text;
  const reader = new LineReader(project.settings.encoding);
  const uri = server.uriOf(relPath);
  reader.put(uri, text);
  return { relPath, uri, server, text, lines: splitLines(text), reader, options };
}

/**
 * Resolve the position parameters: `line` + `column`, or `name_path` (the start of the symbol's
 * name). Errors say which form to use; nothing is sent to the server for a bad position.
 */
export async function resolvePosition(
  ctx: ToolContext,
  args: {
    relative_path: string;
    line?: number | undefined;
    column?: number | undefined;
    name_path?: string | undefined;
  },
): Promise<PositionTarget> {
  const hasLine = args.line !== undefined || args.column !== undefined;
  const namePath = args.name_path?.trim() ?? "";
  if (hasLine && namePath !== "") {
    throw new ToolError("Give either line and column, or name_path, not both.");
  }
  if (!hasLine && namePath === "") {
    throw new ToolError(
      "No position given: pass line and column (1-based), or name_path of a symbol in the file.",
    );
  }
  const file = await resolveFile(ctx, args.relative_path);
  let position: Position;
  let symbol: SymbolNode | null = null;
  if (namePath !== "") {
    const match = await locate(ctx, namePath, file.relPath, file.options);
    symbol = match.node;
    position = match.node.selectionRange.start;
  } else {
    if (args.line === undefined || args.column === undefined) {
      throw new ToolError(
        `Give both line and column (1-based); got only ${
          args.line === undefined ? "column" : "line"
        }.`,
      );
    }
    position = toLspPosition(file.lines, args.line, args.column, file.relPath);
  }
  const word = wordAt(file.lines[position.line] ?? "", position.character);
  return { ...file, position, symbol, word };
}

/** How a position is named in messages: `src/a.ts:3:7 ('name')`. */
export function describePosition(target: PositionTarget): string {
  const at = toAgentPosition(target.lines, target.position);
  const what = target.symbol ? namePathOf(target.symbol) : target.word;
  return `${target.relPath}:${at.line}:${at.column}${what ? ` ('${what}')` : ""}`;
}

/** A path for answers: project-relative when inside the project, else absolute (or the URI). */
export function displayPath(server: LanguageServer, uri: string): string {
  const rel = server.relPathOf(uri);
  if (rel !== null) return rel;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** A location in the Ada MCP setup's shape. */
export interface LocationDict {
  file: string;
  line: number;
  column: number;
  preview: string;
}

/** A server range start as `{file, line, column, preview}` (1-based, code-point columns). */
export async function locationDict(
  target: FileTarget,
  uri: string,
  range: Range,
): Promise<LocationDict> {
  const lines = await target.reader.lines(uri);
  const at = lines
    ? toAgentPosition(lines, range.start)
    : { line: range.start.line + 1, column: range.start.character + 1 };
  return {
    file: displayPath(target.server, uri),
    line: at.line,
    column: at.column,
    preview: preview(lines?.[range.start.line] ?? ""),
  };
}

/**
 * Send a request about a file (synced first). When it fails and the server did not announce
 * `capability` in `initialize`, the error says the server does not support `what`.
 */
export async function ask<R>(
  target: FileTarget,
  method: string,
  params: unknown,
  capability: string,
  what: string,
): Promise<R> {
  try {
    return await target.server.request<R>(method, params, {
      ...target.options,
      sync: [target.relPath],
    });
  } catch (error) {
    if (target.server.capabilities[capability] || target.options.signal?.aborted) throw error;
    throw new ToolError(
      `The ${target.server.id} language server (${target.server.command}) does not support ` +
        `${what} (it announced no ${capability}).`,
    );
  }
}

/** Lower-case name of an LSP SymbolKind / CompletionItemKind from a name table. */
export function kindName(table: readonly string[], kind: number | undefined): string | undefined {
  if (kind === undefined) return undefined;
  const name = table[kind];
  return name ? name.toLowerCase() : `kind${kind}`;
}

/** Locations without duplicates (same file and start). */
export function uniqueLocations(locations: NormalizedLocation[]): NormalizedLocation[] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = `${l.uri}:${l.range.start.line}:${l.range.start.character}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function textDocumentPosition(target: PositionTarget) {
  return { textDocument: { uri: target.uri }, position: target.position };
}

/** What the symbol at the target is called in answers. */
export function symbolName(target: PositionTarget): string {
  return target.symbol ? namePathOf(target.symbol) : target.word;
}
