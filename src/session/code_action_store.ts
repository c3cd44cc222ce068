/**
 * The code-action cache of a project (ARCHITECTURE.md §3): actions a language server offered
 * (`code_actions`, `refresh_code_actions`) and edits prepared for review (rename previews) are
 * kept under stable ids until executed. An id is derived from what the action is (file, place,
 * title, kind, file content), so asking again for the same content gives the same id. Each entry
 * remembers the content hashes of the files it depends on; once one of them changes, the entry
 * is stale and `execute_code_action` refuses it.
 * @module
 */
import type { WorkspaceEdit } from "../deps.ts";
import type { Project } from "../project/project.ts";
import { planWorkspaceEdit, type WorkspaceEditPlan } from "../edit/workspace_edit.ts";
import { columnOfUtf16 } from "../lsp/positions.ts";

/** One cached action. */
export interface StoredAction {
  id: string;
  title: string;
  /** LSP CodeActionKind ("quickfix", "refactor.extract", ...), or "refactor.rename". */
  kind: string;
  isPreferred: boolean;
  /** Why the server disabled it, when it did. */
  disabled?: string;
  /** The file it was asked for (project-relative). */
  relPath: string;
  /** 1-based line it was asked for. */
  line: number;
  /** Registry id of the server that offered it; null for a stored edit. */
  serverId: string | null;
  /** Content hash (SHA-1 hex) of every file it depends on; null: the file did not exist. */
  hashes: Record<string, string | null>;
  /** The server's CodeAction or Command, as sent. */
  action?: unknown;
  /** A ready WorkspaceEdit (rename previews). */
  edit?: WorkspaceEdit;
  /** Messages of the diagnostics it addresses. */
  diagnostics?: string[];
  /** When it was stored (ms since epoch). */
  created: number;
}

/** Entries kept per project; the oldest go first. */
const MAX_ENTRIES = 500;

/** SHA-1 of a file's bytes as hex, or null when it does not exist (or is not a file). */
export async function fileHash(path: string): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch {
    return null;
  }
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-1", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** FNV-1a (32 bit) of a string, as 8 hex digits. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * A stable, readable id: the title as a slug plus a hash of everything that identifies the
 * action (`key`), e.g. `add_import_from_shapes_ts_3f9a2c1b`.
 */
export function actionId(title: string, key: string): string {
  const slug = title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "").slice(0, 40).replace(/_+$/, "");
  return `${slug || "action"}_${fnv1a(`${title}\0${key}`)}`;
}

/** See the module documentation. */
export class CodeActionStore {
  readonly project: Project;
  readonly #entries = new Map<string, StoredAction>();

  constructor(project: Project) {
    this.project = project;
  }

