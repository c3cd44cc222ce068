/** Counting the inotify watches of this process (Linux), to check what a watcher holds. */

/**
 * Inotify watches this process holds (Linux: one per watched folder, over every instance). Deno
 * keeps one inotify instance for the process and shares a folder's watch among its watchers, so
 * the watches, not the instances, show what a watcher holds.
 */
export function inotifyWatches(): number {
  let count = 0;
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${entry.name}`) !== "anon_inode:inotify") continue;
      const info = Deno.readTextFileSync(`/proc/self/fdinfo/${entry.name}`);
      count += info.split("\n").filter((line) => line.startsWith("inotify wd:")).length;
    } catch { /* the fd of the listing itself, closed by now */ }
  }
  return count;
}

/** The watches once a closed watcher's are gone (up to 2 s: Deno drops them in the background). */
export async function inotifyWatchesSettled(expected: number): Promise<number> {
  let count = inotifyWatches();
  for (let i = 0; i < 200 && count !== expected; i++) {
    await new Promise((r) => setTimeout(r, 10));
    count = inotifyWatches();
  }
  return count;
}
