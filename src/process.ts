/**
 * Child processes in process groups of their own. This is the one module that spawns a program so
 * that stopping it stops everything it started (tsserver under a language server, test binaries
 * under a test runner, background jobs of a shell command), and that reads its output. No orphans.
 *
 * On Unix a program is spawned with `detached: true`: Deno calls setsid(2), so the child leads a
 * new session and process group whose id is its pid, and has no controlling terminal (nothing can
 * block on a password prompt). Signals go to the whole group. Windows has no process groups to
 * signal; `taskkill /T /F` ends the process tree instead.
 *
 * `Deno.kill` needs unrestricted `--allow-run`. Under the `sextant` permission set (an allow-list
 * of programs, `kill` and `taskkill` among them) the `kill` program sends the signal instead.
 * @module
 */
import { log } from "./log.ts";

const windows = Deno.build.os === "windows";

/** Time between SIGTERM and SIGKILL when stopping a group, unless the caller says otherwise. */
export const DEFAULT_GRACE_MS = 2_000;
/** How often {@linkcode stopGroup} looks whether the group is gone. */
const POLL_MS = 50;

/** What to do with one of the child's standard streams. */
export type Stdio = "piped" | "null";

/** Options of {@linkcode spawnGroup}. */
export interface SpawnGroupOptions {
  /** Working directory. */
  cwd: string;
  /** Variables added to (or overriding) the inherited environment. */
  env?: Record<string, string> | undefined;
  /** Default "null". */
  stdin?: Stdio;
  /** Default "piped". */
  stdout?: Stdio;
  /** Default "piped". */
  stderr?: Stdio;
}

/**
 * Spawn `program` in a new process group; the group id is the child's pid. Throws what
 * `Deno.Command` throws, e.g. `Deno.errors.NotFound` for a program that is not installed.
 *
 * @example
 * ```ts
 * const child = spawnGroup("sh", ["-c", "sleep 30 & sleep 30"], { cwd: "." });
 * await stopGroup(child.pid);
 * await child.status;
 * ```
 */
export function spawnGroup(
  program: string,
  args: readonly string[],
  options: SpawnGroupOptions,
): Deno.ChildProcess {
  return new Deno.Command(program, {
    args: [...args],
    cwd: options.cwd,
    ...(options.env ? { env: options.env } : {}),
    stdin: options.stdin ?? "null",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
    detached: true,
  }).spawn();
}

/**
 * Send `signal` to every process of group `pgid`; a group already gone is fine. On Windows the
 * process tree rooted at `pgid` is ended, whatever the signal.
 */
export async function signalGroup(pgid: number, signal: Deno.Signal): Promise<void> {
  if (windows) {
    await runQuietly(new Deno.Command("taskkill", quiet(["/pid", String(pgid), "/T", "/F"])));
    return;
  }
  try {
    // A negative pid addresses the whole process group (kill(2)).
    Deno.kill(-pgid, signal);
    return;
  } catch (error) {
    const denied = error instanceof Deno.errors.NotCapable ||
      error instanceof Deno.errors.PermissionDenied;
    if (!denied) {
      if (!(error instanceof Deno.errors.NotFound) && !isNoSuchProcess(error)) {
        log.debug(`kill(-${pgid}, ${signal}) failed: ${String(error)}`);
      }
      return;
    }
  }
  const name = signal.replace(/^SIG/, "");
  await runQuietly(new Deno.Command("kill", quiet(["-s", name, "--", `-${pgid}`])));
}

/** Options for a helper program (`kill`, `taskkill`) whose output nobody reads. */
function quiet(args: string[]): Deno.CommandOptions {
  return { args, stdin: "null", stdout: "null", stderr: "null" };
}

/** Run a helper program; its exit code is not interesting (the group may be gone already). */
async function runQuietly(command: Deno.Command): Promise<void> {
  try {
    await command.output();
  } catch (error) {
    log.warn(`cannot signal a process group: ${String(error)}`);
  }
}

function isNoSuchProcess(error: unknown): boolean {
  return error instanceof Error && /ESRCH|No such process/i.test(error.message);
}

/**
 * Number of live processes (zombies excluded) in group `pgid`, read from /proc; -1 where that
 * cannot be known (not Linux, or /proc not readable).
 */
