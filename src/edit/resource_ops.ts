/**
 * A whole LSP `WorkspaceEdit`, file operations included: `documentChanges` may create, rename
 * and delete files (`CreateFile`, `RenameFile`, `DeleteFile`) between text edits, in order.
 * {@linkcode planFullEdit} plays the edit on a virtual copy of the touched files (every path
 * through the sandbox, nothing written); {@linkcode commitFullEdit} then writes it all or
 * nothing: new contents first (each atomically), then deletions, and on any failure every
 * touched path is put back as it was. (src/edit/workspace_edit.ts applies text-only edits and
 * refuses file operations; this module is the superset the IDE tools use.)
 * @module
 */
import { dirname } from "node:path";
import { ToolError } from "../errors.ts";
import type { Project } from "../project/project.ts";
import { newFileFormat, readTextFile, type TextFormat, writeFileAtomic } from "./text_file.ts";
import { writeAllOrNothing } from "./file_set.ts";
import { applyTextEdits, type LspTextEdit, type LspWorkspaceEdit } from "./workspace_edit.ts";

/** One text replacement of the edit, with the text it replaces (for previews). */
export interface TextChange {
  relPath: string;
  /** 0-based line and UTF-16 character of the start, in the text the edit applies to. */
  line: number;
  character: number;
  oldText: string;
  newText: string;
  /** The whole start line in that text (to turn `character` into a column). */
  lineText: string;
}

/** What happens to one path. */
export interface FileOutcome {
  relPath: string;
  /** Real path (symlinks of existing parents resolved). */
  real: string;
  /** Content on disk before (`\n` line endings), null when the file does not exist yet. */
  before: string | null;
  /** Content after, null when the file is deleted. */
  after: string | null;
  format: TextFormat;
  /** Text edits applied to this path. */
  editCount: number;
}

/** A planned WorkspaceEdit. */
export interface FullEditPlan {
  /** Paths whose content or existence changes, sorted. */
  files: FileOutcome[];
  /** Every text replacement, in application order. */
  changes: TextChange[];
  /** File operations in order, as short text ("create a.ts", "rename a.ts -> b.ts", ...). */
  operations: string[];
}

interface VirtualFile {
  relPath: string;
  real: string;
  /** On disk now (null: does not exist). */
  original: string | null;
  /** After the operations so far (null: does not exist). */
  text: string | null;
  format: TextFormat;
  editCount: number;
}

interface ResourceOptions {
  overwrite?: boolean;
  ignoreIfExists?: boolean;
  ignoreIfNotExists?: boolean;
  recursive?: boolean;
}

function isTextEdit(value: unknown): value is LspTextEdit {
  const v = value as LspTextEdit | null;
  return typeof v === "object" && v !== null && typeof v.newText === "string" &&
    typeof v.range?.start?.line === "number" && typeof v.range?.end?.line === "number";
}

function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function offsetIn(text: string, starts: readonly number[], line: number, ch: number): number {
  if (line >= starts.length) return text.length;
  const start = starts[Math.max(0, line)]!;
  const end = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  return Math.min(start + Math.max(0, ch), end);
}

function lineAt(text: string, starts: readonly number[], line: number): string {
  const start = starts[line];
  if (start === undefined) return "";
  const end = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  return text.slice(start, end);
}

/** Plays a WorkspaceEdit on virtual copies of the files it touches. */
class VirtualTree {
  readonly #files = new Map<string, VirtualFile>();
  readonly #project: Project;
  readonly #relPathOf: (uri: string) => string | null;
  readonly changes: TextChange[] = [];
  readonly operations: string[] = [];

  constructor(project: Project, relPathOf: (uri: string) => string | null) {
    this.#project = project;
    this.#relPathOf = relPathOf;
  }

