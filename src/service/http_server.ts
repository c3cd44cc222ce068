/**
 * A small HTTP/1.1 server for `--http`, on a listener of our own, so that its door is bounded as
 * the service's is: Deno's `Deno.serve` keeps every connection that sends its headers slowly, for
 * ever, and ends when the process runs out of descriptors (measured with Deno 2.9: a few dozen
 * silent connections under `ulimit -n 64` ended it). Here, connections go through a
 * {@linkcode ConnectionGate} (at most so many before their first authorized request, the oldest
 * closed past it, and so many after), a request's head must arrive whole within
 * {@linkcode HEAD_WAIT_MS}, heads and bodies are capped in size, and a failed accept never ends
 * the server.
 *
 * It speaks what MCP's Streamable HTTP needs: requests with a `Content-Length` or chunked body,
 * responses of any length (streamed, chunked, for server-sent events), keep-alive.
 * @module
 */
import { concatBytes, writeAll } from "../bytes.ts";
import { log } from "../log.ts";
import { acceptConnections, ConnectionGate, type GateLimits } from "./connection_gate.ts";
import { noDelay } from "./handshake.ts";

/** How long a connection has to send a request's head and body once it starts (ms). */
export const HEAD_WAIT_MS = 10_000;
/** How long an authorized connection may sit idle between requests (ms). */
export const IDLE_WAIT_MS = 120_000;
/** The longest request head (request line and headers), bytes. */
export const MAX_HEAD_BYTES = 32 * 1024;
/** The longest request body, bytes. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@linkcode serveHttp1}. */
export interface Http1Options {
  /** Answers one request. */
  handler: (request: Request) => Promise<Response>;
  /** Whether a request carries the credentials (its connection then counts as authorized). */
  authorized: (request: Request) => boolean;
  limits: GateLimits;
  /** The session a request belongs to (MCP's `Mcp-Session-Id`), or null. */
  sessionOf?: (request: Request) => string | null;
  /**
   * Connections one session may hold open at once (keep-alive, event streams); a request that
   * would open one more for it gets `503` and its connection closes.
   */
  maxPerSession?: number;
}

