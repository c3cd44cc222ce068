/**
 * The host side of code mode: one child process per session (per MCP session and `session` id),
 * started on first use and kept warm, so top-level declarations persist between cells. Each cell
 * is rewritten (rewrite.ts) and imported by the child (child.ts) from a `data:` URL; every API
 * call it makes comes back here over the child's stdout and runs through the tool layer that the
 * caller passes in ({@linkcode RunOptions.call}).
 *
 * The child is where the agent's code can be capped and killed without touching anyone else:
 * - no permissions at all, no npm, jsr or remote modules (`--no-npm`, `--no-remote`,
 *   `--cached-only`), and a `DENO_DIR` that cannot be created, so the Cache API and
 *   `localStorage` have nowhere to write and nothing to share between sessions;
 * - memory: V8's old space is capped ({@linkcode HEAP_MB}), and on Unix the process's data
 *   segment too ({@linkcode DATA_LIMIT_MB}, `ulimit -d`, which is what stops `ArrayBuffer`s: they
 *   live outside V8's heap, and an address-space limit cannot be used because V8 reserves tens
 *   of GB of address space at start). Past the heap cap the child dies; past the data cap an
 *   `ArrayBuffer` allocation throws a `RangeError` in the agent's code;
 * - CPU: a time-out or a cancellation kills the process group (a busy loop ignores everything
 *   else); {@linkcode CPU_LIMIT_S} (`ulimit -t`) ends one whose host died;
 * - messages: one line at most {@linkcode MAX_MESSAGE_BYTES}, at most {@linkcode MAX_CALLS}
 *   API calls in flight and {@linkcode MESSAGES_PER_SECOND} read (past either the host stops
 *   reading the child's stdout for a while, so a flood fills the pipe and blocks the child, not
 *   the host), and any malformed message stops it.
 * Losing the process loses that session's variables only, and the answer says so.
 *
 * The child runs as `deno run` of a `data:` URL; a compiled Sextant has no `deno run` and starts
 * itself with the hidden command child.ts `REPL_CHILD_COMMAND` (main.ts). Either is started,
 * spoken to and killed through src/own_child.ts, in a process group of its own; a child whose
 * host dies sees its stdin close and exits.
 * @module
 */
import { LineIndex } from "../edit/line_index.ts";
import { OwnChild, ownChildArgs } from "../own_child.ts";
import { childUrl, REPL_CHILD_COMMAND } from "./child.ts";
import { CellSyntaxError, rewriteCell, type Rewritten } from "./rewrite.ts";

/** V8's old-space limit of a child, in MB. */
export const HEAP_MB = 512;
/**
 * The data-segment limit of a child on Unix, in MB: the heap, `ArrayBuffer`s and what the runtime
 * itself maps writable (about 540 MB with Deno 2.9 on Linux x86-64, mostly reserved and never
 * touched; measured by the smallest limit under which `deno run` starts).
 */
export const DATA_LIMIT_MB = 640 + HEAP_MB;
/** The longest message line a child may send. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** API calls of one child running at once; further ones wait, unread, in the pipe. */
export const MAX_CALLS = 8;
/**
 * Messages per second the host reads from one child (with as many in a burst); past that it
 * reads slower, so that a flood of cheap messages (unknown tools, `s.info`, calls after a cell
 * ended) costs the host a bounded share of its time, and the child waits on a full pipe.
 */
export const MESSAGES_PER_SECOND = 5000;
/**
 * CPU seconds a child may use in its whole life. Time-outs are what stop a cell; this only ends a
 * child left spinning when its host died without killing it (it would exit at its stdin's end,
 * but a busy loop never looks).
 */
export const CPU_LIMIT_S = 3600;
/**
 * Bytes of answers the host may hold for a child that has not read them yet; past it the child is
 * stopped (code that stops reading, e.g. a synchronous loop writing requests to stdout, would
 * otherwise make the host keep every answer).
 */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;
