/**
 * The dashboard's hub inside the service: what the service tells it (sessions opened and
 * closed, tool calls, log lines) and the pages that listen (server-sent events). It records and
 * sends nothing while no page is open: each tool call then costs one check of
 * {@linkcode DashboardHub.watching}. The page's HTTP server (server.ts) starts on the first
 * `sextant dashboard`, not before.
 * @module
 */
import type { LogLevel } from "../log.ts";
import type { ObservedCall, ObservedResult, ToolCallObserver } from "../session/call_observer.ts";
import type { ProjectHost } from "../project_host.ts";
import { STATS_WINDOW_MS } from "./call_stats.ts";

/** A session as the service describes it to the page. */
export interface SessionDescription {
  /** The client's name and version, from `initialize`; null before it. */
  client: string | null;
  project: string | null;
  context: string;
  modes: readonly string[];
}

/** A session the service serves, as the hub knows it. */
export interface HubSession {
  id: number;
  since: Date;
  describe(): SessionDescription;
  /** End the session (the dashboard's "end session" action). */
  close(): Promise<void>;
}

/** A session as the page shows it. */
export interface SessionView extends SessionDescription {
  id: number;
  since: string;
  /** When its last call started, of those made while a page was open. */
  lastCall: string | null;
  /** Its calls made while a page was open. */
  calls: number;
}

/** One tool call as the page shows it. */
export interface CallRecord {
  id: number;
  session: number;
  tool: string;
  /** A short summary of the arguments. */
  args: string;
  /** When it started, ms since the epoch. */
  started: number;
  /** Duration in ms; null while it runs. */
  ms: number | null;
  /** Characters of the answer. */
  size: number | null;
  /** The answer's first line when it is an error. */
  error: string | null;
  /** The "not analysed" lines of the answer: occurrences the language server did not explain. */
  notAnalysed: string[];
}

/** A log line as the page shows it. */
export interface LogRecord {
  time: number;
  level: LogLevel;
  text: string;
}

/** What the service lets the dashboard see and do. */
export interface ServiceControl {
  version: string;
  pid: number;
  startedAt: Date;
  /** The service's log file, whose tail a page gets when it opens. */
  logPath: string;
  host: ProjectHost;
  /** Stop the service (the dashboard's "stop" action). */
  stop(): void;
}

/** A page listening: it is sent each event as its name and JSON text. */
export type Listener = (event: string, json: string) => void;

/** The calls kept for the statistics (the last hour), at most this many. */
const MAX_CALLS = 10_000;
/** Characters of an argument's value in a call's summary. */
const ARG_CHARS = 60;
/** "Not analysed" lines kept per call. */
const MAX_NOTES = 50;

/** A short summary of a call's arguments: `name=value` pairs, values cut. */
export function summarizeArgs(args: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const key in args) {
    const value = args[key];
    let text = typeof value === "string" ? JSON.stringify(value.slice(0, ARG_CHARS + 1)) : (
      typeof value === "object" && value !== null
        ? (Array.isArray(value) ? "[…]" : "{…}")
        : String(value)
    );
    if (text.length > ARG_CHARS) text = text.slice(0, ARG_CHARS) + "…";
    parts.push(`${key}=${text}`);
  }
  return parts.join(" ");
}

/** The lines of an answer that name occurrences as not analysed (see symbols/completeness.ts). */
export function notAnalysedLines(text: string): string[] {
  const at = text.indexOf("Not analysed:");
  if (at < 0) return [];
  const lines = text.slice(at).split("\n");
  const out = [lines[0]!];
  for (const line of lines.slice(1)) {
    if (!line.startsWith("- ") || out.length > MAX_NOTES) break;
    out.push(line);
  }
  return out;
}

export class DashboardHub {
  readonly #listeners = new Set<Listener>();
  readonly #sessions = new Map<number, HubSession & { lastCall: number | null; calls: number }>();
  /** Finished calls of the last hour (recorded only while a page listens), oldest first. */
  #calls: CallRecord[] = [];
  /** Where the kept calls start in #calls: old ones are dropped in chunks, never one by one. */
  #firstCall = 0;
  readonly #running = new Map<
    number,
    { record: CallRecord; cancel: AbortController; announced: boolean }
  >();
  #nextCall = 1;
  #statsDirty = false;
  /** The page server, once `sextant dashboard` started it. */
  #server: Promise<{ url: string; newLink(): string }> | null = null;
  #url: string | null = null;

  /** Whether a page listens now: while not, nothing is recorded or sent. */
  get watching(): boolean {
    return this.#listeners.size > 0;
  }

  /** Whether a call ended since the statistics were last taken (cleared by taking them). */
  takeStatsDirty(): boolean {
    const dirty = this.#statsDirty;
    this.#statsDirty = false;
    return dirty;
  }

