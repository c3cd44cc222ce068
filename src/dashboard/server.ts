/**
 * The dashboard's HTTP server, started inside the service by the first `sextant dashboard`: the
 * page, its live feed (server-sent events) and its actions, on 127.0.0.1 only, on a free port.
 * Every request passes the guard (guard.ts): a one-time code or the cookie it was swapped for,
 * this server's exact Host and Origin, and a CSRF token on every action. Paths the page names
 * are only ever projects the service serves; files are read through their sandboxes.
 * @module
 */
import { describeError } from "../errors.ts";
import { log } from "../log.ts";
import { minuteStats, toolStats } from "./call_stats.ts";
import { DashboardGuard } from "./guard.ts";
import type { DashboardHub, LogRecord, ServiceControl } from "./hub.ts";
import { deleteMemory, listMemories, readMemory, saveMemory } from "./memories_api.ts";
import { pageHtml } from "./page.ts";
import { ProcessSampler } from "./processes.ts";
import { projectViews, restartServer } from "./projects_view.ts";
import { saveGlobalSettings, settingsView } from "./settings_view.ts";

/** How often a watched page gets the servers' state and cost, and the statistics (ms). */
const SAMPLE_EVERY_MS = 1000;
/** A comment line that keeps idle event streams open through proxies and timeouts (ms). */
const KEEPALIVE_MS = 15_000;
/** The most recent calls a page is sent when it opens (the statistics cover all of the hour). */
const CALLS_SHOWN = 500;
/** Writes queued for a page that does not read them, at most (then it is dropped). */
const MAX_QUEUED_WRITES = 1000;
/** How long events wait to be written together (ms). */
const FLUSH_MS = 25;
/** The largest request body accepted (bytes): a memory or the global config file. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Bytes of the service's log a page gets when it opens. */
const LOG_TAIL_BYTES = 64 * 1024;

const LOG_LINE = /^\[sextant (debug|info|warn|error)\] (.*)$/;

/** The last lines of the service's log file. */
export function logTail(path: string, bytes = LOG_TAIL_BYTES): LogRecord[] {
  let text: string;
  try {
    using file = Deno.openSync(path, { read: true });
    const size = file.statSync().size;
    const start = Math.max(0, size - bytes);
    file.seekSync(start, Deno.SeekMode.Start);
    const buffer = new Uint8Array(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = file.readSync(buffer.subarray(read));
      if (n === null) break;
      read += n;
    }
    text = new TextDecoder().decode(buffer.subarray(0, read));
    if (start > 0) text = text.slice(text.indexOf("\n") + 1);
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line !== "").map((line) => {
    const match = LOG_LINE.exec(line);
    return match
      ? { time: 0, level: match[1] as LogRecord["level"], text: match[2]! }
      : { time: 0, level: "error" as const, text: line };
  });
}

function json(status: number, value: unknown, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

async function body(request: Request): Promise<Record<string, unknown>> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw new RangeError("The request is too large.");
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new RangeError("The request is too large.");
  const value = text === "" ? {} : JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError("The request body must be a JSON object.");
  }
  return value;
}

function stringField(value: unknown, name: string): string {
  if (typeof value !== "string") throw new TypeError(`'${name}' must be a string.`);
  return value;
}

function integerField(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new TypeError(`'${name}' must be an integer.`);
  }
  return value;
}

/** The dashboard's server: its address, and new links (with a one-time code) to it. */
export interface DashboardServer {
  url: string;
  newLink(): string;
}

