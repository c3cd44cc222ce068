/**
 * The one recursive file watcher of a project, shared by everyone who needs to hear of changes
 * below its root: the declaration index (its dirty set), the change feed (per-path sequence
 * numbers) and the forwarding of file events to language servers that asked for them. A
 * recursive watcher costs an inotify instance and one watch per folder (node_modules included),
 * and the per-user limits are small: one per project, not one per user.
 *
 * Every event gets a sequence number and goes to each subscriber, which does its own filtering.
 * An overflow of the kernel's queue (`rescan`: events were lost) and the end of the watcher are
 * reported to every subscriber, which then falls back to reading the disk.
 *
 * {@linkcode ProjectWatch.barrier} is the one barrier: events arrive late (a write is in the
 * kernel's queue when it returns, but reaches this process a moment later), so it touches a
 * marker file's timestamp and waits for the marker's event; a watcher's events come in order, so
 * every change made before the call has been delivered when it answers true. A caller that needs
 * only the changes made before some earlier moment (`since`: when its request was asked) shares
 * a touch made after that moment, in flight or done, rather than waiting for one more.
 * @module
 */
import { join, relative } from "node:path";
import { log } from "../log.ts";

/** How long a touch of the marker waits for its event before the barrier gives up (ms). */
export const BARRIER_TIMEOUT_MS = 1000;

/** One event, as delivered to subscribers (access events are not). */
export interface WatchEvent {
  /** Its sequence number: greater than that of every event before it. */
  seq: number;
  kind: Deno.FsEvent["kind"];
  /** The paths, absolute. */
  paths: string[];
  /** The same paths relative to the root, with "/" ("" is the root itself; outside: ".."). */
  rels: string[];
}

/** What a subscriber hears. */
export interface WatchSubscriber {
  /** A change below the root. */
  event?(event: WatchEvent): void;
  /** Events were lost (the kernel's queue overflowed): anything may have changed. */
  overflow?(seq: number): void;
  /** The watcher ended (an error, or dispose): no more events, and no barrier. */
  ended?(): void;
}

/** Makes a recursive watcher: Deno's, or in tests a wrapper of it. */
export type OpenWatcher = (root: string, options: { recursive: boolean }) => Deno.FsWatcher;

/** See the module documentation. */
export class ProjectWatch {
  /** Recursive watchers open in this process now (a test checks there is one per project). */
  static #open = 0;
  /** Numbers the markers: two watches of one root in one process must not share one. */
  static #made = 0;
  readonly root: string;
  readonly #marker: string;
  #watcher: Deno.FsWatcher | null = null;
  #loop: Promise<void> | null = null;
  #started = false;
  #ended = false;
  #markerReady = false;
  #seq = 0;
  readonly #subscribers = new Set<WatchSubscriber>();
  /** The touch waiting for its marker event (one at a time). */
  #waiter: ((seen: boolean) => void) | null = null;
  /** A touch timed out and its event has not come yet: it must not answer a later barrier. */
  #late = false;
  #touches = 0;
  #chain: Promise<unknown> = Promise.resolve();
  /** The next barrier, queued and not touched yet: later callers share it. */
  #queued: Promise<boolean> | null = null;
  /** The touch waiting for its event: when it was made (performance.now()) and its answer. */
  #inFlight: { at: number; seen: Promise<boolean> } | null = null;
  /** When the last touch whose event came was made: every change before it was delivered. */
  #lastSeenAt = -Infinity;

  readonly #openWatcher: OpenWatcher;

  /**
   * `root`: the project's real path; the marker lives in `cacheFolder` below it. `open` makes the
   * recursive watcher (tests wrap Deno's to lose events on purpose).
   */
  constructor(
    root: string,
    cacheFolder = join(root, ".sextant", "cache"),
    open: OpenWatcher = Deno.watchFs,
  ) {
    this.root = root;
    this.#openWatcher = open;
    this.#marker = join(cacheFolder, `watch-marker-${Deno.pid}-${++ProjectWatch.#made}`);
  }

  /** How many recursive watchers this process has open. */
  static get open(): number {
    return ProjectWatch.#open;
  }

  /** Whether start was asked for (it may have failed). */
  get started(): boolean {
    return this.#started;
  }

  /** Whether events are coming: started, and neither failed nor ended. */
  get watching(): boolean {
    return this.#watcher !== null && !this.#ended;
  }

  /** The sequence number of the last event delivered (0 before any). */
  get seq(): number {
    return this.#seq;
  }

  /** Hear of events from now on; the returned function unsubscribes. */
  subscribe(subscriber: WatchSubscriber): () => void {
    this.#subscribers.add(subscriber);
    return () => void this.#subscribers.delete(subscriber);
  }

