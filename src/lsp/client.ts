/**
 * One language-server process and its JSON-RPC connection: spawn, `initialize`/`initialized`,
 * answers to the server's own requests (ARCHITECTURE.md §5 rule 6), progress and diagnostics notifications,
 * and `shutdown`/`exit` followed by a kill of the whole process group.
 * @module
 */
import type { LspProtocol, MessageConnection } from "../deps.ts";
import { CancellationTokenSource, createMessageConnection, ResponseError } from "./jsonrpc.ts";
import { FramedReader, FramedWriter } from "./framing.ts";
import { ToolError } from "../errors.ts";
import { log, logsAt } from "../log.ts";
import { clientCapabilities } from "./capabilities.ts";
import { DiagnosticsStore } from "./pushed_diagnostics.ts";
import { type ExitStatus, type ServerProcess, spawnServer } from "./server_process.ts";
import { ProgressTracker } from "./progress.ts";
import { lookupSection } from "./settings.ts";

/** What {@linkcode LspClient.start} needs to run one server. */
export interface ClientOptions {
  /** Registry id, for messages ("typescript"). */
  id: string;
  /** Absolute path of the executable. */
  command: string;
  args: readonly string[];
  /** Project root (real path): the working directory and the single workspace folder. */
  root: string;
  rootUri: string;
  projectName: string;
  initializationOptions?: unknown;
  /** Answers `workspace/configuration` (looked up by section) and goes in didChangeConfiguration. */
  settings?: unknown;
  /**
   * The server is loading until it logs a line matching this (`window/logMessage`); for servers
   * with no progress reporting of their project load.
   */
  readyLogPattern?: RegExp;
  /** The server is loading until its first quiescent `experimental/serverStatus`. */
  readyOnServerStatus?: boolean;
  /** Sent after `initialized` unless Sextant logs at debug: the server's own log stops. */
  quietLog?: { method: string; params: unknown };
  /**
   * The server's log says that the engine behind it ended while the server itself lives on
   * (typescript-language-server over tsserver): from then on its answers are empty, so the
   * client counts as ended (see {@linkcode LspClient.backendDied}).
   */
  backendExitLogPattern?: RegExp;
  /** Also push `settings` with `workspace/didChangeConfiguration` after `initialized`. */
  pushSettings?: boolean;
  /**
   * The server's own work-done progress reports background checking, not project loading
   * (ProgressTracker.ignoreServerProgress): set before any message is read.
   */
  ignoreServerProgress?: boolean;
  env?: Record<string, string>;
  /** How long `initialize` may take. */
  initializeTimeoutMs?: number;
  /** Decide `workspace/applyEdit`; without it edits are refused (tools apply edits themselves). */
  applyEdit?: (edit: unknown) => Promise<{ applied: boolean; failureReason?: string }>;
}

/** A dynamic registration from `client/registerCapability`. */
export type Registration = LspProtocol.Registration;

/** A new start, never one started ahead (set by LspClient's static block). */
let startNew: (options: ClientOptions) => Promise<LspClient>;

/** The running process and connection of one language server. Not restartable: make a new one. */
export class LspClient {
  readonly id: string;
  readonly process: ServerProcess;
  readonly connection: MessageConnection;
  readonly progress = new ProgressTracker();
  readonly diagnostics = new DiagnosticsStore();
  /** Dynamic registrations by id. */
  readonly registrations = new Map<string, Registration>();
  capabilities: Record<string, unknown> = {};
  serverInfo: { name?: string; version?: string } = {};
  /** Resolves when the process has ended, for whatever reason. */
  readonly exited: Promise<ExitStatus>;
  #alive = true;
  #stopping = false;
  #backendDied = false;
  /** Replaced by the taker's own when a client started ahead is taken ({@linkcode startAhead}). */
  #options: ClientOptions;
  /**
   * Callbacks run when the process ends. Calls wait for the exit through this set rather than
   * with `exited.then(...)`, which would keep every call's promises (and so every answer)
   * reachable from the long-lived `exited` promise until the server stops.
   */
  readonly #exitWaiters = new Set<() => void>();