/** Serve the dashboard of `hub` for the service `control` describes. */
export function serveDashboard(hub: DashboardHub, control: ServiceControl): DashboardServer {
  const sampler = new ProcessSampler();
  let guard: DashboardGuard | null = null;

  /** Project roots the page may name: those the service serves, and the sessions' ones. */
  const knownRoot = (root: unknown): string => {
    const given = stringField(root, "project");
    const known = new Set([
      ...control.host.served().map((s) => s.project.root),
      ...hub.sessionViews().map((s) => s.project).filter((p): p is string => p !== null),
    ]);
    if (!known.has(given)) throw new TypeError(`The service serves no project at ${given}.`);
    return given;
  };

  const snapshot = async () => ({
    service: {
      version: control.version,
      pid: control.pid,
      startedAt: control.startedAt.toISOString(),
      rss: Deno.memoryUsage().rss,
    },
    sessions: hub.sessionViews(),
    projects: await projectViews(control.host, sampler),
    calls: hub.calls().slice(-CALLS_SHOWN),
    stats: stats(),
    logs: logTail(control.logPath),
  });
  const stats = () => {
    const calls = hub.calls().flatMap((c) =>
      c.ms === null ? [] : [{
        tool: c.tool,
        ended: c.started + c.ms,
        ms: c.ms,
        isError: c.error !== null,
      }]
    );
    const now = Date.now();
    return { tools: toolStats(calls, now), minutes: minuteStats(calls, now) };
  };

  // While a page watches: the servers' state and cost, and the statistics when calls ended.
  let sampling: ReturnType<typeof setInterval> | null = null;
  let sampleRunning = false;
  const sample = async () => {
    if (sampleRunning) return;
    sampleRunning = true;
    try {
      hub.publish("projects", await projectViews(control.host, sampler));
      hub.publish("sessions", hub.sessionViews());
      hub.announceRunning();
      if (hub.takeStatsDirty()) hub.publish("stats", stats());
      hub.publish("service", { rss: Deno.memoryUsage().rss });
    } catch (error) {
      log.debug("dashboard sampling failed:", error);
    } finally {
      sampleRunning = false;
    }
  };
  const watchChanged = () => {
    if (hub.watching && sampling === null) {
      sampling = setInterval(() => void sample(), SAMPLE_EVERY_MS);
      Deno.unrefTimer(sampling);
    } else if (!hub.watching && sampling !== null) {
      clearInterval(sampling);
      sampling = null;
    }
  };

  const events = (): Response => {
    const encoder = new TextEncoder();
    let stop = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        let stopped = false;
        // Events go out in batches, one write per FLUSH_MS: a tool call then costs its event's
        // text, not a write to the socket of its own.
        let batch: string[] = [];
        let flushing: ReturnType<typeof setTimeout> | null = null;
        const flush = () => {
          flushing = null;
          if (stopped || batch.length === 0) return;
          const text = batch.join("");
          batch = [];
          // A page that does not read (a stalled browser) is dropped, not buffered without
          // end; its EventSource connects again and starts from a new snapshot.
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_WRITES) {
            log.info("a dashboard page fell behind its events; dropped it");
            stop();
            controller.close();
            return;
          }
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        const send = (event: string, data: string) => {
          if (stopped) return;
          batch.push(`event: ${event}\ndata: ${data}\n\n`);
          flushing ??= setTimeout(flush, FLUSH_MS);
        };
        // Events that happen while the snapshot is taken follow it (the page merges by id).
        let waiting: Array<[string, string]> | null = [];
        const unlisten = hub.listen((event, data) => {
          if (waiting) waiting.push([event, data]);
          else send(event, data);
        });
        const keepalive = setInterval(() => send("ping", "{}"), KEEPALIVE_MS);
        Deno.unrefTimer(keepalive);
        stop = () => {
          stopped = true;
          if (flushing !== null) clearTimeout(flushing);
          clearInterval(keepalive);
          unlisten();
          watchChanged();
        };
        watchChanged();
        void snapshot().then((value) => {
          send("snapshot", JSON.stringify(value));
          for (const [event, data] of waiting ?? []) send(event, data);
          waiting = null;
        }, (error) => {
          log.warn("the dashboard's snapshot failed:", error);
          stop();
          controller.close();
        });
      },
      cancel() {
        stop();
      },
    });
    return new Response(stream, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  };

  /** The actions: each answers `{ ok, message }`, or an error the page shows. */
  const actions: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
    "restart-server": async (args) => {
      const pid = await restartServer(
        control.host,
        knownRoot(args.project),
        stringField(args.server, "server"),
      );
      hub.publish("projects", await projectViews(control.host, sampler));
      return { message: `Restarted ${args.server}: pid ${pid}.`, pid };
    },
    "cancel-call": (args) => {
      const id = integerField(args.id, "id");
      if (!hub.cancelCall(id)) throw new TypeError(`No call ${id} is running.`);
      return Promise.resolve({ message: `Call ${id} cancelled.` });
    },
    "end-session": async (args) => {
      const id = integerField(args.id, "id");
      if (!await hub.endSession(id)) throw new TypeError(`No session ${id}.`);
      return { message: `Session ${id} ended.` };
    },
    "stop-service": () => {
      // After the answer is on its way: the page shows it, then loses its connection.
      setTimeout(() => control.stop(), 100);
      return Promise.resolve({ message: "The service is stopping." });
    },
    "memory-save": async (args) => ({
      message: await saveMemory(
        knownRoot(args.project),
        stringField(args.name, "name"),
        stringField(args.content, "content"),
      ),
    }),
    "memory-delete": async (args) => ({
      message: await deleteMemory(knownRoot(args.project), stringField(args.name, "name")),
    }),
    "config-save": async (args) => ({
      message: await saveGlobalSettings(stringField(args.text, "text")),
    }),
  };

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const isPage = url.pathname === "/" && request.method === "GET";
    const verdict = guard!.check(request, { signInFree: isPage });
    if (!verdict.ok) {
      return new Response(verdict.message + "\n", {
        status: verdict.status,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    try {
      if (isPage) {
        const code = url.searchParams.get("code");
        if (code !== null) {
          const signedIn = guard!.redeem(code);
          // An old link opened in a browser that is signed in already: just the page.
          if (signedIn === null && verdict.signedIn !== null) {
            return new Response(null, { status: 303, headers: { location: "/" } });
          }
          if (signedIn === null) {
            return new Response(
              "Unauthorized: this link's code was used or is too old. Run 'sextant dashboard' " +
                "for a new one.\n",
              { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } },
            );
          }
          // The code leaves the address bar (and the history) at once.
          return new Response(null, {
            status: 303,
            headers: { location: "/", "set-cookie": guard!.cookieHeader(signedIn) },
          });
        }
        if (verdict.signedIn === null) {
          return new Response(
            "Unauthorized: open the link 'sextant dashboard' prints (it carries a one-time code).\n",
            { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } },
          );
        }
        return new Response(pageHtml(verdict.signedIn.csrf), {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "cache-control": "no-store",
            "content-security-policy":
              "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; " +
              "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'",
            "x-frame-options": "DENY",
            "referrer-policy": "no-referrer",
          },
        });
      }
      if (request.method === "GET" && url.pathname === "/events") return events();
      if (request.method === "GET" && url.pathname === "/api/memories") {
        const root = knownRoot(url.searchParams.get("project"));
        return json(200, { names: await listMemories(root) });
      }
      if (request.method === "GET" && url.pathname === "/api/memory") {
        const root = knownRoot(url.searchParams.get("project"));
        return json(200, {
          text: await readMemory(root, stringField(url.searchParams.get("name"), "name")),
        });
      }
      if (request.method === "GET" && url.pathname === "/api/settings") {
        const project = url.searchParams.get("project");
        return json(200, await settingsView(project ? knownRoot(project) : null));
      }
      const action = /^\/api\/action\/([a-z-]+)$/.exec(url.pathname)?.[1];
      if (request.method === "POST" && action !== undefined && Object.hasOwn(actions, action)) {
        const result = await actions[action]!(await body(request));
        return json(200, { ok: true, ...result as object });
      }
      return json(404, { ok: false, error: `Not found: ${request.method} ${url.pathname}` });
    } catch (error) {
      return json(400, { ok: false, error: describeError(error) });
    }
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const port = (server.addr as Deno.NetAddr).port;
  guard = new DashboardGuard(port);
  const base = `http://127.0.0.1:${port}/`;
  log.info(`dashboard at ${base}`);
  return { url: base, newLink: () => `${base}?code=${guard!.newCode()}` };
}
