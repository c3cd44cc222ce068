/**
 * The paths below a project root that changed since the document sync last looked, from the
 * project's watcher (project_watch.ts), so that a warm query on an unchanged project checks no
 * file and no folder against disk (documents.ts): on hono's 221 folders and 42 open documents,
 * that check was most of the engine's own time per request.
 *
 * Disk stays the truth (engine rule 2). Events arrive late, so {@linkcode NoticedPaths.take}
 * first waits for the watcher's barrier: every change made before the call has then been
 * reported. Whenever that cannot be known the answer is null and the caller checks everything
 * on disk, as without a watcher:
 * - before the watcher runs, and until a full check has begun while it ran;
 * - when events were lost (the kernel's queue overflowed), an event of unknown kind came, the
 *   root itself changed, or too many paths piled up;
 * - when the barrier did not answer in time, or the watcher ended.
 *
 * Paths in always-ignored folders (`node_modules`, `.git`, `.sextant`, ...) are not collected:
 * their churn (an install, the caches) would fill the set. Documents there are checked on disk
 * by the caller ({@linkcode isNoticed}), as are documents whose path is not their real path or
 * that have other hard links: a write through another name reports no event of theirs.
 * @module
 */
import { ALWAYS_IGNORED_DIRS } from "../project/ignore.ts";
import type { ProjectWatch, WatchEvent } from "../project/project_watch.ts";

/** How long a sync waits for the barrier before it checks the disk instead (ms). */
const BARRIER_MS = 250;
/** Paths collected at most between two syncs; beyond this the next sync checks everything. */
const MAX_PATHS = 10_000;

/** See the module documentation. */
export class NoticedPaths {
  readonly #watch: ProjectWatch;
  readonly #unsubscribe: () => void;
  #paths = new Set<string>();
  /** Whether the paths collected may be incomplete (a full check is due). */
  #unknown = true;
  #disposed = false;

  constructor(watch: ProjectWatch) {
    this.#watch = watch;
    this.#unsubscribe = watch.subscribe({
      event: (event) => this.#noticed(event),
      overflow: () => this.#void(),
      ended: () => this.#void(),
    });
  }

  /**
   * The paths (project-relative) with an event since the last {@linkcode take} or
   * {@linkcode fullCheckBegins}, each change made before this call (or before `since`, a
   * `performance.now()` of the past: when the query was asked) among them; null when that
   * cannot be known: then the caller checks everything and calls {@linkcode fullCheckBegins}
   * first. The set returned is the caller's; collecting starts afresh.
   */
  async take(since?: number): Promise<ReadonlySet<string> | null> {
    if (this.#disposed) return null;
    if (!this.#watch.started) {
      // Started after the caller's own work: a cold query does not wait for the watches.
      this.#watch.startSoon();
      return null;
    }
    if (this.#unknown || !this.#watch.watching) return null;
    if (!(await this.#watch.barrier(BARRIER_MS, since))) return null;
    // Events lost while waiting: the barrier vouches for nothing.
    if (this.#unknown || this.#disposed) return null;
    const taken = this.#paths;
    this.#paths = new Set();
    return taken;
  }

  /**
   * Whether {@linkcode take} for the changes made before `since` would share a barrier already
   * made or under way (rather than touch the marker and wait for its event).
   */
  underway(since: number): boolean {
    return !this.#disposed && !this.#unknown && this.#watch.barrierUnderway(since);
  }

  /**
   * The caller is about to compare everything with disk: from now on every change is collected,
   * if the watcher runs (else the next {@linkcode take} answers null again).
   */
  fullCheckBegins(): void {
    this.#paths = new Set();
    this.#unknown = this.#disposed || !this.#watch.watching;
  }

  /** Stop collecting; every later {@linkcode take} answers null. */
  dispose(): void {
    this.#disposed = true;
    this.#unsubscribe();
    this.#void();
  }

  #noticed(event: WatchEvent): void {
    if (this.#unknown) return;
    if (event.kind === "other") return this.#void();
    for (const rel of event.rels) {
      if (rel.startsWith("..")) continue;
      if (rel === "") return this.#void(); // the root itself moved or was removed
      if (!isNoticed(rel)) continue;
      this.#paths.add(rel);
    }
    if (this.#paths.size > MAX_PATHS) this.#void();
  }

  #void(): void {
    this.#unknown = true;
    this.#paths = new Set();
  }
}

/** Whether events of this project-relative path are collected (it is in no ignored folder). */
export function isNoticed(relPath: string): boolean {
  let start = 0;
  for (;;) {
    const slash = relPath.indexOf("/", start);
    const part = relPath.slice(start, slash === -1 ? undefined : slash);
    if (ALWAYS_IGNORED_DIRS.has(part)) return false;
    if (slash === -1) return true;
    start = slash + 1;
  }
}

/**
 * Whether `relPath` or a folder above it is among `paths` (a folder renamed or removed reports
 * itself, not each file below it).
 */
export function touches(paths: ReadonlySet<string>, relPath: string): boolean {
  if (paths.size === 0) return false;
  for (let path = relPath;;) {
    if (paths.has(path)) return true;
    const slash = path.lastIndexOf("/");
    if (slash === -1) return false;
    path = path.slice(0, slash);
  }
}