  private constructor(options: ClientOptions) {
    this.id = options.id;
    this.#options = options;
    this.process = spawnServer(options.command, options.args, {
      cwd: options.root,
      label: options.id,
      ...(options.env ? { env: options.env } : {}),
    });
    this.connection = createMessageConnection(
      new FramedReader(this.process.stdout),
      new FramedWriter(this.process.stdin),
    );
    this.exited = this.process.exited.then((status) => {
      this.#alive = false;
      for (const wake of [...this.#exitWaiters]) wake();
      this.progress.reset();
      this.connection.dispose();
      if (!this.#stopping && !this.#backendDied) {
        log.warn(
          `language server ${this.id} (pid ${this.process.pid}) exited unexpectedly ` +
            `(code ${status.code}${status.signal ? `, signal ${status.signal}` : ""})`,
        );
      }
      return status;
    });
    if (options.ignoreServerProgress) this.progress.ignoreServerProgress();
    if (options.readyLogPattern) this.progress.hold("startup", "loading the project");
    if (options.readyOnServerStatus) this.progress.hold("status", "loading the project");
    this.#installHandlers();
    this.connection.listen();
  }

  /**
   * Spawn the server and complete `initialize`/`initialized`. Kills the process on failure. A
   * client {@linkcode startAhead} started with the same options is taken instead, once its own
   * handshake is done; one whose start failed or whose process ended is replaced by a new start,
   * which reports its own failure.
   */
  static async start(options: ClientOptions): Promise<LspClient> {
    const ahead = takeStartedAhead(options);
    if (ahead) {
      const client = await withTimeout(
        ahead,
        options.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS,
        `${options.id}: initialize`,
      ).catch((error) => {
        log.debug(`${options.id}: the start ahead failed (${String(error)}); starting anew`);
        void ahead.then((client) => client.stop(AHEAD_GRACE_MS), () => {});
        return null;
      });
      if (client?.alive) {
        client.#options = options;
        log.debug(`${options.id}: took the server started ahead (pid ${client.pid})`);
        return client;
      }
      if (client) await client.stop(AHEAD_GRACE_MS);
    }
    return await LspClient.#startNew(options);
  }

  static {
    startNew = (options) => LspClient.#startNew(options);
  }

  static async #startNew(options: ClientOptions): Promise<LspClient> {
    const client = new LspClient(options);
    try {
      await client.#initialize();
      return client;
    } catch (error) {
      await client.stop();
      throw error;
    }
  }

  get pid(): number {
    return this.process.pid;
  }

  /** Whether the process still runs, its engine too, and we did not start stopping it. */
  get alive(): boolean {
    return this.#alive && !this.#stopping && !this.#backendDied;
  }

  /** Whether the engine behind the server ended while the server lived on. */
  get backendDied(): boolean {
    return this.#backendDied;
  }

  /**
   * Send a request; rejects when the process dies first. `signal` sends `$/cancelRequest`.
   */
  async request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    if (!this.alive) throw this.#exitedError();
    const source = new CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const answer = await this.untilExit(
        this.connection.sendRequest<R>(method, params, source.token),
      );
      // The server says its engine died before this answer: the answer is an empty stand-in.
      if (this.#backendDied) throw this.#exitedError();
      return answer;
    } catch (error) {
      if (this.#backendDied) throw this.#exitedError();
      // A dead server shows first as a broken pipe or a disposed connection: wait for its exit.
      if (this.#alive && !isServerAnswer(error)) await this.#exitWithin(2_000);
      if (!this.#alive) throw this.#exitedError();
      throw error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      source.dispose();
    }
  }

  /**
   * Settle like `work`, or reject with {@linkcode ServerExitedError} if the process ends first.
   * Leaves nothing behind once settled (see `#exitWaiters`).
   */
  async untilExit<T>(work: Promise<T>): Promise<T> {
    if (!this.#alive || this.#backendDied) {
      work.catch(() => {}); // abandoned: its failure must not surface as unhandled
      throw this.#exitedError();
    }
    const { promise, reject } = Promise.withResolvers<never>();
    const wake = () => reject(this.#exitedError());
    this.#exitWaiters.add(wake);
    try {
      return await Promise.race([work, promise]);
    } finally {
      this.#exitWaiters.delete(wake);
    }
  }

  #exitedError(): ServerExitedError {
    const tail = this.process.stderrTail();
    return this.#backendDied
      ? new ServerExitedError(this.id, tail, this.#backendDiedNote)
      : new ServerExitedError(this.id, tail);
  }

  #backendDiedNote = "";

  /**
   * The engine behind the server ended: every pending call fails as if the server had exited
   * (the caller restarts it and asks again), and the process group is killed, so the server is
   * started afresh rather than left answering with nothing.
   */
  #onBackendDeath(message: string): void {
    if (this.#backendDied || !this.#alive || this.#stopping) return;
    this.#backendDied = true;
    this.#backendDiedNote = message.trim();
    log.warn(
      `language server ${this.id} (pid ${this.process.pid}) lost its engine (${message.trim()}); ` +
        "stopping it so that it is started again",
    );
    for (const wake of [...this.#exitWaiters]) wake();
    void this.process.killGroup(0);
  }

  /** Wait until the process has ended, at most `ms`. */
  async #exitWithin(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await this.untilExit(new Promise((resolve) => timer = setTimeout(resolve, ms)));
    } catch {
      /* it ended */
    } finally {
      clearTimeout(timer);
    }
  }

  /** Send a notification (dropped when the server is gone). */
  async notify(method: string, params: unknown): Promise<void> {
    if (!this.alive) return;
    if (method === "textDocument/didOpen" || method === "textDocument/didChange") {
      const uri = (params as { textDocument?: { uri?: string } })?.textDocument?.uri;
      if (uri !== undefined) this.diagnostics.sent(uri);
    }
    try {
      await this.connection.sendNotification(method, params);
    } catch (error) {
      log.debug(`${this.id}: notification ${method} failed: ${String(error)}`);
    }
  }

  /** `shutdown` + `exit`, then kill the process group. Safe to call more than once. */
  async stop(graceMs = 2_000): Promise<void> {
    if (this.#stopping) {
      await this.exited;
      return;
    }
    const wasAlive = this.#alive;
    this.#stopping = true;
    if (wasAlive) {
      try {
        await withTimeout(this.connection.sendRequest("shutdown"), graceMs, "shutdown");
        await this.connection.sendNotification("exit");
        await withTimeout(this.exited, graceMs, "exit");
      } catch (error) {
        log.debug(`${this.id}: clean shutdown failed (${String(error)}); killing it`);
      }
    }
    // Even after a clean exit, helpers the server started may linger in its group.
    await this.process.killGroup(graceMs);
    this.connection.dispose();
    await this.exited;
  }

  async #initialize(): Promise<void> {
    const o = this.#options;
    const params = {
      processId: Deno.pid,
      clientInfo: { name: "sextant" },
      locale: "en",
      rootPath: o.root,
      rootUri: o.rootUri,
      workspaceFolders: [{ uri: o.rootUri, name: o.projectName }],
      capabilities: clientCapabilities(),
      initializationOptions: o.initializationOptions ?? null,
      trace: "off",
    };
    const result = await withTimeout(
      this.request<{ capabilities?: Record<string, unknown>; serverInfo?: object }>(
        "initialize",
        params,
      ),
      o.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS,
      `${this.id}: initialize`,
    );
    this.capabilities = result?.capabilities ?? {};
    this.serverInfo = (result?.serverInfo ?? {}) as typeof this.serverInfo;
    await this.notify("initialized", {});
    // Its log messages are only shown at debug (#installHandlers), unless a pattern reads them.
    if (o.quietLog && !o.readyLogPattern && !o.backendExitLogPattern && !logsAt("debug")) {
      await this.notify(o.quietLog.method, o.quietLog.params);
    }
    // Servers that pull settings (workspace/configuration) must not get a push as well: pyright
    // re-initialises its workspace on it and answers queries from a half-built program meanwhile.
    if (o.settings !== undefined && o.pushSettings) {
      await this.notify("workspace/didChangeConfiguration", { settings: o.settings });
    }
  }

  #installHandlers(): void {
    const c = this.connection;
    // Read per message: a client started ahead is given its taker's options (the same but for the
    // hooks, such as applyEdit).
    const o = () => this.#options;
    c.onRequest("workspace/configuration", (params: { items?: Array<{ section?: string }> }) => {
      const items = params?.items ?? [];
      return items.map((item) => lookupSection(o().settings, item.section) ?? null);
    });
    c.onRequest("window/workDoneProgress/create", (params: { token: string | number }) => {
      this.progress.create(params.token);
      return null;
    });
    c.onRequest("client/registerCapability", (params: { registrations?: Registration[] }) => {
      for (const r of params?.registrations ?? []) this.registrations.set(r.id, r);
      return null;
    });
    c.onRequest("client/unregisterCapability", (params: {
      unregisterations?: Array<{ id: string }>;
      unregistrations?: Array<{ id: string }>;
    }) => {
      // The LSP spec spells the field "unregisterations"; accept the corrected spelling too.
      for (const r of params?.unregisterations ?? params?.unregistrations ?? []) {
        this.registrations.delete(r.id);
      }
      return null;
    });
    c.onRequest("workspace/applyEdit", async (params: { edit?: unknown }) => {
      const applyEdit = o().applyEdit;
      if (applyEdit) return await applyEdit(params?.edit);
      return {
        applied: false,
        failureReason: "Sextant applies workspace edits through its own tools.",
      };
    });
    c.onRequest("workspace/workspaceFolders", () => [{ uri: o().rootUri, name: o().projectName }]);
    c.onRequest("window/showMessageRequest", (params: { message?: string }) => {
      log.debug(`${this.id} asks: ${params?.message ?? ""}`);
      return null;
    });
    c.onRequest("window/showDocument", () => ({ success: false }));
    // typescript-language-server asks the editor to start an interactive rename after some
    // refactorings; there is no editor, and answering keeps its command from failing.
    c.onRequest("_typescript.rename", () => null);
    c.onRequest("workspace/diagnostic/refresh", () => {
      this.diagnostics.invalidateAll();
      return null;
    });
    for (
      const refresh of ["semanticTokens", "codeLens", "inlayHint", "inlineValue", "foldingRange"]
    ) {
      c.onRequest(`workspace/${refresh}/refresh`, () => null);
    }
    c.onNotification("$/progress", (params: { token: string | number; value: unknown }) => {
      this.progress.progress(params.token, params.value);
    });
    c.onNotification("experimental/serverStatus", (params: { quiescent?: boolean }) => {
      this.progress.serverStatus(params ?? {});
      if (params?.quiescent !== false) this.progress.release("status");
    });
    c.onNotification("textDocument/publishDiagnostics", (params: {
      uri: string;
      version?: number | null;
      diagnostics: unknown[];
    }) => {
      this.diagnostics.publish(params.uri, params.version ?? null, params.diagnostics ?? []);
    });
    c.onNotification("window/logMessage", (params: { type?: number; message?: string }) => {
      const message = params?.message ?? "";
      log.debug(`[${this.id}] ${message}`);
      if (o().readyLogPattern?.test(message)) this.progress.release("startup");
      if (o().backendExitLogPattern?.test(message)) this.#onBackendDeath(message);
    });
    c.onNotification("window/showMessage", (params: { type?: number; message?: string }) => {
      log.debug(`[${this.id} message] ${params?.message ?? ""}`);
    });
    c.onNotification(() => {/* telemetry and server-specific notifications: not needed */});
    c.onError(([error]) => log.debug(`${this.id}: connection error: ${error.message}`));
  }
}

/** How long `initialize` may take where the caller sets no limit. */
const INITIALIZE_TIMEOUT_MS = 60_000;
/** How long a client started ahead waits to be taken before it is stopped. */
export const AHEAD_UNCLAIMED_MS = 30_000;
/** A server started ahead and never taken has nothing to save: a short grace. */
const AHEAD_GRACE_MS = 1_000;

/** A client started before anything asked for it, waiting for its taker. */
interface StartedAhead {
  client: Promise<LspClient>;
  timer: ReturnType<typeof setTimeout>;
}

const startedAhead = new Map<string, StartedAhead>();

/**
 * What makes two starts the same server: every option but the hooks and limits a taker brings
 * (applyEdit, the initialize timeout) and the project's name (the workspace folder's label only:
 * prestart.ts names it by its folder, before the session has read a registered name or
 * `.serena/project.yml`'s), and whether Sextant logs at debug (which decides `quietLog`).
 */
function startKey(o: ClientOptions): string {
  return JSON.stringify([
    o.id,
    o.command,
    o.args,
    o.root,
    o.rootUri,
    o.initializationOptions ?? null,
    o.settings ?? null,
    String(o.readyLogPattern ?? ""),
    o.readyOnServerStatus === true,
    o.quietLog ?? null,
    String(o.backendExitLogPattern ?? ""),
    o.pushSettings === true,
    o.ignoreServerProgress === true,
    logsAt("debug"),
  ]);
}

/**
 * Start a server and its `initialize`/`initialized` handshake before anything asks for it
 * (lsp/prestart.ts), so that the server loads the project's configuration while Sextant loads
 * its own modules and reads the first question, rather than after. {@linkcode LspClient.start}
 * with the same options takes it (`startKey`); one nobody takes within
 * {@linkcode AHEAD_UNCLAIMED_MS} is stopped, and {@linkcode stopStartedAhead} stops those left
 * at shutdown. A start that fails is logged at debug only: the taker's own start reports it.
 */
export function startAhead(options: ClientOptions): void {
  if (options.env) return;
  const key = startKey(options);
  if (startedAhead.has(key)) return;
  const client = startNew(options);
  client.catch((error) => log.debug(`${options.id}: the start ahead failed: ${String(error)}`));
  const timer = setTimeout(() => {
    if (startedAhead.get(key)?.client !== client) return;
    startedAhead.delete(key);
    log.debug(`${options.id}: started ahead, not used; stopping it`);
    void client.then((c) => c.stop(AHEAD_GRACE_MS), () => {});
  }, AHEAD_UNCLAIMED_MS);
  Deno.unrefTimer(timer);
  startedAhead.set(key, { client, timer });
}

function takeStartedAhead(options: ClientOptions): Promise<LspClient> | undefined {
  if (options.env) return undefined;
  const key = startKey(options);
  const found = startedAhead.get(key);
  if (!found) return undefined;
  startedAhead.delete(key);
  clearTimeout(found.timer);
  return found.client;
}

/** Stop every client started ahead that nobody took (at shutdown). */
export async function stopStartedAhead(): Promise<void> {
  const left = [...startedAhead.values()];
  startedAhead.clear();
  for (const { timer } of left) clearTimeout(timer);
  await Promise.all(left.map(({ client }) => client.then((c) => c.stop(AHEAD_GRACE_MS), () => {})));
}

/** The server process ended while a request was pending or before it was sent. */
export class ServerExitedError extends Error {
  override name = "ServerExitedError";
  constructor(id: string, stderrTail: string, backendNote?: string) {
    super(
      (backendNote
        ? `The ${id} language server lost the engine behind it (${backendNote})`
        : `The ${id} language server exited`) +
        (stderrTail ? `. Its last output:\n${stderrTail.split("\n").slice(-5).join("\n")}` : "."),
    );
  }
}

/** A request that the server answered with an error (keeps the LSP code). */
export function isResponseError(error: unknown): error is ResponseError<unknown> {
  return error instanceof ResponseError;
}

/** An error response the server sent (as opposed to a transport failure on our side). */
function isServerAnswer(error: unknown): boolean {
  return error instanceof ResponseError && error.code !== -32099 && error.code !== -32098;
}

/** Race a promise against a timer; the timer never outlives the race. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A bounded wait ran out. */
export class TimeoutError extends Error {
  override name = "TimeoutError";
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${Math.round(ms / 1000)} s`);
  }
}

/** Resolve after `ms`, or reject with the signal's reason when it aborts first. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A low-level failure turned into a {@linkcode ToolError} that names the server and the method
 * (timeouts, exits, error answers, spawn refusals); other errors are returned unchanged.
 */
export function describeFailure(
  error: unknown,
  method: string,
  server: { id: string; command: string; path: string },
): unknown {
  const { id, command } = server;
  if (error instanceof ToolError) return error;
  if (error instanceof TimeoutError) {
    return new ToolError(
      `${error.message}. The server may be overloaded or hung; try again, or restart it.`,
    );
  }
  if (error instanceof ServerExitedError) {
    return new ToolError(`${error.message} (during ${method}).`);
  }
  if (isResponseError(error)) {
    return new ToolError(
      `The ${id} language server (${command}) failed ${method}: ${error.message}`,
    );
  }
  if (error instanceof Deno.errors.NotCapable) {
    return new ToolError(
      `Sextant may not run the ${id} language server (${server.path}): ${error.message}. ` +
        "Allow it with --allow-run, or put the server on PATH before starting.",
    );
  }
  if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) {
    return new ToolError(
      `Could not start the ${id} language server (${command}): ${error.message}`,
    );
  }
  return error;
}