export function groupMembers(pgid: number): number {
  if (Deno.build.os !== "linux") return -1;
  let count = 0;
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      let stat: string;
      try {
        stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      } catch {
        continue;
      }
      // Fields after the command name (which may hold spaces): state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) count++;
    }
  } catch {
    return -1;
  }
  return count;
}

/**
 * Whether any process of group `pgid` is still alive. Linux reads /proc; elsewhere `kill -0`
 * asks the system, and when even that cannot be asked the group counts as alive.
 */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members >= 0) return members > 0;
  try {
    return new Deno.Command("kill", quiet(["-0", "--", `-${pgid}`])).outputSync().success;
  } catch {
    return true;
  }
}

/** Options of {@linkcode stopGroup}. */
export interface StopGroupOptions {
  /** Time the group gets to exit after SIGTERM before SIGKILL (default 2000 ms). */
  graceMs?: number;
  /** Names the group in the debug log. */
  label?: string;
}

/**
 * Stop group `pgid`: SIGTERM, then SIGKILL to whatever is left after the grace period. Resolves
 * at once when the group is already empty. On Windows the process tree is ended at once.
 */
export async function stopGroup(pgid: number, options: StopGroupOptions = {}): Promise<void> {
  if (windows) return void await signalGroup(pgid, "SIGKILL");
  if (!groupAlive(pgid)) return;
  await signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + (options.graceMs ?? DEFAULT_GRACE_MS);
  while (Date.now() < deadline && groupAlive(pgid)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (groupAlive(pgid)) {
    log.debug(
      `${options.label ?? "process"}: process group ${pgid} ignored SIGTERM; sending SIGKILL`,
    );
    await signalGroup(pgid, "SIGKILL");
  }
}

/** A stream being read to its end. */
export interface StreamReading {
  /** Resolves when the stream has ended, failed or been cancelled. */
  readonly done: Promise<void>;
  /** Stop reading; what arrived so far stays delivered. */
  cancel(): Promise<void>;
}

/**
 * Read `stream` to its end, handing every chunk to `onChunk`. A process that left its group may
 * hold a pipe open forever: {@linkcode StreamReading.cancel} stops waiting for it.
 */
export function readStream(
  stream: ReadableStream<Uint8Array>,
  onChunk: (chunk: Uint8Array) => void,
): StreamReading {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        onChunk(value);
      }
    } catch {
      // The pipe broke or reading was cancelled: what was read is kept.
    } finally {
      reader.releaseLock();
    }
  })();
  return { done, cancel: () => reader.cancel().catch(() => {}) };
}

/**
 * Output kept up to `capBytes`: the first quarter and the last three quarters of the stream,
 * with a note of how much of the middle was dropped.
 */
export class CappedOutput {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Uint8Array[] = [];
  #headLength = 0;
  #tail: Uint8Array[] = [];
  #tailLength = 0;
  #dropped = 0;

  constructor(capBytes: number) {
    this.#headCap = Math.floor(capBytes / 4);
    this.#tailCap = capBytes - this.#headCap;
  }

  /** Bytes of the middle dropped so far. */
  get dropped(): number {
    return this.#dropped;
  }

