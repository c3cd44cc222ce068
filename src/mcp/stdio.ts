/**
 * An MCP stdio transport on Deno's own streams. Unlike the SDK's Node-stream transport it sees
 * stdin EOF, which is how clients ask a stdio server to stop.
 * @module
 */
import { Buffer } from "node:buffer";
import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from "../deps_start.ts";

export interface DenoStdioOptions {
  input?: ReadableStream<Uint8Array>;
  output?: WritableStream<Uint8Array>;
  /**
   * Requests a session may have unanswered at once (default {@linkcode MAX_IN_FLIGHT}); more are
   * answered at once with an error, so a flood costs the flooder, not the service.
   */
  maxInFlight?: number;
}

/** Unanswered requests per session before new ones are refused. */
export const MAX_IN_FLIGHT = 256;

export class DenoStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #buffer = new ReadBuffer();
  readonly #encoder = new TextEncoder();
  readonly #maxInFlight: number;
  /** Ids of the requests passed on and not yet answered. */
  readonly #inFlight = new Set<string | number>();
  #closed = false;

  constructor(options: DenoStdioOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#writer = (options.output ?? Deno.stdout.writable).getWriter();
    this.#maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
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
    try {
      for await (const chunk of this.#input) {
        this.#buffer.append(Buffer.from(chunk));
        while (true) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.#receive(message);
        }
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
    await this.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    if (!("method" in message) && "id" in message && message.id !== undefined) {
      this.#inFlight.delete(message.id);
    }
    await this.#writer.write(this.#encoder.encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    try {
      await this.#writer.close();
    } catch { /* stdout already gone */ }
    this.onclose?.();
  }
}
