/**
 * vscode-jsonrpc's connection, with the runtime it needs given by Sextant. The package's runtime
 * neutral entry (deps_lsp.ts) leaves that runtime to its user; its `/node` entry would bring Deno's
 * Node.js layer (node:net, node:crypto, node:fs, node:util) into every serving process (about
 * 25 ms of an empty process's start, and 7 MB of its memory), for nothing Sextant uses: the
 * messages are framed by framing.ts, so the connection needs only timers, a console and its
 * message buffer.
 *
 * Every module that makes a connection imports the connection from here, so the runtime is in
 * place before the first one runs. A process that also loads the `/node` entry (a test's raw
 * client) installs that one's runtime over this one: either serves.
 * @module
 */
import { clearImmediate, setImmediate } from "node:timers";
import {
  AbstractMessageBuffer,
  CancellationTokenSource,
  createMessageConnection,
  RAL,
  ResponseError,
} from "../deps_lsp.ts";

export { CancellationTokenSource, createMessageConnection, ResponseError };

const decoders = {
  ascii: new TextDecoder("ascii"),
  "utf-8": new TextDecoder("utf-8"),
};
const encoder = new TextEncoder();

/** The header and body buffer of the package's own stream readers (not used by framing.ts). */
class MessageBuffer extends AbstractMessageBuffer {
  protected emptyBuffer(): Uint8Array {
    return new Uint8Array(0);
  }
  protected fromString(value: string): Uint8Array {
    return encoder.encode(value);
  }
  protected toString(value: Uint8Array, encoding: RAL.MessageBufferEncoding): string {
    return decoders[encoding].decode(value);
  }
  protected asNative(buffer: Uint8Array, length?: number): Uint8Array {
    return length === undefined ? buffer : buffer.slice(0, length);
  }
  protected allocNative(length: number): Uint8Array {
    return new Uint8Array(length);
  }
}

function disposable(clear: () => void) {
  return { dispose: clear };
}

RAL.install(Object.freeze({
  crypto: { randomUUID: () => crypto.randomUUID() },
  applicationJson: {
    encoder: {
      name: "application/json",
      encode: (message: unknown) => Promise.resolve(encoder.encode(JSON.stringify(message))),
    },
    decoder: {
      name: "application/json",
      decode: (bytes: Uint8Array, options: { charset: RAL.MessageBufferEncoding }) =>
        Promise.resolve(JSON.parse(decoders[options.charset].decode(bytes))),
    },
  },
  messageBuffer: { create: (encoding: RAL.MessageBufferEncoding) => new MessageBuffer(encoding) },
  console,
  timer: {
    setTimeout(callback: (...args: unknown[]) => void, ms: number, ...args: unknown[]) {
      const handle = setTimeout(callback, ms, ...args);
      return disposable(() => clearTimeout(handle));
    },
    // As Node.js runs it (node:timers, as the `/node` entry has it): after pending I/O, and not
    // clamped like a nested zero-delay timeout.
    setImmediate(callback: (...args: unknown[]) => void, ...args: unknown[]) {
      const handle = setImmediate(callback, ...args);
      return disposable(() => clearImmediate(handle));
    },
    setInterval(callback: (...args: unknown[]) => void, ms: number, ...args: unknown[]) {
      const handle = setInterval(callback, ms, ...args);
      return disposable(() => clearInterval(handle));
    },
  },
}));
