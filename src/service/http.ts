/**
 * `sextant --http HOST:PORT`: MCP over Streamable HTTP at `/mcp`, for clients that connect by
 * URL. It serves sessions the way the shared service does (one project host, so sessions on a
 * folder share its language servers), each session with an id of its own.
 *
 * Every request needs the bearer token (`SEXTANT_TOKEN` of at least 128 bits, or one generated
 * into a 0600 file whose path is printed once); without it the answer is 401. A request from a
 * web page of another origin, or of an opaque one (`Origin: null`), gets 403, and so does one
 * whose `Host` names another machine (DNS rebinding). Binding an address other than loopback
 * needs `--allow-remote`, and Deno's net permission for it, which the `sextant` set does not hold.
 * Sessions idle for {@linkcode HTTP_SESSION_IDLE_MS} are closed, and at most
 * {@linkcode MAX_HTTP_SESSIONS} are open: a new one closes the least recently used. Connections
 * are served by http_server.ts, whose door is bounded (connections before and after the token,
 * the wait for a request's head), not by `Deno.serve`, which a slow-header flood ended.
 * @module
 */
import { join } from "node:path";
import type { CliOptions } from "../config/cli_options.ts";
import { WebStandardStreamableHTTPServerTransport } from "../deps_http.ts";
import { log } from "../log.ts";
import { newToken, sameToken, servicePaths } from "./endpoint.ts";
import { ProjectHost } from "../project_host.ts";
import { PROJECT_IDLE_MS } from "./service.ts";
import { openSession } from "./sessions.ts";
import { descriptorLimit, limitsFor } from "./connection_gate.ts";
import { serveHttp1 } from "./http_server.ts";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** `host:port` split; a clear error for anything else. */
export function parseAddress(address: string): { hostname: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(address.trim());
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--http takes HOST:PORT, e.g. 127.0.0.1:8765; got '${address}'.`);
  }
  return { hostname: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** An IPv4 address of the loopback network (127.0.0.0/8) written out, not a name like it. */
const LOOPBACK_IPV4 = /^127(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Whether `hostname` is the loopback interface, compared as a whole name or address: a DNS name
 * that merely starts like one (`127.evil.example`) is another host.
 */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK.has(name) || LOOPBACK_IPV4.test(name);
}

/** A session unused this long is closed (ms). */
export const HTTP_SESSION_IDLE_MS = 30 * 60 * 1000;
/** Sessions open at once; a new one beyond closes the least recently used. */
export const MAX_HTTP_SESSIONS = 64;
/** Connections kept before their first request with the token (past it, the oldest close). */
export const MAX_UNAUTHENTICATED_CONNECTIONS = 64;
/** Connections kept open after a request with the token (keep-alive, event streams). */
export const MAX_AUTHORIZED_CONNECTIONS = 256;
/** Connections one MCP session may hold open at once (parallel requests, its event stream). */
export const MAX_CONNECTIONS_PER_SESSION = 16;
/** The shortest token accepted from SEXTANT_TOKEN: 128 bits as hex. */
const MIN_TOKEN_CHARS = 32;

/**
 * Origins a local client may send: none (not a browser), or pages served from loopback itself.
 * `null` is what sandboxed frames and `file:` pages send: refused.
 */
function originAllowed(origin: string | null): boolean {
  if (origin === null) return true;
  try {
    return isLoopback(new URL(origin).hostname.replace(/^\[|\]$/g, ""));
  } catch {
    return false;
  }
}

/**
 * Whether a request's `Host` names this server: a loopback name, or the address it is bound to.
 * A DNS-rebinding page reaches a loopback port under its own host name, which is refused. Bound
 * to every address (`--allow-remote` on 0.0.0.0), any name may reach it; the token guards it.
 */
function hostAllowed(host: string | null, bound: string): boolean {
  if (host === null) return false;
  const name = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(host.trim())?.[1]?.replace(/^\[|\]$/g, "");
  if (name === undefined) return false;
  if (bound === "0.0.0.0" || bound === "::") return true;
  return isLoopback(name.toLowerCase()) || name === bound;
}

/** The token clients must send: SEXTANT_TOKEN, else a new one saved to a private file. */
function httpToken(): { token: string; file: string | null } {
  const fromEnv = Deno.env.get("SEXTANT_TOKEN");
  if (fromEnv !== undefined) {
    if (fromEnv.trim().length < MIN_TOKEN_CHARS) {
      throw new Error(
        `SEXTANT_TOKEN is too short to guard the HTTP service: it needs at least ` +
          `${MIN_TOKEN_CHARS} characters (128 bits), e.g. from 'openssl rand -hex 16'; or unset ` +
          "it and Sextant makes one.",
      );
    }
    return { token: fromEnv.trim(), file: null };
  }
  const file = join(servicePaths().dir, "http-token");
  const token = newToken();
  Deno.writeTextFileSync(file, token + "\n", { mode: 0o600 });
  Deno.chmodSync(file, 0o600);
  return { token, file };
}

/** The bearer token a request carries, or "". */
function bearer(request: Request): string {
  const auth = request.headers.get("authorization") ?? "";
  return /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim() ?? "";
}

function jsonError(status: number, message: string, headers: HeadersInit = {}): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** When a request last reached it (ms since the epoch). */
  lastUsed: number;
  close(): Promise<void>;
}

/** Serve MCP over Streamable HTTP until SIGINT/SIGTERM. */
export async function serveHttp(options: CliOptions): Promise<void> {
  const { hostname, port } = parseAddress(options.http!);
  if (!isLoopback(hostname) && !options.allowRemote) {
    throw new Error(
      `--http ${options.http} would accept connections from other machines. Sextant edits ` +
        "files and runs programs for whoever holds the token; bind 127.0.0.1, or pass " +
        "--allow-remote (and grant Deno --allow-net for that address) if you mean it.",
    );
  }
  const { token, file } = httpToken();
  const host = new ProjectHost({ projectIdleMs: PROJECT_IDLE_MS });
  const sessions = new Map<string, HttpSession>();
  const place = { cwd: Deno.cwd(), initCwd: Deno.env.get("INIT_CWD") };

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname !== "/mcp") {
      return new Response("Not found: MCP is served at /mcp\n", { status: 404 });
    }
    if (!originAllowed(request.headers.get("origin"))) {
      return jsonError(403, "Forbidden: requests from another origin are refused.");
    }
    if (!hostAllowed(request.headers.get("host"), hostname)) {
      return jsonError(403, "Forbidden: the Host header does not name this server.");
    }
    if (!sameToken(bearer(request), token)) {
      return jsonError(401, "Unauthorized: send 'Authorization: Bearer <token>'.", {
        "www-authenticate": 'Bearer realm="sextant"',
      });
    }
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) {
        return jsonError(
          404,
          `Unknown or expired session '${id}'. Start a new session (initialize without ` +
            "an Mcp-Session-Id header).",
        );
      }
      session.lastUsed = Date.now();
      return await session.transport.handleRequest(request);
    }
    if (request.method !== "POST") {
      return jsonError(400, "Bad request: no Mcp-Session-Id; start with an initialize POST.");
    }
    let opened;
    try {
      opened = await openSession(options, place, host);
    } catch (error) {
      return jsonError(500, (error as Error).message);
    }
    const { session, server } = opened;
    let sessionId: string | null = null;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (newId) => {
        sessionId = newId;
        sessions.set(newId, { transport, close, lastUsed: Date.now() });
        if (sessions.size > MAX_HTTP_SESSIONS) {
          const oldest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
          log.info(`HTTP session ${oldest[0]} closed: more than ${MAX_HTTP_SESSIONS} sessions`);
          void oldest[1].close();
        }
      },
      onsessionclosed: () => void close(),
    });
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      if (sessionId !== null) sessions.delete(sessionId);
      await session.dispose();
      await server.close().catch(() => {});
    };
    transport.onclose = () => void close();
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (sessionId === null) await close();
    return response;
  };

  const expiry = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastUsed < HTTP_SESSION_IDLE_MS) continue;
      log.info(`HTTP session ${id} closed: idle for ${HTTP_SESSION_IDLE_MS / 60_000} minutes`);
      void session.close();
    }
  }, 60_000);
  Deno.unrefTimer(expiry);

  const listener = Deno.listen({ hostname, port });
  const address = listener.addr as Deno.NetAddr;
  const shown = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  console.error(`sextant: serving MCP at http://${shown}:${address.port}/mcp`);
  if (file) console.error(`sextant: bearer token in ${file} (or set SEXTANT_TOKEN)`);
  // The caps follow the descriptor limit, as the service's do (connection_gate.ts).
  const limits = limitsFor({
    maxUnauthenticated: MAX_UNAUTHENTICATED_CONNECTIONS,
    maxAuthenticated: MAX_AUTHORIZED_CONNECTIONS,
  }, descriptorLimit());
  log.info(
    `HTTP service ready (pid ${Deno.pid}; at most ${limits.maxUnauthenticated} connections ` +
      `before the token, ${limits.maxAuthenticated} after)`,
  );
  const served = serveHttp1(listener, {
    handler,
    authorized: (request) => sameToken(bearer(request), token),
    limits,
    sessionOf: (request) => request.headers.get("mcp-session-id"),
    maxPerSession: MAX_CONNECTIONS_PER_SESSION,
  });

  const stop = async () => {
    try {
      listener.close();
    } catch { /* closed */ }
    await Promise.allSettled([...sessions.values()].map((s) => s.close()));
    await host.dispose();
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, () => void stop());
    } catch { /* not supported here */ }
  }
  await served;
}