  /** The virtual file of a URI, loaded from disk on first use (sandboxed). */
  async file(uri: string): Promise<VirtualFile> {
    const rel = this.#relPathOf(uri);
    if (rel === null || rel === "" || rel === ".") {
      throw new ToolError(
        `The edit would change ${uri}, which is outside the project. Nothing was changed.`,
      );
    }
    const resolved = this.#project.resolve(rel, { mustExist: false, requireNotIgnored: false });
    const known = this.#files.get(resolved.relative);
    if (known) return known;
    let original: string | null = null;
    let format = newFileFormat(this.#project.settings.encoding);
    if (resolved.exists) {
      const info = await Deno.stat(resolved.real);
      if (info.isDirectory) {
        throw new ToolError(
          `The edit would change the folder '${resolved.relative}'; Sextant only creates, ` +
            "renames and deletes files. Nothing was changed.",
        );
      }
      const read = await readTextFile(resolved.real, this.#project.settings.encoding);
      original = read.text;
      format = read.format;
    }
    const file: VirtualFile = {
      relPath: resolved.relative,
      real: resolved.real,
      original,
      text: original,
      format,
      editCount: 0,
    };
    this.#files.set(file.relPath, file);
    return file;
  }

  async textEdits(uri: string, edits: readonly LspTextEdit[]): Promise<void> {
    if (edits.length === 0) return;
    const file = await this.file(uri);
    if (file.text === null) {
      throw new ToolError(
        `The edit changes '${file.relPath}', which does not exist. Nothing was changed.`,
      );
    }
    const text = file.text;
    const starts = lineStartOffsets(text);
    for (const e of edits) {
      const from = offsetIn(text, starts, e.range.start.line, e.range.start.character);
      const to = offsetIn(text, starts, e.range.end.line, e.range.end.character);
      this.changes.push({
        relPath: file.relPath,
        line: e.range.start.line,
        character: e.range.start.character,
        oldText: text.slice(from, Math.max(from, to)),
        newText: e.newText.replace(/\r\n/g, "\n"),
        lineText: lineAt(text, starts, e.range.start.line),
      });
    }
    file.text = applyTextEdits(text, edits, `'${file.relPath}'`);
    file.editCount += edits.length;
  }

  async create(uri: string, options: ResourceOptions): Promise<void> {
    const file = await this.file(uri);
    if (file.text !== null) {
      if (options.overwrite) file.text = "";
      else if (options.ignoreIfExists) return;
      else {
        throw new ToolError(
          `The edit creates '${file.relPath}', which already exists. Nothing was changed.`,
        );
      }
    } else {
      file.text = "";
    }
    this.operations.push(`create ${file.relPath}`);
  }

  async rename(oldUri: string, newUri: string, options: ResourceOptions): Promise<void> {
    const from = await this.file(oldUri);
    const to = await this.file(newUri);
    if (from.text === null) {
      throw new ToolError(
        `The edit renames '${from.relPath}', which does not exist. Nothing was changed.`,
      );
    }
    if (from === to) return;
    if (to.text !== null) {
      if (options.ignoreIfExists && !options.overwrite) return;
      if (!options.overwrite) {
        throw new ToolError(
          `The edit renames '${from.relPath}' to '${to.relPath}', which already exists. ` +
            "Nothing was changed.",
        );
      }
    }
    to.text = from.text;
    to.format = { ...from.format };
    from.text = null;
    this.operations.push(`rename ${from.relPath} -> ${to.relPath}`);
  }

  async delete(uri: string, options: ResourceOptions): Promise<void> {
    const file = await this.file(uri);
    if (file.text === null) {
      if (options.ignoreIfNotExists) return;
      throw new ToolError(
        `The edit deletes '${file.relPath}', which does not exist. Nothing was changed.`,
      );
    }
    file.text = null;
    this.operations.push(`delete ${file.relPath}`);
  }

  outcomes(): FileOutcome[] {
    return [...this.#files.values()]
      .filter((f) => f.text !== f.original || (f.text !== null && f.editCount > 0))
      .map((f) => ({
        relPath: f.relPath,
        real: f.real,
        before: f.original,
        after: f.text,
        format: f.format,
        editCount: f.editCount,
      }))
      .sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  }
}

/**
 * Plan a WorkspaceEdit (text edits and file operations, in order) without writing anything.
 * `relPathOf` maps a URI to a project-relative path (null outside the project). Throws a
 * ToolError, with nothing changed, for paths outside the sandbox, folders, conflicting
 * operations and overlapping edits.
 */
export async function planFullEdit(
  project: Project,
  edit: LspWorkspaceEdit | null | undefined,
  relPathOf: (uri: string) => string | null,
): Promise<FullEditPlan> {
  const tree = new VirtualTree(project, relPathOf);
  if (edit && Array.isArray(edit.documentChanges)) {
    for (const change of edit.documentChanges) {
      const c = change as Record<string, unknown>;
      const options = (c.options ?? {}) as ResourceOptions;
      if (c.kind === "create" && typeof c.uri === "string") await tree.create(c.uri, options);
      else if (
        c.kind === "rename" && typeof c.oldUri === "string" && typeof c.newUri === "string"
      ) {
        await tree.rename(c.oldUri, c.newUri, options);
      } else if (c.kind === "delete" && typeof c.uri === "string") {
        await tree.delete(c.uri, options);
      } else if (typeof c.kind === "string") {
        throw new ToolError(`The edit has an unknown file operation '${c.kind}'. Nothing changed.`);
      } else {
        const doc = c.textDocument as { uri?: string } | undefined;
        if (doc?.uri && Array.isArray(c.edits)) {
          await tree.textEdits(doc.uri, (c.edits as unknown[]).filter(isTextEdit));
        }
      }
    }
  } else if (edit?.changes) {
    for (const [uri, edits] of Object.entries(edit.changes)) {
      await tree.textEdits(uri, (edits ?? []).filter(isTextEdit));
    }
  }
  return { files: tree.outcomes(), changes: tree.changes, operations: tree.operations };
}

/** Folders to create for new files, outermost first; the ones that exist are left out. */
async function missingFolders(paths: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const path of paths) {
    const chain: string[] = [];
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
      try {
        await Deno.stat(dir);
        break;
      } catch {
        chain.unshift(dir);
      }
    }
    for (const dir of chain) out.add(dir);
  }
  return [...out].sort((a, b) => a.length - b.length);
}

/**
 * Apply a plan all or nothing. New and changed files are written atomically together, then
 * deleted files removed; if anything fails, every touched path is restored (or removed again)
 * and folders created for new files are removed. Returns the real paths that changed, for
 * `session.filesChanged`.
 */
export async function commitFullEdit(plan: FullEditPlan): Promise<string[]> {
  const writes = plan.files.filter((f) => f.after !== null && f.after !== f.before);
  const deletes = plan.files.filter((f) => f.after === null && f.before !== null);
  const backups = new Map<string, { bytes: Uint8Array; mode: number | null } | null>();
  for (const f of [...writes, ...deletes]) {
    try {
      const [bytes, info] = await Promise.all([Deno.readFile(f.real), Deno.stat(f.real)]);
      backups.set(f.real, { bytes, mode: info.mode });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      backups.set(f.real, null);
    }
  }
  const folders = await missingFolders(writes.filter((f) => f.before === null).map((f) => f.real));
  const made: string[] = [];
  let written = false;
  try {
    for (const dir of folders) {
      await Deno.mkdir(dir);
      made.push(dir);
    }
    await writeAllOrNothing(
      writes.map((f) => ({ path: f.real, text: f.after!, format: f.format })),
    );
    written = true;
    for (const f of deletes) await Deno.remove(f.real);
  } catch (error) {
    if (written) {
      for (const [path, backup] of backups) {
        if (backup === null) await Deno.remove(path).catch(() => {});
        else await writeFileAtomic(path, backup.bytes, backup.mode).catch(() => {});
      }
    }
    for (const dir of made.reverse()) await Deno.remove(dir).catch(() => {});
    throw error;
  }
  return [...writes, ...deletes].map((f) => f.real);
}
