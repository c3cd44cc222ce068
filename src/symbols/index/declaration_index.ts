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
 * @module
 */
import { relative } from "node:path";
import { log } from "../../log.ts";
import { cacheDir } from "../cache.ts";
import type { CompactSymbol } from "../model.ts";
import type { Project } from "../../project/project.ts";
import { ALWAYS_IGNORED_DIRS } from "../../project/ignore.ts";
import { markedFolders } from "../../project/non_project.ts";
import { ProjectWatch, type WatchEvent } from "../../project/project_watch.ts";
import { grammarFor } from "./grammars.ts";
import { declaredNames } from "./index_file.ts";
import type { ParseJob, ParseResult } from "./worker_messages.ts";
import { loadStore, saveStore, type StoredFile } from "./store.ts";
import { DeclarationTables, type IndexStats, inScope } from "./declaration_tables.ts";
import { ParseWorkers, type ParseWorkersOptions } from "./workers.ts";
import { UnparsedWords } from "./unparsed_words.ts";

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

const PROGRESS_MS = 1000;
/** Files per chunk of the build's own jobs (small: a search's jobs wait behind them). */
const BUILD_CHUNK = 64;
/** Files per message of a search's scan (cheap jobs: most files only read). */
const SCAN_CHUNK = 128;
/**
 * Chunks in flight at once (each split among the workers, and waited for whole: with fewer, a
 * worker that finished early waits for the other; measured, 2 made the build up to 2x slower).
 */
const PUMPS = 4;
/**
 * A search with at most this many files left to read or parse sends them to the workers at once,
 * ahead of the build's queue (ParseWorkers.runAhead), instead of waiting for a pump.
 */
const AHEAD_FILES = 256;
const SAVE_DELAY_MS = 2000;

/** A file the build walked and has not indexed yet. */
interface Pending {
  job: ParseJob;
  /** What the store on disk holds for it. */
  stored: StoredFile | undefined;
  /** With a worker now: the needle it was sent with ("" for none); null when not sent. */
  sent: string | null;
}

/** A search's scan of the files not indexed yet (see {@linkcode DeclarationIndex.prepareFor}). */
interface Scan {
  needle: string;
  scope: string;
  /** Paths neither indexed nor known to lack the needle. */
  todo: Set<string>;
  /** Paths to send, in order from `next` (those sent or done by then are skipped). */
  queue: string[];
  next: number;
  /** How many paths it covered in all. */
  total: number;
  /**
   * The scope is one file, sent ahead of the walk: the scan is done when that file is, without
   * waiting for the walk to list the rest of the tree.
   */
  file: boolean;
  finish: (error?: unknown) => void;
}

