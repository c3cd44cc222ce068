/**
 * Runs a checker or test runner as a child process in its own process group (src/process.ts), so
 * that cancellation, a timeout or the end of the run kills everything it started (test binaries,
 * subprocesses of tests) and leaves no orphans. Output is read line by line, capped, and
 * reported as progress while the process runs.
 * @module
 */
import { DEFAULT_GRACE_MS, type GroupExit, runGroup, type RunningGroup } from "../process.ts";

/** Where a line of output came from. */
export type OutputStream = "stdout" | "stderr";

/** Progress of a running command, reported about once a second. */
export interface RunProgress {
  /** Lines of output seen so far (both streams). */
  lines: number;
  /** Milliseconds since the process started. */
  elapsedMs: number;
  /** The last non-empty line of output, if any. */
  lastLine: string;
}

/** Options of {@linkcode runCommand}. */
export interface RunOptions {
  /** Working directory. */
  cwd: string;
  /** Variables added to (or overriding) the inherited environment. */
  env?: Record<string, string>;
  /** Aborting kills the whole process group; the run then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Kill the process group after this many milliseconds (the result says `timedOut`). */
  timeoutMs?: number;
  /** Characters kept per stream for parsing; later output is counted but dropped. */
  maxOutputChars?: number;
  /** Lines of interleaved output kept for the tail (default 60). */
  tailLines?: number;
  /** Which lines may go into the tail (default: all), e.g. to leave out JSON messages. */
  keepInTail?: (line: string) => boolean;
  /** Called for every line of output. */
  onLine?: (line: string, stream: OutputStream) => void;
  /** Called about once a second while the process runs. */
  onProgress?: (progress: RunProgress) => void;
  /** Time between SIGTERM and SIGKILL when stopping the group (default 2000 ms). */
  killGraceMs?: number;
}

/** What a finished run produced. */
export interface RunResult {
  /** The command line, as run. */
  argv: string[];
  /** Exit code; null when the process was killed by a signal. */
  code: number | null;
  /** The signal that ended the process, if any. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The last lines of both streams, interleaved in arrival order, without colour codes. */
  tail: string[];
  /** Lines seen in all. */
  lines: number;
  /** Some output was dropped because a stream passed `maxOutputChars`. */
  truncated: boolean;
  /** The run was stopped by `timeoutMs`. */
  timedOut: boolean;
  durationMs: number;
}

const DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024;
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const DEFAULT_TAIL_LINES = 60;

/** A command that could not be started (not installed, not executable). */
export class CommandNotFoundError extends Error {
  override name = "CommandNotFoundError";
}

/** Collects one stream: whole lines to the callbacks, text up to a cap. */
class StreamCollector {
  text = "";
  truncated = false;
  #pending = "";
  readonly #decoder = new TextDecoder();

  constructor(
    readonly name: OutputStream,
    readonly maxChars: number,
    readonly emit: (line: string, stream: OutputStream) => void,
  ) {}

  push(chunk: Uint8Array): void {
    this.#addText(this.#decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.#addText(this.#decoder.decode());
    if (this.#pending) {
      this.emit(this.#pending, this.name);
      this.#pending = "";
    }
  }

  #addText(text: string): void {
    if (!text) return;
    if (this.text.length + text.length <= this.maxChars) {
      this.text += text;
    } else {
      this.text += text.slice(0, Math.max(0, this.maxChars - this.text.length));
      this.truncated = true;
    }
    const parts = (this.#pending + text).split("\n");
    this.#pending = parts.pop() ?? "";
    for (const part of parts) this.emit(part.endsWith("\r") ? part.slice(0, -1) : part, this.name);
  }
}

/**
 * Run `argv` in `options.cwd` in a new process group and collect its output.
 *
 * Resolves when the process has exited and its pipes are drained. When the process ends, any
 * process it left behind in its group is killed. A timeout resolves with `timedOut: true`; an
 * abort through `options.signal` kills the group and rejects with the signal's reason.
 * Throws {@linkcode CommandNotFoundError} when the program cannot be started.
 *
 * @example
 * ```ts
 * const result = await runCommand(["echo", "hi"], { cwd: "." });
 * console.log(result.code, result.stdout); // 0 "hi\n"
 * ```
 */
export async function runCommand(argv: string[], options: RunOptions): Promise<RunResult> {
  const [program, ...args] = argv;
  if (!program) throw new TypeError("runCommand needs a program to run");
  options.signal?.throwIfAborted();
  const started = performance.now();
  const tailSize = options.tailLines ?? DEFAULT_TAIL_LINES;
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
  const tail: string[] = [];
  let lines = 0;
  let lastLine = "";
  const onLine = (line: string, stream: OutputStream) => {
    lines++;
    if (options.keepInTail && !options.keepInTail(line)) {
      options.onLine?.(line, stream);
      return;
    }
    const plain = line.replace(ANSI, "");
    if (plain.trim()) lastLine = plain;
    tail.push(plain);
    if (tail.length > tailSize) tail.shift();
    options.onLine?.(line, stream);
  };

  const out = new StreamCollector("stdout", maxChars, onLine);
  const err = new StreamCollector("stderr", maxChars, onLine);
  let running: RunningGroup;
  try {
    running = runGroup(program, args, {
      cwd: options.cwd,
      env: options.env,
      onStdout: (chunk) => out.push(chunk),
      onStderr: (chunk) => err.push(chunk),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      graceMs: options.killGraceMs ?? DEFAULT_GRACE_MS,
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CommandNotFoundError(`'${program}' was not found or cannot be run.`);
    }
    throw error;
  }
  const ticker = options.onProgress
    ? setInterval(() => {
      options.onProgress?.({ lines, elapsedMs: performance.now() - started, lastLine });
    }, 1000)
    : undefined;
  let ended: GroupExit;
  try {
    ended = await running.exit;
  } finally {
    clearInterval(ticker);
  }
  out.end();
  err.end();
  if (options.signal?.aborted) throw options.signal.reason;
  const exit = ended.status;
  return {
    argv,
    code: exit.signal === null ? exit.code : null,
    signal: exit.signal,
    stdout: out.text,
    stderr: err.text,
    tail,
    lines,
    truncated: out.truncated || err.truncated,
    timedOut: ended.stopped === "timeout",
    durationMs: performance.now() - started,
  };
}
