/**
 * rename_file: moves a file or folder and lets the language servers that implement
 * `workspace/willRenameFiles` (typescript-language-server, rust-analyzer) update every import of
 * it; the move and their edits land as one all-or-nothing change through the write path, then
 * the servers hear `workspace/didRenameFiles`. Where no server computes the edits, the importers
 * that would break are named and the move waits for `force`.
 * @module
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { join, posix, relative } from "node:path";
import { diskSource, filesToShow } from "../../lsp/project_scope.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { previewWorkspaceEdit } from "../../lsp/code_action_store.ts";
import { offersWillRename } from "../../lsp/managed_server.ts";
import type { LanguageServer } from "../../lsp/language_server.ts";
import type { LspTextEdit, LspWorkspaceEdit } from "../../edit/workspace_edit.ts";
import { ALWAYS_IGNORED_DIRS } from "../../project/ignore.ts";
import { isWithin } from "../../project/sandbox.ts";
import { findImporters, type ImportSite } from "../../toolchain/graph/importers.ts";
import { toJson } from "../shared/json.ts";
import { requestOptions } from "../shared/symbols.ts";
import { applyWorkspaceEdit } from "../shared/write.ts";
import { defineTool, type ToolContext } from "../tool.ts";

/** Importers named in a refusal, at most. */
const SHOWN_IMPORTERS = 20;

export const renameFile = defineTool({
  name: "rename_file",
  description: "Moves a file or folder and updates its importers via the language server; all " +
    "or nothing. Without server support it lists the importers that would break.",
  params: {
    relative_path: z.string().describe("File or folder to move."),
    new_relative_path: z.string().describe("Its new path."),
    preview: z.boolean().default(false).describe(
      "Change nothing; return the edits and an action_id.",
    ),
    force: z.boolean().default(false).describe("Move even if importers will break."),
  },
  markers: ["can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const project = ctx.project();
    const { from, to, folder } = checkMove(ctx, args.relative_path, args.new_relative_path);
    const pool = ctx.session.services(project).pool;
    const options = requestOptions(ctx);
    // The files the move carries, by the server that handles them.
    const carried = folder ? await filesBelow(ctx, from) : [from];
    const byServer = new Map<string, string>();
    for (const file of carried) {
      const id = pool.serverIdFor(file);
      if (id !== null && !byServer.has(id)) byServer.set(id, file);
    }
    const edits: Array<{ uri: string; edits: LspTextEdit[] }> = [];
    const unsupported: LanguageServer[] = [];
    // Every import line that names the moved files, in any language: the candidates.
    const importers = await findImporters(project, [{ relPath: from, folder }], () => true, {
      signal: ctx.signal,
      fresh: true,
      limit: 10_000,
    });
    const unexplained: ImportSite[] = [];
    for (const sample of byServer.values()) {
      const server = await pool.serverFor(sample, options);
      if (!offersWillRename(server.capabilities)) {
        unsupported.push(server);
        continue;
      }
      const mine = importers.filter((s) => pool.serverIdFor(s.relPath) === server.id);
      await showImporters(ctx, server, mine);
      const answer = await server.request<LspWorkspaceEdit | null>("workspace/willRenameFiles", {
        files: [{ oldUri: server.uriOf(from), newUri: server.uriOf(to) }],
      }, { ...options, sync: [sample] });
      const found = textEditsOf(answer);
      edits.push(...found);
      unexplained.push(...notUpdated(mine, found, from, folder, server));
    }
    const broken = importers.filter((site) =>
      unsupported.some((s) => pool.serverIdFor(site.relPath) === s.id)
    );
    const edit: LspWorkspaceEdit = {
      documentChanges: [
        ...edits.map((e) => ({ textDocument: { uri: e.uri, version: null }, edits: e.edits })),
        { kind: "rename", oldUri: uriOf(project.root, from), newUri: uriOf(project.root, to) },
      ],
    };
    const relPathOf = (uri: string) => projectRelative(project.root, uri);
    const warning = [
      broken.length === 0 ? "" : brokenText(unsupported, broken),
      unexplained.length === 0 ? "" : notUpdatedText(unexplained),
    ].filter(Boolean).join(" ");
    if (args.preview) {
      const preview = await previewWorkspaceEdit(
        ctx.session.codeActions(project),
        project,
        edit,
        relPathOf,
        { title: `Move '${from}' to '${to}'`, kind: "refactor.move", relPath: from, line: 1 },
      );
      return toJson(warning ? { ...preview, warning } : preview);
    }
    if ((broken.length > 0 || unexplained.length > 0) && !args.force) {
      throw new ToolError(
        `${warning} Nothing was moved. Fix those imports yourself after moving with force: ` +
          "true, or move differently.",
      );
    }
    const changed = await applyWorkspaceEdit(ctx, edit, { relPathOf });
    const updated = changed.filter((f) => f.movedTo === undefined);
    const count = updated.reduce((n, f) => n + f.editCount, 0);
    return `OK\nMoved '${from}' to '${to}'` +
      (updated.length === 0
        ? "; no imports needed updating."
        : `; updated ${count} import(s) in ${updated.length} file(s): ${
          updated.map((f) => `${f.relPath} (${f.editCount})`).join(", ")
        }.`) +
      (warning ? ` Warning: ${warning}` : "");
  },
});

