/**
 * A project's SCIP index, when it has one (the one the user's global config names, a path or a
 * downloaded URL: index_source.ts; else `index.scip` at the root or under `.sextant/`; each with
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
import { readGitIndex } from "../../project/git_index.ts";
import { ScipIndex, type ScipLoadProgress } from "./scip_index.ts";
import { ConfiguredIndex, configuredSource } from "./index_source.ts";

/** Files hashed at once when the project is checked against the manifest. */
const SCAN_CONCURRENCY = 16;
/**
 * Characters of unchanged files kept for previews, least recently used dropped first: a budget in
 * characters, not files, so a name used in thousands of small files is answered warm from memory.
 */
const LINE_CACHE_CHARS = 16_000_000;

/** Where a project's index is looked for, in this order (relative to its root). */
export const INDEX_LOCATIONS: readonly string[] = ["index.scip", ".sextant/index.scip"];
/** The folders of {@linkcode INDEX_LOCATIONS}. */
const INDEX_FOLDERS = [".", ".sextant"];
/** Folders changed this recently are looked in again: mtime resolution is coarse on some file systems. */
const RACY_MS = 3_000;

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

/**
 * Synchronous: asked before every find_referencing_symbols, mostly of files that do not exist,
 * where an async stat costs a round trip through the I/O threads each.
 */