/** How long a child may take to start and say it is ready. */
const START_MS = 30_000;
/** Bytes of a child's stderr kept, to tell why it died. */
const STDERR_BYTES = 8192;

/** A cell's URL in a message or stack; Deno abbreviates long ones as `<start>......<end>`. */
const DATA_URL = /data:application\/typescript;base64,([A-Za-z0-9+/=.]+)/g;
const FRAME = /data:application\/typescript;base64,([A-Za-z0-9+/=.]+):(\d+):(\d+)/g;

/** Whether a URL as printed (maybe abbreviated) is `url`. */
function sameCell(printed: string, url: string): boolean {
  const ours = url.slice(url.indexOf(",") + 1);
  if (printed === ours) return true;
  const [start, end] = printed.split("......");
  return end !== undefined && ours.startsWith(start!) && ours.endsWith(end);
}

/** What an API call or `s.info` answers. */
export interface Answer {
  text: string;
  isError: boolean;
}

export interface RunOptions {
  /** The tools the session exposes, by facade (what `s` offers). */
  facades: Record<string, string[]>;
  /** Tools `s` leaves out, by facade, with the reason. */
  hidden?: Record<string, Record<string, string>>;
  /** Runs one offered tool through the tool layer; never throws. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<Answer>;
  /** `s.info(topic)`: the text, or a throw whose message is the error. */
  info(topic: string | null): string;
  timeoutSeconds: number;
  /** The longest answer the agent takes; longer values and errors are cut in the child. */
  maxChars: number;
  /** Aborted when the MCP call is cancelled (or the repl call itself times out). */
  signal: AbortSignal;
}

export interface RunResult {
  /** The answer; a value longer than `maxChars` is cut, see `length`. */
  text: string;
  isError: boolean;
  /** The whole answer's length, which is more than `text.length` when the value was cut. */
  length: number;
  /** Why the session's variables were lost before this cell ran, when they were. */
  reset?: string;
}

interface ChildError {
  name: string;
  message: string;
  stack: string;
}

interface Done {
  type: "done";
  id: number;
  output: string;
  dropped: number;
  value?: string | null;
  length?: number;
  error?: ChildError;
}

/** Why a run ended without the child's answer. */
class Interrupted extends Error {}

