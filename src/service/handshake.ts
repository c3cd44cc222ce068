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
  );

export type Welcome =
  | { ok: true; status?: ServiceStatus }
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

/** One JSON value as a line of bytes. */
export function jsonLine(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value) + "\n");
}

/** Reads a byte stream line by line (without the newline); the rest stays readable after. */
export class LineReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffer: Uint8Array = new Uint8Array(0);
  #done = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** The next line, or null at the end of the stream (a last line without newline included). */
  async next(): Promise<Uint8Array | null> {
    while (true) {
      const newline = this.#buffer.indexOf(10);
      if (newline >= 0) {
        const line = this.#buffer.subarray(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        return line;
      }
      if (this.#done) {
        if (this.#buffer.length === 0) return null;
        const last = this.#buffer;
        this.#buffer = new Uint8Array(0);
        return last;
      }
      let chunk: Uint8Array | null;
      try {
        const read = await this.#reader.read();
        chunk = read.done ? null : read.value;
      } catch {
        chunk = null;
      }
      if (chunk === null) this.#done = true;
      else this.#buffer = concat(this.#buffer, chunk);
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
    let pending: Uint8Array | null = this.#buffer.length > 0 ? this.#buffer : null;
    this.#buffer = new Uint8Array(0);
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
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
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
    this.#reader.releaseLock();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
