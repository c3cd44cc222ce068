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
