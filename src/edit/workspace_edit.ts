/**
 * Applying an LSP `WorkspaceEdit` (rename, code actions, formatting) to project files.
 * {@linkcode planWorkspaceEdit} plays the edit, in order, on virtual copies of the files it
 * touches: text edits (`changes`, or the TextDocumentEdits of `documentChanges`) and file
 * operations (`CreateFile`, `RenameFile`, `DeleteFile`). Every path goes through the project's
 * sandbox and nothing is written; the plan's `files` are then written all or nothing with
 * `commitFileChanges` (./all_or_nothing.ts), which tools reach through their one write path.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../errors.ts";
import type { TextEdit, WorkspaceEdit } from "../deps.ts";
import { LineIndex, lineStarts, offsetAt } from "./line_index.ts";
import { replaceSpans, SpanConflict } from "./text_spans.ts";
import type { FileMove } from "./file_move.ts";
import { newFileFormat, readTextFile, type TextFormat } from "./text_file.ts";

/**
 * What planning an edit needs of a project (a `Project` is one): a path resolved in its sandbox,
 * and the encoding of its files. The editing primitives sit below projects, so they take this
 * rather than the project itself.
 */
export interface EditTarget {
  resolve(
    path: string,
    options: { mustExist: boolean; requireNotIgnored: boolean },
  ): { absolute: string; relative: string; real: string; exists: boolean };
  readonly settings: { readonly encoding: string };
}

/** Edits for one document, applied together to the text they were computed for. */
export interface EditBatch {
  uri: string;
  edits: TextEdit[];
}

/** One step of a WorkspaceEdit, in application order. */
export type EditStep =
  | { kind: "edit"; uri: string; edits: TextEdit[] }
  | { kind: "create"; uri: string; options: ResourceOptions }
  | { kind: "rename"; oldUri: string; newUri: string; options: ResourceOptions }
  | { kind: "delete"; uri: string; options: ResourceOptions };

/** The options of a file operation, as LSP defines them. */
export interface ResourceOptions {
  overwrite?: boolean;
  ignoreIfExists?: boolean;
  ignoreIfNotExists?: boolean;
  recursive?: boolean;
}

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
  /** Set when the file or folder was moved there (project-relative), after its edits. */
  movedTo?: string;
}

/** A planned WorkspaceEdit. */
export interface WorkspaceEditPlan {
  /** Paths whose content or existence changes, sorted. */
  files: FileOutcome[];
  /** Every text replacement, in application order. */
  changes: TextChange[];
  /** File operations in order, as short text ("create a.ts", "rename a.ts -> b.ts", ...). */
  operations: string[];
  /**
   * Renames made as real moves, after the text changes of `files` (a rename that no later step
   * touches: always for a folder, and for a file whose new path nothing edits afterwards).
   */
  moves: PlannedMove[];
}

/** A rename carried out as a move of the real file or folder. */
export interface PlannedMove extends FileMove {
  fromRel: string;
  toRel: string;
  folder: boolean;
}

/** Options of {@linkcode planWorkspaceEdit}. */
export interface PlanOptions {
  /**
   * Maps a `file://` URI to a project-relative path; null for a URI outside the project.
   */
  relPathOf: (uri: string) => string | null;
  /** Accept file operations (default true); false refuses an edit that has any. */
  fileOperations?: boolean;
}

function isTextEdit(value: unknown): value is TextEdit {
  const v = value as TextEdit | null;
  return typeof v === "object" && v !== null && typeof v.newText === "string" &&
    typeof v.range?.start?.line === "number" && typeof v.range?.end?.line === "number";
}

/**
 * The steps of a WorkspaceEdit in application order: `documentChanges` when present (the spec
 * prefers it), else `changes`. Throws a ToolError for an unknown file operation.
 */
