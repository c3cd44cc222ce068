/**
 * What a front and the service say before the MCP session starts. The front connects to the
 * service's loopback port and sends one JSON line (a {@linkcode Hello}, with the token of the
 * endpoint file); the service answers with one JSON line
 * (a {@linkcode Welcome}). After a `session` hello the connection carries the client's MCP
 * messages unchanged, one JSON-RPC message per line, as on stdio.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import type { FrontPlace } from "./sessions.ts";

export type Hello =
  & { sextant: string; token: string }
  & (
    | { op: "session"; options: CliOptions; place: FrontPlace }
    | { op: "status" }
    | { op: "stop" }
    | { op: "dashboard" }
  );

export type Welcome =
  | { ok: true; status?: ServiceStatus; dashboard?: string }
  | { ok: false; error: string };

/** `sextant service status`. */
export interface ServiceStatus {
  version: string;
  pid: number;
  port: number;
  startedAt: string;
  /** The service process's resident memory, bytes. */
  rss: number;
  idleTimeoutSeconds: number;
  /** The dashboard's address (without a sign-in code) once it runs; null before. */
  dashboard?: string | null;
  sessions: Array<{ id: number; project: string | null; context: string; since: string }>;
  projects: Array<{
    root: string;
    sessions: number;
    idleSeconds: number;
    servers: Array<{ id: string; pid: number | null; rss: number | null }>;
  }>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Send each write of a connection at once (TCP_NODELAY): a front's, on both ends, and the HTTP
 * server's. Their messages are short writes, and Nagle's algorithm holds one back while an
 * earlier write waits for its acknowledgement, which the other end delays up to 40 ms when it has
 * nothing to send: a `tools/list` sent after the `initialized` notification took 45–105 ms
 * instead of 1 ms, and every answer over HTTP (a head, then chunks) at least 42 ms.
 */
export function noDelay(conn: Deno.TcpConn): void {
  try {
    conn.setNoDelay(true);
  } catch {
    // closed already: its session ends at its first read
  }
}

/** One JSON value as a line of bytes. */
export function jsonLine(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value) + "\n");
}

/** A line longer than a {@linkcode LineReader}'s `maxLineBytes`. */
export class LineTooLongError extends Error {
  constructor(limit: number) {
    super(`A line longer than ${limit} bytes was refused.`);
  }
}

/** Options of {@linkcode LineReader}. */
export interface LineReaderOptions {
  /** The longest line {@linkcode LineReader.next} accepts; longer throws LineTooLongError. */
  maxLineBytes?: number;
}

/**
 * What Deno's connections and stdin read with: bytes into a buffer, their count, null at the
 * end. Read this way a relayed line takes no stream machinery (a front's every message).
 */
export interface ByteSource {
  read(into: Uint8Array): Promise<number | null>;
}

/** Bytes asked of a {@linkcode ByteSource} per read: what Deno's own streams read at once. */
const READ_BYTES = 64 * 1024;

/** Chunks read in order: null at the end. */
interface ChunkReader {
  read(): Promise<Uint8Array | null>;
  release(): void;
  cancel(reason: unknown): Promise<void>;
}

function streamReader(stream: ReadableStream<Uint8Array>): ChunkReader {
  const reader = stream.getReader();
  return {
    read: async () => {
      const chunk = await reader.read();
      return chunk.done ? null : chunk.value;
    },
    release: () => reader.releaseLock(),
    cancel: (reason) => reader.cancel(reason),
  };
}

function sourceReader(source: ByteSource): ChunkReader {
  return {
    read: async () => {
      // A buffer each read: lines handed out are views of it.
      const buffer = new Uint8Array(READ_BYTES);
      const n = await source.read(buffer);
      return n === null ? null : buffer.subarray(0, n);
    },
    release: () => {},
    cancel: () => Promise.resolve(),
  };
}

/**
 * Reads a byte stream (or a {@linkcode ByteSource}) line by line (without the newline); the
 * rest stays readable after. Each byte is copied once into its line and searched once for the
 * newline, so a long line costs what its length costs.
 */
