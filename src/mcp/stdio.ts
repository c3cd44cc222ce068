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
}

export class DenoStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #buffer = new ReadBuffer();
  readonly #encoder = new TextEncoder();
  #closed = false;

  constructor(options: DenoStdioOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#writer = (options.output ?? Deno.stdout.writable).getWriter();
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
          this.onmessage?.(message);
        }
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
    await this.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
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