/** See the module documentation. */
export class DeclarationIndex {
  readonly project: Project;
  readonly #workers: ParseWorkers;
  readonly #ownWorkers: boolean;
  readonly #watch: boolean;
  readonly #persist: boolean;
  readonly #tables = new DeclarationTables();
  /** The build's queue: files walked and not indexed yet, in walk order from `#next`. */
  readonly #pending = new Map<string, Pending>();
  #order: string[] = [];
  #next = 0;
  /** The build is still walking the tree (more files may come). */
  #walking = false;
  /** Files the build walked, and indexed so far. */
  #walked = 0;
  #indexed = 0;
  /** The last build failed (its index is partial: no search may answer from it). */
  #buildFailed = false;
  /** Searches waiting for their files before the build is done. */
  readonly #scans = new Set<Scan>();
  /** Files a one-file scan sent ahead of the walk, which the walk then skips. */
  readonly #early = new Set<string>();
  /**
   * The words of files a scan read and did not parse (until the build parses them or they
   * change): a later search's scan decides from them instead of reading the files again.
   */
  readonly #words = new UnparsedWords();
  /** Pumps waiting for work. */
  #wakers: Array<() => void> = [];
  #failures = 0;
  #build: Promise<void> | null = null;
  #built = false;
  readonly #progress = new Set<(message: string) => void>();
  readonly #projectWatch: ProjectWatch | null;
  readonly #ownWatch: boolean;
  /** Set while the index hears the watcher's events (from the first build on). */
  #unsubscribe: (() => void) | null = null;
  readonly #dirty = new Set<string>();
  #rescanAll = false;
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
    this.#watch = options.watch ?? true;
    this.#ownWatch = this.#watch && !options.projectWatch;
    this.#projectWatch = !this.#watch
      ? null
      : options.projectWatch ?? new ProjectWatch(project.root, cacheDir(project.root));
    this.#persist = options.persist ?? true;
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
    try {
      await abortable(this.#startBuild(), options.signal);
      await this.#settle();
    } finally {
      if (listener) this.#progress.delete(listener);
    }
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
    if (this.#indexed > 0 || this.#words.size > 0 || this.#rescanAll || this.#dirty.size > 0) {
      // Files were indexed or read already: changes made to them since must be seen first.
      if (!(await this.#barrier()) || this.#rescanAll) return false;
      for (const path of this.#dirty) this.#words.delete(path);
      for (const path of this.#dirty) {
        const pending = this.#pending.get(path);
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
    let finish!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = (error) => error === undefined ? resolve() : reject(error);
    });
    const file = this.#walking && this.#aheadOfWalk(scope);
    const scan: Scan = {
      needle,
      scope,
      todo: new Set(),
      queue: [],
      next: 0,
      total: 0,
      file,
      finish,
    };
    if (file && !this.#pending.has(scope) && !this.#tables.files.has(scope)) {
      // Not listed yet: sent now, so that the scan does not wait for the walk to reach it.
      this.#early.add(scope);
      this.#enqueue({
        job: { relPath: scope, absPath: this.project.absolute(scope), known: undefined },
        stored: undefined,
        sent: null,
      });
    }
    for (const path of this.#pending.keys()) {
      // A file whose words lack the needle cannot declare the name: it is neither read nor
      // parsed for this search.
      if (inScope(path, scope) && this.#words.contains(path, needle) !== false) {
        this.#scanAdd(scan, path);
      }
    }
    this.#scans.add(scan);
    const report = () => {
      const checked = scan.total - scan.todo.size;
      onProgress?.(
        this.#walking
          ? `Searching for '${needle}' while the symbol index is built: ${this.#walked} files ` +
            `listed so far, ${Math.max(0, this.#walked - scan.todo.size)} of them checked`
          : `Searching ${scan.total} files for '${needle}' while the symbol index is built: ` +
            `${checked}/${scan.total}`,
      );
    };
    report();
    const timer = onProgress ? setInterval(report, PROGRESS_MS) : undefined;
    this.#checkScan(scan);
    this.#sendAhead(scan);
    this.#wake();
    try {
      await abortable(done, signal);
      return true;
    } finally {
      clearInterval(timer);
      this.#scans.delete(scan);
    }
  }

  #scanAdd(scan: Scan, path: string): void {
    scan.todo.add(path);
    scan.queue.push(path);
    scan.total++;
  }

  /**
   * Send a scan's few files to the workers now, ahead of the build's queue (the pumps take a
   * chunk only when the last one they sent is done, so a search waits behind up to four of
   * them otherwise). A file already in a chunk of the build's goes too: read and parsed twice,
   * rather than waited for behind that chunk's other files (the later result finds the same
   * content indexed). A scan with more files, or one made while the walk may still list more,
   * is left to the pumps. Files whose batch fails go back to the scan, for the pumps.
   */
  #sendAhead(scan: Scan): void {
    if (this.#walking && !scan.file) return;
    if (scan.todo.size === 0 || scan.todo.size > AHEAD_FILES) return;
    const sent: Pending[] = [];
    const jobs: ParseJob[] = [];
    for (const path of scan.todo) {
      const pending = this.#pending.get(path);
      if (pending === undefined) continue;
      if (pending.sent === null) {
        pending.sent = scan.needle;
        sent.push(pending);
      }
      jobs.push({ ...pending.job, needle: scan.needle });
    }
    if (jobs.length === 0) return;
    this.#workers.runAhead(jobs, (results) => this.#received(results), this.#stop.signal)
      .catch(() => {
        for (const pending of sent) {
          if (pending.sent !== scan.needle || this.#pending.get(pending.job.relPath) !== pending) {
            continue;
          }
          pending.sent = null;
          scan.queue.push(pending.job.relPath);
        }
        this.#wake();
      });
  }

