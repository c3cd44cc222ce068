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

/**
 * The lock file's name for a folder: a digest of its path (FNV-1a, 64 bits; two folders sharing
 * a name would only wait on each other, so a name need not be a secret or collision-proof).
 */
function lockName(folder: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(folder)) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0") + ".lock";
}

/** The tail of each folder's queue of this process's writers. */
const queues = new Map<string, Promise<void>>();

/**
 * Wait until `deadline` for this process's earlier writers of `folder`; returns the release of
 * this turn, or null when it did not come in time (it is then passed on as soon as it comes).
 */
async function takeTurn(folder: string, deadline: number): Promise<(() => void) | null> {
  const previous = queues.get(folder) ?? Promise.resolve();
  let resolveMine!: () => void;
  const mine = new Promise<void>((resolve) => resolveMine = resolve);
  const tail = previous.then(() => mine);
  queues.set(folder, tail);
  const release = () => {
    resolveMine();
    if (queues.get(folder) === tail) queues.delete(folder);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const came = await Promise.race([
    previous.then(() => true),
    new Promise<false>((resolve) =>
      timer = setTimeout(() => resolve(false), deadline - Date.now())
    ),
  ]);
  clearTimeout(timer);
  if (came) return release;
  void previous.then(release);
  return null;
}

/** The error of a write whose folder stayed locked past its wait. */
function stayedLocked(folder: string, waitMs: number): ToolError {
  return new ToolError(
    `The folder '${folder}' stayed locked by another Sextant process or edit for ` +
      `${Math.round(waitMs / 1000)} s; nothing was written. Try again once that edit has ` +
      "finished.",
  );
}

/** Options of {@linkcode withFolderLocks}. */
export interface FolderLockOptions {
  /** How long to wait for each lock (ms); {@linkcode LOCK_WAIT_MS} by default. */
  waitMs?: number;
}

/** Take the exclusive lock of `file` by `deadline`, polling without blocking. */
async function lockBy(
  file: Deno.FsFile,
  folder: string,
  deadline: number,
  waitMs: number,
): Promise<void> {
  let pause = 1;
  // Non-blocking (LOCK_NB): the sync call costs no thread and no wait.
  while (!file.tryLockSync(true)) {
    if (Date.now() >= deadline) throw stayedLocked(folder, waitMs);
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
  const turns: Array<() => void> = [];
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const deadline = Date.now() + waitMs;
  try {
    if (locks !== null) {
      for (const folder of folders) {
        // Writers of this process take turns first, so only one of them polls the file lock.
        const turn = await takeTurn(folder, deadline);
        if (turn === null) throw stayedLocked(folder, waitMs);
        turns.push(turn);
        const file = await Deno.open(join(locks, lockName(folder)), {
          read: true,
          write: true,
          create: true,
          mode: 0o600,
        });
        held.push(file);
        await lockBy(file, folder, deadline, waitMs);
      }
    }
    return await fn();
  } finally {
    for (const file of held) {
      // Unlocked first: Deno may close the file a moment after close() returns, and the next
      // writer's attempt would find the lock still taken and wait for nothing.
      try {
        file.unlockSync();
      } catch { /* closed */ }
      try {
        file.close();
      } catch {
        // already closed
      }
    }
    for (const release of turns) release();
  }
}
