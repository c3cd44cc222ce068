/**
 * All-or-nothing writes of several files: every new content is encoded and written to a
 * temporary file first; only then are the temporaries renamed over their targets. If a rename
 * fails, the files already replaced are restored, so a multi-file edit lands whole or not at all.
 * {@linkcode commitFileChanges} adds new files (and their folders) and deletions to that.
 * @module
 */
import { basename, dirname } from "node:path";
import { removeFileInFolder } from "./inside_folder.ts";
import { createEmptyFiles, createInFolder } from "./folder_swap.ts";
import {
  assertRealFolder,
  encodeText,
  keepFinalNewline,
  removeLeftoverTemps,
  removeTempsOfDeadWriters,
  replaceIfUnchanged,
  tempPathFor,
  type TextFormat,
  writeFileAtomic,
  writeTextFile,
} from "./text_file.ts";

export interface PlannedWrite {
  /** Real (symlink-resolved) path of the target. */
  path: string;
  /** New content with `\n` line endings. */
  text: string;
  format: TextFormat;
}

/** Write several files atomically together, or none of them. */
export async function writeAllOrNothing(writes: readonly PlannedWrite[]): Promise<void> {
  if (writes.length === 1) {
    const only = writes[0]!;
    return await writeTextFile(only.path, only.text, only.format, {
      realFolder: true,
      ...(only.format.read ? { unchangedSince: only.format.read } : {}),
    });
  }
  await removeTempsOfDeadWriters();
  // Encoding errors surface here, before any file is touched.
  const encoded = writes.map((w) => encodeText(keepFinalNewline(w.text, w.format), w.format));
  const backups = new Map<string, Uint8Array | null>();
  for (const w of writes) {
    try {
      backups.set(w.path, await Deno.readFile(w.path));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      backups.set(w.path, null);
    }
  }
  // Names only this process uses: removing one that was never created harms nothing.
  const temps = writes.map((w) => tempPathFor(w.path));
  try {
    for (const w of writes) await assertRealFolder(dirname(w.path));
    // Each created in its folder itself, then written by its path (edit/folder_swap.ts).
    const created = await createEmptyFiles(temps);
    for (const [i, w] of writes.entries()) {
      const temp = temps[i]!;
      if (created) await Deno.writeFile(temp, encoded[i]!, { create: false });
      else {
        await assertRealFolder(dirname(w.path));
        createInFolder(dirname(temp), basename(temp), encoded[i]!, w.format.mode ?? 0o644);
      }
      if (w.format.mode !== null && Deno.build.os !== "windows") {
        await Deno.chmod(temp, w.format.mode & 0o7777);
      }
    }
  } catch (error) {
    await Promise.allSettled(temps.map((t) => Deno.remove(t)));
    throw error;
  }
  const replaced: PlannedWrite[] = [];
  try {
    for (const [i, w] of writes.entries()) {
      await assertRealFolder(dirname(w.path));
      if (w.format.read) await replaceIfUnchanged(temps[i]!, w.path, w.format.read);
      else await Deno.rename(temps[i]!, w.path);
      replaced.push(w);
    }
  } catch (error) {
    for (const w of replaced) {
      const original = backups.get(w.path);
      if (original === null || original === undefined) {
        await Deno.remove(w.path).catch(() => {});
      } else {
        await writeFileAtomic(w.path, original, w.format.mode).catch(() => {});
      }
    }
    await Promise.allSettled(temps.slice(replaced.length).map((t) => Deno.remove(t)));
    throw error;
  }
  for (const folder of new Set(writes.map((w) => dirname(w.path)))) {
    await removeLeftoverTemps(folder);
  }
}

/** One file's change: new content, or deletion. */
export interface FileChange {
  /** Real (symlink-resolved) path of the target. */
  real: string;
  /**
   * The content it replaces (`\n` line endings), null when the file does not exist; when given
   * and equal to `after`, the file is left alone. Left out: the file is written regardless.
   */
  before?: string | null;
  /** New content with `\n` line endings; null deletes the file. */
  after: string | null;
  format: TextFormat;
}

/** Folders to create for new files, outermost first; the ones that exist are left out. */
export async function missingFolders(paths: readonly string[]): Promise<string[]> {
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
 * Apply file changes all or nothing. New and changed files are written atomically together
 * (missing parent folders are created), then deleted files removed; if anything fails, every
 * touched path is restored (or removed again) and the folders created are removed. Returns the
 * real paths that changed.
 */
export async function commitFileChanges(changes: readonly FileChange[]): Promise<string[]> {
  const writes = changes.filter((f) => f.after !== null && f.after !== f.before);
  const deletes = changes.filter((f) => f.after === null && f.before !== null);
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
  const folders = await missingFolders(
    writes.filter((f) => typeof f.before !== "string").map((f) => f.real),
  );
  const made: string[] = [];
  let written = false;
  try {
    for (const dir of folders) {
      await assertRealFolder(dirname(dir));
      await Deno.mkdir(dir);
      made.push(dir);
    }
    await writeAllOrNothing(
      writes.map((f) => ({ path: f.real, text: f.after!, format: f.format })),
    );
    written = true;
    // As memories are: a folder swapped for a link meanwhile cannot turn this into a deletion
    // outside the project (inside_folder.ts).
    for (const f of deletes) await removeFileInFolder(dirname(f.real), basename(f.real));
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
