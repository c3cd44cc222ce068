/**
 * The changes the declaration index (declaration_index.ts) has heard of and not taken in yet:
 * the paths the project's watcher reported or Sextant's own edits named, or, when events were
 * lost or the ignore rules changed, the whole tree. The watcher's barrier tells when every change
 * made before a question has been reported.
 * @module
 */
import { ALWAYS_IGNORED_DIRS } from "../../project/ignore.ts";
import { markedFolders } from "../../project/non_project.ts";
import type { Project } from "../../project/project.ts";
import type { ProjectWatch, WatchEvent } from "../../project/project_watch.ts";

/** What to take in: the paths changed, or the whole tree. */
export type Changes = { all: true } | { all: false; paths: string[] };

/** See the module documentation. */
export class NoticedChanges {
  readonly #project: Project;
  readonly #watch: ProjectWatch | null;
  /** Set while the watcher's events are heard. */
  #unsubscribe: (() => void) | null = null;
  readonly #dirty = new Set<string>();
  #all = false;

  /** Changes in `project`, as `watch` reports them (none without it). */
  constructor(project: Project, watch: ProjectWatch | null) {
    this.#project = project;
    this.#watch = watch;
  }

  /** Whether changes wait to be taken in. */
  get pending(): boolean {
    return this.#dirty.size > 0 || this.#all;
  }

  /** Whether the whole tree must be walked again. */
  get all(): boolean {
    return this.#all;
  }

  /** The paths changed so far (the whole tree may be due too: {@linkcode all}). */
  paths(): ReadonlySet<string> {
    return this.#dirty;
  }

  /** Start hearing the watcher's events (once). */
  listen(): boolean {
    const watch = this.#watch;
    if (watch === null || this.#unsubscribe !== null) return true;
    this.#unsubscribe = watch.subscribe({
      event: (event) => this.#noticed(event),
      // Events were lost, or none will come: the next answer walks the tree again.
      overflow: () => this.#all = true,
      ended: () => this.#all = true,
    });
    return watch.start();
  }

  /** Stop hearing the watcher. */
  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /** A path changed by Sextant itself, relative to the project. */
  add(relPath: string): void {
    this.#dirty.add(relPath);
  }

  /**
   * Wait until the watcher has reported every change made before now, or before `since` (a
   * `performance.now()` of the past; a barrier made after it serves), its barrier. False when
   * there is no watcher or it did not answer in time.
   */
  async barrier(since?: number): Promise<boolean> {
    if (this.#watch === null || this.#unsubscribe === null) return false;
    return await this.#watch.barrier(undefined, since);
  }

  /** What changed, forgotten here: the caller takes it in. */
  take(): Changes {
    if (this.#all) {
      this.#all = false;
      this.#dirty.clear();
      return { all: true };
    }
    const paths = [...this.#dirty];
    this.#dirty.clear();
    return { all: false, paths };
  }

  /** From now on, the whole tree is walked again. */
  markAll(): void {
    this.#all = true;
  }

  #noticed(event: WatchEvent): void {
    for (const rel of event.rels) {
      if (!rel || rel.startsWith("..")) continue;
      const parts = rel.split("/");
      if (parts.slice(0, -1).some((p) => ALWAYS_IGNORED_DIRS.has(p))) continue;
      if (ALWAYS_IGNORED_DIRS.has(parts[parts.length - 1]!)) continue;
      if (parts[parts.length - 1] === ".gitignore") this.#all = true;
      this.#dirty.add(rel);
      // A pyvenv.cfg or a package.json may turn a folder into one that is not the project's.
      const marked = markedFolders(rel);
      if (marked.length > 0) {
        this.#project.nonProject.reset();
        for (const folder of marked) this.#dirty.add(folder);
      }
    }
  }
}