  push(chunk: Uint8Array): void {
    if (this.#headLength < this.#headCap) {
      const take = chunk.subarray(0, this.#headCap - this.#headLength);
      this.#head.push(take);
      this.#headLength += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailLength += chunk.length;
    while (this.#tailLength > this.#tailCap) {
      const first = this.#tail[0]!;
      const excess = this.#tailLength - this.#tailCap;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailLength -= first.length;
        this.#dropped += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailLength -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** The kept output as UTF-8 text, with a marker where the middle was dropped. */
  text(): string {
    const decode = (parts: Uint8Array[]) => {
      const decoder = new TextDecoder("utf-8");
      return parts.map((p) => decoder.decode(p, { stream: true })).join("") + decoder.decode();
    };
    if (this.#dropped === 0) return decode([...this.#head, ...this.#tail]);
    const head = decode(this.#head);
    return `${head}\n[... ${this.#dropped} bytes of output omitted ...]\n${decode(this.#tail)}`;
  }
}

/** Options of {@linkcode runGroup}. */
export interface RunGroupOptions {
  /** Working directory. */
  cwd: string;
  /** Variables added to (or overriding) the inherited environment. */
  env?: Record<string, string> | undefined;
  /** Gets stdout chunk by chunk; without it stdout is discarded. */
  onStdout?: (chunk: Uint8Array) => void;
  /** Gets stderr chunk by chunk; without it stderr is discarded. */
  onStderr?: (chunk: Uint8Array) => void;
  /** Aborting stops the group (`stopped: "cancelled"`); an aborted signal stops it at once. */
  signal?: AbortSignal | undefined;
  /** Stop the group after this many milliseconds (`stopped: "timeout"`). */
  timeoutMs?: number | undefined;
  /** Time between SIGTERM and SIGKILL (default 2000 ms). */
  graceMs?: number;
  /** How long to wait for the pipes to close once the group is gone (default 2000 ms). */
  drainMs?: number;
}

/** How a run of {@linkcode runGroup} ended. */
export interface GroupExit {
  /** The exit status of the program (the group's leader). */
  status: Deno.CommandStatus;
  /** Why the group was stopped, if it was. */
  stopped: "timeout" | "cancelled" | null;
}

/** A program running in its own group under {@linkcode runGroup}. */
export interface RunningGroup {
  /** The program's pid, which is also its process group id. */
  readonly pid: number;
  /** Resolves when the program has exited, its group is gone and its output is read. */
  readonly exit: Promise<GroupExit>;
  /** Stop the group (`stopped: "cancelled"`); resolves when it is stopped. */
  cancel(): Promise<void>;
}

/**
 * Run `program` in a new process group with stdin closed, reading its output. A timeout, an
 * abort or {@linkcode RunningGroup.cancel} stops the group (SIGTERM, SIGKILL after the grace
 * period). When the program exits, whatever it left running in its group is stopped the same
 * way: nothing outlives the run, and no orphan keeps the pipes open. A process that left the
 * group (setsid) and holds a pipe is not waited for beyond `drainMs`. Throws what
 * {@linkcode spawnGroup} throws.
 *
 * @example
 * ```ts
 * const chunks: Uint8Array[] = [];
 * const run = runGroup("sh", ["-c", "echo hi"], { cwd: ".", onStdout: (c) => chunks.push(c) });
 * const { status } = await run.exit;
 * console.log(status.code); // 0
 * ```
 */
export function runGroup(
  program: string,
  args: readonly string[],
  options: RunGroupOptions,
): RunningGroup {
  const child = spawnGroup(program, args, {
    cwd: options.cwd,
    env: options.env,
    stdout: options.onStdout ? "piped" : "null",
    stderr: options.onStderr ? "piped" : "null",
  });
  const pgid = child.pid;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const readings: StreamReading[] = [];
  if (options.onStdout) readings.push(readStream(child.stdout, options.onStdout));
  if (options.onStderr) readings.push(readStream(child.stderr, options.onStderr));

  let stopped: GroupExit["stopped"] = null;
  let stopping: Promise<void> | null = null;
  const stop = (why: "timeout" | "cancelled"): Promise<void> => {
    stopped ??= why;
    stopping ??= stopGroup(pgid, { graceMs, label: program });
    return stopping;
  };
  const onAbort = () => void stop("cancelled");
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = options.timeoutMs === undefined
    ? undefined
    : setTimeout(() => void stop("timeout"), options.timeoutMs);

  const exit = (async (): Promise<GroupExit> => {
    try {
      const status = await child.status;
      clearTimeout(timer);
      // The leader is gone; whatever it left in its group would be orphaned and hold the pipes
      // open. (On Windows the pid may already belong to another process: leave it alone.)
      const reaping = (async () => {
        await stopping;
        if (!windows) await stopGroup(pgid, { graceMs, label: program });
      })();
      const read = Promise.all(readings.map((r) => r.done));
      if (!await settlesWithin(read, options.drainMs ?? DEFAULT_GRACE_MS)) {
        await Promise.all(readings.map((r) => r.cancel()));
      }
      await read;
      await reaping;
      return { status, stopped };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  })();
  return { pid: pgid, exit, cancel: () => stop("cancelled") };
}

/** Whether `promise` settles within `ms` milliseconds. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