function dataUrl(source: string): string {
  const bytes = new TextEncoder().encode(source);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:application/typescript;base64,${btoa(binary)}`;
}

/** The program, arguments and environment that start a child. */
export function childCommand(
  execPath = Deno.execPath(),
): { program: string; args: string[]; env: Record<string, string> } {
  const own = ownChildArgs({
    module: childUrl(),
    flags: [
      "--quiet",
      "--no-config",
      "--no-lock",
      "--no-remote",
      "--no-npm",
      "--cached-only",
      "--no-prompt",
      "--ignore-env",
      // Remote imports are refused by --no-remote already; this makes the permission say so.
      "--deny-import",
    ],
    command: REPL_CHILD_COMMAND,
  }, execPath);
  const env: Record<string, string> = {
    DENO_V8_FLAGS: `--max-old-space-size=${HEAP_MB}`,
    NO_COLOR: "1",
    // The CLI's own look for a newer release is a request to the network too.
    DENO_NO_UPDATE_CHECK: "1",
  };
  if (Deno.build.os === "windows") return { program: execPath, args: own, env };
  // A folder below /dev/null cannot exist: Deno's origin storage (Cache API, localStorage) fails
  // instead of writing to disk where another session's child would find it.
  env.DENO_DIR = "/dev/null/sextant-repl";
  const limit = `ulimit -d ${DATA_LIMIT_MB * 1024} && ulimit -t ${CPU_LIMIT_S} && exec "$0" "$@"`;
  return { program: "sh", args: ["-c", limit, execPath, ...own], env };
}

/** A message from the child, checked; `null` when it is not one the protocol knows. */
type Message =
  | { type: "ready"; permissions: Record<string, string> }
  | { type: "call"; call: number; tool: string; args: Record<string, unknown> }
  | { type: "info"; call: number; topic: string | null }
  | { type: "pong"; cpu: number }
  | Done;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isCallId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

function checkMessage(value: unknown): Message | null {
  if (!isRecord(value)) return null;
  switch (value.type) {
    case "ready":
      return isRecord(value.permissions) ? value as Message : null;
    case "call":
      if (!isCallId(value.call) || typeof value.tool !== "string") return null;
      if (value.args !== undefined && !isRecord(value.args)) return null;
      return { type: "call", call: value.call, tool: value.tool, args: value.args ?? {} };
    case "info":
      if (!isCallId(value.call)) return null;
      if (value.topic !== null && typeof value.topic !== "string") return null;
      return value as Message;
    case "pong":
      return typeof value.cpu === "number" ? value as Message : null;
    case "done": {
      const error = value.error;
      const ok = typeof value.id === "number" && typeof value.output === "string" &&
        typeof value.dropped === "number" &&
        (value.value === undefined || value.value === null || typeof value.value === "string") &&
        (value.length === undefined || typeof value.length === "number") &&
        (error === undefined ||
          (isRecord(error) && typeof error.name === "string" &&
            typeof error.message === "string" && typeof error.stack === "string"));
      return ok ? value as unknown as Done : null;
    }
    default:
      return null;
  }
}

/** One running child process, its channel and the host's caps on what it sends. */
class Child {
  readonly #process: OwnChild;
  #inFlight = 0;
  #slotFreed: (() => void) | null = null;
  #tokens = MESSAGES_PER_SECOND;
  #refilled = performance.now();
  /** Resolves when the process has exited and its stderr is read. */
  readonly exited: Promise<Deno.CommandStatus>;
  /** Gets every checked message; a `call` is handed over only when a slot is free. */
  onMessage: (message: Message) => void = () => {};
  /** Gets the child's CPU time (µs) when it answers a ping. */
  onPong: (cpuMicroseconds: number) => void = () => {};
  /** Told once when the process has exited. */
  onExit: (status: Deno.CommandStatus) => void = () => {};

  constructor() {
    const { program, args, env } = childCommand();
    this.#process = new OwnChild(program, args, {
      name: "the code's process",
      env,
      stderrBytes: STDERR_BYTES,
      maxLineBytes: MAX_MESSAGE_BYTES,
      onLine: (line) => this.#handle(line),
    });
    this.exited = this.#process.exited.then((status) => {
      this.onExit(status);
      return status;
    });
  }

  get pid(): number {
    return this.#process.pid;
  }

  /** Why the host stopped it, when it did. */
  get stopped(): string | null {
    return this.#process.stopped;
  }

  /** The end of what the child wrote to stderr. */
  stderr(): string {
    return this.#process.stderr();
  }

  /** Queue a message; a child that leaves more than MAX_UNREAD_BYTES unread is stopped. */
  send(message: Record<string, unknown>): void {
    if (this.stopped) return;
    let bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    if (bytes.length > MAX_UNREAD_BYTES && message.type === "answer") {
      // One answer over the whole budget is refused alone; the code goes on.
      bytes = new TextEncoder().encode(
        JSON.stringify({
          type: "answer",
          call: message.call,
          text: `Error: the answer has ${bytes.length} bytes, more than code mode takes at once ` +
            `(${MAX_UNREAD_BYTES}); ask for less (max_answer_chars, a narrower query).`,
          isError: true,
        }) + "\n",
      );
    }
    if (this.#process.unread + bytes.length > MAX_UNREAD_BYTES) {
      void this.kill(
        `the code's process stopped reading its answers (more than ${
          MAX_UNREAD_BYTES / 1024 / 1024
        } MB of them waited)`,
      );
      return;
    }
    this.#process.sendLine(bytes);
  }

  /** Kill the whole group at once; idempotent. */
  async kill(why: string): Promise<void> {
    await this.#process.kill(why);
    await this.exited;
  }

  /** A slot for an API call has ended. */
  callEnded(): void {
    this.#inFlight--;
    const wake = this.#slotFreed;
    this.#slotFreed = null;
    wake?.();
  }

  /** Wait until the child may send another message (a token bucket). */
  async #throttle(): Promise<void> {
    for (;;) {
      const now = performance.now();
      this.#tokens = Math.min(
        MESSAGES_PER_SECOND,
        this.#tokens + (now - this.#refilled) * MESSAGES_PER_SECOND / 1000,
      );
      this.#refilled = now;
      if (this.#tokens >= 1) return void this.#tokens--;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.ceil((1 - this.#tokens) * 1000 / MESSAGES_PER_SECOND))
      );
    }
  }

  /** Check and deliver one line; false when the child was stopped for it. */
  async #handle(line: string): Promise<boolean> {
    await this.#throttle();
    let message: Message | null = null;
    try {
      message = checkMessage(JSON.parse(line));
    } catch { /* not JSON */ }
    if (!message) {
      const shown = line.length > 80 ? `${line.slice(0, 80)}...` : line;
      await this.kill(
        `the code's process wrote something that is not a message of code mode ` +
          `(${JSON.stringify(shown)}); code must not write to stdout`,
      );
      return false;
    }
    if (message.type === "pong") {
      this.onPong(message.cpu);
      return true;
    }
    if (message.type === "call") {
      while (this.#inFlight >= MAX_CALLS) {
        await new Promise<void>((resolve) => this.#slotFreed = resolve);
      }
      this.#inFlight++;
    }
    this.onMessage(message);
    return true;
  }
}

