/**
 * Language-server processes: spawned in a process group of their own (src/process.ts), so that
 * stopping one kills everything it started (tsserver, type checkers, build daemons). No orphans.
 * @module
 */
import { log } from "../log.ts";
import { DEFAULT_GRACE_MS, spawnGroup, stopGroup } from "../process.ts";

/** How a process ended. */
export interface ExitStatus {
  code: number;
  signal: string | null;
}

/** A spawned server process, its stdio piped (framed by framing.ts). */
export interface ServerProcess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stdin: WritableStream<Uint8Array>;
  /** Resolves when the process has ended. */
  readonly exited: Promise<ExitStatus>;
  /** The last lines the server wrote to stderr (for crash messages). */
  stderrTail(): string;
  /** Kill the whole process group: SIGTERM, then SIGKILL after `graceMs`. */
  killGroup(graceMs?: number): Promise<void>;
}

const STDERR_TAIL_LINES = 20;
/** A server spawned ahead has nothing to save: its SIGTERM comes with a short grace. */
const AHEAD_GRACE_MS = 1_000;
/** How long a server spawned ahead waits to be taken before it is stopped. */
export const AHEAD_UNCLAIMED_MS = 30_000;

/** A server spawned before its client was loaded, waiting for it (see {@linkcode spawnAhead}). */
interface Ahead {
  key: string;
  process: ServerProcess;
  timer: ReturnType<typeof setTimeout>;
}

const ahead = new Map<string, Ahead>();

function aheadKey(command: string, args: readonly string[], cwd: string): string {
  return JSON.stringify([command, ...args, cwd]);
}

/** Spawn `command` (an absolute path) in its own process group, with piped stdio. */
export function spawnServer(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; label: string },
): ServerProcess {
  const child = spawnGroup(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const pid = child.pid;
  const tail: string[] = [];
  const stderrDone = pumpStderr(child.stderr, options.label, tail);
  const exited = (async () => {
    const status = await child.status;
    // The leader is gone (stopped or crashed): helpers it started must not outlive it.
    await stopGroup(pid, { label: options.label });
    await stderrDone;
    return { code: status.code, signal: status.signal };
  })();

  let killing: Promise<void> | null = null;
  const killGroup = (graceMs = DEFAULT_GRACE_MS): Promise<void> => {
    killing ??= (async () => {
      await stopGroup(pid, { graceMs, label: options.label });
      await exited;
    })();
    return killing;
  };

  return {
    pid,
    stdout: child.stdout,
    stdin: child.stdin,
    exited,
    stderrTail: () => tail.join("\n"),
    killGroup,
  };
}

async function pumpStderr(
  stream: ReadableStream<Uint8Array>,
  label: string,
  tail: string[],
): Promise<void> {
  let rest = "";
  try {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) note(line);
    }
    if (rest) note(rest);
  } catch {
    // The pipe broke because the process died; its exit status tells the rest.
  }
  function note(line: string): void {
    const text = line.trimEnd();
    if (!text) return;
    log.debug(`[${label} stderr] ${text}`);
    tail.push(text);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
  }
}

/**
 * Spawn a server before anything asks for it, so that its own start (a Node.js process loading
 * its code: 130-220 ms for typescript-language-server and pyright) runs while Sextant loads its
 * modules. {@linkcode takeSpawnedAhead} hands it to the client that spawns the same command, args
 * and folder; one nobody takes within {@linkcode AHEAD_UNCLAIMED_MS} is stopped with its group,
 * and {@linkcode stopSpawnedAhead} stops those left at shutdown. Spawning is all it does: the
 * server hears nothing (not even `initialize`) until its client takes it. A spawn that fails is
 * logged and forgotten: the client's own spawn then reports it. The pid, or undefined when the
 * spawn failed.
 */
export function spawnAhead(
  command: string,
  args: readonly string[],
  options: { cwd: string; label: string },
): number | undefined {
  const key = aheadKey(command, args, options.cwd);
  const waiting = ahead.get(key);
  if (waiting) return waiting.process.pid;
  let process: ServerProcess;
  try {
    process = spawnServer(command, args, options);
  } catch (error) {
    log.debug(`${options.label}: spawning ahead failed:`, error);
    return undefined;
  }
  const timer = setTimeout(() => {
    if (ahead.get(key)?.process !== process) return;
    ahead.delete(key);
    log.debug(`${options.label}: spawned ahead (pid ${process.pid}), not used; stopping it`);
    void process.killGroup(AHEAD_GRACE_MS);
  }, AHEAD_UNCLAIMED_MS);
  Deno.unrefTimer(timer);
  ahead.set(key, { key, process, timer });
  // A server that ends before it is taken (a broken install) is forgotten: its client spawns anew.
  void process.exited.then(() => {
    if (ahead.get(key)?.process === process) {
      clearTimeout(timer);
      ahead.delete(key);
    }
  });
  return process.pid;
}

/** The server spawned ahead with exactly this command, args and folder, now the caller's. */
export function takeSpawnedAhead(
  command: string,
  args: readonly string[],
  cwd: string,
): ServerProcess | undefined {
  const key = aheadKey(command, args, cwd);
  const found = ahead.get(key);
  if (!found) return undefined;
  ahead.delete(key);
  clearTimeout(found.timer);
  return found.process;
}

/** Stop every server spawned ahead that nobody took (at shutdown). */
export async function stopSpawnedAhead(): Promise<void> {
  const left = [...ahead.values()];
  ahead.clear();
  for (const { timer } of left) clearTimeout(timer);
  await Promise.all(left.map(({ process }) => process.killGroup(AHEAD_GRACE_MS)));
}
