/**
 * Shared parts of Serena's symbol tools: parameter schemas, the symbol dictionaries Serena prints
 * (`name_path`, `kind`, `relative_path`, `body_location`, `body`, `children`), kind filters and
 * progress forwarding.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import {
  bodyOf,
  isSymbolKind,
  namePathOf,
  SYMBOL_KIND_NAMES,
  symbolKindName,
  type SymbolNode,
} from "../../symbols/model.ts";
import type { SymbolLookup } from "../../symbols/lookup.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import type { ToolContext } from "../tool.ts";
import type { Project } from "../../project/project.ts";
import type { SymbolMatch } from "../../symbols/lookup.ts";
import { matchesNamePath, parseNamePath } from "../../symbols/name_path.ts";
import { editFile } from "./write.ts";

export const kindList = z.array(z.number().int()).default([]);

/** Parameter descriptions shared by several tools. */
export const describe = {
  namePath: "Name path, e.g. 'Outer/name'.",
  relativePath: "The symbol's file.",
  includeKinds: "LSP kinds (5 class, 6 method, 12 function); []: all.",
  excludeKinds: "Kinds to drop (wins).",
};

/** Validate kind filters: every number must be an LSP SymbolKind (1..26). */
export function checkKinds(kinds: readonly number[], param: string): number[] {
  const bad = kinds.filter((k) => !isSymbolKind(k));
  if (bad.length > 0) {
    const legend = SYMBOL_KIND_NAMES.slice(1).map((n, i) => `${i + 1}=${n}`).join(", ");
    throw new ToolError(`${param} has unknown symbol kind(s) ${bad.join(", ")}; use ${legend}.`);
  }
  return [...kinds];
}

/** A predicate for `include_kinds`/`exclude_kinds` (validated; exclusion wins, empty = all). */
export function kindFilter(
  includeKinds: readonly number[],
  excludeKinds: readonly number[],
): (kind: number) => boolean {
  const include = new Set(checkKinds(includeKinds, "include_kinds"));
  const exclude = new Set(checkKinds(excludeKinds, "exclude_kinds"));
  return (kind) => (include.size === 0 || include.has(kind)) && !exclude.has(kind);
}

/** The symbol index of the active project. */
export function indexOf(ctx: ToolContext): SymbolLookup {
  return ctx.session.services(ctx.project()).symbols;
}

/** Request options carrying the tool call's cancellation and progress. */
export function requestOptions(ctx: ToolContext): RequestOptions {
  let step = 0;
  return {
    signal: ctx.signal,
    onProgress: (message) => {
      ctx.progress(++step, undefined, message).catch(() => {});
    },
  };
}

export interface DictOptions {
  /** Levels of children to include (0: none). */
  depth: number;
  /** Include `relative_path` (top level only; children share their parent's file). */
  relativePath: boolean;
  /** File text, to include the symbol's `body` (top level only). */
  bodyText?: string | undefined;
}

/** A symbol as Serena prints it (sanitized: no `name`, no `location`). */
export type SymbolDict = Record<string, unknown>;

/** The sanitized dictionary of a symbol. */
export function symbolDict(node: SymbolNode, options: DictOptions): SymbolDict {
  const d: SymbolDict = { name_path: namePathOf(node), kind: symbolKindName(node.kind) };
  if (options.relativePath) d.relative_path = node.relPath;
  d.body_location = { start_line: node.range.start.line, end_line: node.range.end.line };
  if (options.bodyText !== undefined) d.body = bodyOf(node, options.bodyText);
  if (options.depth > 0 && node.children.length > 0) {
    d.children = childrenByKind(node.children, options.depth - 1);
  }
  return d;
}

/**
 * Children as Serena 2.1's find_symbol gives them: grouped by kind name (kinds in order of first
 * appearance), each child by its bare `name` (the parent's name path makes it unambiguous) with
 * its `body_location` and, `depth` levels down, its own children grouped the same way:
 * `{"Method": [{"name": "area", "body_location": {...}}]}`.
 */
