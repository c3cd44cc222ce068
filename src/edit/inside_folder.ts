/**
 * File operations that stay in a folder even while another process swaps a folder on its path
 * for a symbolic link: each step that could land elsewhere runs in the folder itself, by `sh`
 * (edit/folder_swap.ts). Where `sh` cannot be started, each path is checked, used, and then
 * checked again where it really landed: a step that a swap sent elsewhere is undone there, by its
 * real path, and refused; a swap and its undoing between two steps can defeat that.
 *
 * Memories are written, renamed and deleted this way, and an edit's deletions of project files.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { tempPathFor } from "./text_file.ts";
import {
  createEmptyFiles,
  createInFolder,
  folderSwapped,
  realOrNull,
  runInFolder,
} from "./folder_swap.ts";

/** `folder` must be a real path (no symbolic link in it) that still exists. */
function assertReal(folder: string): void {
  const real = realOrNull(folder);
  if (real !== folder) throw folderSwapped(folder, real === null ? null : real);
}

function bareName(name: string): string {
  if (name !== basename(name) || name === "" || name === "." || name === "..") {
    throw new TypeError(`Expected a file name without folders; got '${name}'.`);
  }
  return name;
}

/** A fresh temporary name in `folder` for `name` (swept if this process dies holding it). */
function temporaryName(folder: string, name: string): string {
  return basename(tempPathFor(join(folder, name)));
}

/**
 * Write `data` to `folder/name` atomically (a temporary file created exclusively, then a rename);
 * `folder` is a real path. `mode` is applied when given.
 */
export async function writeFileInFolder(
  folder: string,
  name: string,
  data: Uint8Array,
  mode: number | null = null,
): Promise<void> {
  bareName(name);
  assertReal(folder);
  const temp = temporaryName(folder, name);
  if (!(await createEmptyFiles([join(folder, temp)]))) {
    writeCheckingEachStep(folder, name, temp, data, mode);
    return;
  }
  // Created in the folder itself; on the other side of a swap, the name does not exist and each
  // step below fails there without touching anything.
  try {
    Deno.writeFileSync(join(folder, temp), data, { create: false });
    if (mode !== null) Deno.chmodSync(join(folder, temp), mode & 0o7777);
    assertReal(folder);
    Deno.renameSync(join(folder, temp), join(folder, name));
  } catch (error) {
    await runInFolder(folder, 'rm -f -- "$2"', [temp]).catch(() => {});
    throw error;
  }
}

/** {@linkcode writeFileInFolder} where `sh` cannot be started. */
function writeCheckingEachStep(
  folder: string,
  name: string,
  temp: string,
  data: Uint8Array,
  mode: number | null,
): void {
  const landed = createInFolder(folder, temp, data, mode ?? 0o644);
  try {
    if (mode !== null && Deno.build.os !== "windows") Deno.chmodSync(landed, mode & 0o7777);
    assertReal(folder);
    Deno.renameSync(join(folder, temp), join(folder, name));
  } catch (error) {
    try {
      Deno.removeSync(landed);
    } catch { /* renamed, or gone */ }
    throw error;
  }
}

/** Remove the file `folder/name` (never a folder); `folder` is a real path. */
export async function removeFileInFolder(folder: string, name: string): Promise<void> {
  bareName(name);
  assertReal(folder);
  const removed = await runInFolder(
    folder,
    '[ -d "$2" ] && [ ! -L "$2" ] && { echo "\'$2\' is a folder" >&2; exit 1; }\nrm -- "$2"',
    [name],
  );
  if (removed) return;
  const doomed = join(folder, temporaryName(folder, name));
  Deno.renameSync(join(folder, name), doomed);
  const landed = realOrNull(doomed);
  if (landed === null || dirname(landed) !== folder) {
    // The rename happened on the other side of a link: put that file back as it was.
    if (landed !== null) Deno.renameSync(landed, join(dirname(landed), name));
    throw folderSwapped(folder, landed === null ? null : dirname(landed));
  }
  // By its real path; swapped now, the temporary name is not found there and nothing happens.
  Deno.removeSync(landed);
}

/** Create the folder `parent/name` unless it exists; `parent` is a real path. */
export async function makeFolderIn(parent: string, name: string): Promise<void> {
  bareName(name);
  assertReal(parent);
  const made = await runInFolder(
    parent,
    'mkdir -- "$2" 2>/dev/null || { [ -d "$2" ] && [ ! -L "$2" ]; } || ' +
      "{ echo \"cannot create the folder '$2'\" >&2; exit 1; }",
    [name],
  );
  if (made) return;
  const path = join(parent, name);
  let created = false;
  try {
    Deno.mkdirSync(path);
    created = true;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const landed = realOrNull(path);
  if (landed === null || dirname(landed) !== parent) {
    if (created && landed !== null) Deno.removeSync(landed);
    throw folderSwapped(parent, landed === null ? null : dirname(landed));
  }
}
