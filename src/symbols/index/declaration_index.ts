/**
 * The syntactic symbol index of a project: every source file's declarations (names, kinds, name
 * paths, ranges), parsed with tree-sitter in workers, held compactly in memory and on disk, and
 * kept current by a file watcher and by Sextant's own edits. It answers "which files declare a
 * symbol named X" in microseconds, without a language server; the server then gives the exact
 * answer for just those files.
 *
 * Freshness: the project's watcher (project_watch.ts, shared with the change feed and the
 * language servers) marks changed paths; before an answer the index makes sure every change made
 * before the question has been seen (the watcher's barrier: events arrive in order), then
 * re-indexes what changed. A changed folder is walked again, since a folder created or renamed
 * into place may hold files the watcher never reported. Without a watcher (or after it lost
 * events) every answer re-checks the whole tree (sizes and modification times), which is correct
 * but slower.
 *
 * The build walks the tree and sends the files to the workers in chunks, while it walks. A search
 * that comes before the build is done does not wait for all of it ({@linkcode
 * DeclarationIndex.prepareFor}): the files not indexed yet go to the workers first with the
 * search's text, those containing it are indexed at once and the others left to the build. Files
 * unchanged since the store on disk was written (same size and modification time) are taken from
 * it on the walk itself, so a start from disk sends nothing to the workers.
 *
 * This module holds what ties these together; the build's queue and the searches' scans are
 * build_queue.ts, the changes heard of and not taken in yet noticed_changes.ts, what taking them
 * in takes change_plan.ts, what a parse result does to the tables parse_results.ts.
 *
 * @module
 */
import { relative } from "node:path";
import { log } from "../../log.ts";
import { cacheDir } from "../cache.ts";
import type { CompactSymbol } from "../model.ts";
import type { Project } from "../../project/project.ts";
import { ProjectWatch } from "../../project/project_watch.ts";
import { BuildQueue, PROGRESS_MS, type Scan } from "./build_queue.ts";
import { grammarFor } from "./grammars.ts";
import { NoticedChanges } from "./noticed_changes.ts";
import { type ChangePlan, planFolder, planPaths } from "./change_plan.ts";
import { applyParseResult } from "./parse_results.ts";
import type { ParseJob, ParseResult } from "./worker_messages.ts";
import { loadStore, saveStore, type StoredFile, unchangedOnDisk } from "./store.ts";
import { DeclarationTables, type IndexStats } from "./declaration_tables.ts";
import { ParseWorkers, type ParseWorkersOptions } from "./workers.ts";

/** Options of {@linkcode DeclarationIndex}. */
export interface DeclarationIndexOptions {
  /** The parse workers (shared) or options for the index's own. */
  workers?: ParseWorkers | ParseWorkersOptions;
  /** Watch the project for outside changes (default true). */
  watch?: boolean;
  /** The project's shared watcher (default: one of the index's own, when `watch`). */
  projectWatch?: ProjectWatch;
  /** Read and write `.sextant/cache/declarations.jsonl` (default true). */
  persist?: boolean;
}

/** Options of {@linkcode DeclarationIndex.ready}. */
export interface ReadyOptions {
  signal?: AbortSignal | undefined;
  /**
   * When the question began (`performance.now()`): the changes made before it are taken in, and
   * the watcher's barrier may be one made since, shared with the question's other waits.
   */
  since?: number | undefined;
  /** Progress messages while the index is being built. */
  onProgress?: ((message: string) => void) | undefined;
}

/** Options of {@linkcode DeclarationIndex.prepareFor}. */
export interface PrepareOptions extends ReadyOptions {
  /** The project-relative folder ("." for all) or file the search covers. */
  scope?: string;
}

/** Options of {@linkcode DeclarationIndex.candidates}. */
export interface CandidateOptions {
  /** Match names containing the text instead of equal to it. */
  substring?: boolean;
  /** A project-relative folder ("." for all) or file the files must lie in. */
  scope?: string;
}

/**
 * Chunks in flight at once (each split among the workers, and waited for whole: with fewer, a
 * worker that finished early waits for the other; measured, 2 made the build up to 2x slower).
 */