  /**
   * Start watching (once; the watches of a large tree take a while). False when watching is
   * impossible (or over); the error is logged.
   */
  start(): boolean {
    if (this.#started) return this.watching;
    this.#started = true;
    try {
      Deno.mkdirSync(join(this.#marker, ".."), { recursive: true });
      // Made before the watches, so that its creation is no event.
      Deno.writeFileSync(this.#marker, new Uint8Array());
      this.#markerReady = true;
    } catch (error) {
      log.debug(`watcher of ${this.root}: no barrier (the marker cannot be written): ${error}`);
    }
    let watcher: Deno.FsWatcher;
    try {
      watcher = this.#openWatcher(this.root, { recursive: true });
    } catch (error) {
      log.debug(`watcher of ${this.root} not started: ${String(error)}`);
      this.#end();
      return false;
    }
    this.#watcher = watcher;
    ProjectWatch.#open++;
    this.#loop = this.#run(watcher);
    return true;
  }

  /** Start after the caller's own work is under way (a cold query does not wait for it). */
  startSoon(): void {
    if (this.#started) return;
    const timer = setTimeout(() => this.start(), 0);
    Deno.unrefTimer(timer);
  }

  /**
   * Wait until every change made before this call (or before `since`, a `performance.now()`
   * of the past) has been delivered to the subscribers. False when that cannot be known (not
   * watching, no marker, or its event did not come within `timeoutMs`): then nothing may be
   * concluded from the absence of events.
   */
  barrier(timeoutMs = BARRIER_TIMEOUT_MS, since?: number): Promise<boolean> {
    if (!this.watching || !this.#markerReady || this.#late) return Promise.resolve(false);
    if (since !== undefined && this.#lastSeenAt >= since) return Promise.resolve(true);
    const inFlight = this.#inFlight;
    let touched = since !== undefined && inFlight !== null && inFlight.at >= since
      ? inFlight.seen
      : this.#queued;
    if (touched === null) {
      // One touch at a time, so that a marker event answers the touch waiting for it; callers
      // that come while one is out share the next one (touched after all of them asked).
      touched = this.#chain.then(() => {
        this.#queued = null;
        return this.#touch();
      });
      this.#queued = touched;
      this.#chain = touched.catch(() => {});
    }
    if (timeoutMs >= BARRIER_TIMEOUT_MS) return touched;
    const own = touched;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      own.then((seen) => {
        clearTimeout(timer);
        resolve(seen);
      }, () => resolve(false));
    });
  }

  /**
   * Whether a barrier for the changes made before `since` needs no touch of its own: one made
   * after it was seen, is waiting for its event, or is queued.
   */
  barrierUnderway(since: number): boolean {
    if (!this.watching || !this.#markerReady || this.#late) return false;
    return this.#lastSeenAt >= since || (this.#inFlight?.at ?? -Infinity) >= since ||
      this.#queued !== null;
  }

  async #touch(): Promise<boolean> {
    if (!this.watching || this.#late) return false;
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => finish(false), BARRIER_TIMEOUT_MS);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        if (this.#waiter === finish) this.#waiter = null;
        resolve(ok);
      };
      this.#waiter = finish;
    });
    // Taken before the touch: a change made before this moment is delivered before its event.
    const at = performance.now();
    try {
      // A timestamp change is an event of the marker's own: cheaper than creating a file.
      const stamp = ++this.#touches;
      Deno.utimeSync(this.#marker, stamp, stamp);
    } catch (error) {
      this.#markerReady = false;
      this.#waiter?.(false);
      log.debug(`watcher of ${this.root}: the marker cannot be touched: ${String(error)}`);
      return false;
    }
    const flight = { at, seen: seen.then((ok) => ok && this.watching) };
    this.#inFlight = flight;
    const ok = await seen;
    if (this.#inFlight === flight) this.#inFlight = null;
    if (ok && this.watching) this.#lastSeenAt = Math.max(this.#lastSeenAt, at);
    if (!ok && this.watching) {
      // Its event may still come: until it does, no barrier (it would answer one too early).
      this.#late = true;
      log.debug(`watcher of ${this.root}: the marker's event is late`);
    }
    return ok && this.watching;
  }

  async #run(watcher: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of watcher) {
        // Reads (and the close after a write, which a modify event precedes) change nothing.
        if (event.kind === "access") continue;
        if (event.flag === "rescan") {
          const seq = ++this.#seq;
          // The marker's event may be among those lost.
          if (this.#late) this.#markerReady = false;
          for (const s of [...this.#subscribers]) s.overflow?.(seq);
          continue;
        }
        const paths: string[] = [];
        const rels: string[] = [];
        for (const path of event.paths) {
          if (path === this.#marker) {
            if (this.#waiter) this.#waiter(true);
            else this.#late = false;
            continue;
          }
          paths.push(path);
          rels.push(relative(this.root, path).split("\\").join("/"));
        }
        if (paths.length === 0) continue;
        const delivered: WatchEvent = { seq: ++this.#seq, kind: event.kind, paths, rels };
        for (const s of [...this.#subscribers]) s.event?.(delivered);
      }
    } catch (error) {
      log.debug(`watcher of ${this.root} ended: ${String(error)}`);
    }
    this.#end();
  }

  #end(): void {
    if (this.#watcher !== null) {
      ProjectWatch.#open--;
      try {
        this.#watcher.close();
      } catch { /* closed already */ }
    }
    this.#watcher = null;
    this.#waiter?.(false);
    if (this.#ended) return;
    this.#ended = true;
    for (const s of [...this.#subscribers]) s.ended?.();
  }

  /** Stop watching (for good) and remove the marker. */
  async dispose(): Promise<void> {
    this.#started = true; // a start still scheduled does nothing
    this.#end();
    await this.#loop;
    this.#subscribers.clear();
    if (this.#markerReady) {
      this.#markerReady = false;
      try {
        Deno.removeSync(this.#marker);
      } catch { /* gone */ }
    }
  }
}