export function editSteps(edit: WorkspaceEdit | null | undefined): EditStep[] {
  if (!edit) return [];
  if (!Array.isArray(edit.documentChanges)) {
    return Object.entries(edit.changes ?? {}).map(([uri, edits]) => ({
      kind: "edit",
      uri,
      edits: (edits ?? []).filter(isTextEdit),
    }));
  }
  const steps: EditStep[] = [];
  for (const change of edit.documentChanges) {
    const c = change as Record<string, unknown>;
    const options = (c.options ?? {}) as ResourceOptions;
    if (c.kind === "create" && typeof c.uri === "string") {
      steps.push({ kind: "create", uri: c.uri, options });
    } else if (
      c.kind === "rename" && typeof c.oldUri === "string" && typeof c.newUri === "string"
    ) {
      steps.push({ kind: "rename", oldUri: c.oldUri, newUri: c.newUri, options });
    } else if (c.kind === "delete" && typeof c.uri === "string") {
      steps.push({ kind: "delete", uri: c.uri, options });
    } else if (typeof c.kind === "string") {
      throw new ToolError(`The edit has an unknown file operation '${c.kind}'. Nothing changed.`);
    } else {
      const doc = c.textDocument as { uri?: string } | undefined;
      if (doc?.uri && Array.isArray(c.edits)) {
        steps.push({
          kind: "edit",
          uri: doc.uri,
          edits: (c.edits as unknown[]).filter(isTextEdit),
        });
      }
    }
  }
  return steps;
}

/**
 * The text batches of a WorkspaceEdit that must not create, rename or delete files, in
 * application order. Throws a ToolError, naming them, when it has file operations.
 */
export function editBatches(edit: WorkspaceEdit | null | undefined): EditBatch[] {
  const batches: EditBatch[] = [];
  const operations: string[] = [];
  for (const step of editSteps(edit)) {
    if (step.kind === "edit") batches.push({ uri: step.uri, edits: step.edits });
    else if (step.kind === "rename") operations.push(`rename ${step.oldUri} -> ${step.newUri}`);
    else operations.push(`${step.kind} ${step.uri}`);
  }
  if (operations.length > 0) {
    throw new ToolError(
      "The language server's edit also creates, renames or deletes files " +
        `(${operations.join(", ")}); Sextant does not apply file operations here. ` +
        "Nothing was changed.",
    );
  }
  return batches;
}

/**
 * Apply text edits computed against `text`. Edits must not overlap (LSP rule); inserts at the
 * same position keep their array order. Throws a ToolError for overlapping edits.
 */
export function applyTextEdits(
  text: string,
  edits: readonly TextEdit[],
  label = "file",
): string {
  const starts = lineStarts(text);
  try {
    return replaceSpans(
      text,
      edits.map((e) => ({
        start: offsetAt(text, starts, e.range.start),
        end: offsetAt(text, starts, e.range.end),
        text: e.newText.replace(/\r\n/g, "\n"),
      })),
    );
  } catch (error) {
    if (!(error instanceof SpanConflict)) throw error;
    throw new ToolError(
      error.kind === "inverted"
        ? `The language server sent an edit with an inverted range for ${label}.`
        : `The language server sent overlapping edits for ${label}; nothing was changed.`,
    );
  }
}

interface VirtualFile {
  relPath: string;
  real: string;
  /** On disk now (null: does not exist). */
  original: string | null;
  /** After the steps so far (null: does not exist). */
  text: string | null;
  format: TextFormat;
  editCount: number;
}

/** Plays a WorkspaceEdit on virtual copies of the files it touches. */
class VirtualTree {
  readonly #files = new Map<string, VirtualFile>();
  readonly #project: EditTarget;
  readonly #relPathOf: (uri: string) => string | null;
  readonly changes: TextChange[] = [];
  readonly operations: string[] = [];
  readonly moves: PlannedMove[] = [];

