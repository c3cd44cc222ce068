/**
 * Readiness of a language server (ARCHITECTURE.md §5 rule 1): work-done progress tokens the server creates
 * and reports on (`window/workDoneProgress/create`, `$/progress` begin/report/end), plus the
 * `experimental/serverStatus` signal of rust-analyzer-style servers. A server with any token
 * open, or that says it is not quiescent, is still loading: queries wait for it.
 * @module
 */
import type { LspProtocol as P } from "../deps.ts";

/** The value of a `$/progress` notification for work-done progress. */
export type WorkDoneValue =
  | P.WorkDoneProgressBegin
  | P.WorkDoneProgressReport
  | P.WorkDoneProgressEnd;

interface Task {
  title: string;
  message: string;
  percentage: number | undefined;
  begun: boolean;
}

/**
 * Prefix of the `workDoneToken`s Sextant puts into its own requests. Progress on them is the
 * progress of that request (e.g. "Finding references"), not project loading: it never makes the
 * server count as busy. Without our token, servers such as pyright create one per request.
 */
export const REQUEST_TOKEN_PREFIX = "sextant/";

/** Tokens created but never begun are forgotten after this long (servers that create eagerly). */
const UNBEGUN_TOKEN_TTL_MS = 10_000;

/**
 * A hold whose signal never came (a log line the server did not write, e.g. with its log level
 * turned down) is forgotten after this long, so it cannot make every query wait forever. Longer
 * than the engine's readiness limit (120 s): a project still loading then is rare, and its
 * queries fail with "try again later" rather than answer from half the project.
 */
export const HOLD_TTL_MS = 300_000;

export class ProgressTracker {
  readonly #now: () => number;
  readonly #tasks = new Map<string, Task & { created: number }>();
  readonly #waiters = new Set<() => void>();
  /** Increases whenever loading work starts; lets callers see work that began during a request. */
  #epoch = 0;
  /** From `experimental/serverStatus`; true when the server has not said so. */
  #quiescent = true;
  /** The server's own work-done progress is not loading (see {@linkcode ignoreServerProgress}). */
  #serverProgressIgnored = false;

  /** `now`: the clock, for tests. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * From now on the server's own work-done progress never makes it busy, and any it has open is
   * forgotten: for servers whose progress reports background checking, not project loading.
   * pyright's "N files to analyze" is such: it answers queries by analysing what they need on
   * demand, and it can leave that progress open after it has gone idle (its one reporter is shared
   * by background checking and diagnostics requests, and a closed file's count is not always
   * reported again), which would make every later query wait until it timed out.
   * Holds ({@linkcode hold}) and `experimental/serverStatus` still count.
   */
  ignoreServerProgress(): void {
    this.#serverProgressIgnored = true;
    for (const key of this.#tasks.keys()) if (!key.startsWith("hold:")) this.#tasks.delete(key);
    this.#notify();
  }

  /** `window/workDoneProgress/create`: the token counts as busy until its `end`. */
  create(token: string | number): void {
    if (isRequestToken(token) || this.#serverProgressIgnored) return;
    this.#tasks.set(String(token), {
      title: "",
      message: "",
      percentage: undefined,
      begun: false,
      created: this.#now(),
    });
    this.#epoch++;
  }

  /** A `$/progress` notification; values that are not work-done progress are ignored. */
  progress(token: string | number, value: unknown): void {
    if (!isWorkDoneValue(value) || isRequestToken(token) || this.#serverProgressIgnored) return;
    const key = String(token);
    if (value.kind === "end") {
      this.#tasks.delete(key);
      this.#notify();
      return;
    }
    const task = this.#tasks.get(key) ??
      { title: "", message: "", percentage: undefined, begun: false, created: this.#now() };
    if (value.kind === "begin") {
      task.begun = true;
      task.title = value.title ?? "";
      this.#epoch++;
    }
    if (value.message !== undefined) task.message = value.message;
    if (value.percentage !== undefined) task.percentage = value.percentage;
    this.#tasks.set(key, task);
    this.#notify();
  }

  /**
   * Count as busy until {@linkcode release}: for servers whose only sign of having loaded the
   * project is a log line (pyright's "Found N source files").
   */
  hold(name: string, title: string): void {
    this.#tasks.set(`hold:${name}`, {
      title,
      message: "",
      percentage: undefined,
      begun: true,
      created: this.#now(),
    });
    this.#epoch++;
    this.#notify();
  }