/** Why a child ended, from its exit status and stderr, as a clause of the answer. */
function exitReason(status: Deno.CommandStatus, stderr: string): string {
  if (/out of memory|Reached heap limit|allocation failed/i.test(stderr)) {
    return `the code ran out of memory (code mode caps it at ${HEAP_MB} MB of heap` +
      (Deno.build.os === "windows" ? ")" : `, ${DATA_LIMIT_MB} MB with ArrayBuffers)`);
  }
  if (status.signal === "SIGXCPU") {
    return `the code's process used up its ${CPU_LIMIT_S} s of CPU time`;
  }
  if (status.signal) return `the code's process was killed by ${status.signal}`;
  return `the code's process exited with code ${status.code} (Deno.exit or process.exit?)`;
}

/** Where a child's process slot comes from: the caps of processes per session and service. */
export interface ReplSlots {
  /** Make room for `process` to start a child, or throw why there is none. */
  admit(process: ReplProcess): void;
  /** `process`'s child has ended. */
  release(process: ReplProcess): void;
}

/**
 * CPU seconds a child may use after its answer was sent (work its cell left running that the
 * child's own timer tracking cannot stop, such as a MessageChannel ping-pong); past it the host
 * stops the child. An idle child is asked for its CPU time every second while it is busy, and
 * less often (up to every {@linkcode IDLE_CHECK_MAX_MS}) while it is quiet.
 */
export const IDLE_CPU_S = 1;
/** How often a busy idle child is asked for its CPU time. */
const IDLE_CHECK_MS = 1000;
/** How often a quiet idle child is asked, at most. */
export const IDLE_CHECK_MAX_MS = 30_000;
/** How long an idle child may take to answer that question before it counts as stuck. */
export const IDLE_ANSWER_S = 30;

/** One session's child and the state of its current run. */
export class ReplProcess {
  #child: Child | null = null;
  #starting: Promise<Child> | null = null;
  #runs = 0;
  #running = 0;
  /** The run before this one: runs of one session take turns (they share the child). */
  #turn: Promise<unknown> = Promise.resolve();
  /** Why the session's state was lost since its last answer, told with the next one. */
  #reset: string | null = null;
  #idleWatch: { timer: ReturnType<typeof setTimeout>; child: Child } | null = null;
  readonly #slots: ReplSlots | null;
  /** The session (MCP session) it belongs to. */
  readonly owner: object;
  /** When a cell last ran (ms, performance.now()). */
  lastUsed = performance.now();

