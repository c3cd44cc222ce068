/**
 * The first build's queue of the declaration index (declaration_index.ts): the files the walk
 * listed and the workers have not indexed yet, sent in chunks by a few pumps while the walk goes
 * on, and the scans of searches that came before the build was done, whose files go first (see
 * `DeclarationIndex.prepareFor`); a scan's few files go at once, ahead of the pumps
 * (`sendAhead`). The words of the files a scan read and did not parse are kept
 * (unparsed_words.ts), so that a later scan decides from them which files may declare its name
 * without reading any again.
 *
 * A question that does not need the build holds it ({@linkcode BuildQueue.hold}): while held, the
 * build is paused (no chunk of its own goes out, its walk waits), unless something needs it:
 * whoever waits for the whole build ({@linkcode BuildQueue.want}), or a scan that needs the walk
 * or the pumps (one over a folder, or whose file must go through a pump after all). A scan of one
 * file sent ahead needs neither, so the question's own parses go on while the build waits.
 * @module
 */
import { inScope } from "./declaration_tables.ts";
import type { ParseJob, ParseResult } from "./worker_messages.ts";
import type { StoredFile } from "./store.ts";
import type { ParseWorkers } from "./workers.ts";
import { UnparsedWords } from "./unparsed_words.ts";

/** How often the build reports its progress, in ms. */
export const PROGRESS_MS = 1000;
/** Files per chunk of the build's own jobs (small: a search's jobs wait behind them). */
const BUILD_CHUNK = 64;
/** Files per message of a search's scan (cheap jobs: most files only read). */
const SCAN_CHUNK = 128;
/**
 * A search with at most this many files left to read or parse sends them to the workers at once,
 * ahead of the build's queue (ParseWorkers.runAhead), instead of waiting for a pump.
 */
const AHEAD_FILES = 256;

/** A file the build walked and has not indexed yet. */
export interface Pending {
  job: ParseJob;
  /** What the store on disk holds for it. */
  stored: StoredFile | undefined;
  /** With a worker now: the needle it was sent with ("" for none); null when not sent. */
  sent: string | null;
}

/** A search's scan of the files not indexed yet. */
export interface Scan {
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
  /** Batches of its files sent ahead (sendAhead) and not answered yet. */
  ahead: number;
  finish: (error?: unknown) => void;
}

/** What the queue hands its results to: the index. */
export interface BuildSink {
  /** Once true, results are dropped. */
  disposed(): boolean;
  /** Take in a file's result (never a deferred one); `stored` is what the store held for it. */
  apply(result: ParseResult, stored: StoredFile | undefined): void;
  /** A progress message of the build. */
  report(message: string): void;
  /** The build was paused, or resumed (see {@linkcode BuildQueue.paused}). */
  paused?(paused: boolean): void;
}

/** See the module documentation. */
export class BuildQueue {
  readonly #sink: BuildSink;
  /** Files walked and not indexed yet, in walk order from `#next`. */
  readonly #pending = new Map<string, Pending>();
  #order: string[] = [];
  #next = 0;
  /** The build is still walking the tree (more files may come). */
  walking = false;
  /** Files the build walked, and indexed so far. */
  #walked = 0;
  #indexed = 0;
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
  #lastReport = 0;
  /** Between {@linkcode reset} and {@linkcode buildEnded}: a build is under way. */
  #building = false;
  /** Questions holding the build back, and waiters needing all of it (see hold, want). */
  #holds = 0;
  #wants = 0;
  #paused = false;
  /** The walk's waits for the build to resume. */
  #resumers: Array<() => void> = [];

  constructor(sink: BuildSink) {
    this.#sink = sink;
  }

  /** Files the build walked so far. */
  get walked(): number {
    return this.#walked;
  }

  /** Files the build indexed so far. */
  get indexed(): number {
    return this.#indexed;
  }

  /**
   * Whether files were indexed or read already: changes made to them since must be seen before
   * a search's scan decides from them.
   */
  get readAny(): boolean {
    return this.#indexed > 0 || this.#words.size > 0;
  }

  /** Files walked and not indexed yet. */
  get size(): number {
    return this.#pending.size;
  }

  /** The walked file at `path` not indexed yet, if any. */
  get(path: string): Pending | undefined {
    return this.#pending.get(path);
  }

  /**
   * Whether the build is paused: held by a question ({@linkcode hold}) while nothing needs it.
   * Then the pumps send only searches' files and the walk waits ({@linkcode resumed}).
   */
  get paused(): boolean {
    return this.#paused;
  }

