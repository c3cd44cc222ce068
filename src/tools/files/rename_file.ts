/**
 * rename_file: moves a file or folder and updates every import of it. Servers that implement
 * `workspace/willRenameFiles` (typescript-language-server, rust-analyzer) compute the edits; for
 * Go and Python, whose servers (gopls, pyright) do not, Sextant rewrites the import lines itself
 * (toolchain/graph/go_package_moves.ts, python_import_moves.ts). Either way the edits are proven
 * with the server's errors before and after (rename_file_proof.ts), and the move is undone when
 * they do not hold. The move and the edits land as one all-or-nothing change through the write
 * path, then the servers hear `workspace/didRenameFiles`. Importers no one can update are named
 * and the move waits for `force`; manifests and build files that name the old path are listed as
 * not updated.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { TextEdit, WorkspaceEdit } from "../../deps.ts";
import { fileUriOf, relPathOfUri } from "../../project/file_uri.ts";
import { extname, posix } from "node:path";
import { diskSource, filesToShow } from "../../lsp/project_scope.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { previewWorkspaceEdit } from "../../session/code_action_store.ts";
import { offersWillRename } from "../../lsp/managed_server.ts";
import type { LanguageServer } from "../../lsp/language_server.ts";
import { ALWAYS_IGNORED_DIRS } from "../../project/ignore.ts";
import type { Project } from "../../project/project.ts";
import { isWithin } from "../../project/sandbox.ts";
import type { ImportSite } from "../../toolchain/graph/importers.ts";
import { goImportMoves } from "../../toolchain/graph/go_package_moves.ts";
import {
  type ImportEdit,
  type ImportMovePlan,
  movedPath,
  type PathMove,
} from "../../toolchain/graph/move_edits.ts";
import { type PathMention, pathMentions } from "../../toolchain/graph/path_mentions.ts";
import { movedModuleNames, pythonImportMoves } from "../../toolchain/graph/python_import_moves.ts";
import { toJson } from "../shared/json.ts";
import { requestOptions } from "../shared/locate_symbol.ts";
import { applyWorkspaceEdit } from "../shared/write.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import {
  errorsOf,
  type IntroducedError,
  introducedErrors,
  MAX_PROVEN_FILES,
  type MoveCheck,
  undoMove,
} from "./rename_file_proof.ts";
import {
  brokenText,
  errorsText,
  mentionsText,
  notUpdatedText,
  proofText,
  serverNames,
  SHOWN_IMPORTERS,
} from "./rename_file_answer.ts";

/** Sextant's own import rewriting, by the extension of the files that move. */
const PLANNERS: Readonly<
  Record<
    string,
    (project: Project, move: PathMove, signal?: AbortSignal) => Promise<ImportMovePlan>
  >
> = { ".go": goImportMoves, ".py": pythonImportMoves, ".pyi": pythonImportMoves };

/** Import edits Sextant planned itself for the files of one server, to be proven by it. */
interface OwnEdits extends MoveCheck {
  edits: ImportEdit[];
}

