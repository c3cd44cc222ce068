/**
 * `sextant --http HOST:PORT`: MCP over Streamable HTTP at `/mcp`, for clients that connect by
 * URL. It serves sessions the way the shared service does (one project host, so sessions on a
 * folder share its language servers), each session with an id of its own.
 *
 * Every request needs the bearer token (`SEXTANT_TOKEN`, or one generated into a 0600 file whose
 * path is printed once); without it the answer is 401. A request from a web page of another
 * origin gets 403 (MCP's rule against DNS rebinding). Binding an address other than loopback
 * needs `--allow-remote`, and Deno's net permission for it, which the `sextant` set does not hold.
 * @module
 */
import { join } from "node:path";
import type { CliOptions } from "../config/cli_options.ts";
import { WebStandardStreamableHTTPServerTransport } from "../deps.ts";
import { log } from "../log.ts";
import { newToken, sameToken, servicePaths } from "./endpoint.ts";
import { ProjectHost } from "../project_host.ts";
import { PROJECT_IDLE_MS } from "./service.ts";
import { openSession } from "./sessions.ts";

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

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname) || hostname.startsWith("127.");
}

/** Origins a local client may send: pages served from loopback itself. */
function originAllowed(origin: string | null): boolean {
  if (origin === null || origin === "null") return true;
  try {
    return isLoopback(new URL(origin).hostname.replace(/^\[|\]$/g, ""));
  } catch {
    return false;
  }
}

/** The token clients must send: SEXTANT_TOKEN, else a new one saved to a private file. */
function httpToken(): { token: string; file: string | null } {
  const fromEnv = Deno.env.get("SEXTANT_TOKEN");
  if (fromEnv) return { token: fromEnv, file: null };
  const file = join(servicePaths().dir, "http-token");
  const token = newToken();
  Deno.writeTextFileSync(file, token + "\n", { mode: 0o600 });
  Deno.chmodSync(file, 0o600);
  return { token, file };
}

function jsonError(status: number, message: string, headers: HeadersInit = {}): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
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
    const auth = request.headers.get("authorization") ?? "";
    const given = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim() ?? "";
    if (!sameToken(given, token)) {
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
        sessions.set(newId, { transport, close });
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

  const httpServer = Deno.serve({ hostname, port, onListen: () => {} }, handler);
  const address = httpServer.addr as Deno.NetAddr;
  const shown = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  console.error(`sextant: serving MCP at http://${shown}:${address.port}/mcp`);
  if (file) console.error(`sextant: bearer token in ${file} (or set SEXTANT_TOKEN)`);
  log.info(`HTTP service ready (pid ${Deno.pid})`);

  const stop = async () => {
    await httpServer.shutdown().catch(() => {});
    await Promise.allSettled([...sessions.values()].map((s) => s.close()));
    await host.dispose();
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, () => void stop());
    } catch { /* not supported here */ }
  }
  await httpServer.finished;
}