  /** Resolve a scan whose files are all done, once the walk has listed them all. */
  #checkScan(scan: Scan): void {
    if ((!this.#walking || scan.file) && scan.todo.size === 0) scan.finish();
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
    return this.#dirty.size > 0 || this.#rescanAll;
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
      if (rel && !rel.startsWith("..")) this.#dirty.add(rel);
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
    this.#walking = true;
    this.#buildFailed = false;
    this.#pending.clear();
    this.#order = [];
    this.#next = 0;
    this.#walked = 0;
    this.#indexed = 0;
    this.#early.clear();
    this.#words.clear();
    if (this.#tables.clear()) this.#changedSinceSave = true;
    let failure: unknown = null;
    const pumps: Promise<void>[] = [];
    // The first pump to fail stops the others.
    const failed = new AbortController();
    const stop = AbortSignal.any([this.#stop.signal, failed.signal]);
    const wake = () => this.#wake();
    stop.addEventListener("abort", wake, { once: true });
    let stored = new Map<string, StoredFile>();
    try {
      if (this.#watch) this.#startWatcher();
      if (this.#persist) stored = await loadStore(this.project.root);
      this.#report(
        stored.size > 0
          ? `Checking the symbol index of ${stored.size} files`
          : "Indexing the project's symbols",
      );
      for (let i = 0; i < PUMPS; i++) {
        pumps.push(
          this.#pump(stop).catch((error) => {
            failed.abort(error);
            throw error;
          }),
        );
      }
      for await (const entry of this.project.walk(".")) {
        this.#stop.signal.throwIfAborted();
        if (entry.isDirectory) continue;
        if (this.#early.delete(entry.path)) continue; // sent ahead by a one-file scan
        if (grammarFor(entry.path) === null) {
          this.#tables.addOther(entry.path);
          continue;
        }
        const known = stored.get(entry.path);
        const absPath = this.project.absolute(entry.path);
        if (known !== undefined && unchangedOnDisk(absPath, known)) {
          // Checked here: a message to a worker would cost more than the check.
          this.#walked++;
          this.#indexed++;
          this.#tables.add(entry.path, known);
          continue;
        }
        this.#enqueue({
          job: {
            relPath: entry.path,
            absPath,
            known: known && { hash: known.hash, size: known.size, mtime: known.mtime },
          },
          stored: known,
          sent: null,
        });
      }
    } catch (error) {
      failure = error;
      this.#pending.clear(); // the pumps stop
    } finally {
      this.#walking = false;
      for (const scan of this.#scans) this.#checkScan(scan);
      this.#wake();
    }
    const results = await Promise.allSettled(pumps);
    stop.removeEventListener("abort", wake);
    this.#words.clear(); // every file is indexed now (or the build failed)
    const rejected = results.find((r) => r.status === "rejected");
    failure ??= rejected?.reason ?? null;
    if (failure === null) this.#stop.signal.throwIfAborted();
    for (const scan of this.#scans) scan.finish(failure ?? undefined);
    if (failure !== null) {
      this.#pending.clear();
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

  #enqueue(pending: Pending): void {
    const path = pending.job.relPath;
    this.#pending.set(path, pending);
    this.#order.push(path);
    this.#walked++;
    for (const scan of this.#scans) if (inScope(path, scan.scope)) this.#scanAdd(scan, path);
    // While walking, only full chunks are sent (see #take).
    if (this.#walked % BUILD_CHUNK === 0) this.#wake();
  }

  #wake(): void {
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const wake of wakers) wake();
  }

  /** Send chunks of the build's queue to the workers until it is empty and the walk done. */
  async #pump(stop: AbortSignal): Promise<void> {
    while (true) {
      stop.throwIfAborted();
      const jobs = this.#take();
      if (jobs.length > 0) {
        await this.#workers.run(jobs, (results) => this.#received(results), stop);
        continue;
      }
      if (!this.#walking && this.#pending.size === 0) return;
      // Nothing to send now: files with a worker may come back deferred, or the walk add more.
      await new Promise<void>((resolve) => this.#wakers.push(resolve));
    }
  }

  /**
   * The next chunk: the waiting searches' files first, then the build's own. While the walk
   * goes on, only full chunks (messages of a few files would cost more than their work).
   */
  #take(): ParseJob[] {
    const jobs: ParseJob[] = [];
    for (const scan of this.#scans) {
      if (this.#walking && !scan.file && scan.queue.length - scan.next < SCAN_CHUNK) continue;
      while (scan.next < scan.queue.length && jobs.length < SCAN_CHUNK) {
        const path = scan.queue[scan.next++]!;
        const pending = this.#pending.get(path);
        if (pending === undefined || pending.sent !== null || !scan.todo.has(path)) continue;
        pending.sent = scan.needle;
        jobs.push({ ...pending.job, needle: scan.needle });
      }
      if (scan.next === scan.queue.length && scan.next > 0) {
        scan.queue = [];
        scan.next = 0;
      }
      if (jobs.length >= SCAN_CHUNK) return jobs;
    }
    if (jobs.length > 0) return jobs;
    // While walking, a waiting search's files come first: the build's are listed with them.
    if (this.#walking && (this.#scans.size > 0 || this.#order.length - this.#next < BUILD_CHUNK)) {
      return jobs;
    }
    while (this.#next < this.#order.length && jobs.length < BUILD_CHUNK) {
      const path = this.#order[this.#next++]!;
      const pending = this.#pending.get(path);
      if (pending === undefined || pending.sent !== null) continue;
      pending.sent = "";
      jobs.push(pending.job);
    }
    if (this.#next > 4096 && this.#next * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#next);
      this.#next = 0;
    }
    return jobs;
  }

  /** Results of the build's or a search's chunk. */
  #received(results: readonly ParseResult[]): void {
    if (this.#disposed) return;
    for (const result of results) {
      const path = result.relPath;
      const pending = this.#pending.get(path);
      if (result.status === "deferred") {
        if (pending === undefined) continue;
        const needle = pending.sent ?? "";
        pending.sent = null;
        if (result.words !== undefined) this.#words.set(path, result.words);
        this.#order.push(path); // the build indexes it later
        for (const scan of this.#scans) {
          if (!scan.todo.has(path)) continue;
          const has = this.#words.contains(path, scan.needle);
          // Lacking the needle, it lacks every text containing it.
          if (has === false || (needle !== "" && scan.needle.includes(needle))) {
            scan.todo.delete(path);
          } else scan.queue.push(path);
        }
        continue;
      }
      this.#pending.delete(path);
      this.#words.delete(path);
      this.#apply(result, pending?.stored);
      // Not pending: the second result of a file a search sent ahead (see #sendAhead).
      if (pending !== undefined) this.#indexed++;
      for (const scan of this.#scans) scan.todo.delete(path);
    }
    for (const scan of this.#scans) this.#checkScan(scan);
    this.#wake();
    const now = performance.now();
    if (now - this.#lastReport > PROGRESS_MS) {
      this.#lastReport = now;
      this.#report(`Indexing symbols: ${this.#indexed}/${this.#walked} files`);
    }
  }
  #lastReport = 0;

  /** Index files through the workers and apply the results (after the first build). */
  async #runJobs(jobs: readonly ParseJob[], known: ReadonlyMap<string, StoredFile>): Promise<void> {
    await this.#workers.run(jobs, (results) => {
      if (this.#disposed) return;
      for (const result of results) this.#apply(result, known.get(result.relPath));
    }, this.#stop.signal);
  }

  #apply(result: ParseResult, known: StoredFile | undefined): void {
    if (result.status === "deferred") return; // only a search's scan sends needles
    if (result.status === "gone") {
      this.#remove(result.relPath);
      return;
    }
    if (result.status === "untrusted") {
      // Listed with the files the index does not parse: every search reads it.
      this.#remove(result.relPath);
      this.#tables.addOther(result.relPath);
      return;
    }
    if (result.status === "failed") {
      // Left to the language server: listed with the files the index does not parse.
      this.#remove(result.relPath);
      this.#tables.addOther(result.relPath);
      this.#failures++;
      if (this.#failures <= 3) {
        log.warn(
          `The symbol index could not parse ${result.relPath} (${result.error}); ` +
            "its declarations are found through the language server instead.",
        );
      }
      return;
    }
    let entry: StoredFile;
    if (result.status === "parsed") {
      const symbols = result.symbols ?? "[]";
      const named = result.names !== undefined && result.count !== undefined
        ? { names: result.names, count: result.count }
        : declaredNames(JSON.parse(symbols) as CompactSymbol[]);
      entry = {
        hash: result.hash,
        size: result.size,
        mtime: result.mtime,
        symbols,
        ...named,
        exact: result.exact ?? false,
      };
    } else {
      if (known === undefined) return;
      entry = { ...known, hash: result.hash, size: result.size, mtime: result.mtime };
    }
    // As on disk (a start from disk that found the file unchanged saves nothing).
    const unchanged = known !== undefined && known.hash === entry.hash &&
      known.mtime === entry.mtime && known.size === entry.size && known.symbols === entry.symbols &&
      known.exact === entry.exact;
    const before = this.#tables.files.get(result.relPath);
    if (
      before?.hash === entry.hash && before.symbols === entry.symbols &&
      before.exact === entry.exact
    ) {
      if (before.mtime !== entry.mtime) this.#changedSinceSave = true;
      this.#tables.refresh(result.relPath, entry);
      return;
    }
    if (before) this.#remove(result.relPath);
    this.#tables.removeOther(result.relPath);
    this.#tables.add(result.relPath, entry);
    if (!unchanged) this.#changedSinceSave = true;
  }

  /** Forget a path (indexed or not); the store on disk is then out of date. */
  #remove(relPath: string): void {
    if (this.#tables.remove(relPath)) this.#changedSinceSave = true;
  }

  /** Forget a path and everything below it. */
  #removeUnder(relPath: string): void {
    if (this.#tables.removeUnder(relPath)) this.#changedSinceSave = true;
  }

  // --- keeping current ------------------------------------------------------------------------

  #startWatcher(): void {
    const watch = this.#projectWatch;
    if (watch === null || this.#unsubscribe !== null) return;
    this.#unsubscribe = watch.subscribe({
      event: (event) => this.#noticed(event),
      // Events were lost, or none will come: the next answer walks the tree again.
      overflow: () => this.#rescanAll = true,
      ended: () => this.#rescanAll = true,
    });
    if (!watch.start()) log.debug(`The symbol index cannot watch ${this.project.root}.`);
  }

  #noticed(event: WatchEvent): void {
    for (const rel of event.rels) {
      if (!rel || rel.startsWith("..")) continue;
      const parts = rel.split("/");
      if (parts.slice(0, -1).some((p) => ALWAYS_IGNORED_DIRS.has(p))) continue;
      if (ALWAYS_IGNORED_DIRS.has(parts[parts.length - 1]!)) continue;
      if (parts[parts.length - 1] === ".gitignore") this.#rescanAll = true;
      this.#dirty.add(rel);
      // A pyvenv.cfg or a package.json may turn a folder into one that is not the project's.
      const marked = markedFolders(rel);
      if (marked.length > 0) {
        this.project.nonProject.reset();
        for (const folder of marked) this.#dirty.add(folder);
      }
    }
  }

  /**
   * Wait until the watcher has reported every change made before now (its barrier). False when
   * there is no watcher or it did not answer in time.
   */
  async #barrier(): Promise<boolean> {
    const watch = this.#projectWatch;
    if (watch === null || this.#unsubscribe === null) return false;
    return await watch.barrier();
  }

  /** Apply the changes made so far (see the module documentation). */
  #settle(waitForWatcher = true): Promise<void> {
    const run = async () => {
      if (waitForWatcher && !(await this.#barrier())) this.#rescanAll = true;
      if (this.#rescanAll) {
        this.#rescanAll = false;
        this.#dirty.clear();
        this.project.ignore.reset();
        this.project.nonProject.reset();
        await this.#rescan(".");
        return;
      }
      if (this.#dirty.size === 0) return;
      const paths = [...this.#dirty];
      this.#dirty.clear();
      await this.#update(paths);
    };
    this.#applying = this.#applying.then(run, run);
    return this.#applying;
  }

  /** Walk a folder again: files gone are dropped, new or changed ones indexed. */
  async #rescan(folder: string): Promise<void> {
    const present = new Set<string>();
    const jobs: ParseJob[] = [];
    const ignored = folder !== "." && this.project.isLeftOut(folder, true);
    if (!ignored) {
      for await (const entry of this.project.walk(folder)) {
        if (entry.isDirectory) continue;
        present.add(entry.path);
        if (grammarFor(entry.path) === null) this.#tables.addOther(entry.path);
        else jobs.push(this.#job(entry.path, true));
      }
    }
    const prefix = folder === "." ? "" : folder + "/";
    for (const f of this.#tables.allFiles()) {
      if ((prefix === "" || f.startsWith(prefix)) && !present.has(f)) this.#remove(f);
    }
    await this.#runJobs(jobs, this.#tables.files);
    this.#scheduleSave();
  }

  #job(relPath: string, trustTimes: boolean): ParseJob {
    const known = this.#tables.files.get(relPath);
    return {
      relPath,
      absPath: this.project.absolute(relPath),
      // A path reported as changed is hashed even when size and time look the same.
      known: known && (trustTimes ? known : { ...known, mtime: -1 }),
    };
  }

  async #update(paths: readonly string[]): Promise<void> {
    const jobs: ParseJob[] = [];
    for (const rel of paths) {
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(this.project.absolute(rel));
      } catch {
        this.#removeUnder(rel);
        continue;
      }
      if (info.isDirectory) {
        await this.#rescan(rel);
        continue;
      }
      if (this.project.isLeftOut(rel, false)) {
        this.#remove(rel);
      } else if (grammarFor(rel) === null) {
        this.#tables.addOther(rel);
      } else {
        jobs.push(this.#job(rel, false));
      }
    }
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
    if (this.#ownWorkers) this.#workers.close();
    try {
      await this.#build;
    } catch { /* nothing to save */ }
    await this.#applying.catch(() => {});
    await this.flush();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#ownWatch) await this.#projectWatch?.dispose();
  }
}

/**
 * Whether a file still has the size and modification time it was indexed with (then its stored
 * declarations stand, as a parse worker would decide too: index_file.ts).
 */
function unchangedOnDisk(absPath: string, known: StoredFile): boolean {
  try {
    const info = Deno.statSync(absPath);
    const mtime = info.mtime?.getTime() ?? 0;
    return info.isFile && info.size === known.size && mtime === known.mtime && mtime !== 0;
  } catch {
    return false; // a worker finds it gone
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