/** A request that cannot be read: answered with `status`, then the connection closes. */
class BadRequest extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Reads a connection's bytes with a deadline per call. */
class ConnReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffer = new Uint8Array(0);
  /** The read in flight, shared by whoever waits for bytes; it appends what it gets. */
  #pending: Promise<boolean> | null = null;
  #ended = false;
  #closed: Promise<void> | null = null;

  constructor(conn: Deno.Conn) {
    this.#reader = conn.readable.getReader();
  }

  /** One read into the buffer: true with bytes, false at the end of the stream. */
  #readOnce(): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    this.#pending ??= this.#reader.read().then((read) => {
      this.#pending = null;
      if (read.done) {
        this.#ended = true;
        return false;
      }
      const joined = new Uint8Array(this.#buffer.length + read.value.length);
      joined.set(this.#buffer);
      joined.set(read.value, this.#buffer.length);
      this.#buffer = joined;
      return true;
    }, () => {
      this.#pending = null;
      this.#ended = true;
      return false;
    });
    return this.#pending;
  }

  /** More bytes into the buffer; false at the end of the stream or past `deadline`. */
  async #fill(deadline: number): Promise<boolean> {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const got = await Promise.race([
      this.#readOnce(),
      new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), left)),
    ]);
    clearTimeout(timer);
    return got;
  }

  /**
   * Resolves when the client closes its side (bytes it sends meanwhile are kept for the next
   * request): how an answer being streamed learns that nobody reads it any more.
   */
  closed(): Promise<void> {
    this.#closed ??= (async () => {
      while (await this.#readOnce()) { /* kept in the buffer */ }
    })();
    return this.#closed;
  }

  /** The bytes up to and without `\r\n\r\n`, or null (closed, too slow); throws past `max`. */
  async head(deadline: number, max: number): Promise<Uint8Array | null> {
    let scanned = 0;
    for (;;) {
      const at = indexOfBlankLine(this.#buffer, Math.max(0, scanned - 3));
      if (at >= 0) {
        const head = this.#buffer.subarray(0, at);
        this.#buffer = this.#buffer.subarray(at + 4);
        return head;
      }
      scanned = this.#buffer.length;
      if (scanned > max) throw new BadRequest(431, "Request header fields too large.");
      if (!(await this.#fill(deadline))) return null;
    }
  }

  /** Exactly `count` bytes, or null (closed, too slow). */
  async exactly(count: number, deadline: number): Promise<Uint8Array | null> {
    while (this.#buffer.length < count) {
      if (!(await this.#fill(deadline))) return null;
    }
    const out = this.#buffer.slice(0, count);
    this.#buffer = this.#buffer.subarray(count);
    return out;
  }

  /** One line ending in `\r\n` (without it), or null; throws past `max`. */
  async line(deadline: number, max: number): Promise<string | null> {
    for (;;) {
      const at = this.#buffer.indexOf(10);
      if (at >= 0) {
        const text = decoder.decode(this.#buffer.subarray(0, at)).replace(/\r$/, "");
        this.#buffer = this.#buffer.subarray(at + 1);
        return text;
      }
      if (this.#buffer.length > max) throw new BadRequest(400, "A chunk line is too long.");
      if (!(await this.#fill(deadline))) return null;
    }
  }

  cancel(): void {
    this.#reader.cancel().catch(() => {});
  }
}

function indexOfBlankLine(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      return i;
    }
  }
  return -1;
}

interface ParsedHead {
  method: string;
  target: string;
  version: string;
  headers: Headers;
}

function parseHead(bytes: Uint8Array): ParsedHead {
  const lines = decoder.decode(bytes).split("\r\n");
  const match = /^([A-Z]+) (\S+) HTTP\/(1\.[01])$/.exec(lines[0] ?? "");
  if (!match) throw new BadRequest(400, "Malformed request line.");
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new BadRequest(400, "Malformed header line.");
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      throw new BadRequest(400, "Malformed header.");
    }
  }
  return { method: match[1]!, target: match[2]!, version: match[3]!, headers };
}

/** The request body: by `Content-Length`, chunked, or none; null when the client went away. */
async function readBody(
  reader: ConnReader,
  head: ParsedHead,
  deadline: number,
): Promise<Uint8Array | null | "none"> {
  const chunked = /\bchunked\b/i.test(head.headers.get("transfer-encoding") ?? "");
  const lengthHeader = head.headers.get("content-length");
  if (!chunked) {
    if (lengthHeader === null) return "none";
    const length = Number(lengthHeader);
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new BadRequest(400, "Malformed Content-Length.");
    }
    if (length > MAX_BODY_BYTES) throw new BadRequest(413, "Request body too large.");
    return await reader.exactly(length, deadline);
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const sizeLine = await reader.line(deadline, 1024);
    if (sizeLine === null) return null;
    const size = parseInt(sizeLine.split(";")[0]!.trim(), 16);
    if (!Number.isSafeInteger(size) || size < 0) throw new BadRequest(400, "Malformed chunk.");
    total += size;
    if (total > MAX_BODY_BYTES) throw new BadRequest(413, "Request body too large.");
    if (size === 0) {
      // Trailers, then the blank line.
      for (let line = await reader.line(deadline, 8192); line !== "";) {
        if (line === null) return null;
        line = await reader.line(deadline, 8192);
      }
      break;
    }
    const part = await reader.exactly(size + 2, deadline);
    if (part === null) return null;
    parts.push(part.subarray(0, size));
  }
  return concatBytes(parts);
}

const REASONS: Record<number, string> = {
  200: "OK",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** Write `response` on `conn`; whether the connection may carry another request. */
async function writeResponse(
  conn: Deno.Conn,
  response: Response,
  keepAlive: boolean,
  headOnly = false,
  gone: Promise<void> = new Promise(() => {}),
): Promise<void> {
  const headers = new Headers(response.headers);
  const noBody = headOnly || response.body === null || response.status === 204 ||
    response.status === 304;
  const known = headers.get("content-length");
  const chunked = !noBody && known === null;
  if (noBody && known === null && response.status !== 204) headers.set("content-length", "0");
  if (chunked) headers.set("transfer-encoding", "chunked");
  headers.set("connection", keepAlive ? "keep-alive" : "close");
  let head = `HTTP/1.1 ${response.status} ${REASONS[response.status] ?? "Status"}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  await writeAll(conn, encoder.encode(head + "\r\n"));
  if (noBody) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const reader = response.body!.getReader();
  const left = gone.then(() => null);
  try {
    for (;;) {
      // An event stream may stay quiet for long: a client that leaves ends it at once.
      const next = await Promise.race([reader.read(), left]);
      if (next === null) throw new Error("The client closed the connection.");
      const { done, value } = next;
      if (done) break;
      if (value.length === 0) continue;
      if (chunked) {
        await writeAll(conn, encoder.encode(`${value.length.toString(16)}\r\n`));
        await writeAll(conn, value);
        await writeAll(conn, encoder.encode("\r\n"));
      } else {
        await writeAll(conn, value);
      }
    }
    if (chunked) await writeAll(conn, encoder.encode("0\r\n\r\n"));
  } catch (error) {
    // The client went away: stop producing the body (an event stream ends here).
    await reader.cancel(error).catch(() => {});
    throw error;
  }
}

function plain(status: number, message: string): Response {
  return new Response(message + "\n", { status, headers: { "content-type": "text/plain" } });
}

/**
 * Serve HTTP/1.1 on `listener` until it is closed. Returns when the accept loop ends.
 */
export async function serveHttp1(
  listener: Deno.TcpListener,
  options: Http1Options,
): Promise<void> {
  const gate = new ConnectionGate(options.limits);
  const bySession = new Map<string, Set<Deno.Conn>>();
  const sessionOfConn = new Map<Deno.Conn, string>();
  const leaveSession = (conn: Deno.Conn) => {
    const id = sessionOfConn.get(conn);
    if (id === undefined) return;
    sessionOfConn.delete(conn);
    const conns = bySession.get(id);
    conns?.delete(conn);
    if (conns?.size === 0) bySession.delete(id);
  };
  /** Count `conn` for the request's session; false when that session has its most already. */
  const joinSession = (conn: Deno.Conn, request: Request): boolean => {
    const id = options.sessionOf?.(request) ?? null;
    if (id === null || sessionOfConn.get(conn) === id) return true;
    const conns = bySession.get(id) ?? new Set<Deno.Conn>();
    if (conns.size >= (options.maxPerSession ?? Infinity)) return false;
    leaveSession(conn);
    conns.add(conn);
    bySession.set(id, conns);
    sessionOfConn.set(conn, id);
    return true;
  };
  const origin = (() => {
    const addr = listener.addr as Deno.NetAddr;
    const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
    return `http://${host}:${addr.port}`;
  })();

  const serveConnection = async (conn: Deno.Conn) => {
    gate.admit(conn);
    const reader = new ConnReader(conn);
    let authorized = false;
    try {
      for (;;) {
        const deadline = Date.now() + (authorized ? IDLE_WAIT_MS : HEAD_WAIT_MS);
        let head: ParsedHead;
        let body: Uint8Array | null | "none";
        try {
          const bytes = await reader.head(deadline, MAX_HEAD_BYTES);
          if (bytes === null) return;
          head = parseHead(bytes);
          if (!head.target.startsWith("/")) throw new BadRequest(400, "Expected a path.");
          if (/^100-continue$/i.test(head.headers.get("expect") ?? "")) {
            // curl and others wait for this before they send a body.
            await writeAll(conn, encoder.encode("HTTP/1.1 100 Continue\r\n\r\n"));
          }
          // Once the head is here, the body gets the short wait, authorized or not.
          body = await readBody(reader, head, Date.now() + HEAD_WAIT_MS);
          if (body === null) return;
        } catch (error) {
          if (!(error instanceof BadRequest)) throw error;
          await writeResponse(conn, plain(error.status, error.message), false).catch(() => {});
          return;
        }
        const request = new Request(origin + head.target, {
          method: head.method,
          headers: head.headers,
          ...(body === "none" || head.method === "GET" || head.method === "HEAD"
            ? {}
            : { body: body as Uint8Array<ArrayBuffer> }),
        });
        if (!authorized && options.authorized(request)) {
          if (!gate.authenticate(conn)) {
            await writeResponse(
              conn,
              plain(503, "Too many connections: close one and try again."),
              false,
            ).catch(() => {});
            return;
          }
          authorized = true;
        }
        if (authorized && !joinSession(conn, request)) {
          await writeResponse(
            conn,
            plain(503, `This session has ${options.maxPerSession} connections open, its most.`),
            false,
          ).catch(() => {});
          return;
        }
        const wantsClose = /\bclose\b/i.test(head.headers.get("connection") ?? "") ||
          head.version === "1.0";
        let response: Response;
        try {
          response = await options.handler(request);
        } catch (error) {
          log.error("an HTTP request failed:", error);
          response = plain(500, "Internal error.");
        }
        // An unauthorized client gets its answer and the door closes behind it.
        const keepAlive = authorized && !wantsClose;
        await writeResponse(conn, response, keepAlive, head.method === "HEAD", reader.closed());
        if (!keepAlive) return;
      }
    } finally {
      reader.cancel();
      leaveSession(conn);
      gate.release(conn);
      try {
        conn.close();
      } catch { /* closed, or turned away by the gate */ }
    }
  };

  await acceptConnections(listener, (conn) => {
    // An answer is a head and chunks, written one by one.
    noDelay(conn);
    serveConnection(conn).catch(() => {
      // A client that went away mid-answer: its connection is closed above.
    });
  }, () => gate.room());
}
