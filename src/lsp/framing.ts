/**
 * The Language Server Protocol's base framing (`Content-Length` headers, then a JSON body) read
 * and written on the server process's own streams, for vscode-jsonrpc's connection. Its stream
 * reader and writer go through Node stream adapters over the same streams, a timer per partial
 * chunk, a semaphore and an immediate per message, and two writes per message (the header, then
 * the body): on a warm references question over hono, 0.3–0.45 ms of the service's 2.2 ms of CPU
 * (docs/performance.md, "Session 8: warm calls").
 * @module
 */
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
} from "../deps_lsp.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CR = 13;
const LF = 10;
/** The read buffer's size, as Deno reads a pipe (64 KB at most per read). */
const INITIAL_BYTES = 64 * 1024;
/** A buffer grown past this for a large message is let go once it is read. */
const MAX_KEPT = 256 * 1024;

/** Reads the server's messages from its stdout, each as soon as its last byte is in. */
export class FramedReader extends AbstractMessageReader implements MessageReader {
  readonly #stream: ReadableStream<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** Bytes read and not yet taken: `#buffer[#start..#end)`. */
  #buffer = new Uint8Array(INITIAL_BYTES);
  #start = 0;
  #end = 0;
  /** The body length of the message being read, once its header is in; else -1. */
  #bodyLength = -1;

  constructor(stream: ReadableStream<Uint8Array>) {
    super();
    this.#stream = stream;
  }

  listen(callback: DataCallback): Disposable {
    const reader = this.#stream.getReader();
    this.#reader = reader;
    void this.#readLoop(reader, callback);
    return { dispose: () => void reader.cancel().catch(() => {}) };
  }

  override dispose(): void {
    super.dispose();
    this.#reader?.cancel().catch(() => {});
  }

  async #readLoop(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    callback: DataCallback,
  ): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.#append(value);
        if (!this.#deliver(callback)) break;
      }
    } catch (error) {
      this.fireError(error);
    }
    this.fireClose();
  }

  #append(chunk: Uint8Array): void {
    const length = this.#end - this.#start;
    if (this.#end + chunk.length > this.#buffer.length) {
      if (length + chunk.length > this.#buffer.length) {
        // Grown to hold the message being read: a large answer is copied once per doubling.
        const grown = new Uint8Array(Math.max(this.#buffer.length * 2, length + chunk.length));
        grown.set(this.#buffer.subarray(this.#start, this.#end));
        this.#buffer = grown;
      } else {
        this.#buffer.copyWithin(0, this.#start, this.#end);
      }
      this.#start = 0;
      this.#end = length;
    }
    this.#buffer.set(chunk, this.#end);
    this.#end += chunk.length;
  }

  /** Hand on every whole message buffered; false after a framing error (the stream is unusable). */
  #deliver(callback: DataCallback): boolean {
    for (;;) {
      if (this.#bodyLength === -1) {
        const headerEnd = this.#headerEnd();
        if (headerEnd === -1) return true;
        const length = contentLength(this.#buffer.subarray(this.#start, headerEnd));
        if (typeof length === "string") {
          this.fireError(new Error(length));
          return false;
        }
        this.#bodyLength = length;
        this.#start = headerEnd + 4;
      }
      if (this.#end - this.#start < this.#bodyLength) return true;
      const body = this.#buffer.subarray(this.#start, this.#start + this.#bodyLength);
      this.#start += this.#bodyLength;
      this.#bodyLength = -1;
      let message: Message | undefined;
      try {
        message = JSON.parse(decoder.decode(body));
      } catch (error) {
        this.fireError(error);
      }
      if (this.#start === this.#end) {
        this.#start = this.#end = 0;
        // A large answer's room is not kept for the small messages that follow.
        if (this.#buffer.length > MAX_KEPT) this.#buffer = new Uint8Array(INITIAL_BYTES);
      }
      if (message !== undefined) callback(message);
    }
  }

  /** Offset of the `\r\n\r\n` ending the header being read, or -1 while it is not all in. */
  #headerEnd(): number {
    const bytes = this.#buffer.subarray(0, this.#end);
    for (let i = bytes.indexOf(CR, this.#start); i !== -1; i = bytes.indexOf(CR, i + 1)) {
      if (i + 3 >= this.#end) return -1;
      if (bytes[i + 1] === LF && bytes[i + 2] === CR && bytes[i + 3] === LF) return i;
    }
    return -1;
  }
}

/**
 * The `Content-Length` of a message header (its fields, without the blank line), or why it has
 * none; field names are case-insensitive, as vscode-jsonrpc reads them.
 */
export function contentLength(header: Uint8Array): number | string {
  let length: string | undefined;
  for (const field of decoder.decode(header).split("\r\n")) {
    const colon = field.indexOf(":");
    if (colon === -1) return `Message header must separate key and value using ':': ${field}`;
    if (field.slice(0, colon).trim().toLowerCase() === "content-length") {
      length = field.slice(colon + 1).trim();
    }
  }
  if (length === undefined) return "Header must provide a Content-Length property.";
  const value = Number.parseInt(length, 10);
  return Number.isNaN(value) || value < 0
    ? `Content-Length value must be a number. Got ${length}`
    : value;
}

/** Writes messages to the server's stdin, header and body in one write. */
export class FramedWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  #errors = 0;

  constructor(stream: WritableStream<Uint8Array>) {
    super();
    this.#writer = stream.getWriter();
    this.#writer.closed.then(
      () => this.fireClose(),
      (error) => {
        this.fireError(error);
        this.fireClose();
      },
    );
  }

  async write(message: Message): Promise<void> {
    const body = encoder.encode(JSON.stringify(message));
    const header = `Content-Length: ${body.length}\r\n\r\n`;
    const bytes = new Uint8Array(header.length + body.length);
    encoder.encodeInto(header, bytes);
    bytes.set(body, header.length);
    try {
      await this.#writer.write(bytes);
    } catch (error) {
      this.fireError(error, message, ++this.#errors);
      throw error;
    }
  }

  end(): void {
    this.#writer.close().catch(() => {});
  }
}