export function childrenByKind(
  children: readonly SymbolNode[],
  depth: number,
): Record<string, SymbolDict[]> {
  const grouped: Record<string, SymbolDict[]> = {};
  for (const child of children) {
    const d: SymbolDict = {
      name: child.name,
      body_location: { start_line: child.range.start.line, end_line: child.range.end.line },
    };
    if (depth > 0 && child.children.length > 0) {
      d.children = childrenByKind(child.children, depth - 1);
    }
    (grouped[symbolKindName(child.kind)] ??= []).push(d);
  }
  return grouped;
}

/**
 * The one symbol locator: the symbol a name path denotes in a file (validated in the sandbox),
 * with the file's symbols. Throws a ToolError when none or several match. `options` default to
 * the tool call's (cancellation, progress).
 */
export async function locate(
  ctx: ToolContext,
  namePath: string,
  relativePath: string,
  options: RequestOptions = requestOptions(ctx),
): Promise<SymbolMatch> {
  const relPath = ctx.project().resolveFile(relativePath).relative;
  return await indexOf(ctx).resolveUnique(parseNamePath(namePath), relPath, options);
}

/** The one symbol a name path denotes anywhere in the project; an error for none or several. */
export async function locateInProject(
  ctx: ToolContext,
  namePath: string,
  options: RequestOptions = requestOptions(ctx),
): Promise<SymbolMatch> {
  const pattern = parseNamePath(namePath);
  const matches = await indexOf(ctx).find(pattern, { substring: false }, {
    relPath: ".",
    isDirectory: true,
  }, options);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    // The closest names the project has: those containing the last segment's name.
    const last = pattern.segments[pattern.segments.length - 1]!.name;
    const close = last.length < 2 ? [] : await indexOf(ctx).find(
      parseNamePath(last),
      { substring: true },
      { relPath: ".", isDirectory: true },
      options,
    ).catch(() => []);
    // Those whose containers match too come first.
    const ranked = [
      ...close.filter((m) => matchesNamePath(m.node, pattern, { substring: true })),
      ...close.filter((m) => !matchesNamePath(m.node, pattern, { substring: true })),
    ];
    const names = [...new Set(ranked.map((m) => `${namePathOf(m.node)} in ${m.node.relPath}`))];
    const hint = names.length > 0
      ? ` Close names: ${names.slice(0, 10).join(", ")}.`
      : " Check the name path with find_symbol.";
    throw new ToolError(`No symbol with name path '${namePath}' found in the project.${hint}`);
  }
  const listed = matches.map((m) => `${namePathOf(m.node)} in ${m.node.relPath}`).join(", ");
  throw new ToolError(
    `Found multiple ${matches.length} symbols with name path '${namePath}': ${listed}. ` +
      "Give relative_path (the file) or a longer name path.",
  );
}

/** Edit the symbol's file; refuses when the file changed since the symbol was located. */
export async function editAt(
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

export const symbolEditParams = {
  name_path: z.string().describe(describe.namePath),
  relative_path: z.string().describe(describe.relativePath),
};

/** A file or folder argument ("" or "." for the whole project), validated in the sandbox. */
export function resolveScope(
  project: Project,
  relativePath: string,
): { relPath: string; isDirectory: boolean } {
  if (relativePath === "" || relativePath === ".") return { relPath: ".", isDirectory: true };
  const resolved = project.resolve(relativePath);
  return { relPath: resolved.relative, isDirectory: Deno.statSync(resolved.real).isDirectory };
}

/** Resolve a path that must be a source file. */
export function resolveSourceFile(project: Project, relativePath: string, tool: string): string {
  const scope = resolveScope(project, relativePath);
  if (scope.isDirectory) {
    throw new ToolError(
      `${tool} needs a file, but '${scope.relPath}' is a directory. Use find_symbol to search ` +
        "a directory.",
    );
  }
  return scope.relPath;
}
