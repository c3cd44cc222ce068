/**
 * JSON-RPC 2.0 as MCP carries it: the error a request is answered with, the check of what
 * arrives (an envelope of the right shape; each handler checks its own params), and the
 * newline-delimited framing of stdio and the service's sockets. Written for Sextant so that
 * serving MCP loads none of the SDK's message schemas (protocol.ts).
 * @module
 */
import type { JSONRPCMessage } from "../deps_start.ts";

/** JSON-RPC's error codes, and MCP's, that Sextant answers or receives. */
export const ErrorCode = {
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  ResourceNotFound: -32002,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/**
 * An error a request is answered with: its code and data go on the wire. The message is worded
 * as the MCP SDK's own `McpError` words it, so clients read the same text they always have.
 */
export class McpError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(`MCP error ${code}: ${message}`);
    this.name = "McpError";
  }
}

/** The `-32602` answer to a request whose params a handler cannot use. */
export function invalidParams(method: string, problem: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${problem}`);
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/**
 * A line's JSON-RPC message. Throws for a line that is not JSON, or not a JSON-RPC 2.0 request,
 * notification or response; a request's params are the handler's to check (it answers `-32602`).
 */
export function parseMessage(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  const problem = envelopeProblem(value);
  if (problem !== null) {
    const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
    throw new Error(`Not a JSON-RPC 2.0 message (${problem}): ${shown}`);
  }
  return value as JSONRPCMessage;
}

function envelopeProblem(value: unknown): string | null {
  if (!isObject(value)) return "not an object";
  if (value.jsonrpc !== "2.0") return "'jsonrpc' is not \"2.0\"";
  if ("method" in value) {
    if (typeof value.method !== "string") return "'method' is not a string";
    if ("id" in value && !isId(value.id)) return "'id' is neither a string nor an integer";
    return null;
  }
  if ("result" in value) {
    if (!isId(value.id)) return "'id' is neither a string nor an integer";
    return isObject(value.result) ? null : "'result' is not an object";
  }
  if ("error" in value) {
    if (value.id !== undefined && !isId(value.id)) return "'id' is neither a string nor an integer";
    const error = value.error;
    return isObject(error) && Number.isSafeInteger(error.code) && typeof error.message === "string"
      ? null
      : "'error' needs an integer 'code' and a string 'message'";
  }
  return "no 'method', 'result' or 'error'";
}

/** A message as one line of the framing. */
export function serializeMessage(message: JSONRPCMessage): string {
  return JSON.stringify(message) + "\n";
}

/** Longest line a session may send: past it, the session is closed (see {@linkcode LineBuffer}). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Cuts a byte stream into lines (a `\r` before the `\n` is dropped). Throws once the unfinished
 * line is longer than `maxBytes`: a stream that sends such a line is not read further.
 */
export class LineBuffer {
  readonly #decoder = new TextDecoder();
  readonly #maxBytes: number;
  /** The unfinished line's bytes, in the order they came. */
  #parts: Uint8Array[] = [];
  #size = 0;

  constructor(maxBytes = MAX_LINE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The lines `chunk` completes. */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      lines.push(this.#line(chunk.subarray(start, end)));
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.#size + rest.length > this.#maxBytes) {
        const size = this.#size + rest.length;
        this.clear();
        throw new Error(
          `A message line passed ${this.#maxBytes} bytes (${size} bytes and no end of line yet).`,
        );
      }
      this.#parts.push(rest);
      this.#size += rest.length;
    }
    return lines;
  }

  /** Forget the unfinished line. */
  clear(): void {
    this.#parts = [];
    this.#size = 0;
  }

  #line(last: Uint8Array): string {
    let bytes = last;
    if (this.#parts.length > 0) {
      bytes = new Uint8Array(this.#size + last.length);
      let at = 0;
      for (const part of [...this.#parts, last]) {
        bytes.set(part, at);
        at += part.length;
      }
      this.clear();
    }
    const text = this.#decoder.decode(bytes);
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}
