/**
 * Asking a server for code actions and running them: {@linkcode requestCodeActions} stores what
 * the server offers under stable ids; {@linkcode applyEditInSession} applies a WorkspaceEdit
 * (text edits and file operations) all or nothing through the write path and reports each file's
 * change; {@linkcode executeStoredAction} runs a cached action: refuse if stale, resolve it when
 * needed, apply its edit, run its command (the server's `workspace/applyEdit` requests go
 * through the same apply path).
 *
 * The code-action tools (ide/code_actions.ts), check_project's fixes (toolchain/fixes.ts),
 * rename_at_position and the refresh after a call (code_action_refresh.ts) all run actions
 * through it. It applies edits through the tools' write path and records ids in the
 * session, so it lives in tools/, not in lsp/ (whose code_actions.ts is the store it fills).
 * @module
 */
import { LspMethod } from "../lsp/methods.ts";
import type { CodeAction, Command, Diagnostic, Range, WorkspaceEdit } from "../deps.ts";
import { relPathOfUri } from "../project/file_uri.ts";
import { ToolError } from "../errors.ts";
import { unifiedDiff } from "../edit/diff.ts";
import { actionId, fileHash, type StoredAction } from "../session/code_action_store.ts";
import { toAgentPosition } from "../lsp/positions.ts";
import type { LanguageServer } from "../lsp/language_server.ts";
import { applyWorkspaceEdit } from "./shared/write.ts";
import type { FileTarget } from "./shared/targets.ts";
import { requestOptions } from "./shared/locate_symbol.ts";
import type { ToolContext } from "./tool.ts";

/** What an applied edit changed, per file. */
export interface AppliedFile {
  file: string;
  change: "edited" | "created" | "deleted" | "moved";
  /** Where a moved file or folder went. */
  to?: string;
  edits: number;
  diff: string;
}

/**
 * A server's CodeAction, or a bare Command (its `command` a string, beside its `arguments`), read
 * as one; any field may be missing from what a server sends.
 */
type RawAction =
  & Partial<Omit<CodeAction, "command">>
  & Partial<Omit<Command, "command">>
  & { command?: string | Command };

/** URIs a WorkspaceEdit touches. */
function editUris(edit: WorkspaceEdit | undefined): string[] {
  if (!edit) return [];
  const uris = new Set<string>(Object.keys(edit.changes ?? {}));
  for (const change of edit.documentChanges ?? []) {
    const c = change as Record<string, unknown>;
    for (const key of ["uri", "oldUri", "newUri"]) {
      if (typeof c[key] === "string") uris.add(c[key] as string);
    }
    const doc = c.textDocument as { uri?: string } | undefined;
    if (doc?.uri) uris.add(doc.uri);
  }
  return [...uris];
}

/**
 * Apply a WorkspaceEdit to the project all or nothing (sandboxed; file operations included)
 * through the write path. Returns what changed per file.
 */
export async function applyEditInSession(
  ctx: ToolContext,
  edit: WorkspaceEdit | null | undefined,
  relPathOf: (uri: string) => string | null,
): Promise<AppliedFile[]> {
  const files = await applyWorkspaceEdit(ctx, edit, { relPathOf });
  return files.map((f) =>
    f.movedTo !== undefined
      ? { file: f.relPath, change: "moved", to: f.movedTo, edits: 0, diff: "" }
      : {
        file: f.relPath,
        change: f.before === null ? "created" : f.after === null ? "deleted" : "edited",
        edits: f.editCount,
        diff: unifiedDiff(f.relPath, f.before ?? "", f.after ?? ""),
      }
  );
}

/** Content hashes of the files an action depends on: its file and every file its edit names. */
async function hashesFor(
  ctx: ToolContext,
  server: LanguageServer,
  relPath: string,
  edit: WorkspaceEdit | undefined,
): Promise<Record<string, string | null>> {
  const project = ctx.project();
  const hashes: Record<string, string | null> = {};
  for (const rel of [relPath, ...editUris(edit).map((u) => server.relPathOf(u))]) {
    if (rel === null || rel in hashes) continue;
    hashes[rel] = await fileHash(project.absolute(rel));
  }
  return hashes;
}

/**
 * Ask for the code actions of a range and cache them; returns them all (disabled ones too, which
 * are not cached).
 */