export const renameFile = defineTool({
  name: "rename_file",
  description: "Moves a file or folder and updates its importers (language server, or Sextant " +
    "for Go/Python); all or nothing. Else it lists the imports that would break.",
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
    const move = checkMove(ctx, args.relative_path, args.new_relative_path);
    const { from, to, folder } = move;
    const { pool, imports } = ctx.session.services(project);
    const options = requestOptions(ctx);
    // The files the move carries, by the server that handles them.
    const carried = folder ? await filesBelow(ctx, from) : [from];
    const byServer = new Map<string, string>();
    for (const file of carried) {
      const id = pool.serverIdFor(file);
      if (id !== null && !byServer.has(id)) byServer.set(id, file);
    }
    const edits: Array<{ uri: string; edits: TextEdit[] }> = [];
    const unsupported: LanguageServer[] = [];
    const own: OwnEdits[] = [];
    const checks: MoveCheck[] = [];
    const problems: string[] = [];
    /** Strings in code that name the moved module (listed, never edited). */
    const inStrings: PathMention[] = [];
    // Every import line that names the moved files, in any language: the candidates.
    const importers = await imports.importersOf([{ relPath: from, folder }], () => true, {
      signal: ctx.signal,
      fresh: true,
      limit: 10_000,
    });
    const unexplained: ImportSite[] = [];
    for (const sample of byServer.values()) {
      const server = await pool.serverFor(sample, options);
      const mine = importers.filter((s) => pool.serverIdFor(s.relPath) === server.id);
      if (!offersWillRename(server.capabilities)) {
        const planner = PLANNERS[extname(sample).toLowerCase()];
        if (planner === undefined) {
          unsupported.push(server);
          continue;
        }
        const plan = await planner(project, move, ctx.signal);
        if (plan.problem !== undefined) problems.push(plan.problem);
        inStrings.push(...plan.notUpdated ?? []);
        const files = [
          ...plan.edits.map((e) => e.relPath),
          ...plan.candidates ?? [],
          ...carried.filter((f) => pool.serverIdFor(f) === server.id),
          ...mine.map((s) => s.relPath),
        ];
        own.push({ server, edits: plan.edits, files: [...new Set(files)] });
        checks.push(own.at(-1)!);
        continue;
      }
      await showImporters(ctx, server, mine);
      const answer = await server.request<WorkspaceEdit | null>(LspMethod.willRenameFiles, {
        files: [{ oldUri: server.uriOf(from), newUri: server.uriOf(to) }],
      }, { ...options, sync: [sample] });
      const found = textEditsOf(answer);
      edits.push(...found);
      // The server's edits are proven like Sextant's own: a wrong one shows as a new error. The
      // importers it left alone are checked by their lines (notUpdated), not by the server.
      const files = [
        ...found.map((e) => server.relPathOf(e.uri)).filter((f): f is string => f !== null),
        ...carried.filter((f) => pool.serverIdFor(f) === server.id),
      ];
      checks.push({ server, files: [...new Set(files)] });
      unexplained.push(...notUpdated(mine, found, from, folder, server));
    }
    for (const o of own) edits.push(...lspEditsOf(project.root, o.edits));
    const broken = importers.filter((site) =>
      unsupported.some((s) => pool.serverIdFor(site.relPath) === s.id)
    );
    // A line a server's edits change (tsserver updates tsconfig `paths`) is not left behind.
    const editedLines = new Set(
      edits.flatMap((e) => {
        const relPath = relPathOfUri(project.root, e.uri);
        return e.edits.flatMap((t) =>
          Array.from(
            { length: t.range.end.line - t.range.start.line + 1 },
            (_, i) => `${relPath}:${t.range.start.line + i + 1}`,
          )
        );
      }),
    );
    const mentions = (await pathMentions(
      project,
      move,
      own.some((o) => o.edits.some((e) => /\.pyi?$/.test(e.relPath))) || /\.pyi?$/.test(from)
        ? movedModuleNames(project, move)
        : [],
      ctx.signal,
    )).filter((m) => !editedLines.has(`${m.relPath}:${m.line}`));
    const edit: WorkspaceEdit = {
      documentChanges: [
        ...edits.map((e) => ({ textDocument: { uri: e.uri, version: null }, edits: e.edits })),
        {
          kind: "rename",
          oldUri: fileUriOf(project.root, from),
          newUri: fileUriOf(project.root, to),
        },
      ],
    };
    const relPathOf = (uri: string) => relPathOfUri(project.root, uri);
    const blocking = [
      broken.length === 0 ? "" : brokenText(unsupported, broken, SHOWN_IMPORTERS),
      unexplained.length === 0 ? "" : notUpdatedText(unexplained),
      ...problems,
    ].filter(Boolean).join(" ");
    const notes = mentionsText(mentions, inStrings);
    if (args.preview) {
      const preview = await previewWorkspaceEdit(
        ctx.session.codeActions(project),
        project,
        edit,
        relPathOf,
        { title: `Move '${from}' to '${to}'`, kind: "refactor.move", relPath: from, line: 1 },
      );
      const unproven = own.some((o) => o.edits.length > 0)
        ? `Sextant wrote the import edits itself (${serverNames(own)}: no ` +
          "workspace/willRenameFiles); rename_file checks them with the server's errors when it " +
          "applies them, execute_code_action does not."
        : "";
      const warning = [blocking, unproven, notes].filter(Boolean).join(" ");
      return toJson(warning ? { ...preview, warning } : preview);
    }
    if (blocking && !args.force) {
      throw new ToolError(
        `${blocking} Nothing was moved. Fix those imports yourself after moving with force: ` +
          "true, or move differently.",
      );
    }
    // The errors the move's edits are proven against, before the move.
    const proving = checks.filter((o) => o.files.length > 0);
    const before = [];
    for (const o of proving) {
      before.push(await errorsOf(ctx, o.server, o.files.slice(0, MAX_PROVEN_FILES)));
    }
    const changed = await applyWorkspaceEdit(ctx, edit, { relPathOf });
    const introduced: IntroducedError[] = [];
    for (const [i, o] of proving.entries()) {
      const after = await errorsOf(
        ctx,
        o.server,
        o.files.slice(0, MAX_PROVEN_FILES).map((f) => movedPath(move, f)),
      );
      introduced.push(...introducedErrors(before[i]!, after, (f) => movedPath(move, f)));
    }
    if (introduced.length > 0 && !args.force) {
      try {
        await undoMove(ctx, changed, to);
      } catch (error) {
        throw new ToolError(
          `After the move, ${serverNames(proving)} reported new errors: ` +
            `${errorsText(introduced)}. Undoing the move failed (${
              error instanceof Error ? error.message : error
            }): '${to}' stays where it is, with its edits.`,
        );
      }
      throw new ToolError(
        `After the move and its import edits, ${serverNames(proving)} reported ` +
          `new errors: ${errorsText(introduced)}. The move and its edits were undone; nothing ` +
          "was changed. Move with force: true to keep them and fix the rest yourself.",
      );
    }
    const updated = changed.filter((f) => f.movedTo === undefined);
    const count = updated.reduce((n, f) => n + f.editCount, 0);
    const unchecked = proving.reduce(
      (n, o) => n + Math.max(0, o.files.length - MAX_PROVEN_FILES),
      0,
    );
    const leftBroken = [
      broken.length === 0 ? "" : brokenText(unsupported, broken, Infinity, true),
      unexplained.length === 0 ? "" : notUpdatedText(unexplained, Infinity),
      ...problems,
      introduced.length === 0 ? "" : `New errors after the move: ${errorsText(introduced)}.`,
    ].filter(Boolean).join(" ");
    return `OK\nMoved '${from}' to '${to}'` +
      (updated.length > 0
        ? `; updated its importers, ${count} edit${count === 1 ? "" : "s"} in ${updated.length} ` +
          `file${updated.length === 1 ? "" : "s"}: ${
            updated.map((f) => `${f.relPath} (${f.editCount})`).join(", ")
          }.`
        : leftBroken
        ? "; updated no imports."
        : "; no imports needed updating.") +
      (proving.length > 0 ? ` ${proofText(proving, own, introduced.length, unchecked)}` : "") +
      (leftBroken ? ` Moved with force; left broken: ${leftBroken}` : "") +
      (notes ? ` ${notes}` : "");
  },
});

