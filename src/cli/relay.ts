/**
 * The front: what MCP clients start (`sextant`, `deno task start`). It connects to the per-user
 * service, starting it detached when none runs, and relays the session between its stdin/stdout
 * and the service, line by line. It holds no language server and imports none of the tools, so
 * it stays small.
 *
 * When the service dies under it (a crash, kill -9), the requests in flight get a clear error,
 * a new service is started, and the session goes on: the front replays the client's
 * `initialize` so the next call works. When the client closes stdin, the front ends the session
 * and exits at once.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import { absolutePath } from "../plain_path.ts";
import { log } from "../log.ts";
import { VERSION } from "../version.ts";
import {
  allServicePaths,
  readEndpoint,
  type ServicePaths,
  servicePaths,
} from "../service/endpoint.ts";
import { type Hello, jsonLine, LineReader, noDelay, type Welcome } from "../service/handshake.ts";
import { lazyImport } from "./lazy.ts";

/** How long a front waits for a service it started to listen (ms). */
const START_WAIT_MS = 15_000;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

interface Connection {
  conn: Deno.TcpConn;
  token: string;
}

/** A connection to the service the endpoint file names, or null when none answers there. */
async function tryConnect(paths: ServicePaths): Promise<Connection | null> {
  const endpoint = readEndpoint(paths);
  if (!endpoint || endpoint.version !== VERSION) return null;
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: endpoint.port });
    noDelay(conn);
    return { conn, token: endpoint.token };
  } catch {
    return null;
  }
}

/**
 * A connection to the service, started first when none answers; null when it cannot be
 * reached or started (the caller serves on its own).
 */
export async function connectOrStart(
  paths: ServicePaths,
  options: Pick<CliOptions, "idleTimeout" | "logLevel">,
): Promise<Connection | null> {
  const running = await tryConnect(paths);
  if (running) return running;
  // Starting one takes modules a front that finds its service running never loads.
  const { startService } = await lazyImport<typeof import("./service_start.ts")>(
    "src/cli/service_start.ts",
  );
  if (!startService(paths, options)) return null;
  const deadline = Date.now() + START_WAIT_MS;
  for (let wait = 10; Date.now() < deadline; wait = Math.min(wait * 2, 200)) {
    await new Promise((r) => setTimeout(r, wait));
    const connection = await tryConnect(paths);
    if (connection) return connection;
  }
  log.warn(`the shared service did not start; see ${paths.log}`);
  return null;
}

/**
 * Send a hello and read the welcome; the reader then carries the session's bytes. The welcome
 * is null when the service closed the connection without one (it was going away).
 */
async function greet(
  conn: Deno.Conn,
  hello: Hello,
): Promise<{ welcome: Welcome | null; lines: LineReader }> {
  const writer = conn.writable.getWriter();
  await writer.write(jsonLine(hello));
  writer.releaseLock();
  // Whole lines only (LineReader.nextWhole): a service that cuts a session off (its client did
  // not read) or dies mid-write leaves part of a message, which the client must never get.
  const lines = new LineReader(conn);
  const first = await lines.nextWhole();
  return { welcome: first === null ? null : JSON.parse(decoder.decode(first)) as Welcome, lines };
}

/**
 * Ask every running service of this version (one per environment, usually one) for its status
 * or to stop; the answers, empty when none runs.
 */
export async function askServices(op: "status" | "stop"): Promise<Welcome[]> {
  const answers: Welcome[] = [];
  for (const paths of allServicePaths()) {
    const connection = await tryConnect(paths);
    if (!connection) continue;
    try {
      const hello = { sextant: VERSION, token: connection.token, op };
      const { welcome } = await greet(connection.conn, hello);
      answers.push(welcome ?? { ok: false, error: "The service closed the connection." });
    } finally {
      try {
        connection.conn.close();
      } catch { /* closed */ }
    }
  }
  return answers;
}

type RequestId = string | number;