  constructor(owner: object = {}, slots: ReplSlots | null = null) {
    this.owner = owner;
    this.#slots = slots;
  }

  /** Whether a cell is running (or waiting for its turn). */
  get busy(): boolean {
    return this.#running > 0;
  }

  /** Whether a child process is running. */
  get live(): boolean {
    return this.#child !== null;
  }

  /** Note why the session's variables are gone; the next answer says it. */
  noteReset(why: string): void {
    this.#reset ??= why;
  }

  /** Stop the child to free its slot, saying why with the next answer. */
  evict(why: string): Promise<void> {
    this.noteReset(why);
    return this.terminate();
  }

  /** The pid of the running child, if any (tests look at it). */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Start the child (once) and check that it really has no permission. */
  #start(signal: AbortSignal): Promise<Child> {
    if (this.#starting) return this.#starting;
    this.#slots?.admit(this);
    const child = new Child();
    this.#child = child;
    child.onMessage = (message) => idle(child, message);
    const starting = new Promise<Child>((resolve, reject) => {
      const fail = async (why: string) => {
        await child.kill(why);
        if (this.#child === child) this.terminate();
        reject(new Error(why));
      };
      const timer = setTimeout(
        () => void fail(`code mode's process did not start within ${START_MS / 1000} s`),
        START_MS,
      );
      const onAbort = () => void fail("the call was cancelled while code mode's process started");
      signal.addEventListener("abort", onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      child.onExit = (status) => {
        settle();
        if (child.stopped) return reject(new Error(child.stopped));
        const stderr = child.stderr().trim();
        reject(
          new Error(
            `code mode's process ended as it started (${exitReason(status, stderr)})` +
              (stderr ? `: ${stderr.slice(-500)}` : ""),
          ),
        );
      };
      child.onMessage = (message) => {
        if (message.type !== "ready") return idle(child, message);
        settle();
        child.onMessage = (later) => idle(child, later);
        const granted = Object.entries(message.permissions).filter(([, s]) => s === "granted");
        if (granted.length === 0) return resolve(child);
        void fail(
          `code mode refuses to run: its process was granted ${granted.map(([k]) => k).join(", ")}`,
        );
      };
    });
    starting.catch(() => {});
    this.#starting = starting;
    // Once it is gone, the next call starts a fresh one.
    void child.exited.then(() => {
      if (this.#child === child) {
        this.#child = null;
        this.#starting = null;
      }
      this.#stopIdleWatch();
      if (!this.#child) this.#slots?.release(this);
    });
    return starting;
  }

  /** Kill the child, if any; the next call starts a fresh one. */
  terminate(): Promise<void> {
    this.#stopIdleWatch();
    const child = this.#child;
    this.#child = null;
    this.#starting = null;
    return child ? child.kill("stopped by the host") : Promise.resolve();
  }

  /** Run one cell after the session's earlier ones; never throws. */
  run(code: string, options: RunOptions): Promise<RunResult> {
    this.#running++;
    this.lastUsed = performance.now();
    const result = this.#turn.then(async () => {
      this.#stopIdleWatch();
      const reset = this.#reset;
      this.#reset = null;
      const answer = await this.#run(code, options);
      if (this.#child) this.#watchIdle(this.#child);
      return reset ? { ...answer, reset } : answer;
    }).finally(() => {
      this.#running--;
      this.lastUsed = performance.now();
    });
    this.#turn = result.catch(() => {});
    return result;
  }

  /**
   * Watch an idle child's CPU time: work its cell left running (which the child's timer
   * tracking does not see) is stopped past {@linkcode IDLE_CPU_S}, and the next answer says so.
   */
  #watchIdle(child: Child): void {
    let start: number | null = null;
    let last = 0;
    let asked: number | null = null;
    let every = IDLE_CHECK_MS;
    const stop = (why: string) => {
      this.#stopIdleWatch();
      this.noteReset(
        `the code's process was stopped between calls: ${why}; this session's ` +
          "variables were reset",
      );
      if (this.#child === child) void this.terminate();
    };
    child.onPong = (cpuMicroseconds) => {
      asked = null;
      start ??= cpuMicroseconds;
      if (cpuMicroseconds - start > IDLE_CPU_S * 1e6) {
        return stop(
          `work its last cell left running used more than ${IDLE_CPU_S} s of CPU after the ` +
            "answer",
        );
      }
      // A quiet process is asked less and less often; a busy one every second.
      every = cpuMicroseconds - last < 10_000
        ? Math.min(every * 2, IDLE_CHECK_MAX_MS)
        : IDLE_CHECK_MS;
      last = cpuMicroseconds;
    };
    const check = () => {
      if (asked === null) {
        asked = performance.now();
        child.send({ type: "ping" });
      } else if (performance.now() - asked > IDLE_ANSWER_S * 1000) {
        return stop(
          `work its last cell left running kept it from answering for ${IDLE_ANSWER_S} s`,
        );
      }
      schedule(asked === null ? every : IDLE_CHECK_MS);
    };
    const schedule = (ms: number) => {
      const timer = setTimeout(check, ms);
      Deno.unrefTimer(timer);
      this.#idleWatch = { timer, child };
    };
    schedule(IDLE_CHECK_MS);
  }

  #stopIdleWatch(): void {
    if (this.#idleWatch === null) return;
    clearTimeout(this.#idleWatch.timer);
    this.#idleWatch.child.onPong = () => {};
    this.#idleWatch = null;
  }

  async #run(code: string, options: RunOptions): Promise<RunResult> {
    let cell: Rewritten;
    try {
      cell = rewriteCell(code);
    } catch (error) {
      if (!(error instanceof CellSyntaxError)) throw error;
      const { line, column } = offsetPosition(code, error.offset);
      return failure(errorText(code, `SyntaxError: ${error.message}`, line, column));
    }
    const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000);
    const inFlight = new AbortController();
    const signal = AbortSignal.any([options.signal, timeout, inFlight.signal]);
    let child: Child;
    try {
      child = await this.#start(signal);
    } catch (error) {
      return failure(`Error: ${(error as Error).message}`);
    }
    const id = ++this.#runs;
    // The run's id makes each cell a module of its own: the same text run again is imported
    // again (a module URL seen before would answer from the module cache, running nothing).
    const url = dataUrl(`${cell.source}\n// run ${id}\n`);
    const completed: string[] = [];

    const finished = new Promise<Done>((resolve, reject) => {
      child.onMessage = (message) => {
        if (message.type === "done") {
          if (message.id === id) resolve(message);
        } else if (message.type === "call") {
          void this.#apiCall(child, message, options, signal, completed);
        } else if (message.type === "info") {
          let answer: Answer;
          try {
            answer = { text: options.info(message.topic), isError: false };
          } catch (error) {
            answer = { text: (error as Error).message, isError: true };
          }
          child.send({ type: "answer", call: message.call, ...answer });
        }
      };
      child.onExit = (status) =>
        reject(new Interrupted(child.stopped ?? exitReason(status, child.stderr())));
      const onAbort = () =>
        reject(
          new Interrupted(
            timeout.aborted
              ? `the code ran longer than its time limit of ${options.timeoutSeconds} s (timeout_s)`
              : "the call was cancelled",
          ),
        );
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
    });
    child.send({
      type: "run",
      id,
      url,
      names: cell.names,
      hasValue: cell.hasValue,
      facades: options.facades,
      hidden: options.hidden ?? {},
      maxChars: options.maxChars,
    });
    try {
      const done = await finished;
      return compose(done, code, cell, url);
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
      await child.kill(error.message);
      if (this.#child === child) await this.terminate();
      const calls = completed.length
        ? `API calls that completed: ${completed.join(", ")}.`
        : "No API call completed.";
      return failure(
        `Error: ${error.message}; its process was stopped and this session's variables ` +
          `are gone (the next call starts a fresh process). ${calls}`,
      );
    } finally {
      inFlight.abort();
      child.onExit = () => {};
      if (this.#child === child) child.onMessage = (message) => idle(child, message);
    }
  }

  async #apiCall(
    child: Child,
    message: { call: number; tool: string; args: Record<string, unknown> },
    options: RunOptions,
    signal: AbortSignal,
    completed: string[],
  ): Promise<void> {
    try {
      const name = message.tool;
      const facade = Object.entries(options.facades).find(([, t]) => t.includes(name))?.[0];
      const result = facade
        ? await options.call(name, message.args, signal)
        : { text: `Error: ${name} is not available in this session.`, isError: true };
      if (signal.aborted) return;
      completed.push(`s.${facade}.${name}${result.isError ? " (error)" : ""}`);
      child.send({ type: "answer", call: message.call, ...result });
    } finally {
      child.callEnded();
    }
  }
}

/** A call or info request while no cell runs (a timer the agent left running): refused. */
function idle(child: Child, message: Message): void {
  if (message.type !== "call" && message.type !== "info") return;
  child.send({
    type: "answer",
    call: message.call,
    text: "Error: the API answers only while a cell runs (this call came after its cell ended).",
    isError: true,
  });
  if (message.type === "call") child.callEnded();
}

function failure(text: string): RunResult {
  return { text, isError: true, length: text.length };
}

/** 1-based line and column of a character offset. */
function offsetPosition(code: string, offset: number): { line: number; column: number } {
  const at = new LineIndex(code).positionAt(Math.min(offset, code.length));
  return { line: at.line + 1, column: at.character + 1 };
}

/** An error with its place in the agent's code and that line, pointed at. */
function errorText(code: string, what: string, line: number, column: number): string {
  const source = code.split("\n")[line - 1];
  const excerpt = source === undefined
    ? ""
    : `\n  ${line} | ${source}\n  ${" ".repeat(String(line).length)} | ${
      " ".repeat(Math.max(0, column - 1))
    }^`;
  return `Error: ${what}\n  at line ${line}, column ${column} of the code${excerpt}`;
}

function compose(done: Done, code: string, cell: Rewritten, url: string): RunResult {
  let output = done.output;
  if (done.dropped > 0) {
    output += `[${done.dropped} more characters of console output were not kept]\n`;
  }
  if (done.error) return failure(output + describeFailure(done.error, code, cell, url));
  const value = done.value ?? (output ? "" : "OK");
  const text = output + value;
  const whole = done.value ? output.length + (done.length ?? value.length) : text.length;
  return { text, isError: false, length: Math.max(whole, text.length) };
}

/** The agent's error, placed in its code, without any frame of Sextant's. */
function describeFailure(error: ChildError, code: string, cell: Rewritten, url: string): string {
  // A syntax error of the cell names its position in the message itself.
  const text = `${error.message}\n${error.stack}`;
  const here = [...text.matchAll(FRAME)].find((frame) => sameCell(frame[1]!, url));
  let message = error.message.split("\n")[0]!.replace(DATA_URL, "<code>");
  message = message.replace(/^TypeError: (SyntaxError: )/, "$1");
  const what = error.name === "TypeError" && message.startsWith("SyntaxError:")
    ? message
    : `${error.name}: ${message}`;
  if (here) {
    const { line, column } = cell.position(Number(here[2]), Number(here[3]));
    return errorText(code, what, line, column);
  }
  const earlier = new RegExp(DATA_URL.source).test(error.stack)
    ? " (raised in code of an earlier call)"
    : "";
  return `Error: ${what}${earlier}`;
}