export class LineReader {
  readonly #reader: ChunkReader;
  readonly #max: number;
  /** Bytes read and not yet returned, in order. */
  #chunks: Uint8Array[] = [];
  #length = 0;
  /** How many bytes at the start of #chunks are known to hold no newline. */
  #scanned = 0;
  #done = false;

  constructor(
    stream: ReadableStream<Uint8Array> | ByteSource,
    options: LineReaderOptions = {},
  ) {
    this.#reader = stream instanceof ReadableStream ? streamReader(stream) : sourceReader(stream);
    this.#max = options.maxLineBytes ?? Infinity;
  }

  get #buffer(): Uint8Array {
    if (this.#chunks.length !== 1) {
      const all = new Uint8Array(this.#length);
      let at = 0;
      for (const chunk of this.#chunks) {
        all.set(chunk, at);
        at += chunk.length;
      }
      this.#chunks = this.#length > 0 ? [all] : [];
    }
    return this.#chunks[0] ?? new Uint8Array(0);
  }

  /** Offset of the first newline in the buffered bytes, or -1; scans only new bytes. */
  #findNewline(): number {
    let offset = 0;
    for (const chunk of this.#chunks) {
      if (offset + chunk.length > this.#scanned) {
        const from = Math.max(0, this.#scanned - offset);
        const found = chunk.indexOf(10, from);
        if (found >= 0) return offset + found;
      }
      offset += chunk.length;
    }
    this.#scanned = this.#length;
    return -1;
  }

  /** Take `count` bytes off the front, and the byte after them (the newline) when `skip`. */
  #take(count: number, skip: boolean): Uint8Array {
    const all = this.#buffer;
    // A view, not a copy: the chunks it covers are not used again.
    const line = all.subarray(0, count);
    const rest = all.subarray(count + (skip ? 1 : 0));
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#length = rest.length;
    this.#scanned = 0;
    return line;
  }

  /** The next line, or null at the end of the stream (a last line without newline included). */
  async next(): Promise<Uint8Array | null> {
    while (true) {
      const newline = this.#findNewline();
      if (newline >= 0) {
        if (newline > this.#max) throw new LineTooLongError(this.#max);
        return this.#take(newline, true);
      }
      if (this.#length > this.#max) throw new LineTooLongError(this.#max);
      if (this.#done) {
        if (this.#length === 0) return null;
        return this.#take(this.#length, false);
      }
      await this.#read();
    }
  }

  /**
   * The next line with its newline, or null at the end: bytes after the last newline (a message
   * the other end did not finish: it died, or cut the session off mid-write) are never returned.
   * The line is a view of bytes read, the newline included, so it is passed on in one write.
   */
  async nextWhole(): Promise<Uint8Array | null> {
    while (true) {
      const newline = this.#findNewline();
      if (newline >= 0) {
        if (newline > this.#max) throw new LineTooLongError(this.#max);
        return this.#take(newline + 1, false);
      }
      if (this.#length > this.#max) throw new LineTooLongError(this.#max);
      if (this.#done) return null;
      await this.#read();
    }
  }

  async #read(): Promise<void> {
    let chunk: Uint8Array | null;
    try {
      chunk = await this.#reader.read();
    } catch {
      chunk = null;
    }
    if (chunk === null) this.#done = true;
    else if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#length += chunk.length;
    }
  }

  /** The next line parsed as JSON, or null at the end. */
  async nextJson<T>(): Promise<T | null> {
    const line = await this.next();
    return line === null ? null : JSON.parse(decoder.decode(line)) as T;
  }

  /** The bytes read past the last line, then the rest of the stream, as one stream. */
  rest(): ReadableStream<Uint8Array> {
    const reader = this.#reader;
    let pending: Uint8Array | null = this.#length > 0 ? this.#buffer : null;
    this.#chunks = [];
    this.#length = 0;
    const done = this.#done;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pending) {
          controller.enqueue(pending);
          pending = null;
          return;
        }
        if (done) return controller.close();
        try {
          const chunk = await reader.read();
          if (chunk === null) controller.close();
          else controller.enqueue(chunk);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
  }

  release(): void {
    this.#reader.release();
  }
}
