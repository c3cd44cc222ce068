/**
 * Language-server processes: spawned with `Deno.Command` in a process group of their own, so that
 * stopping one kills everything it started (tsserver, type checkers, build daemons). No orphans.
 * @module
 */
import { Readable, Writable } from "node:stream";
import { log } from "../log.ts";

/** How a process ended. */
export interface ExitStatus {
  code: number;
  signal: string | null;
}

/** A spawned server process with Node-style streams for vscode-jsonrpc. */
export interface ServerProcess {
  readonly pid: number;
  readonly stdout: Readable;
  readonly stdin: Writable;
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
  const child = new Deno.Command(command, {
    args: [...args],
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    // A new session and process group (setsid): the group id is the child's pid.
    detached: true,
    ...(options.env ? { env: options.env } : {}),
  }).spawn();
  const pid = child.pid;
  const tail: string[] = [];
  const stderrDone = pumpStderr(child.stderr, options.label, tail);
  const exited = (async () => {
    const status = await child.status;
    // The leader is gone (stopped or crashed): helpers it started must not outlive it.
    await terminateGroup(pid, 2_000, options.label);
    await stderrDone;
    return { code: status.code, signal: status.signal };
  })();

  let killing: Promise<void> | null = null;
  const killGroup = (graceMs = 2_000): Promise<void> => {
    killing ??= (async () => {
      await terminateGroup(pid, graceMs, options.label);
      await exited;
    })();
    return killing;
  };

  return {
    pid,
    stdout: Readable.fromWeb(child.stdout as unknown as import("node:stream/web").ReadableStream),
    stdin: Writable.fromWeb(child.stdin as unknown as import("node:stream/web").WritableStream),
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

/** SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. */
async function terminateGroup(pgid: number, graceMs: number, label: string): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(pgid)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (groupAlive(pgid)) {
    log.debug(`${label}: process group ${pgid} ignored SIGTERM; sending SIGKILL`);
    signalGroup(pgid, "SIGKILL");
  }
}

/**
 * Send a signal to every process in the group; a group already gone is fine. `Deno.kill` needs
 * unrestricted `--allow-run`; under an allow-list (`-P=sextant`) the `kill` command does it.
 */
function signalGroup(pgid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pgid, signal);
    return;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || isNoSuchProcess(error)) return;
    if (!(error instanceof Deno.errors.NotCapable)) {
      log.debug(`kill(-${pgid}, ${signal}) failed: ${String(error)}`);
      return;
    }
  }
  try {
    new Deno.Command("kill", {
      args: ["-s", signal.replace(/^SIG/, ""), "--", `-${pgid}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync();
  } catch (error) {
    log.warn(`cannot signal process group ${pgid} (${signal}): ${String(error)}`);
  }
}

function isNoSuchProcess(error: unknown): boolean {
  return error instanceof Error && /ESRCH|No such process/i.test(error.message);
}

/**
 * Whether any process of the group is still alive. Linux reads /proc (zombies excluded); where
 * /proc is missing or not readable (the `sextant` permission set), `kill -0` asks the system.
 */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members >= 0) return members > 0;
  try {
    return new Deno.Command("kill", {
      args: ["-0", "--", `-${pgid}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return true;
  }
}

/** Number of live processes in a group on Linux, or -1 when that cannot be known. */
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