  /** Store an action (replacing one with the same id) and return it. */
  add(entry: Omit<StoredAction, "created">): StoredAction {
    const stored: StoredAction = { ...entry, created: Date.now() };
    this.#entries.delete(stored.id);
    this.#entries.set(stored.id, stored);
    while (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return stored;
  }

  get(id: string): StoredAction | undefined {
    return this.#entries.get(id);
  }

  /** Every entry, oldest first. */
  list(): StoredAction[] {
    return [...this.#entries.values()];
  }

  remove(id: string): void {
    this.#entries.delete(id);
  }

  /** Remove the entries `predicate` selects (all when omitted); returns how many. */
  clear(predicate: (entry: StoredAction) => boolean = () => true): number {
    let n = 0;
    for (const [id, entry] of this.#entries) {
      if (predicate(entry)) {
        this.#entries.delete(id);
        n++;
      }
    }
    return n;
  }

  /** The files an entry depends on that changed since it was stored (empty: still valid). */
  async changedFiles(entry: StoredAction): Promise<string[]> {
    const changed: string[] = [];
    for (const [relPath, hash] of Object.entries(entry.hashes)) {
      if (await fileHash(this.project.absolute(relPath)) !== hash) changed.push(relPath);
    }
    return changed;
  }

  /** Drop every stale entry; returns the ids dropped. */
  async prune(): Promise<string[]> {
    const dropped: string[] = [];
    for (const entry of this.list()) {
      if ((await this.changedFiles(entry)).length > 0) {
        this.#entries.delete(entry.id);
        dropped.push(entry.id);
      }
    }
    return dropped;
  }
}

/** Content hashes of the files a plan reads or writes (null for files that do not exist yet). */
export async function planHashes(
  project: Project,
  plan: WorkspaceEditPlan,
): Promise<Record<string, string | null>> {
  const hashes: Record<string, string | null> = {};
  for (const f of plan.files) hashes[f.relPath] = await fileHash(project.absolute(f.relPath));
  // A move depends on its source being there as it was and its target being free.
  for (const m of plan.moves) {
    hashes[m.fromRel] ??= await fileHash(project.absolute(m.fromRel));
    hashes[m.toRel] = null;
  }
  return hashes;
}

/** One change of a preview, as the Ada MCP setup shows it (1-based line and column). */
export interface PreviewChange {
  file: string;
  line: number;
  column: number;
  oldText: string;
  newText: string;
}

/** A previewed WorkspaceEdit: what would change, and the code action that applies it. */
export interface EditPreview {
  oldName?: string;
  newName?: string;
  changes: PreviewChange[];
  /** File operations, when the edit creates, renames or deletes files. */
  fileOperations?: string[];
  /** Text edits per file. */
  files: Record<string, number>;
  totalChanges: number;
  applied: false;
  /** Pass to execute_code_action to apply the edit. */
  action_id: string;
}

/** What a previewed edit is. */
export interface PreviewInfo {
  /** Shown by list_code_actions, e.g. "Rename 'Circle' to 'Disc'". */
  title: string;
  /** CodeActionKind; default "refactor.rename". */
  kind?: string;
  oldName?: string;
  newName?: string;
  /** The file and 1-based line it was asked for. */
  relPath: string;
  line: number;
  serverId?: string | null;
}

/**
 * Preview a WorkspaceEdit without applying it: plan it (sandboxed, nothing written), describe
 * every change with 1-based positions, and store it as a code action whose id
 * `execute_code_action` accepts while the files it touches stay unchanged. Throws a ToolError
 * when the edit cannot be applied (outside the project, conflicting operations).
 */
export async function previewWorkspaceEdit(
  store: CodeActionStore,
  project: Project,
  edit: WorkspaceEdit | null | undefined,
  relPathOf: (uri: string) => string | null,
  info: PreviewInfo,
): Promise<EditPreview> {
  const plan = await planWorkspaceEdit(project, edit, { relPathOf });
  const hashes = await planHashes(project, plan);
  const kind = info.kind ?? "refactor.rename";
  const key = [info.relPath, kind, JSON.stringify(hashes), JSON.stringify(plan.changes)].join("\0");
  const stored = store.add({
    id: actionId(info.title, key),
    title: info.title,
    kind,
    isPreferred: false,
    relPath: info.relPath,
    line: info.line,
    serverId: info.serverId ?? null,
    hashes,
    edit: edit ?? {},
  });
  const changes = plan.changes.map((c): PreviewChange => {
    return {
      file: c.relPath,
      line: c.line + 1,
      column: columnOfUtf16(c.lineText, c.character),
      oldText: c.oldText,
      newText: c.newText,
    };
  });
  const files: Record<string, number> = {};
  for (const c of plan.changes) files[c.relPath] = (files[c.relPath] ?? 0) + 1;
  return {
    ...(info.oldName !== undefined ? { oldName: info.oldName } : {}),
    ...(info.newName !== undefined ? { newName: info.newName } : {}),
    changes,
    ...(plan.operations.length > 0 ? { fileOperations: plan.operations } : {}),
    files,
    totalChanges: changes.length + plan.operations.length,
    applied: false,
    action_id: stored.id,
  };
}
