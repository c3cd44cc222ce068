/**
 * The service's log file: appended to, never truncated (a crash's last lines stay for the next
 * service to find, and services that lose the race to start do not wipe the winner's), moved to
 * `<log>.1` once it passes {@linkcode LOG_MAX_BYTES}, and also the service's stderr, so what
 * the runtime itself prints (an out-of-memory abort, a panic) lands there too.
 * @module
 */

/** Size past which the log moves to `<log>.1` (the one before is dropped). */
export const LOG_MAX_BYTES = 10 * 1024 * 1024;

/** Move `path` to `path.1` when it is larger than `max` bytes. */
export function rotateLog(path: string, max = LOG_MAX_BYTES): void {
  try {
    if (Deno.statSync(path).size <= max) return;
    Deno.renameSync(path, `${path}.1`);
  } catch {
    // No log yet, or another process moved it first.
  }
}

/** A log sink that appends to `path` and moves the file aside when it grows past `max`. */
export class RotatingLog {
  readonly #path: string;
  readonly #max: number;
  #file: Deno.FsFile;
  #size: number;

  constructor(path: string, max = LOG_MAX_BYTES) {
    this.#path = path;
    this.#max = max;
    rotateLog(path, max);
    this.#file = Deno.openSync(path, { create: true, append: true });
    this.#size = this.#file.statSync().size;
  }

  writeSync(bytes: Uint8Array): number {
    if (this.#size + bytes.length > this.#max) {
      this.#file.close();
      rotateLog(this.#path, 0);
      this.#file = Deno.openSync(this.#path, { create: true, append: true });
      this.#size = 0;
    }
    const written = this.#file.writeSync(bytes);
    this.#size += written;
    return written;
  }

  /** Close the file (a new sink takes over). */
  close(): void {
    try {
      this.#file.close();
    } catch { /* closed */ }
  }
}

/**
 * The service's command, started so that its stderr is appended to `logPath`: through `sh`
 * where there is one. Elsewhere (Windows) stderr stays unconnected, and only log lines reach
 * the file.
 */
export function withStderrToLog(
  launch: { command: string; args: string[] },
  logPath: string,
): { command: string; args: string[] } {
  if (Deno.build.os === "windows") return launch;
  return {
    command: "sh",
    args: [
      "-c",
      'log=$1; shift; exec "$@" 2>>"$log"',
      "sh",
      logPath,
      launch.command,
      ...launch.args,
    ],
  };
}