  release(name: string): void {
    if (this.#tasks.delete(`hold:${name}`)) this.#notify();
  }

  /** rust-analyzer's `experimental/serverStatus` notification. */
  serverStatus(status: { quiescent?: boolean; health?: string }): void {
    const quiescent = status.quiescent !== false;
    if (!quiescent && this.#quiescent) this.#epoch++;
    this.#quiescent = quiescent;
    this.#notify();
  }

  /** Work counter: compare before and after a request to notice loading that began meanwhile. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Whether the server is loading or analysing now. */
  get busy(): boolean {
    this.#expire();
    return !this.#quiescent || this.#tasks.size > 0;
  }

  /** A short human text of what the server is doing, e.g. "Initializing JS/TS… (40%)". */
  describe(): string {
    const parts: string[] = [];
    for (const task of this.#tasks.values()) {
      if (!task.begun) continue;
      let text = task.title || "working";
      if (task.message) text += `: ${task.message}`;
      if (task.percentage !== undefined) text += ` (${Math.round(task.percentage)}%)`;
      parts.push(text);
    }
    if (!this.#quiescent) parts.push("indexing");
    return parts.join("; ") || "loading";
  }

  /**
   * Resolve once the server is idle. Rejects with `onTimeout()`'s error after `timeoutMs`, or
   * with the signal's reason. `report` hears every change while waiting.
   */
  async whenIdle(options: {
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    report?: ((text: string) => void) | undefined;
    onTimeout: () => Error;
  }): Promise<void> {
    if (!this.busy) return;
    options.signal?.throwIfAborted();
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    let lastReport = "";
    const check = () => {
      if (!this.busy) return resolve();
      const text = this.describe();
      if (text !== lastReport) {
        lastReport = text;
        options.report?.(text);
      }
    };
    const onAbort = () => reject(options.signal?.reason);
    const timer = setTimeout(() => reject(options.onTimeout()), options.timeoutMs);
    // Tokens created but never begun expire on their own; look again now and then for them.
    const sweep = setInterval(check, 1_000);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    this.#waiters.add(check);
    check();
    try {
      await promise;
    } finally {
      clearTimeout(timer);
      clearInterval(sweep);
      this.#waiters.delete(check);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Hear what the server is doing (as {@linkcode describe} says it) whenever that changes while
   * it is busy, until the returned function is called. Waits for nothing.
   */
  watch(report: (text: string) => void): () => void {
    let last = "";
    const check = () => {
      if (!this.busy) return;
      const text = this.describe();
      if (text !== last) report(last = text);
    };
    this.#waiters.add(check);
    check();
    return () => this.#waiters.delete(check);
  }

  /** Forget everything (the server process ended). Waiters are released. */
  reset(): void {
    this.#tasks.clear();
    this.#quiescent = true;
    this.#notify();
  }

  #expire(): void {
    const now = this.#now();
    for (const [key, task] of this.#tasks) {
      const ttl = key.startsWith("hold:")
        ? HOLD_TTL_MS
        : task.begun
        ? Infinity
        : UNBEGUN_TOKEN_TTL_MS;
      if (now - task.created > ttl) this.#tasks.delete(key);
    }
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

let tokenCounter = 0;

/**
 * Give a request our own `workDoneToken` when its params take one, so the server reports the
 * request's progress there instead of creating a token that would look like project loading.
 */
export function withRequestToken(method: string, params: unknown): unknown {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return params;
  if ("workDoneToken" in params || method.endsWith("/resolve")) return params;
  const takesToken = method.startsWith("textDocument/") || method.startsWith("callHierarchy/") ||
    method.startsWith("typeHierarchy/") || method === "workspace/symbol" ||
    method === "workspace/executeCommand" || method === "workspace/diagnostic";
  if (!takesToken) return params;
  return { ...params, workDoneToken: `${REQUEST_TOKEN_PREFIX}${++tokenCounter}` };
}

function isRequestToken(token: string | number): boolean {
  return typeof token === "string" && token.startsWith(REQUEST_TOKEN_PREFIX);
}

function isWorkDoneValue(value: unknown): value is WorkDoneValue {
  if (typeof value !== "object" || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === "begin" || kind === "report" || kind === "end";
}