  constructor(project: EditTarget, relPathOf: (uri: string) => string | null) {
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

  async textEdits(uri: string, edits: readonly TextEdit[]): Promise<void> {
    if (edits.length === 0) return;
    const file = await this.file(uri);
    if (file.text === null) {
      throw new ToolError(
        `The edit changes '${file.relPath}', which does not exist. Nothing was changed.`,
      );
    }
    const text = file.text;
    const starts = lineStarts(text);
    const lines = new LineIndex(text);
    for (const e of edits) {
      const from = offsetAt(text, starts, e.range.start);
      const to = offsetAt(text, starts, e.range.end);
      this.changes.push({
        relPath: file.relPath,
        line: e.range.start.line,
        character: e.range.start.character,
        oldText: text.slice(from, Math.max(from, to)),
        newText: e.newText.replace(/\r\n/g, "\n"),
        lineText: lines.at(e.range.start.line) ?? "",
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

  /**
   * A rename as a real move of the file or folder (its text changes, if any, are written first,
   * at the old path). `final`: no later step touches either path; a folder needs that, a file
   * that is not final is moved by content instead.
   */
  async rename(
    oldUri: string,
    newUri: string,
    options: ResourceOptions,
    final: boolean,
  ): Promise<void> {
    const fromRel = this.#relPathOf(oldUri);
    const toRel = this.#relPathOf(newUri);
    if (fromRel === null || toRel === null || fromRel === "" || toRel === "") {
      throw new ToolError(
        `The edit would change ${fromRel === null ? oldUri : newUri}, which is outside the ` +
          "project. Nothing was changed.",
      );
    }
    const from = this.#project.resolve(fromRel, { mustExist: false, requireNotIgnored: false });
    const folder = from.exists && Deno.statSync(from.real).isDirectory;
    const known = this.#files.get(from.relative);
    if (known?.text === null) {
      throw new ToolError(
        `The edit renames '${from.relative}', which does not exist. Nothing was changed.`,
      );
    }
    if (folder || (final && (from.exists || known !== undefined))) {
      if (!final) {
        throw new ToolError(
          `The edit renames the folder '${from.relative}' and then changes files in it; ` +
            "Sextant does not apply that. Nothing was changed.",
        );
      }
      if (Deno.lstatSync(from.absolute).isSymlink) {
        throw new ToolError(
          `'${from.relative}' is a symbolic link; move what it points to instead. ` +
            "Nothing was changed.",
        );
      }
      const to = this.#project.resolve(toRel, { mustExist: false, requireNotIgnored: false });
      const taken = to.exists || (this.#files.get(to.relative)?.text ?? null) !== null;
      if (taken && !folder && options.overwrite) {
        return await this.#renameByContent(oldUri, newUri, options);
      }
      if (taken) {
        if (options.ignoreIfExists) return;
        throw new ToolError(
          `The edit renames '${from.relative}' to '${to.relative}', which already exists. ` +
            "Nothing was changed.",
        );
      }
      const fromReal = join(Deno.realPathSync(dirname(from.absolute)), basename(from.absolute));
      this.moves.push({
        from: fromReal,
        to: to.real,
        fromRel: from.relative,
        toRel: to.relative,
        folder,
      });
      this.operations.push(`rename ${from.relative} -> ${to.relative}`);
      return;
    }
    await this.#renameByContent(oldUri, newUri, options);
  }

  async #renameByContent(oldUri: string, newUri: string, options: ResourceOptions): Promise<void> {
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
    // The target keeps its own read stamp (none when new): the check is of what is replaced.
    const { read: _, ...moved } = from.format;
    to.format = to.format.read ? { ...moved, read: to.format.read } : moved;
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
 * Throws a ToolError, with nothing changed, for paths outside the sandbox, folders, conflicting
 * operations, overlapping edits, and file operations when `options.fileOperations` is false.
 */
export async function planWorkspaceEdit(
  project: EditTarget,
  edit: WorkspaceEdit | null | undefined,
  options: PlanOptions,
): Promise<WorkspaceEditPlan> {
  const tree = new VirtualTree(project, options.relPathOf);
  const steps: EditStep[] = options.fileOperations === false
    ? editBatches(edit).map((b) => ({ kind: "edit", ...b }))
    : editSteps(edit);
  const paths = steps.map((step) =>
    (step.kind === "rename" ? [step.oldUri, step.newUri] : [step.uri]).map(options.relPathOf)
  );
  for (const [i, step] of steps.entries()) {
    if (step.kind === "edit") await tree.textEdits(step.uri, step.edits);
    else if (step.kind === "create") await tree.create(step.uri, step.options);
    else if (step.kind === "rename") {
      const mine = paths[i]!;
      const final = !paths.slice(i + 1).some((later) =>
        later.some((p) => mine.some((q) => overlaps(p, q)))
      );
      await tree.rename(step.oldUri, step.newUri, step.options, final);
    } else await tree.delete(step.uri, step.options);
  }
  return {
    files: tree.outcomes(),
    changes: tree.changes,
    operations: tree.operations,
    moves: tree.moves,
  };
}

/** Whether two project-relative paths are the same or one lies inside the other. */
function overlaps(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  return a === b || a.startsWith(b + "/") || b.startsWith(a + "/");
}