/** Refusals: both paths in the sandbox, not protected or ignored, source there, target not. */
function checkMove(
  ctx: ToolContext,
  fromArg: string,
  toArg: string,
): { from: string; to: string; folder: boolean } {
  const project = ctx.project();
  const loose = { mustExist: false, requireNotIgnored: false };
  for (const p of [project.resolve(fromArg, loose), project.resolve(toArg, loose)]) {
    if (p.relative === ".") {
      throw new ToolError("The project root itself cannot be moved. Nothing was changed.");
    }
    const protectedDir = p.relative.split("/").find((s) => ALWAYS_IGNORED_DIRS.has(s));
    if (protectedDir) {
      throw new ToolError(
        `'${p.relative}' is in the protected folder '${protectedDir}'; rename_file does not ` +
          "move files there or from there. Nothing was changed.",
      );
    }
  }
  const source = project.resolve(fromArg, { mustExist: false });
  const target = project.resolve(toArg, { mustExist: false });
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(source.absolute);
  } catch {
    throw new ToolError(
      `No file or folder '${source.relative}' in the project. Nothing was changed.`,
    );
  }
  if (info.isSymlink) {
    throw new ToolError(
      `'${source.relative}' is a symbolic link; rename_file moves real files and folders only. ` +
        "Nothing was changed.",
    );
  }
  try {
    Deno.lstatSync(target.absolute);
    throw new ToolError(`'${target.relative}' already exists. Nothing was changed.`);
  } catch (error) {
    if (error instanceof ToolError) throw error;
  }
  if (source.relative === target.relative) {
    throw new ToolError(`'${source.relative}' is already there. Nothing was changed.`);
  }
  if (info.isDirectory && isWithin(source.real, target.real)) {
    throw new ToolError(
      `'${target.relative}' is inside '${source.relative}'; a folder cannot move into itself. ` +
        "Nothing was changed.",
    );
  }
  return { from: source.relative, to: target.relative, folder: info.isDirectory };
}

async function filesBelow(ctx: ToolContext, folder: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of ctx.project().walk(folder, { signal: ctx.signal })) {
    if (!entry.isDirectory) files.push(entry.path);
  }
  return files;
}

/** Open the importers the server would not see by itself (lsp/project_scope.ts). */
async function showImporters(
  ctx: ToolContext,
  server: LanguageServer,
  sites: readonly ImportSite[],
): Promise<void> {
  const root = ctx.project().root;
  const files = [...new Set(sites.map((s) => s.relPath))];
  const { keepOpen, openNow } = filesToShow(server.command, diskSource(root), files);
  const shown = [...keepOpen, ...openNow];
  if (shown.length > 0) await server.syncFiles(shown, requestOptions(ctx));
}

/**
 * The import lines naming the moved file exactly (a relative path, or a Python module path)
 * that the server's edits leave as they are: they would still name the old path.
 */
