/**
 * A child process that runs code of Sextant's own (code mode's sandbox, user regular
 * expressions), and the one channel to it: JSON, one message a line, on its stdin and stdout.
 *
 * - The command: under the deno CLI, `deno run` of the child's module with the flags it is
 *   given; a compiled Sextant has no `deno run` and starts itself with a hidden command
 *   (main.ts) that runs the same code.
 * - The process: spawned through src/process.ts in a process group of its own, so that a kill
 *   stops whatever it runs, and nothing outlives it. A child whose parent dies sees its stdin
 *   close and exits.
 * - The channel: writes are sent in order, and the bytes not yet taken by the pipe are counted
 *   (a child that stops reading must not make its parent keep every message); lines are read
 *   whole, and a line longer than the parent takes stops the child.
 * @module
 */
import { concatBytes } from "./bytes.ts";
import { isDenoCli } from "./executables.ts";
import { CappedOutput, readStream, signalGroup, spawnGroup } from "./process.ts";

/** How to start a child that runs a module of Sextant's own. */
export interface OwnChildCommand {
  /** The module `deno run` runs: a file path or a URL. */
  module: string;
  /** Flags of `deno run` before the module: its permissions and the like. */
  flags: readonly string[];
  /** The hidden command that makes a compiled Sextant run the same code (main.ts). */
  command: string;
}

/**
 * The arguments that start `child` under `execPath`: `run <flags> <module>` under the deno CLI,
 * the hidden command under a compiled Sextant.
 *
 * @example
 * ```ts
 * import { ownChildArgs } from "./own_child.ts";
 * const child = { module: "/x/child.ts", flags: ["--quiet"], command: "x-child" };
 * console.log(ownChildArgs(child, "/usr/bin/deno")); // ["run", "--quiet", "/x/child.ts"]
 * console.log(ownChildArgs(child, "/opt/bin/sextant")); // ["x-child"]
 * ```
 */
export function ownChildArgs(child: OwnChildCommand, execPath = Deno.execPath()): string[] {
  return isDenoCli(execPath) ? ["run", ...child.flags, child.module] : [child.command];
}

/** Options of {@linkcode OwnChild}. */
export interface OwnChildOptions {
  /** What the parent's messages call the process (default "the child process"). */
  name?: string;
  /** Variables added to the inherited environment. */
  env?: Record<string, string>;
  /** Bytes of stderr kept to tell why the child died; 0 (the default) discards it. */
  stderrBytes?: number;
  /** The longest line the child may write; a longer one stops it (default: no limit). */
  maxLineBytes?: number;
  /** Gets each line the child writes, without its `\n`; false stops the reading. */
  onLine(line: string): boolean | Promise<boolean>;
}

/** One child process and its JSON-lines channel. */
export class OwnChild {
  readonly #process: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #stderr: CappedOutput | null;
  readonly #maxLineBytes: number;
  readonly #name: string;
  readonly #onLine: (line: string) => boolean | Promise<boolean>;
  #writing: Promise<void> = Promise.resolve();
  #unread = 0;
  /** Why the parent stopped it, when it did. */
  stopped: string | null = null;
  /** Resolves when the process has exited and its stderr is read. */
  readonly exited: Promise<Deno.CommandStatus>;

  /** Spawn `program` in a process group of its own and start reading its lines. */
  constructor(program: string, args: readonly string[], options: OwnChildOptions) {
    const stderrBytes = options.stderrBytes ?? 0;
    this.#maxLineBytes = options.maxLineBytes ?? Infinity;
    this.#name = options.name ?? "the child process";
    this.#onLine = options.onLine;
    const spawned = spawnGroup(program, args, {
      // A child holds no folder of the service's open (nor keeps it from being removed).
      cwd: Deno.build.os === "windows" ? Deno.cwd() : "/",
      env: options.env,
      stdin: "piped",
      stdout: "piped",
      stderr: stderrBytes > 0 ? "piped" : "null",
    });
    this.#process = spawned;
    const stdin = spawned.stdin.getWriter();
    this.#stdin = stdin;
    const stderr = stderrBytes > 0 ? new CappedOutput(stderrBytes) : null;
    this.#stderr = stderr;
    const reading = stderr ? readStream(spawned.stderr, (chunk) => stderr.push(chunk)).done : null;
    void this.#read();
    this.exited = (async () => {
      const status = await spawned.status;
      await reading;
      stdin.close().catch(() => {});
      return status;
    })();
  }

  get pid(): number {
    return this.#process.pid;
  }

  /** Bytes sent to the child that its pipe has not taken yet. */
  get unread(): number {
    return this.#unread;
  }

  /** The end of what the child wrote to stderr (empty when it is discarded). */
  stderr(): string {
    return this.#stderr?.text() ?? "";
  }

  /** Queue one message, after those sent before; nothing once the child was stopped. */
  send(message: unknown): void {
    this.sendLine(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Queue one message already encoded, `\n` included. */
  sendLine(bytes: Uint8Array): void {
    if (this.stopped) return;
    this.#unread += bytes.length;
    this.#writing = this.#writing.then(() => this.stopped ? undefined : this.#stdin.write(bytes))
      .catch(() => {}).finally(() => this.#unread -= bytes.length);
  }

  /** Close the child's stdin: a child that serves until its input ends then exits. */
  close(): void {
    this.#writing = this.#writing.then(() => this.#stdin.close()).catch(() => {});
  }

  /** Kill the whole group at once (nothing in it is worth a grace period); idempotent. */
  async kill(why: string): Promise<void> {
    this.stopped ??= why;
    await signalGroup(this.#process.pid, "SIGKILL");
    await this.exited;
  }

  /** Let this process exit while the child runs (an idle child kept for later). */
  unref(): void {
    this.#process.unref();
  }

  /** Keep this process alive while the child runs (a request in flight). */
  ref(): void {
    this.#process.ref();
  }

  async #read(): Promise<void> {
    const reader = this.#process.stdout.getReader();
    const decoder = new TextDecoder();
    let parts: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        let chunk = value;
        for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10)) {
          if (size + newline > this.#maxLineBytes) return void await this.#tooLong();
          parts.push(chunk.subarray(0, newline));
          const line = concatBytes(parts);
          parts = [];
          size = 0;
          chunk = chunk.subarray(newline + 1);
          if (!await this.#onLine(decoder.decode(line))) return;
        }
        parts.push(chunk);
        size += chunk.length;
        // A line is refused before it ends: the parent never holds more of it than it takes.
        if (size > this.#maxLineBytes) return void await this.#tooLong();
      }
    } catch {
      // The pipe broke: the process is gone, and `exited` says so.
    } finally {
      reader.releaseLock();
    }
  }

  #tooLong(): Promise<void> {
    return this.kill(`${this.#name} sent a message longer than ${this.#maxLineBytes} bytes`);
  }
}

/**
 * Read `stream` line by line (JSON lines: a child's stdin), handing each line without its `\n`
 * to `onLine`, one at a time; resolves when the stream ends.
 */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void | Promise<void>,
): Promise<void> {
  const decoder = new TextDecoder();
  // Only a chunk with a newline ends a line: earlier chunks are kept, not rescanned.
  let parts: string[] = [];
  for await (const chunk of stream) {
    let text = decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = text.indexOf("\n")) !== -1) {
      const line = parts.join("") + text.slice(0, newline);
      parts = [];
      text = text.slice(newline + 1);
      await onLine(line);
    }
    if (text !== "") parts.push(text);
  }
}