const PUMPS = 4;
const SAVE_DELAY_MS = 2000;
/**
 * Files to parse from which a build (or a batch of changes) gets more than one worker
 * (ParseWorkers.widen). Below it one worker parses them in a few seconds, and a second costs
 * 25–30 MB of the service's peak: on typeorm (2,000 files) the service's peak PSS was 25–30 MB
 * lower with one. At 20,000 files one worker took twice as long (23–27 s against 10–12 s, the
 * same CPU; docs/performance.md, "Session 7: memory").
 */
const WIDE_BUILD_FILES = 5000;

/** See the module documentation. */
export class DeclarationIndex {
  readonly project: Project;
  readonly #workers: ParseWorkers;
  readonly #ownWorkers: boolean;
  readonly #watch: boolean;
  readonly #persist: boolean;
  readonly #tables = new DeclarationTables();
  /** The first build's files not indexed yet, and the searches waiting for some of them. */
  readonly #queue: BuildQueue = new BuildQueue({
    disposed: () => this.#disposed,
    apply: (result, stored) => this.#apply(result, stored),
    report: (message) => this.#report(message),
    paused: (paused) => {
      // The batches the pumps sent before the pause wait too (a batch on a worker ends).
      this.#workerHold?.();
      this.#workerHold = paused && !this.#disposed ? this.#workers.hold() : null;
    },
  });
  /** The parse workers' hold while the build is paused (see BuildQueue.paused). */
  #workerHold: (() => void) | null = null;
  /** Scans of one file under way, by needle and file: shared by whoever asks for the same. */
  readonly #fileScans = new Map<string, { scan: Scan; done: Promise<void> }>();
  /** The files parseAhead will send for a needle, by needle: the timer that sends them. */
  readonly #speculative = new Map<string, ReturnType<typeof setTimeout>>();
  /** The last build failed (its index is partial: no search may answer from it). */
  #buildFailed = false;
  #failures = 0;
  #build: Promise<void> | null = null;
  #built = false;
  readonly #progress = new Set<(message: string) => void>();
  readonly #projectWatch: ProjectWatch | null;
  readonly #ownWatch: boolean;
  /** The changes heard of (from the first build on) and not taken in yet. */
  readonly #changes: NoticedChanges;
  /** Serializes change application. */
  #applying: Promise<void> = Promise.resolve();
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #changedSinceSave = false;
  #disposed = false;
  /** Aborted on dispose: a build in progress sends no more files to the workers. */
  readonly #stop = new AbortController();

  constructor(project: Project, options: DeclarationIndexOptions = {}) {
    this.project = project;
    const workers = options.workers;
    this.#ownWorkers = !(workers instanceof ParseWorkers);
    this.#workers = workers instanceof ParseWorkers ? workers : new ParseWorkers(workers);
    // One worker, unless the build or a batch of changes is long (WIDE_BUILD_FILES).
    this.#workers.widen(false);
    this.#watch = options.watch ?? true;
    this.#ownWatch = this.#watch && !options.projectWatch;
    this.#projectWatch = !this.#watch
      ? null
      : options.projectWatch ?? new ProjectWatch(project.root, cacheDir(project.root));
    this.#persist = options.persist ?? true;
    this.#changes = new NoticedChanges(project, this.#projectWatch);
  }

  /** Whether it was disposed. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Whether the first build has finished. */
  get built(): boolean {
    return this.#built;
  }

  /**
   * Build the index on first call (with progress), then bring it up to date with every change
   * made before this call. Answers taken after it resolves are complete.
   */
  async ready(options: ReadyOptions = {}): Promise<void> {
    if (this.#disposed) throw new Error("The symbol index was disposed.");
    const listener = options.onProgress;
    if (listener) this.#progress.add(listener);
    // A question waits for the whole build: no hold pauses it meanwhile.
    const unwant = this.#queue.want();
    try {
      await abortable(this.#startBuild(), options.signal);
      await this.#settle(true, options.since);
    } finally {
      unwant();
      if (listener) this.#progress.delete(listener);
    }
  }

  /**
   * Start the build, if not started, without waiting for it as {@linkcode ready} does (a held
   * build stays paused). Resolves when the build is done; rejects when it fails.
   */
  start(): Promise<void> {
    if (this.#disposed) return Promise.reject(new Error("The symbol index was disposed."));
    return this.#startBuild();
  }

  #startBuild(): Promise<void> {
    this.#build ??= this.#buildAll().then(
      () => {
        this.#built = true;
      },
      (error) => {
        this.#build = null;
        throw error;
      },
    );
    return this.#build;
  }

  /**
   * Before the build is done, make {@linkcode candidates} and {@linkcode otherFiles} complete in
   * `scope` for names containing `needle`, without waiting for the rest of the build: every file
   * of the scope not indexed yet is read in the workers, ahead of the build's own work, and
   * indexed when its text contains the needle (a file without it cannot declare such a name);
   * the others are left to the build, which goes on in the background. Starts the build.
   *
   * True when that is done (or the index is built and current); false when changes made
   * during the build cannot be accounted for this way: then wait for {@linkcode ready}.
   */
  async prepareFor(needle: string, options: PrepareOptions = {}): Promise<boolean> {
    if (this.#disposed) throw new Error("The symbol index was disposed.");
    const { signal, onProgress } = options;
    const scope = options.scope ?? ".";
    if (this.#built) {
      await this.ready({ signal, onProgress });
      return true;
    }
    const build = this.#startBuild();
    build.catch(() => {}); // its failure reaches the scan, or whoever waits for ready()
    if (this.#queue.readAny || this.#changes.pending) {
      // Files were indexed or read already: changes made to them since must be seen first.
      if (!(await this.#changes.barrier()) || this.#changes.all) return false;
      this.#queue.forgetWords(this.#changes.paths());
      for (const path of this.#changes.paths()) {
        const pending = this.#queue.get(path);
        if (pending === undefined || pending.sent !== null) return false;
        // Not read yet, so its news will be read; hashed even if size and time look the same.
        if (pending.job.known) pending.job.known = { ...pending.job.known, mtime: -1 };
      }
    }
    if (this.#built) {
      await this.ready({ signal, onProgress });
      return true;
    }
    if (this.#buildFailed) return false; // ready() says why
    const queue = this.#queue;
    const file = queue.walking && this.#aheadOfWalk(scope);
    const speculative = this.#speculative.get(needle);
    if (file && speculative !== undefined) {
      // The question asks for its files itself: those it parsed ahead for are not needed now.
      clearTimeout(speculative);
      this.#speculative.delete(needle);
    }
    // The same file asked for twice (a candidate parsed ahead, then named in the answer): the
    // second waits for the first's scan rather than parse the file again.
    const key = `${needle}\0${scope}`;
    const shared = file ? this.#fileScans.get(key) : undefined;
    const { scan, done } = shared ?? this.#startScan(needle, scope, file);
    if (file && !shared) {
      this.#fileScans.set(key, { scan, done });
      done.catch(() => {}).finally(() => {
        this.#fileScans.delete(key);
        queue.endScan(scan);
      });
    }
    const report = () => {
      const checked = scan.total - scan.todo.size;
      onProgress?.(
        queue.walking
          ? `Searching for '${needle}' while the symbol index is built: ${queue.walked} files ` +
            `listed so far, ${Math.max(0, queue.walked - scan.todo.size)} of them checked`
          : `Searching ${scan.total} files for '${needle}' while the symbol index is built: ` +
            `${checked}/${scan.total}`,
      );
    };
    report();
    const timer = onProgress ? setInterval(report, PROGRESS_MS) : undefined;
    try {
      await abortable(done, signal);
      return true;
    } finally {
      clearInterval(timer);
      // A scan of one file ends with its file, whoever stopped waiting for it.
      if (!file) queue.endScan(scan);
    }
  }

  /** Start a search's scan (see {@linkcode prepareFor}); `done` settles when it is complete. */
  #startScan(
    needle: string,
    scope: string,
    file: boolean,
  ): { scan: Scan; done: Promise<void> } {
    let finish!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = (error) => error === undefined ? resolve() : reject(error);
    });
    const listed = this.#queue.get(scope) !== undefined || this.#tables.files.has(scope);
    const ahead = !file ? null : {
      job: listed
        ? null
        : { relPath: scope, absPath: this.project.absolute(scope), known: undefined },
    };
    const scan = this.#queue.startScan(needle, scope, ahead, finish);
    this.#queue.sendAhead(scan, this.#workers, this.#stop.signal);
    return { scan, done };
  }

  /** Drop the parse {@linkcode parseAhead} scheduled for the needle, where it has not begun. */
  cancelParseAhead(needle: string): void {
    clearTimeout(this.#speculative.get(needle));
    this.#speculative.delete(needle);
  }

  /**
   * Before the build is done, have these files parsed ahead of it, not waited for (see
   * {@linkcode prepareFor} with one file), in `delayMs`: the files a question will likely ask
   * about (the candidates of a references question), parsed while a slow server computes its
   * answer. A question that asks for one of them with the same needle before then knows which
   * it needs (the server has answered): the rest are left to the build. Only while a question
   * holds the build (else the build parses them anyway), and only files that can go ahead of the
   * walk: the others would wait for the walk, and resume the held build.
   */
  parseAhead(needle: string, files: readonly string[], delayMs = 0): void {
    const wanted = () => !this.#disposed && !this.#built && this.#queue.walking && this.#queue.held;
    if (!wanted()) return;
    const send = () => {
      this.#speculative.delete(needle);
      if (!wanted()) return;
      for (const file of files) {
        if (this.#aheadOfWalk(file)) this.prepareFor(needle, { scope: file }).catch(() => {});
      }
    };
    clearTimeout(this.#speculative.get(needle));
    const timer = setTimeout(send, delayMs);
    Deno.unrefTimer(timer);
    this.#speculative.set(needle, timer);
  }

  /**
   * Hold the build back while a question runs that does not need it: the build pauses (its walk
   * and its batches wait) while nothing waits for it ({@linkcode ready}, a search over a folder;
   * see BuildQueue.hold). A search of one file ({@linkcode prepareFor}) goes on. Call the result
   * to release; the build then resumes.
   */
  holdBuild(): () => void {
    const release = this.#queue.hold();
    return () => {
      release();
      // The question is answered: what it would have parsed ahead is the build's again.
      if (this.#queue.held) return;
      for (const timer of this.#speculative.values()) clearTimeout(timer);
      this.#speculative.clear();
    };
  }

  /**
   * Whether a scan's scope is one source file the walk would list (a parsed language, not
   * ignored, reached through no link), which can then be indexed ahead of the walk.
   */
  #aheadOfWalk(scope: string): boolean {
    if (scope === "." || scope === "" || grammarFor(scope) === null) return false;
    if (this.project.ignore.isIgnoredDeep(scope, false)) return false;
    try {
      const abs = this.project.absolute(scope);
      return Deno.statSync(abs).isFile && Deno.realPathSync(abs) === abs;
    } catch {
      return false;
    }
  }

  /**
   * The files declaring a symbol whose name equals `name` (or contains it, with `substring`),
   * sorted. Call {@linkcode ready} first.
   */
  candidates(name: string, options: CandidateOptions = {}): string[] {
    return this.#tables.candidates(name, options.scope ?? ".", options.substring ?? false);
  }

  /** The indexed files in a scope, sorted. */
  indexedFiles(scope = "."): string[] {
    return this.#tables.indexedFiles(scope);
  }

  /**
   * Declared names close to `wanted` (name_path.ts `nameCloseness`), closest first, at most
   * `limit`: the hint of a search that matched nothing.
   */
  namesLike(wanted: string, limit = 10): string[] {
    return this.#tables.namesLike(wanted, limit);
  }

  /** The files in a scope the index walked but does not parse (no grammar), sorted. */
  otherFiles(scope = "."): string[] {
    return this.#tables.otherFiles(scope);
  }

  /** A file's declarations (a forest), or undefined when the file is not indexed. */
  declarations(relPath: string): CompactSymbol[] | undefined {
    return this.#tables.declarations(relPath);
  }

  /**
   * A file's declarations when they are exactly its language server's documentSymbol answer
   * (see extract.ts's `exact`) and were computed for this content hash; else undefined. Needs
   * no {@linkcode ready}: the hash says the entry is current.
   */
  exactDeclarations(relPath: string, hash: string): CompactSymbol[] | undefined {
    return this.#tables.exactDeclarations(relPath, hash);
  }

  /**
   * A number that changes whenever a file is added, removed or indexed for new content: what
   * was computed from the file list and hashes at one generation holds while it stays.
   */
  get generation(): number {
    return this.#tables.generation;
  }

  /** Whether the watcher reported changes the index has not taken in yet ({@linkcode ready}). */
  get pendingChanges(): boolean {
    return this.#changes.pending;
  }

  /** Every file the index walked (indexed or not), unsorted; for scans over the whole tree. */
  allFiles(): string[] {
    return this.#tables.allFiles();
  }

  /** The content hash the declarations of a file were computed for. */
  hashOf(relPath: string): string | undefined {
    return this.#tables.files.get(relPath)?.hash;
  }

  stats(): IndexStats {
    return this.#tables.stats();
  }

  /** Our own tools wrote these files (real paths): re-index them before the next answer. */
  async filesChanged(realPaths: readonly string[]): Promise<void> {
    for (const real of realPaths) {
      const rel = relative(this.project.root, real).split("\\").join("/");
      if (rel && !rel.startsWith("..")) this.#changes.add(rel);
    }
    if (this.#built) await this.#settle(false);
  }

  // --- building -------------------------------------------------------------------------------

  #report(message: string): void {
    for (const listener of this.#progress) {
      try {
        listener(message);
      } catch { /* a listener's failure is its own */ }
    }
  }

  /**
   * The first build: walk the tree and index every file through the workers, the files of
   * waiting searches first (see {@linkcode prepareFor}). Files are sent while the walk goes on.
   */
  async #buildAll(): Promise<void> {
    const started = performance.now();
    const queue = this.#queue;
    queue.reset();
    this.#buildFailed = false;
    if (this.#tables.clear()) this.#changedSinceSave = true;
    let failure: unknown = null;
    const pumps: Promise<void>[] = [];
    // The first pump to fail stops the others.
    const failed = new AbortController();
    const stop = AbortSignal.any([this.#stop.signal, failed.signal]);
    const wake = () => queue.wake();
    stop.addEventListener("abort", wake, { once: true });
    let stored = new Map<string, StoredFile>();
    let wide = false;
    try {
      if (this.#watch && !this.#changes.listen()) {
        log.debug(`The symbol index cannot watch ${this.project.root}.`);
      }
      if (this.#persist) stored = await loadStore(this.project.root);
      this.#report(
        stored.size > 0
          ? `Checking the symbol index of ${stored.size} files`
          : "Indexing the project's symbols",
      );
      for (let i = 0; i < PUMPS; i++) {
        const pump = queue.pump(this.#workers, stop).catch((error) => {
          failed.abort(error);
          throw error;
        });
        // Handled below, once the walk ends; until then a pump that fails (a dispose aborts them
        // all) must not count as an unhandled rejection, which ends the whole process.
        pump.catch(() => {});
        pumps.push(pump);
      }
      for await (const entry of this.project.walk(".")) {
        // Paused by a question that does not need the build: its walk waits too.
        if (queue.paused) await queue.resumed(this.#stop.signal);
        this.#stop.signal.throwIfAborted();
        if (entry.isDirectory) continue;
        if (queue.sentAhead(entry.path)) continue;
        if (grammarFor(entry.path) === null) {
          this.#tables.addOther(entry.path);
          continue;
        }
        const known = stored.get(entry.path);
        const absPath = this.project.absolute(entry.path);
        if (known !== undefined && unchangedOnDisk(absPath, known)) {
          // Checked here: a message to a worker would cost more than the check.
          queue.countIndexed();
          this.#tables.add(entry.path, known);
          continue;
        }
        queue.enqueue({
          job: {
            relPath: entry.path,
            absPath,
            known: known && { hash: known.hash, size: known.size, mtime: known.mtime },
          },
          stored: known,
          sent: null,
        });
        if (!wide && queue.size >= WIDE_BUILD_FILES) {
          wide = true;
          this.#workers.widen(true);
        }
      }
    } catch (error) {
      failure = error;
      queue.clear(); // the pumps stop
    } finally {
      queue.walkEnded();
    }
    const results = await Promise.allSettled(pumps);
    this.#workers.widen(false);
    stop.removeEventListener("abort", wake);
    const rejected = results.find((r) => r.status === "rejected");
    failure ??= rejected?.reason ?? null;
    if (failure === null) this.#stop.signal.throwIfAborted();
    queue.buildEnded(failure);
    if (failure !== null) {
      queue.clear();
      this.#buildFailed = true;
      throw failure;
    }
    // Files gone since the save (those changed were marked as they came).
    if (this.#tables.files.size !== stored.size) this.#changedSinceSave = true;
    this.#report(
      `Symbol index ready: ${this.#tables.files.size} files, ${this.#tables.stats().declarations} declarations ` +
        `(${Math.round(performance.now() - started)} ms)`,
    );
    this.#scheduleSave();
  }

  /** Index files through the workers and apply the results (after the first build). */
  async #runJobs(jobs: readonly ParseJob[], known: ReadonlyMap<string, StoredFile>): Promise<void> {
    const wide = jobs.length >= WIDE_BUILD_FILES;
    if (wide) this.#workers.widen(true);
    try {
      await this.#workers.run(jobs, (results) => {
        if (this.#disposed) return;
        for (const result of results) this.#apply(result, known.get(result.relPath));
      }, this.#stop.signal);
    } finally {
      if (wide) this.#workers.widen(false);
    }
  }

  #apply(result: ParseResult, known: StoredFile | undefined): void {
    if (applyParseResult(this.#tables, result, known)) this.#changedSinceSave = true;
    if (result.status !== "failed") return;
    this.#failures++;
    if (this.#failures <= 3) {
      log.warn(
        `The symbol index could not parse ${result.relPath} (${result.error}); ` +
          "its declarations are found through the language server instead.",
      );
    }
  }

  // --- keeping current ------------------------------------------------------------------------

  /** Apply the changes made so far (see the module documentation). */
  #settle(waitForWatcher = true, since?: number): Promise<void> {
    const run = async () => {
      if (waitForWatcher && !(await this.#changes.barrier(since))) this.#changes.markAll();
      const changes = this.#changes.take();
      if (changes.all) {
        this.project.ignore.reset();
        this.project.nonProject.reset();
        await this.#takeIn(planFolder(this.project, this.#tables, "."));
      } else if (changes.paths.length > 0) {
        await this.#takeIn(planPaths(this.project, this.#tables, changes.paths));
      }
    };
    this.#applying = this.#applying.then(run, run);
    return this.#applying;
  }

  /** Take in what a plan of changes left to do: its jobs, and the save. */
  async #takeIn(plan: Promise<ChangePlan>): Promise<void> {
    const { jobs, changed } = await plan;
    if (changed) this.#changedSinceSave = true;
    await this.#runJobs(jobs, this.#tables.files);
    this.#scheduleSave();
  }

  // --- persistence ----------------------------------------------------------------------------

  #scheduleSave(): void {
    if (!this.#persist || !this.#changedSinceSave || this.#saveTimer !== undefined) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      this.flush().catch(() => {});
    }, SAVE_DELAY_MS);
    Deno.unrefTimer(this.#saveTimer);
  }

  /** Write the index to disk now, when it changed. */
  async flush(): Promise<void> {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    if (!this.#persist || !this.#changedSinceSave || !this.#built) return;
    this.#changedSinceSave = false;
    await saveStore(this.project.root, this.#tables.files);
  }

  /** Save, stop watching and stop the workers (when they are the index's own). */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    // A build in progress stops: no more batches, and our own workers end now (their pending
    // batches fail), so that no parse worker outlives the project.
    this.#stop.abort();
    for (const timer of this.#speculative.values()) clearTimeout(timer);
    this.#speculative.clear();
    // Batches held back end now (they fail on the abort), shared workers or not.
    this.#workerHold?.();
    this.#workerHold = null;
    if (this.#ownWorkers) this.#workers.close();
    try {
      await this.#build;
    } catch { /* nothing to save */ }
    await this.#applying.catch(() => {});
    await this.flush();
    this.#changes.stop();
    if (this.#ownWatch) await this.#projectWatch?.dispose();
  }
}

/** Wait for a promise, or reject when the signal aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