export async function requestCodeActions(
  ctx: ToolContext,
  target: FileTarget,
  range: Range,
  diagnostics: readonly Diagnostic[],
  only?: readonly string[],
): Promise<StoredAction[]> {
  const { server } = target;
  let result: RawAction[] | null;
  try {
    result = await server.request<RawAction[] | null>(LspMethod.codeAction, {
      textDocument: { uri: target.uri },
      range,
      context: {
        diagnostics,
        triggerKind: 1,
        ...(only && only.length > 0 ? { only } : {}),
      },
    }, { ...target.options, sync: [target.relPath] });
  } catch (error) {
    if (server.capabilities.codeActionProvider || ctx.signal.aborted) throw error;
    throw new ToolError(
      `The ${server.id} language server (${server.command}) does not offer code actions.`,
    );
  }
  const store = ctx.session.codeActions(ctx.project());
  const line = toAgentPosition(target.lines, range.start).line;
  const stored: StoredAction[] = [];
  for (const raw of result ?? []) {
    const title = raw.title ?? "(untitled)";
    const kind = raw.kind ?? (typeof raw.command === "string" ? "command" : "");
    const hashes = await hashesFor(ctx, server, target.relPath, raw.edit);
    const key = [
      target.relPath,
      kind,
      JSON.stringify(range),
      JSON.stringify(hashes),
      JSON.stringify(raw.edit ?? raw.command ?? null),
    ].join("\0");
    const messages = (raw.diagnostics ?? []).map((d) => d.message);
    const entry = {
      id: actionId(title, key),
      title,
      kind,
      isPreferred: raw.isPreferred === true,
      ...(raw.disabled ? { disabled: raw.disabled.reason ?? "disabled by the server" } : {}),
      relPath: target.relPath,
      line,
      serverId: server.id,
      hashes,
      action: raw,
      ...(messages.length > 0 ? { diagnostics: messages } : {}),
    };
    // Disabled actions cannot run: returned (to say why), not cached.
    stored.push(raw.disabled ? { ...entry, created: Date.now() } : store.add(entry));
  }
  return stored;
}

/** Result of executing a stored action. */
export interface ExecutionResult {
  applied: true;
  action: string;
  files: AppliedFile[];
  command?: string;
  /** Something the agent should know (e.g. the command failed after the edit was applied). */
  note?: string;
}

/**
 * Run a cached code action by id: refused when unknown, disabled or stale (a file it depends
 * on changed; nothing is changed then). Resolves it (`codeAction/resolve`) when it has no edit
 * yet, applies its edit all or nothing, then runs its command, if any, with
 * `workspace/executeCommand`; edits the server sends back meanwhile are applied the same way.
 */
export async function executeStoredAction(
  ctx: ToolContext,
  actionIdArg: string,
): Promise<ExecutionResult> {
  const project = ctx.project();
  const store = ctx.session.codeActions(project);
  const entry = store.get(actionIdArg.trim());
  if (!entry) {
    throw new ToolError(
      `No code action '${actionIdArg}'. Ids come from code_actions, list_code_actions or a ` +
        "rename preview; they are dropped once executed or when the session ends.",
    );
  }
  if (entry.disabled) {
    throw new ToolError(
      `The server disabled code action '${entry.id}' (${entry.title}): ${entry.disabled}.`,
    );
  }
  const changed = await store.changedFiles(entry);
  if (changed.length > 0) {
    store.remove(entry.id);
    throw new ToolError(
      `Code action '${entry.id}' (${entry.title}) is stale: ${
        changed.map((f) => `'${f}'`).join(", ")
      } ` +
        "changed since it was offered. Nothing was changed; ask code_actions (or " +
        "refresh_code_actions) again for current ids.",
    );
  }
  const options = requestOptions(ctx);
  const pool = ctx.session.services(project).pool;
  const relPathOf = (uri: string) => relPathOfUri(project.root, uri);
  if (entry.edit && entry.action === undefined) {
    const files = await applyEditInSession(ctx, entry.edit, relPathOf);
    store.remove(entry.id);
    return { applied: true, action: entry.title, files };
  }
  const server = await pool.serverFor(entry.relPath, options);
  let raw = entry.action as RawAction;
  const isCommand = typeof raw.command === "string";
  if (!isCommand && raw.edit === undefined) {
    const provider = server.capabilities.codeActionProvider as { resolveProvider?: boolean };
    if (provider?.resolveProvider || raw.data !== undefined) {
      raw = await server.request<RawAction>(LspMethod.codeActionResolve, raw, {
        ...options,
        sync: [entry.relPath],
      });
    }
  }
  const command = isCommand
    ? { command: raw.command as string, arguments: raw.arguments ?? [] }
    : (raw.command as Command | undefined);
  const files: AppliedFile[] = [];
  let note = "";
  if (raw.edit) {
    files.push(...await applyEditInSession(ctx, raw.edit, server.relPathOf.bind(server)));
  }
  store.remove(entry.id);
  if (command) {
    // The server carries out the command and sends its edit back through workspace/applyEdit.
    server.setApplyEditHandler(async (edit) => {
      try {
        files.push(
          ...await applyEditInSession(ctx, edit as WorkspaceEdit, server.relPathOf.bind(server)),
        );
        return { applied: true };
      } catch (error) {
        return {
          applied: false,
          failureReason: error instanceof Error ? error.message : String(error),
        };
      }
    });
    try {
      await server.request(LspMethod.executeCommand, {
        command: command.command,
        arguments: command.arguments ?? [],
      }, options);
    } catch (error) {
      // Edits already applied stay applied (e.g. tsserver's refactorings end by asking the
      // client to start an interactive rename, which Sextant cannot do): report, do not fail.
      if (files.length === 0 || ctx.signal.aborted) throw error;
      note = `The edit was applied; the server's command then failed: ${
        error instanceof Error ? error.message : String(error)
      }`;
    } finally {
      server.setApplyEditHandler(null);
    }
  }
  return {
    applied: true,
    action: entry.title,
    files,
    ...(command ? { command: command.command } : {}),
    ...(note ? { note } : {}),
  };
}

/** Project-relative path of a `file://` URI inside `root`, else null. */
