/**
 * A project's SCIP index, when it has one (`index.scip` at the root or under `.sextant/`, with
 * its manifest `index.scip.files` beside it, see freshness.ts): loaded on first need, loaded
 * again when the file changes, and kept honest by the project's file watcher. At load every file
 * of the index's languages is compared with the manifest; a file changed or created since then
 * is *stale* and never answered from the index. The watcher marks each file it hears of, and the
 * next question checks those again, behind the watcher's barrier.
 * @module
 */
import { extname, join } from "node:path";
import { log } from "../../log.ts";
import type { Project } from "../../project/project.ts";
import type { ProjectWatch } from "../../project/project_watch.ts";
import { Freshness, manifestPath, parseManifest } from "./freshness.ts";
import { ScipIndex, type ScipLoadProgress } from "./scip_index.ts";

/** Where a project's index is looked for, in this order (relative to its root). */
export const INDEX_LOCATIONS: readonly string[] = ["index.scip", ".sextant/index.scip"];

/** A loaded index and what it can vouch for now. */
export interface ScipState {
  index: ScipIndex;
  /** The index file, absolute. */
  path: string;
  /** Files of the index's languages whose content is not the indexed one (or that are new). */
  stale: ReadonlySet<string>;
}

interface Loaded {
  index: ScipIndex;
  path: string;
  stamp: string;
  freshness: Freshness;
  extensions: Set<string>;
  stale: Set<string>;
  /** Files the watcher reported since the last question. */
  dirty: Set<string>;
  /** The watcher lost events or ended: every file must be checked again. */
  recheckAll: boolean;
  unsubscribe: () => void;
}

async function stampOf(path: string): Promise<string | null> {
  try {
    const stat = await Deno.stat(path);
    return stat.isFile ? `${stat.size}:${stat.mtime?.getTime() ?? 0}` : null;
  } catch {
    return null;
  }
}

export class ProjectScip {
  readonly #project: Project;
  readonly #watch: ProjectWatch;
  #loaded: Loaded | null = null;
  #loading: Promise<Loaded | null> | null = null;
  /** The stamp of an index that failed to load (not tried again until it changes). */
  #failed: string | null = null;

  constructor(project: Project, watch: ProjectWatch) {
    this.#project = project;
    this.#watch = watch;
  }

  /** The index file that applies, if any (absolute). */
  async locate(): Promise<{ path: string; stamp: string } | null> {
    for (const rel of INDEX_LOCATIONS) {
      const path = join(this.#project.root, rel);
      const stamp = await stampOf(path);
      if (stamp !== null) return { path, stamp };
    }
    return null;
  }

  /**
   * The index as it stands now, or null when the project has none, it has no manifest, or it
   * failed to load (logged). Loads it (with progress) on first need or when the file changed.
   */
  async state(onProgress?: (p: ScipLoadProgress) => void): Promise<ScipState | null> {
    const found = await this.locate();
    if (found === null) {
      this.#drop();
      return null;
    }
    let loaded = this.#loaded;
    if (loaded === null || loaded.path !== found.path || loaded.stamp !== found.stamp) {
      if (this.#failed === `${found.path}\0${found.stamp}`) return null;
      this.#loading ??= this.#load(found.path, found.stamp, onProgress).finally(() => {
        this.#loading = null;
      });
      loaded = await this.#loading;
      if (loaded === null) return null;
    }
    // Every change made before the question has been reported once the barrier returns.
    if (this.#watch.watching) await this.#watch.barrier();
    await this.#refresh(loaded);
    return { index: loaded.index, path: loaded.path, stale: loaded.stale };
  }

  async #load(
    path: string,
    stamp: string,
    onProgress?: (p: ScipLoadProgress) => void,
  ): Promise<Loaded | null> {
    this.#drop();
    let manifestText: string;
    try {
      manifestText = await Deno.readTextFile(manifestPath(path));
    } catch {
      log.warn(
        `SCIP index ${path} has no manifest (${manifestPath(path)}): it is not used, because ` +
          "nothing could tell which files changed since it was built.",
      );
      this.#failed = `${path}\0${stamp}`;
      return null;
    }
    try {
      const started = performance.now();
      const index = await ScipIndex.load(path, onProgress);
      const freshness = new Freshness(this.#project.root, parseManifest(manifestText));
      const extensions = new Set(index.paths().map((p) => extname(p)).filter((e) => e !== ""));
      const loaded: Loaded = {
        index,
        path,
        stamp,
        freshness,
        extensions,
        stale: new Set(),
        dirty: new Set(),
        recheckAll: true,
        unsubscribe: () => {},
      };
      loaded.unsubscribe = this.#watch.subscribe({
        event: (e) => {
          for (const rel of e.rels) if (extensions.has(extname(rel))) loaded.dirty.add(rel);
        },
        overflow: () => void (loaded.recheckAll = true),
        ended: () => void (loaded.recheckAll = true),
      });
      this.#watch.start();
      this.#loaded = loaded;
      log.info(
        `SCIP index ${path} loaded: ${index.documentCount} documents from ` +
          `${[...index.tools].join(", ") || "an unnamed indexer"} in ` +
          `${Math.round(performance.now() - started)} ms`,
      );
      return loaded;
    } catch (error) {
      log.warn(
        `SCIP index ${path} could not be read: ${error instanceof Error ? error.message : error}`,
      );
      this.#failed = `${path}\0${stamp}`;
      return null;
    }
  }

  async #refresh(loaded: Loaded): Promise<void> {
    if (loaded.recheckAll || !this.#watch.watching) {
      // Every file of the index's languages on disk, and every file the manifest names.
      loaded.recheckAll = this.#watch.watching ? false : true;
      loaded.dirty.clear();
      const stale = new Set<string>();
      const seen = new Set<string>();
      for await (const entry of this.#project.walk(".")) {
        if (entry.isDirectory || !loaded.extensions.has(extname(entry.path))) continue;
        seen.add(entry.path);
        if (!(await loaded.freshness.isFresh(entry.path))) stale.add(entry.path);
      }
      for (const rel of loaded.index.paths()) if (!seen.has(rel)) stale.add(rel);
      loaded.stale = stale;
      return;
    }
    if (loaded.dirty.size === 0) return;
    const dirty = [...loaded.dirty];
    loaded.dirty.clear();
    for (const rel of dirty) {
      if (await loaded.freshness.isFresh(rel)) loaded.stale.delete(rel);
      else loaded.stale.add(rel);
    }
  }

  #drop(): void {
    this.#loaded?.unsubscribe();
    this.#loaded = null;
  }

  dispose(): void {
    this.#drop();
  }
}