/** Sextant's own edits as a WorkspaceEdit's text edits, per file. */
function lspEditsOf(
  root: string,
  edits: readonly ImportEdit[],
): Array<{ uri: string; edits: TextEdit[] }> {
  const byFile = new Map<string, TextEdit[]>();
  for (const e of edits) {
    const lines = e.oldText.split("\n");
    const end = lines.length === 1
      ? { line: e.line, character: e.character + e.oldText.length }
      : { line: e.line + lines.length - 1, character: lines[lines.length - 1]!.length };
    const list = byFile.get(e.relPath) ?? [];
    list.push({
      range: { start: { line: e.line, character: e.character }, end },
      newText: e.newText,
    });
    byFile.set(e.relPath, list);
  }
  return [...byFile].map(([relPath, list]) => ({ uri: fileUriOf(root, relPath), edits: list }));
}

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
  found: ReadonlyArray<{ uri: string; edits: TextEdit[] }>,
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

/** The text edits of a server's WorkspaceEdit, per document. */
function textEditsOf(
  edit: WorkspaceEdit | null,
): Array<{ uri: string; edits: TextEdit[] }> {
  if (!edit) return [];
  const out: Array<{ uri: string; edits: TextEdit[] }> = [];
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) out.push({ uri, edits });
  for (const change of edit.documentChanges ?? []) {
    const c = change as { textDocument?: { uri?: string }; edits?: TextEdit[]; kind?: string };
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
