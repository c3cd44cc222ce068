/**
 * Finding the symbol a tool call names: by name path in a file or in the whole project, a file or
 * folder scope, the lookup and request options of the call, and the edit of a located symbol's
 * file that refuses when the file changed meanwhile.
 * @module
 */
import { ToolError } from "../../errors.ts";
import { namePathOf } from "../../symbols/model.ts";
import type { SymbolLookup, SymbolMatch } from "../../symbols/lookup.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";
import type { ToolContext } from "../tool.ts";
import type { Project } from "../../project/project.ts";
import { matchesNamePath, parseNamePath } from "../../symbols/name_path.ts";
import { editFile } from "./write.ts";

/** The symbol index of the active project. */
export function indexOf(ctx: ToolContext): SymbolLookup {
  return ctx.session.services(ctx.project()).symbols;
}

/**
 * Run a question that asks a language server for references with the declaration index's build
 * held back (DeclarationIndex.holdBuild): on a cold project the question's own work (the
 * candidate scan, the server's load, the files it names) comes first; the build resumes after.
 */
export async function withBuildHeld<T>(ctx: ToolContext, work: () => Promise<T>): Promise<T> {
  const release = indexOf(ctx).holdDeclarations();
  try {
    return await work();
  } finally {
    release();
  }
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
