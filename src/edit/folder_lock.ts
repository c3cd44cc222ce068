/**
 * Locks that hold across processes: a Sextant started with `--standalone` and the shared
 * service may edit the same files, and each must see the other's write before it reads. An
 * exclusive `flock` on the folder of each file does it; the file itself cannot carry the lock,
 * since every write replaces it (a new inode) by a rename. The lock ends with the process.
 * @module
 */
import { dirname } from "node:path";

/** The nearest folder of `path` that exists (a new file's folder may not yet). */
async function existingFolder(path: string): Promise<string> {
  let dir = dirname(path);
  for (;;) {
    try {
      if ((await Deno.stat(dir)).isDirectory) return dir;
    } catch {
      // not there yet: its parent then
    }
    const up = dirname(dir);
    if (up === dir) return dir;
    dir = up;
  }
}

/**
 * Run `fn` holding an exclusive lock on the folder of every path in `paths` (taken in sorted
 * order, so two writers never wait on each other in a cycle). Where folders cannot be locked
 * (Windows cannot open one) `fn` runs with the locks it could take.
 */
export async function withFolderLocks<T>(
  paths: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  const folders = [...new Set(await Promise.all(paths.map(existingFolder)))].sort();
  const held: Deno.FsFile[] = [];
  try {
    for (const folder of folders) {
      let file: Deno.FsFile;
      try {
        file = await Deno.open(folder, { read: true });
      } catch {
        continue;
      }
      held.push(file);
      await file.lock(true);
    }
    return await fn();
  } finally {
    for (const file of held) {
      try {
        file.close();
      } catch {
        // already closed
      }
    }
  }
}