  /** Add a listening page; returns how to remove it. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      // Nobody watches: forget the calls, so a page that opens later starts afresh.
      if (this.#listeners.size === 0) {
        this.#calls = [];
        this.#firstCall = 0;
      }
    };
  }

  /** Send an event to every listening page. */
  publish(event: string, data: unknown): void {
    if (this.#listeners.size === 0) return;
    const json = JSON.stringify(data);
    for (const listener of this.#listeners) listener(event, json);
  }

  sessionOpened(session: HubSession): void {
    this.#sessions.set(session.id, { ...session, lastCall: null, calls: 0 });
    if (this.watching) this.publish("session", this.sessionView(session.id));
  }

  sessionClosed(id: number): void {
    if (!this.#sessions.delete(id)) return;
    this.publish("session-closed", { id });
  }

  /** End a session; false when there is none by that id. */
  async endSession(id: number): Promise<boolean> {
    const session = this.#sessions.get(id);
    if (!session) return false;
    await session.close();
    return true;
  }

  /** A session as the page shows it; null when it is gone. */
  sessionView(id: number): SessionView | null {
    const s = this.#sessions.get(id);
    if (!s) return null;
    return {
      id,
      ...s.describe(),
      since: s.since.toISOString(),
      lastCall: s.lastCall === null ? null : new Date(s.lastCall).toISOString(),
      calls: s.calls,
    };
  }

  sessionViews(): SessionView[] {
    return [...this.#sessions.keys()].map((id) => this.sessionView(id)!);
  }

  /** The observer of session `sessionId`'s tool calls (session/session.ts `callObserver`). */
  callObserver(sessionId: number): ToolCallObserver {
    // deno-lint-ignore no-this-alias
    const hub = this;
    return {
      get watching() {
        return hub.#listeners.size > 0;
      },
      callStarted: (tool, args) => this.#callStarted(sessionId, tool, args),
    };
  }

  #callStarted(
    session: number,
    tool: string,
    args: Readonly<Record<string, unknown>>,
  ): ObservedCall {
    const record: CallRecord = {
      id: this.#nextCall++,
      session,
      tool,
      args: summarizeArgs(args),
      started: Date.now(),
      ms: null,
      size: null,
      error: null,
      notAnalysed: [],
    };
    const began = performance.now();
    const cancel = new AbortController();
    // Announced by announceRunning, once a second: most calls end before, and are sent once.
    this.#running.set(record.id, { record, cancel, announced: false });
    const owner = this.#sessions.get(session);
    if (owner) {
      owner.lastCall = record.started;
      owner.calls++;
    }
    return {
      signal: cancel.signal,
      finished: (result: ObservedResult) => {
        record.ms = performance.now() - began;
        record.size = result.text.length;
        if (result.isError) record.error = result.text.split("\n", 1)[0]!.slice(0, 300);
        record.notAnalysed = [result.text, ...result.notes ?? []].flatMap(notAnalysedLines);
        this.#running.delete(record.id);
        if (!this.watching) return;
        this.#keep(record);
        this.#statsDirty = true;
        this.publish("call", record);
        // The session's count and last call, as the service has them.
        const view = owner ? this.sessionView(session) : null;
        if (view) this.publish("session", view);
      },
    };
  }

  /** Keep a finished call for the statistics; drop those past the hour or the count. */
  #keep(record: CallRecord): void {
    const calls = this.#calls;
    calls.push(record);
    const cutoff = Date.now() - STATS_WINDOW_MS;
    while (
      this.#firstCall < calls.length &&
      (calls.length - this.#firstCall > MAX_CALLS || calls[this.#firstCall]!.started < cutoff)
    ) this.#firstCall++;
    // The dropped head is cut off once it is as long as what is kept: each call pays O(1).
    if (this.#firstCall > 1024 && this.#firstCall * 2 > calls.length) {
      this.#calls = calls.slice(this.#firstCall);
      this.#firstCall = 0;
    }
  }

  /** Send the pages the calls that started since the last time and still run. */
  announceRunning(): void {
    for (const running of this.#running.values()) {
      if (running.announced) continue;
      running.announced = true;
      this.publish("call", running.record);
    }
  }

  /** Cancel a running call; false when no call by that id runs. */
  cancelCall(id: number): boolean {
    const running = this.#running.get(id);
    if (!running) return false;
    running.cancel.abort(new Error("Cancelled from the dashboard."));
    return true;
  }

  /** The calls running now and those that ended in the last hour, oldest first. */
  calls(): CallRecord[] {
    return [
      ...this.#calls.slice(this.#firstCall),
      ...[...this.#running.values()].map((r) => r.record),
    ];
  }

  /** A log line of the service. */
  logLine(level: LogLevel, text: string): void {
    if (!this.watching) return;
    this.publish("log", { time: Date.now(), level, text } satisfies LogRecord);
  }

  /**
   * Start the page's server if it does not run (on 127.0.0.1, a free port), and return a link
   * to it with a new one-time code.
   */
  async openLink(control: ServiceControl): Promise<string> {
    this.#server ??= import("./server.ts").then(({ serveDashboard }) =>
      serveDashboard(this, control)
    );
    try {
      const server = await this.#server;
      this.#url = server.url;
      return server.newLink();
    } catch (error) {
      this.#server = null;
      throw error;
    }
  }

  /** The page's address, once its server runs; null before. */
  get url(): string | null {
    return this.#url;
  }
}
