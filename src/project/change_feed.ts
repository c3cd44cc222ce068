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
 * Events arrive late: a write is in the kernel's queue when it returns, but reaches this process
 * a moment later. {@linkcode ChangeFeed.settle} is the barrier: it touches a marker file and waits
 * for the marker's event (a watcher's events come in order), so every change made before the call
 * has been counted when it resolves. Only its answer may vouch for a file; without one (no
 * watcher, an overflow of the kernel's queue, a slow event) callers check the disk as before.
 *
 * Not trusted, ever: a path that was not the real path of a regular file when it was read (a link
 * may lead out of the watched tree) — callers check that with {@linkcode ChangeFeed.watchable}.
 * @module
 */
import { join, relative } from "node:path";
import { log } from "../log.ts";

/** How long a barrier waits for the marker's event before giving up (ms). */
const SETTLE_TIMEOUT_MS = 250;
/** Paths with a remembered last event at most; beyond this every stamp so far is void. */
const MAX_PATHS = 20_000;

/** A completed barrier: the feed's word on files, valid for the query that asked for it. */
export interface Settled {
  /** Whether `relPath` had no event (nor a folder above it) after `stamp`. */
  unchanged(relPath: string, stamp: number): boolean;
}

export class ChangeFeed {
  readonly #root: string;
  readonly #marker: string;
  #watcher: Deno.FsWatcher | null = null;
  #started = false;
  #dead = false;
  #seq = 0;
  /** Stamps at or before this are void (an overflow, a forgotten path list). */
  #voidThrough = -1;
  readonly #last = new Map<string, number>();
  readonly #waiting = new Set<() => void>();
  #touches = 0;
  #chain: Promise<unknown> = Promise.resolve();

  /** `root`: the project's real path; the marker lives in `cacheFolder` below it. */
  constructor(root: string, cacheFolder = join(root, ".sextant", "cache")) {
    this.#root = root;
    this.#marker = join(cacheFolder, `change-feed-${Deno.pid}`);
  }

  /** The current sequence number, to note before reading a file (-1 when not watching). */
  stamp(): number {
    return this.#watcher !== null && !this.#dead ? this.#seq : -1;
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
   * Wait until every change made before this call has been counted; null when that cannot be
   * known (no watcher, or its event did not come in time): then nothing is vouched for. The
   * first call starts the watcher and answers null at once (nothing was read under it yet): a
   * cold query does not wait for the watches of a large tree.
   */
  async settle(): Promise<Settled | null> {
    if (this.#dead) return null;
    if (!this.#started) {
      this.#started = true;
      // After the caller's own work is under way (the watches of a large tree take a while).
      const timer = setTimeout(() => this.#start(), 0);
      Deno.unrefTimer(timer);
      return null;
    }
    if (this.#watcher === null) return null; // still starting
    // One barrier at a time: a marker event then answers the touch of the barrier waiting for it,
    // never an earlier one (whose changes may be queued behind it).
    const run = this.#chain.then(() => this.#barrier());
    this.#chain = run.catch(() => {});
    return await run;
  }

  async #barrier(): Promise<Settled | null> {
    if (this.#dead) return null;
    const seen = new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiting.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(done);
        resolve(false);
      }, SETTLE_TIMEOUT_MS);
      this.#waiting.add(done);
    });
    try {
      // A timestamp change is an event of the marker's own: cheaper than creating a file.
      const at = ++this.#touches;
      Deno.utimeSync(this.#marker, at, at);
    } catch (error) {
      for (const waiter of [...this.#waiting]) waiter();
      log.debug(`change feed of ${this.#root}: the marker cannot be touched: ${String(error)}`);
      this.#stop();
      return null;
    }
    if (!(await seen)) {
      // Its event may still come and would then answer a later barrier too early: no more
      // barriers (files are stat'ed again, as without a feed).
      log.debug(`change feed of ${this.#root}: the marker's event is late; stopped`);
      this.#stop();
      return null;
    }
    if (this.#dead) return null;
    const voidThrough = this.#voidThrough;
    return {
      unchanged: (relPath, stamp) => {
        if (this.#dead || stamp < 0 || stamp <= voidThrough || stamp <= this.#voidThrough) {
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
    };
  }

  #start(): void {
    if (this.#dead) return;
    try {
      Deno.mkdirSync(join(this.#marker, ".."), { recursive: true });
      Deno.writeFileSync(this.#marker, new Uint8Array());
      this.#watcher = Deno.watchFs(this.#root, { recursive: true });
    } catch (error) {
      log.debug(`change feed of ${this.#root} not started: ${String(error)}`);
      this.#stop();
      return;
    }
    void this.#loop(this.#watcher);
  }

  async #loop(watcher: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of watcher) {
        // Reads (and the close after a write, which a modify event precedes) change nothing.
        if (event.kind === "access") continue;
        const seq = ++this.#seq;
        if (event.flag === "rescan" || event.kind === "other") {
          // The kernel's queue overflowed, or an event of no known kind: anything may have
          // changed.
          this.#voidThrough = seq;
          this.#last.clear();
        }
        for (const path of event.paths) {
          if (path === this.#marker) {
            for (const waiter of [...this.#waiting]) waiter();
            continue;
          }
          const rel = relative(this.#root, path).split("\\").join("/");
          if (rel.startsWith("..")) continue;
          if (rel === "") this.#voidThrough = seq; // the root itself (moved, removed)
          else this.#last.set(rel, seq);
        }
        if (this.#last.size > MAX_PATHS) {
          this.#voidThrough = seq;
          this.#last.clear();
        }
      }
    } catch (error) {
      log.debug(`change feed of ${this.#root} ended: ${String(error)}`);
    }
    this.#stop();
  }

  #stop(): void {
    this.#dead = true;
    try {
      this.#watcher?.close();
    } catch { /* closed already */ }
    this.#watcher = null;
  }

  /** Stop watching and remove the marker. */
  dispose(): void {
    this.#stop();
    for (const waiter of [...this.#waiting]) waiter();
    try {
      Deno.removeSync(this.#marker);
    } catch { /* never made, or gone */ }
  }
}
