/**
 * File operations that stay in a folder even while another process swaps a folder on its path
 * for a symbolic link. Deno has no operation relative to an open folder (`openat`), so each path
 * is checked, used, and then checked again where it really landed: a step that a swap sent
 * elsewhere is undone there, by its real path (which no link redirects), and refused. Names that
 * only this process uses (temporary names) make the other steps fail harmlessly when swapped: a
 * name that does not exist on the other side cannot touch anything there.
 *
 * Memories are written, renamed and deleted this way, and an edit's deletions of project files;
 * a deletion is a rename to a temporary name, checked, then the removal of that name.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../errors.ts";
import { tempPathFor } from "./text_file.ts";

function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

function swapped(folder: string, elsewhere: string | null): ToolError {
  return new ToolError(
    `The folder '${folder}' changed during the operation (a part of its path became a symbolic ` +
      `link${elsewhere ? ` to '${elsewhere}'` : ""}); it was refused and nothing was changed.`,
  );
}

/** `folder` must be a real path (no symbolic link in it) that still exists. */
function assertReal(folder: string): void {
  const real = realOrNull(folder);
  if (real !== folder) throw swapped(folder, real === null ? null : real);
}

function bareName(name: string): string {
  if (name !== basename(name) || name === "" || name === "." || name === "..") {
    throw new TypeError(`Expected a file name without folders; got '${name}'.`);
  }
  return name;
}

/** A fresh temporary path in `folder` for `name` (swept if this process dies holding it). */
function temporary(folder: string, name: string): string {
  return tempPathFor(join(folder, name));
}

/**
 * Write `data` to `folder/name` atomically (a temporary file created exclusively, then a rename);
 * `folder` is a real path. `mode` is applied when given.
 */
export function writeFileInFolder(
  folder: string,
  name: string,
  data: Uint8Array,
  mode: number | null = null,
): void {
  const target = join(folder, bareName(name));
  assertReal(folder);
  const temp = temporary(folder, name);
  Deno.writeFileSync(temp, data, { createNew: true, mode: mode ?? 0o644 });
  const landed = realOrNull(temp);
  if (landed === null || dirname(landed) !== folder) {
    if (landed !== null) Deno.removeSync(landed);
    throw swapped(folder, landed === null ? null : dirname(landed));
  }
  try {
    if (mode !== null && Deno.build.os !== "windows") Deno.chmodSync(landed, mode & 0o7777);
    assertReal(folder);
    // Swapped now, the temporary name is not found on the other side: nothing happens there.
    Deno.renameSync(temp, target);
  } catch (error) {
    try {
      Deno.removeSync(landed);
    } catch { /* renamed, or gone */ }
    throw error;
  }
}

/** Remove the file `folder/name`; `folder` is a real path. */
export function removeFileInFolder(folder: string, name: string): void {
  const target = join(folder, bareName(name));
  assertReal(folder);
  const doomed = temporary(folder, name);
  Deno.renameSync(target, doomed);
  const landed = realOrNull(doomed);
  if (landed === null || dirname(landed) !== folder) {
    // The rename happened on the other side of a link: put that file back as it was.
    if (landed !== null) Deno.renameSync(landed, join(dirname(landed), name));
    throw swapped(folder, landed === null ? null : dirname(landed));
  }
  // By its real path; swapped now, the temporary name is not found there and nothing happens.
  Deno.removeSync(landed);
}

/** Create the folder `parent/name` unless it exists; `parent` is a real path. */
export function makeFolderIn(parent: string, name: string): void {
  const path = join(parent, bareName(name));
  assertReal(parent);
  let made = false;
  try {
    Deno.mkdirSync(path);
    made = true;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const landed = realOrNull(path);
  if (landed === null || dirname(landed) !== parent) {
    if (made && landed !== null) Deno.removeSync(landed);
    throw swapped(parent, landed === null ? null : dirname(landed));
  }
}