function stampOf(path: string): string | null {
  try {
    const stat = Deno.statSync(path);
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
  /** Lines of unchanged files, for previews; a file the watcher reports is dropped. */
  readonly #lines = new Map<string, { lines: string[]; chars: number }>();
  #lineChars = 0;
  /** The index the user's global config names for this project, when it names one. */
  readonly #configured: ConfiguredIndex | null;
  /** {@linkcode #indexFolders} when no index file was found under them. */
  #absentUnder: string | null = null;

  constructor(project: Project, watch: ProjectWatch) {
    this.#project = project;
    this.#watch = watch;
    const source = configuredSource(project.root, project.settings.scip_indexes ?? {});
    this.#configured = source === null ? null : new ConfiguredIndex(project.root, source);
  }

  /**
   * What went wrong with the index the global config names since the last call (a failed
   * download, a missing file or manifest), for the next answer's note; null when nothing did.
   */
  takeProblem(): string | null {
    return this.#configured?.takeProblem() ?? null;
  }

  /**
   * The index file that applies, if any (absolute): the one the global config names first (a
   * URL's download, with an empty stamp while it has not been downloaded), then the project's.
   */
  locate(): Promise<{ path: string; stamp: string } | null> {
    return Promise.resolve(this.#locateNow());
  }

  #locateNow(): { path: string; stamp: string } | null {
    const configured = this.#configured;
    if (configured !== null) {
      const stamp = stampOf(configured.path);
      if (stamp !== null) {
        configured.found();
        return { path: configured.path, stamp };
      }
      // A URL not downloaded yet: state() downloads it. One whose download failed: the project's
      // own index, if it has one, until the download is tried again.
      if (configured.source.kind === "url" && configured.due) {
        return { path: configured.path, stamp: "" };
      }
      if (configured.source.kind === "path") configured.missing();
    }
    // Found absent before, and no entry of the folders that would hold them changed since.
    const folders = this.#indexFolders();
    if (folders !== null && folders === this.#absentUnder) return null;
    for (const rel of INDEX_LOCATIONS) {
      const path = join(this.#project.root, rel);
      const stamp = stampOf(path);
      if (stamp !== null) return { path, stamp };
    }
    this.#absentUnder = folders;
    return null;
  }

  /**
   * The mtimes of the folders that hold {@linkcode INDEX_LOCATIONS} (a file created, renamed or
   * removed in a folder changes its mtime), or null when one is missing or changed too recently
   * to be trusted by its mtime. Two stats that succeed cost less than two that throw: most
   * projects have no index, and every find_referencing_symbols looks for one.
   */
  #indexFolders(): string | null {
    const now = Date.now();
    let key = "";
    for (const folder of INDEX_FOLDERS) {
      let mtime: number;
      try {
        const stat = Deno.statSync(join(this.#project.root, folder));
        if (!stat.isDirectory) return null;
        mtime = stat.mtime?.getTime() ?? 0;
      } catch {
        return null;
      }
      if (now - mtime < RACY_MS) return null;
      key += `${mtime}:`;
    }
    return key;
  }

  /**
   * The index as it stands now, or null when the project has none, it has no manifest, or it
   * failed to load (logged). Loads it (with progress) on first need or when the file changed.
   */
  async state(onProgress?: (p: ScipLoadProgress) => void): Promise<ScipState | null> {
    await this.#configured?.refresh((read, total) =>
      onProgress?.({ read, total, documents: 0, phase: "download" })
    );
    const found = await this.locate();
    if (found === null || found.stamp === "") {
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
      const problem = `SCIP index ${path} has no manifest (${manifestPath(path)}): it is not ` +
        "used, because nothing could tell which files changed since it was built.";
      if (path === this.#configured?.path) this.#configured.report(problem);
      else log.warn(problem);
      this.#failed = `${path}\0${stamp}`;
      return null;
    }
    try {
      const started = performance.now();
      const expected = parseManifest(manifestText);
      const freshness = new Freshness(
        this.#project.root,
        expected,
        await readGitIndex(this.#project.root),
      );
      const extensions = new Set([...expected.keys()].map((p) => extname(p)).filter((e) => e));
      // The files are checked against the manifest while the index decodes.
      const [index, stale] = await Promise.all([
        ScipIndex.load(path, onProgress),
        this.#scan(freshness, extensions),
      ]);
      // The manifest may list every file of the repository: what matters is the index's languages.
      const indexed = new Set(index.paths().map((p) => extname(p)).filter((e) => e));
      for (const rel of stale) if (!indexed.has(extname(rel))) stale.delete(rel);
      const loaded: Loaded = {
        index,
        path,
        stamp,
        freshness,
        extensions: indexed,
        stale,
        dirty: new Set(),
        recheckAll: false,
        unsubscribe: () => {},
      };
      for (const rel of index.paths()) if (!expected.has(rel)) stale.add(rel);
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
      const problem = `SCIP index ${path} could not be read: ${
        error instanceof Error ? error.message : error
      }`;
      if (path === this.#configured?.path) this.#configured.report(problem);
      else log.warn(problem);
      this.#failed = `${path}\0${stamp}`;
      return null;
    }
  }

  /**
   * The files of the index's languages that are not as indexed: changed, new, or (named in the
   * manifest) gone. Files are hashed a few at a time.
   */
  async #scan(freshness: Freshness, extensions: ReadonlySet<string>): Promise<Set<string>> {
    const files: string[] = [];
    for await (const entry of this.#project.walk(".")) {
      if (!entry.isDirectory && extensions.has(extname(entry.path))) files.push(entry.path);
    }
    const stale = new Set<string>();
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const rel = files[next++]!;
        if (!(await freshness.isFresh(rel))) stale.add(rel);
      }
    };
    await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
    const seen = new Set(files);
    for (const rel of freshness.paths()) if (!seen.has(rel)) stale.add(rel);
    return stale;
  }

  async #refresh(loaded: Loaded): Promise<void> {
    if (loaded.recheckAll || !this.#watch.watching) {
      // Events were lost, or nothing watches: every file is checked again (hashed only when
      // its size or time changed since it was last hashed).
      loaded.recheckAll = false;
      loaded.dirty.clear();
      loaded.stale = await this.#scan(loaded.freshness, loaded.extensions);
      this.#dropLines();
      return;
    }
    if (loaded.dirty.size === 0) return;
    const dirty = [...loaded.dirty];
    loaded.dirty.clear();
    for (const rel of dirty) {
      this.#forget(rel);
      if (await loaded.freshness.isFresh(rel)) loaded.stale.delete(rel);
      else loaded.stale.add(rel);
    }
  }

  /**
   * The lines of an unchanged file (`\n`-split), kept while the file stays unchanged; null when
   * it cannot be read.
   */
  async linesOf(relPath: string): Promise<string[] | null> {
    const known = this.#lines.get(relPath);
    if (known) {
      // Most recently used last.
      this.#lines.delete(relPath);
      this.#lines.set(relPath, known);
      return known.lines;
    }
    let text: string;
    try {
      text = await Deno.readTextFile(join(this.#project.root, relPath));
    } catch {
      return null;
    }
    const lines = text.split(/\r?\n/);
    this.#forget(relPath);
    this.#lines.set(relPath, { lines, chars: text.length });
    this.#lineChars += text.length;
    for (const [oldest, entry] of this.#lines) {
      if (this.#lineChars <= LINE_CACHE_CHARS || oldest === relPath) break;
      this.#lines.delete(oldest);
      this.#lineChars -= entry.chars;
    }
    return lines;
  }

  #forget(relPath: string): void {
    const entry = this.#lines.get(relPath);
    if (!entry) return;
    this.#lines.delete(relPath);
    this.#lineChars -= entry.chars;
  }

  #dropLines(): void {
    this.#lines.clear();
    this.#lineChars = 0;
  }

  #drop(): void {
    this.#dropLines();
    this.#loaded?.unsubscribe();
    this.#loaded = null;
  }

  dispose(): void {
    this.#drop();
  }
}