function notUpdated(
  sites: readonly ImportSite[],
  found: ReadonlyArray<{ uri: string; edits: LspTextEdit[] }>,
  from: string,
  folder: boolean,
  server: LanguageServer,
): ImportSite[] {
  const editedLines = new Map<string, Array<[number, number]>>();
  for (const e of found) {
    const rel = server.relPathOf(e.uri);
    if (rel === null) continue;
    const list = editedLines.get(rel) ?? [];
    for (const t of e.edits) list.push([t.range.start.line, t.range.end.line]);
    editedLines.set(rel, list);
  }
  return sites.filter((site) => {
    if (!namesExactly(site, from, folder)) return false;
    const line = site.line - 1;
    return !(editedLines.get(site.relPath) ?? []).some(([a, b]) => a <= line && line <= b);
  });
}

/** Whether an import line's module path resolves to the moved file or folder itself. */
function namesExactly(site: ImportSite, from: string, folder: boolean): boolean {
  const relative = /['"](\.{1,2}\/[^'"]*)['"]/.exec(site.text)?.[1];
  const stem = (p: string) => p.replace(/\.[^./]+$/, "").replace(/\/(index|__init__)$/, "");
  if (relative !== undefined) {
    const resolved = posix.normalize(posix.join(posix.dirname(site.relPath), relative));
    return folder
      ? resolved === from || resolved.startsWith(from + "/")
      : stem(resolved) === stem(from);
  }
  const dotted = /^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/.exec(site.text);
  const spec = dotted?.[1] ?? dotted?.[2];
  if (spec === undefined) return false;
  const module = "." + stem(from).split("/").join(".");
  return module.endsWith("." + spec) || (folder && ("." + spec).startsWith(module + "."));
}

function notUpdatedText(sites: readonly ImportSite[]): string {
  const shown = sites.slice(0, SHOWN_IMPORTERS).map((s) => `${s.relPath}:${s.line} ${s.text}`);
  const more = sites.length > SHOWN_IMPORTERS ? ` and ${sites.length - SHOWN_IMPORTERS} more` : "";
  return `The language server's edits for the move leave these imports naming the old path: ` +
    `${shown.join("; ")}${more}.`;
}

/** The text edits of a server's WorkspaceEdit, per document. */
function textEditsOf(
  edit: LspWorkspaceEdit | null,
): Array<{ uri: string; edits: LspTextEdit[] }> {
  if (!edit) return [];
  const out: Array<{ uri: string; edits: LspTextEdit[] }> = [];
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) out.push({ uri, edits });
  for (const change of edit.documentChanges ?? []) {
    const c = change as { textDocument?: { uri?: string }; edits?: LspTextEdit[]; kind?: string };
    if (c.kind !== undefined) {
      throw new ToolError(
        `The language server's edits for the move also ${c.kind} files; Sextant does not ` +
          "apply that. Nothing was changed.",
      );
    }
    if (c.textDocument?.uri && Array.isArray(c.edits)) {
      out.push({ uri: c.textDocument.uri, edits: c.edits });
    }
  }
  return out.filter((e) => e.edits.length > 0);
}

function brokenText(servers: readonly LanguageServer[], sites: readonly ImportSite[]): string {
  const names = [...new Set(servers.map((s) => `${s.id} (${s.command})`))].join(", ");
  const shown = sites.slice(0, SHOWN_IMPORTERS).map((s) => `${s.relPath}:${s.line} ${s.text}`);
  const more = sites.length > SHOWN_IMPORTERS ? ` and ${sites.length - SHOWN_IMPORTERS} more` : "";
  return `The ${names} language server cannot update imports on a move ` +
    `(no workspace/willRenameFiles); these imports would break: ${shown.join("; ")}${more}.`;
}

function uriOf(root: string, relPath: string): string {
  return pathToFileURL(join(root, relPath)).href;
}

function projectRelative(root: string, uri: string): string | null {
  let abs: string;
  try {
    abs = fileURLToPath(uri);
  } catch {
    return null;
  }
  const rel = relative(root, abs).split("\\").join("/");
  return rel === "" || rel.startsWith("..") ? null : rel;
}
