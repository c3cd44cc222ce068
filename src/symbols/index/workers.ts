/**
 * A pool of parse workers (Deno Workers running parse_worker.ts). Jobs go out in batches to
 * whichever worker is free; workers start on demand and stop when idle, so the grammars'
 * memory is held only while files are being parsed. Each worker is a V8 isolate with
 * tree-sitter's WASM (~25–35 MB), so after a build (more files than one batch) they stop at
 * once; after a few files (an edit, the watcher) they wait `idleMs` for the next ones.
 *
 * A search's batches (jobs with a needle: the files a question waits for) go before the build's
 * batches that wait for a worker. While the build is held ({@linkcode ParseWorkers.hold}), its
 * batches get no worker at all: the cores are the question's (its scan of the candidate files,
 * the server's project load, the parses it asks for). The holder (declaration_index.ts) lets go
 * whenever anything waits for the build, so that nothing waits on a build it holds back itself.
 * Held, the pool also grows to one worker at most: a worker's start (its isolate, tree-sitter's
 * WebAssembly) costs more CPU than a question's few files, which one worker parses in time.
 *
 * A search's few files may also go ahead of every waiting batch ({@linkcode ParseWorkers.runAhead}):
 * to a free worker, or else at once to a busy one, beside the batch it is working on.
 *
 * Narrowed ({@linkcode ParseWorkers.widen}), the pool also grows to one worker at most: its owner
 * (declaration_index.ts) widens it only for builds long enough to pay for a second worker's
 * memory.
 * @module
 */
import { ownUrl } from "../../own_files.ts";
import type { ParseJob, ParseReply, ParseRequest, ParseResult } from "./worker_messages.ts";

/** Options of {@linkcode ParseWorkers}. */
export interface ParseWorkersOptions {
  /** How many workers at most (default: the number of cores, at most 4). */
  size?: number;
  /** Files per message (default 16). */
  batch?: number;
  /** Idle time before the workers stop after a few files (default 20 s). */
  idleMs?: number;
  /** Idle time before they stop after a build: more files than one batch (default 1 s). */
  buildIdleMs?: number;
}

/**
 * The parse worker's module, at its repository path (own_files.ts): beside this one in the
 * checkout; under the entry point's folder in a compiled executable, where
 * scripts/release/compile.ts embeds it (its bundle has no such neighbour, nor has the start
 * bundle).
 */
function workerUrl(): string {
  return ownUrl("src/symbols/index/parse_worker.ts").href;
}

interface Slot {
  worker: Worker;
  busy: boolean;
  /** Busy with a batch of the build's (no needle), not a search's. */
  build: boolean;
  /** Batches sent ahead to it while busy (see runAhead). */
  ahead: number;
}

interface Waiter {
  /** A search's batch: served before the build's. */
  urgent: boolean;
  resolve: (slot: Slot) => void;
  reject: (error: Error) => void;
}

