/**
 * An MCP stdio transport on Deno's own streams. Unlike the SDK's Node-stream transport it sees
 * stdin EOF, which is how clients ask a stdio server to stop.
 * @module
 */
import { log } from "../log.ts";
import type { JSONRPCMessage, Transport } from "../deps_start.ts";
import { LineBuffer, MAX_LINE_BYTES, parseMessage, serializeMessage } from "./jsonrpc.ts";

export interface DenoStdioOptions {
  input?: ReadableStream<Uint8Array>;
  output?: WritableStream<Uint8Array>;
  /**
   * Requests a session may have unanswered at once (default {@linkcode MAX_IN_FLIGHT}); more are
   * answered at once with an error, so a flood costs the flooder, not the service.
   */
  maxInFlight?: number;
  /** See {@linkcode MAX_UNREAD_BYTES}. */
  maxUnreadBytes?: number;
  /** See {@linkcode PAUSE_READING_BYTES}. */
  pauseReadingBytes?: number;
  /**
   * Longest message line read (default {@linkcode MAX_LINE_BYTES}); a longer one closes the
   * transport, saying why (`onerror`).
   */
  maxLineBytes?: number;
}

/** Unanswered requests per session before new ones are refused. */
export const MAX_IN_FLIGHT = 256;
/**
 * Bytes of answers a session may leave unread: past it the session is cut off (its connection
 * closed, the reason logged), so a client that stops reading cannot grow the service.
 */
export const MAX_UNREAD_BYTES = 64 * 1024 * 1024;
/**
 * Bytes of unread answers at which the transport stops reading the session's requests until
 * the client has read its answers: a session that does not read is not served.
 */
export const PAUSE_READING_BYTES = 4 * 1024 * 1024;

export class DenoStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #buffer: LineBuffer;
  readonly #encoder = new TextEncoder();
  readonly #maxInFlight: number;
  /** Ids of the requests passed on and not yet answered. */
  readonly #inFlight = new Set<string | number>();
  readonly #maxUnread: number;
  readonly #pauseAt: number;
  /** Bytes handed to the output and not yet taken by it. */
  #unread = 0;
  /** Wakes the read loop when the unread answers went below the pause mark. */
  #drained: (() => void) | null = null;
  #closed = false;

  constructor(options: DenoStdioOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#writer = (options.output ?? Deno.stdout.writable).getWriter();
    this.#maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.#maxUnread = options.maxUnreadBytes ?? MAX_UNREAD_BYTES;
    this.#pauseAt = options.pauseReadingBytes ?? PAUSE_READING_BYTES;
    this.#buffer = new LineBuffer(options.maxLineBytes ?? MAX_LINE_BYTES);
  }

  /** Bytes of answers not yet taken by the output. */
  get unreadBytes(): number {
    return this.#unread;
  }

  /** Pass a message on, or refuse a request beyond the in-flight bound. */
  #receive(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message && message.id !== undefined) {
      if (this.#inFlight.size >= this.#maxInFlight) {
        void this.send({
          jsonrpc: "2.0",
          id: message.id,
          error: {
            code: -32000,
            message: `Too many requests in flight on this session (${this.#maxInFlight}); ` +
              "wait for answers before sending more.",
          },
        }).catch(() => {});
        return;
      }
      this.#inFlight.add(message.id);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      // A cancelled request gets no answer: it no longer counts.
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) this.#inFlight.delete(id);
    }
    this.onmessage?.(message);
  }

  start(): Promise<void> {
    void this.#readLoop();
    return Promise.resolve();
  }

  async #readLoop(): Promise<void> {
    const reader = this.#input.getReader();
    try {
      for (;;) {
        // Backpressure: a session whose answers wait unread gets no more of its requests read.
        while (this.#unread > this.#pauseAt && !this.#closed) {
          await new Promise<void>((resolve) => this.#drained = resolve);
        }
        if (this.#closed) break;
        const { value: chunk, done } = await reader.read();
        if (done) break;
        let lines: string[];
        try {
          lines = this.#buffer.push(chunk);
        } catch (error) {
          log.error(`a session was closed: ${(error as Error).message}`);
          this.onerror?.(error as Error);
          break;
        }
        for (const line of lines) {
          if (this.#closed) break;
          let message: JSONRPCMessage;
          try {
            message = parseMessage(line);
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          this.#receive(message);
        }
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    } finally {
      reader.releaseLock();
    }
    await this.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    const response = !("method" in message) && "id" in message && message.id !== undefined;
    if (response) this.#inFlight.delete(message.id!);
    let bytes = this.#encode(message);
    if (response && bytes.length > this.#maxUnread) {
      // One answer over the whole budget is refused alone; the session goes on.
      bytes = this.#encoder.encode(serializeMessage({
        jsonrpc: "2.0",
        id: message.id!,
        error: {
          code: -32000,
          message: `The answer has ${bytes.length} bytes, more than a session may have unread ` +
            `(${this.#maxUnread}); ask for less (max_answer_chars, a narrower query).`,
        },
      }));
    }
    this.#unread += bytes.length;
    if (this.#unread > this.#maxUnread) {
      return void this.#cutOff();
    }
    try {
      await this.#writer.write(bytes);
    } finally {
      this.#unread -= bytes.length;
      if (this.#unread <= this.#pauseAt && this.#drained) {
        const wake = this.#drained;
        this.#drained = null;
        wake();
      }
    }
  }

  /**
   * A message's line as bytes, encoded straight into a buffer of its size: the line's end is not
   * added to the text first, which copied a large answer once more (hono's warm references:
   * 36 KB a call).
   */
  #encode(message: JSONRPCMessage): Uint8Array {
    const text = JSON.stringify(message);
    // One byte a character, as JSON mostly is (ASCII); other text is encoded as it comes.
    const bytes = new Uint8Array(text.length + 1);
    const { read, written } = this.#encoder.encodeInto(text, bytes);
    if (read < text.length || written !== text.length) return this.#encoder.encode(text + "\n");
    bytes[written] = 10;
    return bytes;
  }

  /** The client does not read its answers: drop them and end the session, saying why. */
  #cutOff(): void {
    if (this.#closed) return;
    const why = `the client did not read its answers (more than ${this.#maxUnread} bytes ` +
      "waited); the session was cut off";
    log.error(`a session was cut off: ${why}`);
    this.onerror?.(new Error(why));
    this.#closed = true;
    this.#buffer.clear();
    this.#drained?.();
    this.#writer.abort(new Error(why)).catch(() => {});
    this.onclose?.();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.#drained?.();
    try {
      await this.#writer.close();
    } catch { /* stdout already gone */ }
    this.onclose?.();
  }
}
