/**
 * The per-user service: one process per user, version and environment that owns the projects
 * and their language servers, and serves every MCP session the fronts (`sextant` on stdio)
 * relay to it over a loopback connection guarded by a token (see endpoint.ts). Sessions on one project share its servers, symbol
 * index and file locks; each session keeps its own active project, context, modes,
 * read-before-edit records and code actions.
 *
 * It holds a lock for its whole life, so two fronts racing to start it end up with one; it
 * exits `--idle-timeout` seconds after its last session closes, and on `sextant service stop`,
 * SIGINT or SIGTERM, always after stopping every process it started.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import { describeError } from "../errors.ts";
import { log, logToFile, setLogLevel, tapLog } from "../log.ts";
import { DenoStdioTransport } from "../mcp/stdio.ts";
import { VERSION } from "../version.ts";
import { removeTempsOfDeadWriters } from "../edit/text_file.ts";
import { newToken, sameToken, servicePaths, writeEndpoint } from "./endpoint.ts";
import { ProjectHost } from "../project_host.ts";
import { stopStartedAhead } from "../lsp/client.ts";
import {
  type Hello,
  jsonLine,
  LineReader,
  noDelay,
  type ServiceStatus,
  type Welcome,
} from "./handshake.ts";
import { RotatingLog } from "./log_file.ts";
import { openSession } from "./sessions.ts";
import { DashboardHub, type ServiceControl } from "../dashboard/hub.ts";
import { ProcessSampler } from "../dashboard/processes.ts";
import {
  acceptConnections,
  ConnectionGate,
  descriptorLimit,
  limitsFor,
} from "./connection_gate.ts";

/** How long the service lives on after its last session, by default (seconds). */
export const DEFAULT_IDLE_TIMEOUT = 300;
/** How long a project no session uses keeps its language servers (ms). */
export const PROJECT_IDLE_MS = 30 * 60 * 1000;
/** The longest hello a connection may send before its token is checked (bytes). */
const HELLO_MAX_BYTES = 256 * 1024;
/** How long a connection has to send its hello (ms): a front sends it as soon as it connects. */
export const HELLO_WAIT_MS = 5_000;
/** Connections kept open before their hello (see connection_gate.ts): past it, the oldest goes. */
export const MAX_UNAUTHENTICATED = 64;
/** Sessions (authenticated connections) open at once; one more is refused with a message. */
export const MAX_SESSIONS = 512;
/** How long a second service waits for the lock before it leaves the first one in charge (ms). */
const LOCK_WAIT_MS = 3000;

interface LiveSession {
  id: number;
  since: Date;
  describe(): { project: string | null; context: string };
  close(): Promise<void>;
}

async function write(conn: Deno.Conn, value: unknown): Promise<void> {
  const writer = conn.writable.getWriter();
  try {
    await writer.write(jsonLine(value));
  } finally {
    writer.releaseLock();
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // closed already (the gate closes connections it turns away)
  }
}