/** See the module documentation. */
export class ParseWorkers {
  readonly #size: number;
  readonly #batch: number;
  readonly #idleMs: number;
  readonly #buildIdleMs: number;
  /** Files given since the workers were last all idle (the idle time depends on it). */
  #filesSinceIdle = 0;
  readonly #slots: Slot[] = [];
  readonly #waiting: Waiter[] = [];
  /** How many holds are taken (see {@linkcode hold}). */
  #holds = 0;
  /** Whether the pool may grow past one worker (see {@linkcode widen}). */
  #wide = true;
  /** The rejecters of the batches sent and not answered yet (close fails them). */
  readonly #pending = new Set<(error: Error) => void>();
  #nextId = 1;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: ParseWorkersOptions = {}) {
    this.#size = Math.max(1, options.size ?? Math.min(navigator.hardwareConcurrency || 2, 4));
    this.#batch = options.batch ?? 16;
    this.#idleMs = options.idleMs ?? 20_000;
    this.#buildIdleMs = options.buildIdleMs ?? 1_000;
  }

  /**
   * Index the files; `onResults` gets each batch as it completes (in no particular order).
   * Resolves when every file is done.
   */
  async run(
    jobs: readonly ParseJob[],
    onResults: (results: ParseResult[]) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    if (this.#closed) throw new Error("The parse workers were closed.");
    clearTimeout(this.#idleTimer);
    this.#filesSinceIdle += jobs.length;
    const batches: ParseJob[][] = [];
    // Smaller batches when there are few files, so that every worker gets some.
    const per = Math.max(1, Math.min(this.#batch, Math.ceil(jobs.length / this.#size)));
    for (let i = 0; i < jobs.length; i += per) batches.push(jobs.slice(i, i + per));
    const urgent = jobs.some((job) => job.needle !== undefined);
    await Promise.all(batches.map(async (batch) => {
      signal?.throwIfAborted();
      const slot = await this.#acquire(urgent);
      try {
        signal?.throwIfAborted();
        onResults(await this.#send(slot, batch));
      } finally {
        this.#release(slot);
      }
    }));
  }

  /**
   * {@linkcode run} for a search, ahead of the batches waiting for a worker: a batch goes to a
   * free worker (or a new one, up to the pool's size, one while held) as any search's batch would,
   * or else at once to the busy worker with the fewest batches sent ahead, where it interleaves
   * with the batch it is working on (the worker's handler awaits between files, so it takes up
   * the other batch's next file in between). For the few files a search needs now while the build keeps every
   * worker busy: they wait for a file's work, not for a batch's. Never held ({@linkcode hold}),
   * and it never waits for a worker, so a held build cannot hold it back.
   */
  async runAhead(
    jobs: readonly ParseJob[],
    onResults: (results: ParseResult[]) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    if (this.#closed) throw new Error("The parse workers were closed.");
    clearTimeout(this.#idleTimer);
    this.#filesSinceIdle += jobs.length;
    const per = Math.max(1, Math.min(this.#batch, Math.ceil(jobs.length / this.#size)));
    const batches: ParseJob[][] = [];
    for (let i = 0; i < jobs.length; i += per) batches.push(jobs.slice(i, i + per));
    await Promise.all(batches.map(async (batch) => {
      signal?.throwIfAborted();
      if (this.#slots.length < this.#limit() || this.#slots.some((s) => !s.busy)) {
        // A worker is free, or may be started: a search's batch takes it before any waiting.
        const slot = await this.#acquire(true);
        try {
          signal?.throwIfAborted();
          onResults(await this.#send(slot, batch));
        } finally {
          this.#release(slot);
        }
        return;
      }
      // Every worker is busy: beside the build's batch rather than another search's, when tied.
      const slot = this.#slots.reduce((a, b) =>
        b.ahead < a.ahead || (b.ahead === a.ahead && b.build && !a.build) ? b : a
      );
      slot.ahead++;
      try {
        onResults(await this.#send(slot, batch));
      } finally {
        slot.ahead--;
        // A crashed worker (no longer a slot) is replaced for whoever waits.
        this.#dispatch();
        this.#idleWhenQuiet();
      }
    }));
  }

  /**
   * Hold the build back while a question runs: until the returned release is called, the
   * build's batches (jobs without a needle) get no worker; a batch already on a worker ends.
   * Searches' batches and {@linkcode runAhead} are not held. Holds nest.
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      this.#dispatch();
    };
  }

  /**
   * Let the pool grow to its size (`true`, as it starts) or to one worker (`false`). A worker
   * is a V8 isolate with tree-sitter's WebAssembly, 25–30 MB while it lives; a second one halves
   * a long build's time, and a short build's is a few seconds on one. Narrowing stops no worker
   * that runs: the idle ones stop as they would.
   */
  widen(wide: boolean): void {
    this.#wide = wide;
    if (wide) this.#dispatch();
  }

  /** How many workers may run: one while held or narrowed (see the module documentation). */
  #limit(): number {
    return this.#holds > 0 || !this.#wide ? 1 : this.#size;
  }

  #acquire(urgent: boolean): Promise<Slot> {
    if (this.#closed) return Promise.reject(new Error("The parse workers were closed."));
    clearTimeout(this.#idleTimer);
    const slot = new Promise<Slot>((resolve, reject) =>
      this.#waiting.push({ urgent, resolve, reject })
    );
    this.#dispatch();
    return slot;
  }

  /**
   * Give free workers (or new ones, up to the pool's size) to the waiting batches: searches'
   * first, in order; then the build's, in order, unless held.
   */
  #dispatch(): void {
    while (this.#waiting.length > 0 && !this.#closed) {
      let next = this.#waiting.findIndex((w) => w.urgent);
      if (next < 0 && this.#holds === 0) next = 0;
      if (next < 0) return;
      let slot = this.#slots.find((s) => !s.busy);
      if (!slot) {
        if (this.#slots.length >= this.#limit()) return;
        slot = {
          worker: new Worker(workerUrl(), { type: "module" }),
          busy: false,
          build: false,
          ahead: 0,
        };
        this.#slots.push(slot);
      }
      const [waiter] = this.#waiting.splice(next, 1);
      slot.busy = true;
      slot.build = !waiter!.urgent;
      waiter!.resolve(slot);
    }
  }

  #release(slot: Slot): void {
    slot.busy = false;
    slot.build = false;
    // A crashed worker (no longer a slot) is replaced by a new one for whoever waits.
    this.#dispatch();
    this.#idleWhenQuiet();
  }

  /** When no worker has work left, nor any batch waits, stop them after the idle time. */
  #idleWhenQuiet(): void {
    if (this.#waiting.length === 0 && this.#slots.every((s) => !s.busy && s.ahead === 0)) {
      clearTimeout(this.#idleTimer);
      const built = this.#filesSinceIdle > this.#batch;
      this.#filesSinceIdle = 0;
      this.#idleTimer = setTimeout(
        () => this.#stopIdle(),
        built ? this.#buildIdleMs : this.#idleMs,
      );
      Deno.unrefTimer(this.#idleTimer);
    }
  }

  #send(slot: Slot, jobs: ParseJob[]): Promise<ParseResult[]> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onMessage = (event: MessageEvent<ParseReply>) => {
        if (event.data.id !== id) return;
        cleanup();
        if ("error" in event.data) reject(new Error(`Parse worker failed: ${event.data.error}`));
        else resolve(event.data.results);
      };
      const onError = (event: ErrorEvent) => {
        event.preventDefault();
        cleanup();
        // A dead worker is replaced on the next acquire.
        this.#remove(slot);
        reject(new Error(`Parse worker crashed: ${event.message}`));
      };
      const onClose = (error: Error) => {
        cleanup();
        reject(error);
      };
      const cleanup = () => {
        this.#pending.delete(onClose);
        slot.worker.removeEventListener("message", onMessage);
        slot.worker.removeEventListener("error", onError);
      };
      this.#pending.add(onClose);
      slot.worker.addEventListener("message", onMessage);
      slot.worker.addEventListener("error", onError);
      const request: ParseRequest = { id, jobs };
      slot.worker.postMessage(request);
    });
  }

  #remove(slot: Slot): void {
    const i = this.#slots.indexOf(slot);
    if (i >= 0) this.#slots.splice(i, 1);
    slot.worker.terminate();
  }

  #stopIdle(): void {
    if (this.#slots.some((s) => s.busy || s.ahead > 0)) return;
    for (const slot of this.#slots.splice(0)) slot.worker.terminate();
  }

  /** How many workers are running. */
  get running(): number {
    return this.#slots.length;
  }

  /** Stop every worker; batches in flight and later runs fail. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    for (const slot of this.#slots.splice(0)) slot.worker.terminate();
    const closed = new Error("The parse workers were closed.");
    for (const reject of [...this.#pending]) reject(closed);
    for (const waiter of this.#waiting.splice(0)) waiter.reject(closed);
  }
}
