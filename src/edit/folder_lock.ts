/**
 * Locks that hold across processes: a Sextant started with `--standalone` and the shared
 * service may edit the same files, and each must see the other's write before it reads. Each
 * folder a write touches has a lock file in the user's private runtime folder (see
 * runtime_folder.ts), named by a digest of the folder's path, and the writer holds an exclusive
 * `flock` on it. The file being written cannot carry the lock (every write replaces it by a
 * rename), and the folder itself must not: any user who can read a folder could lock it and
 * stall every edit there. A lock ends with its process.
 *
 * Locks are tried without blocking, again and again until {@linkcode LOCK_WAIT_MS}: a waiting
 * writer holds no thread, and one that cannot lock in time fails with an error.
 * @module
 */
import { dirname, join } from "node:path";
import { ToolError } from "../errors.ts";
import { privateSubfolder } from "../runtime_folder.ts";

/** How long a write waits for the lock of a folder before it fails (ms). */
export const LOCK_WAIT_MS = 20_000;

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

/** The lock file's name for a folder: a digest of its path (any length, any characters). */
async function lockName(folder: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(folder));
  return Array.from(new Uint8Array(digest).subarray(0, 16), (b) => b.toString(16).padStart(2, "0"))
    .join("") + ".lock";
}

/** Options of {@linkcode withFolderLocks}. */
export interface FolderLockOptions {
  /** How long to wait for each lock (ms); {@linkcode LOCK_WAIT_MS} by default. */
  waitMs?: number;
}

/** Take the exclusive lock of `file` within `waitMs`, polling without blocking. */
async function lockWithin(file: Deno.FsFile, folder: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pause = 1;
  while (!(await file.tryLock(true))) {
    if (Date.now() >= deadline) {
      throw new ToolError(
        `The folder '${folder}' stayed locked by another Sextant process for ` +
          `${Math.round(waitMs / 1000)} s; nothing was written. Try again once its edit has ` +
          "finished.",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(50, pause * 2);
  }
}

/**
 * Run `fn` holding an exclusive lock for the folder of every path in `paths` (taken in sorted
 * order, so two writers never wait on each other in a cycle). Without a private runtime folder
 * (it is refused as unsafe) `fn` runs with the locks of this process only (tools/shared/write.ts).
 */
export async function withFolderLocks<T>(
  paths: readonly string[],
  fn: () => Promise<T>,
  options: FolderLockOptions = {},
): Promise<T> {
  const folders = [...new Set(await Promise.all(paths.map(existingFolder)))].sort();
  const locks = privateSubfolder("locks");
  const held: Deno.FsFile[] = [];
  try {
    if (locks !== null) {
      for (const folder of folders) {
        const file = await Deno.open(join(locks, await lockName(folder)), {
          read: true,
          write: true,
          create: true,
          mode: 0o600,
        });
        held.push(file);
        await lockWithin(file, folder, options.waitMs ?? LOCK_WAIT_MS);
      }
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