  /** Whether a question holds the build back ({@linkcode hold}), paused or not. */
  get held(): boolean {
    return this.#holds > 0;
  }

  /**
   * Hold the build back while a question runs that does not need it; call the result to
   * release. Holds nest, and last until the build ends.
   */
  hold(): () => void {
    return this.#counted(() => this.#holds++, () => this.#holds--);
  }

  /** Someone waits for the whole build: no hold pauses it until the result is called. */
  want(): () => void {
    return this.#counted(() => this.#wants++, () => this.#wants--);
  }

  #counted(take: () => void, give: () => void): () => void {
    take();
    this.#updatePause();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      give();
      this.#updatePause();
    };
  }

  /** Resolves when the build is not paused (at once if it is not), or when `signal` aborts. */
  resumed(signal?: AbortSignal): Promise<void> {
    if (!this.#paused || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener("abort", done);
        resolve();
      };
      signal?.addEventListener("abort", done, { once: true });
      this.#resumers.push(done);
    });
  }

  /**
   * Whether a scan needs the build going: one over a folder needs the walk to end (and the
   * pumps to send its files); one of a single file, the pumps when its file is still to do and
   * not on its way ahead (not sent yet, its batch failed, or the file came back unparsed).
   */
  #scansNeedBuild(): boolean {
    for (const scan of this.#scans) {
      if (!scan.file || (scan.todo.size > 0 && scan.ahead === 0)) return true;
    }
    return false;
  }

  #updatePause(): void {
    const paused = this.#building && this.#holds > 0 && this.#wants === 0 &&
      !this.#scansNeedBuild();
    if (paused === this.#paused) return;
    this.#paused = paused;
    this.#sink.paused?.(paused);
    if (paused) return;
    const resumers = this.#resumers;
    this.#resumers = [];
    for (const resume of resumers) resume();
    this.wake();
  }

  /** Start a build: nothing walked, nothing queued. */
  reset(): void {
    this.#building = true;
    this.walking = true;
    this.#pending.clear();
    this.#order = [];
    this.#next = 0;
    this.#walked = 0;
    this.#indexed = 0;
    this.#early.clear();
    this.#words.clear();
    this.#updatePause();
  }

  /** Drop every queued file (a failed build): the pumps stop. */
  clear(): void {
    this.#pending.clear();
  }

  /** A walked file indexed on the walk itself (unchanged since the store was written). */
  countIndexed(): void {
    this.#walked++;
    this.#indexed++;
  }

  /** These files changed since they were read: their words no longer decide a search. */
  forgetWords(paths: Iterable<string>): void {
    for (const path of paths) this.#words.delete(path);
  }

  /** Whether the walk should skip `path`, sent ahead of it by a one-file scan. */
  sentAhead(path: string): boolean {
    return this.#early.delete(path);
  }

  /** Queue a walked file for the workers. */
  enqueue(pending: Pending): void {
    const path = pending.job.relPath;
    this.#pending.set(path, pending);
    this.#order.push(path);
    this.#walked++;
    for (const scan of this.#scans) if (inScope(path, scan.scope)) this.#scanAdd(scan, path);
    // While walking, only full chunks are sent (see #take).
    if (this.#walked % BUILD_CHUNK === 0) this.wake();
  }

  /** The walk has ended: scans whose files are all done finish, and the pumps send the rest. */
  walkEnded(): void {
    this.walking = false;
    for (const scan of this.#scans) this.#checkScan(scan);
    this.wake();
  }

  wake(): void {
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const wake of wakers) wake();
  }

  /** Send chunks of the queue to the workers until it is empty and the walk done. */
  async pump(workers: Pick<ParseWorkers, "run">, stop: AbortSignal): Promise<void> {
    while (true) {
      stop.throwIfAborted();
      const jobs = this.#take();
      if (jobs.length > 0) {
        await workers.run(jobs, (results) => this.#received(results), stop);
        continue;
      }
      if (!this.walking && this.#pending.size === 0) return;
      // Nothing to send now: files with a worker may come back deferred, or the walk add more.
      await new Promise<void>((resolve) => this.#wakers.push(resolve));
    }
  }

  /**
   * Start a search's scan for `needle` of the files in `scope` not indexed yet. With `ahead`, the
   * scope is one file sent ahead of the walk; its job, when the walk has not listed it yet.
   * The scan is done when it calls `finish`; {@linkcode endScan} forgets it.
   */
  startScan(
    needle: string,
    scope: string,
    ahead: { job: ParseJob | null } | null,
    finish: (error?: unknown) => void,
  ): Scan {
    const scan: Scan = {
      needle,
      scope,
      todo: new Set(),
      queue: [],
      next: 0,
      total: 0,
      file: ahead !== null,
      ahead: 0,
      finish,
    };
    if (ahead?.job && !this.#pending.has(scope)) {
      // Not listed yet: sent now, so that the scan does not wait for the walk to reach it.
      this.#early.add(scope);
      this.enqueue({ job: ahead.job, stored: undefined, sent: null });
    }
    // A file whose words lack the needle cannot declare the name: it is neither read nor parsed
    // for this search. A scan of one file looks it up rather than go through every file queued.
    const paths = scan.file ? (this.#pending.has(scope) ? [scope] : []) : this.#pending.keys();
    for (const path of paths) {
      if (inScope(path, scope) && this.#words.contains(path, needle) !== false) {
        this.#scanAdd(scan, path);
      }
    }
    this.#scans.add(scan);
    this.#checkScan(scan);
    // A scan of one file is paused for in sendAhead, once its file is sent.
    if (!scan.file) this.#updatePause();
    this.wake();
    return scan;
  }

  endScan(scan: Scan): void {
    this.#scans.delete(scan);
    this.#updatePause();
  }

  /**
   * The build has ended: every scan finishes, with its failure if it failed, and the words read
   * are forgotten (every file is indexed now, or the build failed).
   */
  buildEnded(failure: unknown): void {
    this.#building = false;
    this.#updatePause();
    this.#words.clear();
    for (const scan of this.#scans) scan.finish(failure ?? undefined);
  }

  /**
   * Send a scan's few files to the workers now, ahead of the build's queue (the pumps take a
   * chunk only when the last one they sent is done, so a search waits behind up to four of
   * them otherwise). A file already in a chunk of the build's goes too: read and parsed twice,
   * rather than waited for behind that chunk's other files (the later result finds the same
   * content indexed). A scan with more files, or one made while the walk may still list more,
   * is left to the pumps. Files whose batch fails go back to the scan, for the pumps.
   */
  sendAhead(scan: Scan, workers: Pick<ParseWorkers, "runAhead">, stop: AbortSignal): void {
    try {
      this.#sendAhead(scan, workers, stop);
    } finally {
      // Whatever was not sent here needs the pumps: a paused build resumes for it.
      this.#updatePause();
    }
  }

  #sendAhead(scan: Scan, workers: Pick<ParseWorkers, "runAhead">, stop: AbortSignal): void {
    if (this.walking && !scan.file) return;
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
    scan.ahead++;
    workers.runAhead(jobs, (results) => this.#received(results), stop).catch(() => {
      for (const pending of sent) {
        if (pending.sent !== scan.needle || this.#pending.get(pending.job.relPath) !== pending) {
          continue;
        }
        pending.sent = null;
        scan.queue.push(pending.job.relPath);
      }
    }).finally(() => {
      scan.ahead--;
      // Files still to do go through the pumps now: a paused build resumes for them.
      this.#updatePause();
      this.wake();
    });
  }

  #scanAdd(scan: Scan, path: string): void {
    scan.todo.add(path);
    scan.queue.push(path);
    scan.total++;
  }

  /** Resolve a scan whose files are all done, once the walk has listed them all. */
  #checkScan(scan: Scan): void {
    if ((!this.walking || scan.file) && scan.todo.size === 0) scan.finish();
  }

  /**
   * The next chunk: the waiting searches' files first, then the build's own. While the walk
   * goes on, only full chunks (messages of a few files would cost more than their work).
   */
  #take(): ParseJob[] {
    const jobs: ParseJob[] = [];
    for (const scan of this.#scans) {
      if (this.walking && !scan.file && scan.queue.length - scan.next < SCAN_CHUNK) continue;
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
    if (jobs.length > 0 || this.#paused) return jobs;
    // While walking, a waiting search's files come first: the build's are listed with them.
    if (this.walking && (this.#scans.size > 0 || this.#order.length - this.#next < BUILD_CHUNK)) {
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
    if (this.#sink.disposed()) return;
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
      this.#sink.apply(result, pending?.stored);
      // Not pending: the second result of a file a search sent ahead (see sendAhead).
      if (pending !== undefined) this.#indexed++;
      for (const scan of this.#scans) scan.todo.delete(path);
    }
    for (const scan of this.#scans) this.#checkScan(scan);
    this.#updatePause();
    this.wake();
    const now = performance.now();
    if (now - this.#lastReport > PROGRESS_MS) {
      this.#lastReport = now;
      this.#sink.report(`Indexing symbols: ${this.#indexed}/${this.#walked} files`);
    }
  }
}