/** `sextant service run`: become the service (a front starts it; users need not). */
export async function runService(options: CliOptions): Promise<void> {
  const paths = servicePaths();
  // Appended to, never truncated: see log_file.ts.
  const waiting = new RotatingLog(paths.log);
  logToFile(waiting);
  setLogLevel(options.logLevel ?? "info");

  const lock = await Deno.open(paths.lock, { create: true, read: true, write: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const locked = await Promise.race([
    lock.lock(true).then(() => true),
    new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), LOCK_WAIT_MS)),
  ]);
  clearTimeout(timer);
  if (!locked) {
    log.info("another service holds the lock; leaving it in charge");
    Deno.exit(0);
  }
  // A service that waited for the lock while another ran takes over a log that may have grown
  // past its limit meanwhile: moved aside now, as a front does before it starts a service. (Its
  // stderr stays on the file it was started with, now `<log>.1`.)
  waiting.close();
  logToFile(new RotatingLog(paths.log));
  // We hold the lock, so an endpoint file left here belongs to a service that died: replace it.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const token = newToken();
  writeEndpoint(paths, { version: VERSION, pid: Deno.pid, port, token });

  // Writes of a service or a standalone process killed mid-way leave temporary files: gone now.
  await removeTempsOfDeadWriters();
  const idleSeconds = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
  const host = new ProjectHost({ projectIdleMs: PROJECT_IDLE_MS });
  const sessions = new Map<number, LiveSession>();
  const startedAt = new Date();
  let nextId = 1;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  // The dashboard records nothing until a page is open; its server starts on `sextant dashboard`.
  const dashboard = new DashboardHub();
  tapLog((level, text) => dashboard.logLine(level, text));

  let stopping: Promise<void> | null = null;
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log.info(`service stopping (${why})`);
      clearTimeout(idleTimer);
      try {
        listener.close();
      } catch { /* closed */ }
      try {
        Deno.removeSync(paths.endpoint);
      } catch { /* gone */ }
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      await host.dispose();
      await stopStartedAhead();
      Deno.exit(0);
    })();
    return stopping;
  };
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    if (sessions.size > 0) return;
    // A dashboard page open on the service keeps it, as a session would.
    idleTimer = setTimeout(
      () => dashboard.watching ? armIdleTimer() : void stop(`idle for ${idleSeconds} s`),
      idleSeconds * 1000,
    );
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, () => void stop(signal));
    } catch { /* not supported here */ }
  }

  const status = async (): Promise<ServiceStatus> => {
    const projects = host.status();
    // Each server's whole process tree (tsserver runs under typescript-language-server).
    const costs = await new ProcessSampler().sample(
      projects.flatMap((p) => p.servers.flatMap((s) => s.pid === null ? [] : [s.pid])),
    );
    return {
      version: VERSION,
      pid: Deno.pid,
      port,
      startedAt: startedAt.toISOString(),
      rss: Deno.memoryUsage().rss,
      idleTimeoutSeconds: idleSeconds,
      dashboard: dashboard.url,
      sessions: [...sessions.values()].map((s) => ({
        id: s.id,
        ...s.describe(),
        since: s.since.toISOString(),
      })),
      projects: projects.map((p) => ({
        ...p,
        servers: p.servers.map((s) => ({
          ...s,
          rss: s.pid === null ? null : costs.get(s.pid)?.rss ?? null,
        })),
      })),
    };
  };

  const gate = new ConnectionGate(limitsFor({
    maxUnauthenticated: MAX_UNAUTHENTICATED,
    maxAuthenticated: MAX_SESSIONS,
  }, descriptorLimit()));
  const serveConnection = async (conn: Deno.Conn) => {
    // Anyone on the machine can reach the port: before the token is checked, a connection gets
    // one short line and a few seconds, never the memory or time of the sessions, and only a
    // bounded number of such connections are kept.
    gate.admit(conn);
    const lines = new LineReader(conn.readable, { maxLineBytes: HELLO_MAX_BYTES });
    let hello: Hello | null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      hello = await Promise.race([
        lines.nextJson<Hello>(),
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), HELLO_WAIT_MS)),
      ]);
    } catch {
      hello = null;
    } finally {
      clearTimeout(timer);
    }
    if (hello === null || typeof hello !== "object") {
      gate.release(conn);
      return closeQuietly(conn);
    }
    const refuse = async (error: string) => {
      gate.release(conn);
      await write(conn, { ok: false, error } satisfies Welcome).catch(() => {});
      closeQuietly(conn);
    };
    if (typeof hello.token !== "string" || !sameToken(hello.token, token)) {
      return await refuse("Wrong token: read it from the service's endpoint file.");
    }
    if (hello.sextant !== VERSION) {
      return await refuse(`This service is Sextant ${VERSION}, not ${hello.sextant}.`);
    }
    if (hello.op === "status") {
      gate.release(conn);
      await write(conn, { ok: true, status: await status() } satisfies Welcome).catch(() => {});
      return closeQuietly(conn);
    }
    if (hello.op === "stop") {
      gate.release(conn);
      await write(conn, { ok: true } satisfies Welcome).catch(() => {});
      closeQuietly(conn);
      return void stop("sextant service stop");
    }
    if (hello.op === "dashboard") {
      const control: ServiceControl = {
        version: VERSION,
        pid: Deno.pid,
        startedAt,
        logPath: paths.log,
        host,
        stop: () => void stop("stopped from the dashboard"),
      };
      try {
        const link = await dashboard.openLink(control);
        await write(conn, { ok: true, dashboard: link } satisfies Welcome).catch(() => {});
      } catch (error) {
        return await refuse(`The dashboard could not start: ${describeError(error)}`);
      }
      gate.release(conn);
      return closeQuietly(conn);
    }
    if (hello.op !== "session") {
      return await refuse(`Unknown request '${String((hello as { op?: unknown }).op)}'.`);
    }
    if (!gate.authenticate(conn)) {
      return await refuse(
        `The service has ${gate.limits.maxAuthenticated} sessions open, its most; close one ` +
          "and connect again.",
      );
    }

    let opened;
    try {
      opened = await openSession(hello.options, hello.place, host);
    } catch (error) {
      return await refuse(describeError(error));
    }
    const { session, server } = opened;
    const id = nextId++;
    let closed = false;
    const live: LiveSession = {
      id,
      since: new Date(),
      describe: () => ({ project: session.project?.root ?? null, context: session.context }),
      close: async () => {
        if (closed) return;
        closed = true;
        sessions.delete(id);
        dashboard.sessionClosed(id);
        gate.release(conn);
        await session.dispose();
        await server.close().catch(() => {});
        try {
          conn.close();
        } catch { /* closed */ }
        armIdleTimer();
      },
    };
    sessions.set(id, live);
    session.callObserver = dashboard.callObserver(id);
    dashboard.sessionOpened({
      id,
      since: live.since,
      describe: () => {
        const client = server.getClientVersion();
        return {
          client: client ? `${client.name} ${client.version}` : null,
          project: session.project?.root ?? null,
          context: session.context,
          modes: session.modes,
        };
      },
      close: () => live.close(),
    });
    armIdleTimer();
    await write(conn, { ok: true } satisfies Welcome);
    const transport = new DenoStdioTransport({ input: lines.rest(), output: conn.writable });
    transport.onclose = () => void live.close();
    await server.connect(transport);
    log.info(`session ${id} opened (${session.project?.root ?? "no project"})`);
  };

  armIdleTimer();
  log.info(
    `service ${VERSION} (pid ${Deno.pid}) listening on 127.0.0.1:${port} (at most ` +
      `${gate.limits.maxUnauthenticated} connections before the token, ` +
      `${gate.limits.maxAuthenticated} sessions)`,
  );
  // Running out of descriptors refuses connections; it never ends the service.
  await acceptConnections(listener, (conn) => {
    noDelay(conn);
    serveConnection(conn).catch((error) => {
      log.error("a connection failed:", error);
      gate.release(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    });
  }, () => gate.room());
}