interface JsonRpcLine {
  id?: RequestId | null;
  method?: string;
  params?: unknown;
}

const RESPONSE_ID_AT_END = /"id":(-?\d+|"(?:[^"\\]|\\.)*")\}\s*$/;
const RESPONSE_ID_AT_START =
  /^\{"jsonrpc":"2\.0","id":(-?\d+|"(?:[^"\\]|\\.)*"),"(?:error|result)"/;

/**
 * The id of a response from the service, read from the ends of the line where the SDK writes
 * it, without parsing a large answer (the front stays small); null for requests and
 * notifications. Unusual lines are parsed whole.
 */
export function responseId(line: Uint8Array): RequestId | null {
  const head = decoder.decode(line.subarray(0, 200));
  const tail = decoder.decode(line.subarray(Math.max(0, line.length - 200)));
  const found = RESPONSE_ID_AT_END.exec(tail) ?? RESPONSE_ID_AT_START.exec(head);
  if (found && !head.includes('"method":')) return JSON.parse(found[1]!) as RequestId;
  const message = parse(line);
  return message && message.method === undefined && message.id != null ? message.id : null;
}

function parse(line: Uint8Array): JsonRpcLine | null {
  try {
    const value = JSON.parse(decoder.decode(line));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Relay this process's stdio session to the shared service. Resolves false, having touched
 * nothing, when no service can be reached or started; otherwise it serves until stdin closes
 * and exits the process.
 */
export async function relay(options: CliOptions): Promise<boolean> {
  let paths: ServicePaths;
  try {
    paths = servicePaths();
  } catch (error) {
    log.error(`${(error as Error).message} Serving this session on its own instead.`);
    return false;
  }
  const hello = {
    sextant: VERSION,
    op: "session" as const,
    options: {
      ...options,
      ...(options.project !== undefined ? { project: absolutePath(options.project) } : {}),
    },
    place: { cwd: Deno.cwd(), initCwd: Deno.env.get("INIT_CWD") },
  };

  const open = async (): Promise<{ conn: Deno.Conn; lines: LineReader } | null> => {
    const connection = await connectOrStart(paths, options);
    if (!connection) return null;
    const { conn, token } = connection;
    let greeted;
    try {
      greeted = await greet(conn, { ...hello, token });
    } catch (error) {
      log.warn(`the shared service did not answer (${(error as Error).message})`);
      return null;
    }
    if (greeted.welcome === null) {
      // A service that was going away (killed, or exiting) accepted and closed: like one that
      // does not answer, the caller starts or waits for another.
      log.warn("the shared service closed the connection before its welcome");
      try {
        conn.close();
      } catch { /* closed */ }
      return null;
    }
    if (!greeted.welcome.ok) {
      console.error(`sextant: ${greeted.welcome.error}`);
      Deno.exit(2);
    }
    return { conn, lines: greeted.lines };
  };
  let current = await open();
  if (!current) return false;

  // Written straight to the file descriptors, as the reads (LineReader over a ByteSource): each
  // relayed message went through a stream's machinery on both sides (handshake.ts ByteSource).
  let toClientDone: Promise<unknown> = Promise.resolve();
  const toClient = (bytes: Uint8Array) =>
    toClientDone = toClientDone.then(() => writeAll(Deno.stdout, bytes)).catch(() => Deno.exit(0));
  /** Requests sent to the service and not yet answered, by id. */
  const pending = new Map<RequestId, string>();
  let initialize: Uint8Array | null = null;
  let initialized: Uint8Array | null = null;
  /** Whether the client used code mode: a restarted service then says its state was reset. */
  let usedRepl = false;
  /** The id of a replayed `initialize`, whose answer the client must not see twice. */
  let replayedId: RequestId | null = null;
  /**
   * The session's state a new service must be told again: the last successful call of each tool
   * that changes it (the active project, the modes), in the order they were made.
   */
  const stateCalls = new Map<string, Uint8Array>();
  /** Such calls sent and not yet answered, by id. */
  const stateRequests = new Map<RequestId, { name: string; line: Uint8Array }>();
  let ready: Promise<void> = Promise.resolve();

  const sendToService = async (line: Uint8Array) => {
    await ready;
    const conn = current?.conn;
    if (!conn) return;
    try {
      await writeAll(conn, line);
    } catch {
      /* the service is gone; the request fails below */
    }
  };

  const pumpFromService = async (lines: LineReader) => {
    for (let line = await lines.nextWhole(); line !== null; line = await lines.nextWhole()) {
      const id = responseId(line);
      if (id === null) {
        const state = stateCallOf(line);
        if (state) {
          // A call inside code mode changed the session: repeat it as if the client had made it.
          stateCalls.delete(state.name);
          stateCalls.set(state.name, state.line);
          continue;
        }
      }
      if (id !== null) {
        if (id === replayedId) {
          replayedId = null;
          continue;
        }
        pending.delete(id);
        const state = stateRequests.get(id);
        if (state) {
          stateRequests.delete(id);
          if (succeeded(line)) {
            stateCalls.delete(state.name);
            stateCalls.set(state.name, state.line);
          }
        }
      }
      // The line with its newline, as read: one write.
      await toClient(line);
    }
  };

  const recover = async () => {
    // Only what was sent to the dead service fails; requests that arrive meanwhile wait for the
    // new one (a Map's iteration would also visit entries added while it runs).
    const failed = [...pending];
    pending.clear();
    for (const [id, method] of failed) {
      await toClient(jsonLine({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32603,
          message: `The Sextant service stopped while answering ${method}, or cut this ` +
            "session off (its answers were not read; see the service's log); the session is " +
            "being restarted. Call again.",
        },
      }));
    }
    log.warn("the shared service went away; starting a new one");
    for (let attempt = 1; attempt <= 3; attempt++) {
      current = await open();
      if (current) {
        try {
          const writer = current.conn.writable.getWriter();
          if (initialize) {
            replayedId = parse(initialize)?.id ?? null;
            await writer.write(withNewline(initialize));
          }
          if (initialized) {
            await writer.write(withNewline(initialized));
            await writer.write(jsonLine(frontNotice(usedRepl)));
          }
          // The new service knows the session only from the front's options: tell it again
          // what the agent changed since (the active project, the modes).
          const restoring = new Map<RequestId, string>();
          for (const [name, line] of stateCalls) {
            const id = `sextant-restore-${++restoreCount}`;
            const message = JSON.parse(decoder.decode(line));
            // Marked as a restore: a call made inside code mode names a tool that the session
            // does not list over MCP (src/mcp/server.ts RESTORE_META).
            const params = { ...message.params, _meta: { "sextant/restore": true } };
            await writer.write(jsonLine({ ...message, id, params }));
            restoring.set(id, name);
          }
          writer.releaseLock();
          await awaitRestore(current.lines, restoring);
          return;
        } catch (error) {
          log.warn(`the new service went away at once (${(error as Error).message})`);
        }
      }
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
    log.error("cannot restart the shared service; stopping");
    Deno.exit(1);
  };

  let restoreCount = 0;
  /**
   * Read the new service's answers to the replayed `initialize` and state calls (passing any
   * other line on); a call that fails is told to the client, so the agent knows what changed.
   */
  const awaitRestore = async (lines: LineReader, restoring: Map<RequestId, string>) => {
    const failed: string[] = [];
    while (restoring.size > 0 || replayedId !== null) {
      const line = await lines.nextWhole();
      if (line === null) return;
      const id = responseId(line);
      if (id !== null && id === replayedId) {
        replayedId = null;
        continue;
      }
      const name = id !== null ? restoring.get(id) : undefined;
      if (id !== null && name !== undefined) {
        restoring.delete(id);
        if (!succeeded(line)) failed.push(name);
        continue;
      }
      await toClient(line);
    }
    if (failed.length > 0) {
      const text = `The Sextant service restarted; repeating ${failed.join(", ")} failed, so ` +
        "the session is back to its start-up project and modes. Check get_current_config.";
      log.warn(text);
      await toClient(jsonLine({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "warning", logger: "sextant", data: text },
      }));
    }
  };

  // The service side: relay until the service closes, then recover and go on.
  (async () => {
    while (current) {
      await pumpFromService(current.lines);
      let done: () => void = () => {};
      ready = new Promise<void>((r) => done = r);
      await recover();
      done();
    }
  })().catch((error) => {
    log.error("the relay failed:", error);
    Deno.exit(1);
  });

  // The client side: relay stdin until EOF, then end the session and exit.
  const stdin = new LineReader(Deno.stdin);
  for (let line = await stdin.next(); line !== null; line = await stdin.next()) {
    const message = parse(line);
    if (message?.method === "initialize") initialize = line.slice();
    const first = message?.method === "notifications/initialized" && initialized === null;
    if (message?.method === "notifications/initialized") initialized = line.slice();
    if (message?.method !== undefined && message.id != null) {
      pending.set(message.id, message.method);
      const name = (message.params as { name?: unknown } | null | undefined)?.name;
      if (name === "repl") usedRepl = true;
      if (message.method === "tools/call" && typeof name === "string" && STATE_TOOLS.has(name)) {
        stateRequests.set(message.id, { name, line: line.slice() });
      }
    }
    await sendToService(withNewline(line));
    if (first) await sendToService(jsonLine(frontNotice(false)));
  }
  try {
    current?.conn.close();
  } catch { /* closed */ }
  Deno.exit(0);
}

/**
 * Tools whose effect on the session a restarted service must be told again (the same list as
 * code mode's, src/repl/pool.ts `STATE_TOOLS`, which the front does not import to stay small).
 */
const STATE_TOOLS = new Set(["activate_project", "switch_modes"]);

/** Names the front to the service (src/mcp/server.ts `FRONT_NOTIFICATION`). */
function frontNotice(restarted: boolean): Record<string, unknown> {
  return { jsonrpc: "2.0", method: "notifications/sextant/front", params: { restarted } };
}

const STATE_CALL = '"method":"notifications/sextant/state_call"';

/**
 * A state call made inside code mode, as the service tells it (src/mcp/server.ts
 * `STATE_CALL_NOTIFICATION`), made into the `tools/call` line the client would have sent; null
 * for any other line.
 */
function stateCallOf(line: Uint8Array): { name: string; line: Uint8Array } | null {
  if (!decoder.decode(line.subarray(0, 120)).includes(STATE_CALL)) return null;
  const params = parse(line)?.params as { name?: unknown; arguments?: unknown } | undefined;
  if (typeof params?.name !== "string" || !STATE_TOOLS.has(params.name)) return null;
  const call = {
    jsonrpc: "2.0",
    id: 0,
    method: "tools/call",
    params: { name: params.name, arguments: params.arguments ?? {} },
  };
  return { name: params.name, line: encoder.encode(JSON.stringify(call)) };
}

/** Whether a response line is a success: no JSON-RPC error and no tool error. */
function succeeded(line: Uint8Array): boolean {
  const message = parse(line) as { error?: unknown; result?: { isError?: unknown } } | null;
  return message !== null && message.error === undefined && message.result?.isError !== true;
}

/** Write all of `bytes` (a write may take part of them). */
async function writeAll(
  to: { write(bytes: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  for (let done = 0; done < bytes.length;) done += await to.write(bytes.subarray(done));
}

function withNewline(line: Uint8Array): Uint8Array {
  const out = new Uint8Array(line.length + 1);
  out.set(line);
  out[line.length] = encoder.encode("\n")[0]!;
  return out;
}
