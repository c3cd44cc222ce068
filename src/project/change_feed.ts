/**
 * What changed on disk below a project root, from a file watcher, so that a warm query can take
 * a file it verified earlier as unchanged without a `stat` of its own (a reference answer names
 * the containing symbols of a hundred files, each a stat of ~10 µs plus the garbage of its
 * answer).
 *
 * Every watcher event gets a sequence number; per path the number of its last event is kept. A
 * consumer notes the current number ({@linkcode ChangeFeed.stamp}) before it reads a file. The
 * file is unchanged since then when neither it nor a folder above it had an event after that
 * number (a folder renamed or removed reports itself, not each file below it).
 *
 * Events arrive late: {@linkcode ChangeFeed.settle} waits for the project watcher's barrier
 * (project_watch.ts), so every change made before the call has been counted when it resolves.
 * Only its answer may vouch for a file; without one (no watcher, an overflow of the kernel's
 * queue, a slow event) callers check the disk as before.
 *
 * Not trusted, ever: a path that was not the real path of a regular file when it was read (a link
 * may lead out of the watched tree) — callers check that with {@linkcode ChangeFeed.watchable}.
 *
 * A question's plan kept while the project is quiet ({@linkcode Settled.quietSince}: no event
 * below the root since a stamp, Sextant's own caches in `.sextant/cache` aside) needs no stat of the
 * files, folders and absent paths it was made from, when each of them is
 * {@linkcode ChangeFeed.vouchable}: a warm question on an unchanged project then checks nothing
 * on disk.
 * @module
 */
import { dirname } from "node:path";
import { ProjectWatch, type WatchEvent } from "./project_watch.ts";

/** How long a barrier waits for the marker's event before giving up (ms). */
const SETTLE_TIMEOUT_MS = 250;
/** Paths with a remembered last event at most; beyond this every stamp so far is void. */
const MAX_PATHS = 20_000;

/** A completed barrier: the feed's word on files, valid for the query that asked for it. */
export interface Settled {
  /** Whether `relPath` had no event (nor a folder above it) after `stamp`. */
  unchanged(relPath: string, stamp: number): boolean;
  /**
   * Whether nothing below the root had an event after `stamp`, Sextant's own caches aside (they
   * change as questions are answered: the index's store, the symbol cache, the barrier's marker).
   */
  quietSince(stamp: number): boolean;
}

/** Sextant's own caches below a project root: their events say nothing of the project. */
const OWN_FOLDER = ".sextant/cache";

function isOwnPath(relPath: string): boolean {
  return relPath === OWN_FOLDER || relPath.startsWith(`${OWN_FOLDER}/`);
}

export class ChangeFeed {
  readonly #watch: ProjectWatch;
  readonly #ownWatch: boolean;
  readonly #unsubscribe: () => void;
  #disposed = false;
  /** Stamps at or before this are void (an overflow, a forgotten path list). */
  #voidThrough = -1;
  readonly #last = new Map<string, number>();
  /** The sequence number of the last event of a path outside Sextant's own caches. */
  #lastOutside = -1;

  /**
   * Count the events of `watch`, the project's shared watcher (or, given a root, a watcher of
   * the feed's own). The watcher starts on the first {@linkcode settle}, if nobody started it.
   */
  constructor(watch: ProjectWatch | string) {
    this.#ownWatch = typeof watch === "string";
    this.#watch = typeof watch === "string" ? new ProjectWatch(watch) : watch;
    this.#unsubscribe = this.#watch.subscribe({
      event: (event) => this.#noticed(event),
      overflow: (seq) => this.#voidAll(seq),
    });
  }

  /** The current sequence number, to note before reading a file (-1 when not watching). */
  stamp(): number {
    return this.#watch.watching && !this.#disposed ? this.#watch.seq : -1;
  }

  /**
   * Whether a file may be vouched for by events at all: its path is its real path (no link on
   * the way) and it is a regular file. One `realpath` per content a caller reads.
   */
  watchable(abs: string): boolean {
    try {
      return Deno.realPathSync(abs) === abs && Deno.lstatSync(abs).isFile;
    } catch {
      return false;
    }
  }

  /**
   * Whether {@linkcode Settled.quietSince} may vouch for `abs`, a file, a folder or a path that
   * does not exist (yet): it is below the root and outside Sextant's own caches, with no link on
   * the way (its real path, or that of its nearest existing folder, is itself), and a file has no
   * other hard link (a write through another name reports no event of its own). A `realpath`
   * and an `lstat` per path: for a plan made once and kept, not per question.
   */
  vouchable(abs: string): boolean {
    const root = this.#watch.root;
    if (!abs.startsWith(`${root}/`) || isOwnPath(abs.slice(root.length + 1))) return false;
    if (abs.split("/").includes("..")) return false;
    for (let path = abs; path.length > root.length; path = dirname(path)) {
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(path);
      } catch {
        continue; // absent: its creation is an event of a folder below
      }
      try {
        if (Deno.realPathSync(path) !== path) return false;
      } catch {
        return false;
      }
      return !info.isFile || info.nlink === 1;
    }
    return true;
  }

  /**
   * Wait until every change made before this call has been counted; null when that cannot be
   * known (no watcher, or its event did not come in time): then nothing is vouched for. The
   * first call starts the watcher and answers null at once (nothing was read under it yet): a
   * cold query does not wait for the watches of a large tree. `since` (a `performance.now()` of
   * the past, when the question began): a barrier made after it serves.
   */
  async settle(since?: number): Promise<Settled | null> {
    if (this.#disposed) return null;
    if (!this.#watch.started) {
      this.#watch.startSoon();
      return null;
    }
    if (!(await this.#watch.barrier(SETTLE_TIMEOUT_MS, since)) || this.#disposed) return null;
    const voidThrough = this.#voidThrough;
    return {
      unchanged: (relPath, stamp) => {
        if (
          this.#disposed || !this.#watch.watching || stamp < 0 || stamp <= voidThrough ||
          stamp <= this.#voidThrough
        ) {
          return false;
        }
        // The path and every folder above it.
        for (let path = relPath;;) {
          if ((this.#last.get(path) ?? -1) > stamp) return false;
          const slash = path.lastIndexOf("/");
          if (slash === -1) break;
          path = path.slice(0, slash);
        }
        return true;
      },
      quietSince: (stamp) =>
        !this.#disposed && this.#watch.watching && stamp >= 0 && stamp > voidThrough &&
        stamp > this.#voidThrough && this.#lastOutside <= stamp,
    };
  }

  #noticed(event: WatchEvent): void {
    // An event of no known kind: anything may have changed.
    if (event.kind === "other") this.#voidAll(event.seq);
    for (const rel of event.rels) {
      if (rel.startsWith("..")) continue;
      if (!isOwnPath(rel)) this.#lastOutside = event.seq;
      if (rel === "") this.#voidThrough = event.seq; // the root itself (moved, removed)
      else this.#last.set(rel, event.seq);
    }
    if (this.#last.size > MAX_PATHS) this.#voidAll(event.seq);
  }

  #voidAll(seq: number): void {
    this.#voidThrough = seq;
    this.#lastOutside = seq;
    this.#last.clear();
  }

  /** Stop counting (and stop the watcher, when it is the feed's own). */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#unsubscribe();
    this.#last.clear();
    if (this.#ownWatch) await this.#watch.dispose();
  }
}
