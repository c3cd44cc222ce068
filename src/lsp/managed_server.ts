/**
 * A managed language server: the {@linkcode LanguageServer} the rest of Sextant uses. It starts
 * its process lazily, restarts it after a crash with exponential backoff (retrying the
 * interrupted request once), syncs documents before each query, waits until the server has
 * loaded the project, times out hung requests and cancels abandoned ones.
 * @module
 */
import type { Diagnostic } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { log } from "../log.ts";
import type { Project } from "../project/project.ts";
import { relPathOfUri } from "../project/file_uri.ts";
import {
  abortableDelay,
  describeFailure,
  LspClient,
  ServerExitedError,
  TimeoutError,
  withTimeout,
} from "./client.ts";
import { DocumentSync, type Lease } from "./documents.ts";
import { FileSet } from "./source_file_set.ts";
import { PullDiagnostics, pullTsserverDiagnostics, supportsPull } from "./pull_diagnostics.ts";
import { withRequestToken } from "./progress.ts";
import { clientOptionsOf, languageIdOf, resolveCommand, type ServerSpec } from "./registry.ts";
import { launchFailureError } from "./install_hints.ts";
import type {
  ApplyEditHandler,
  LanguageServer,
  RelativeMove,
  RequestOptions,
} from "./language_server.ts";
import { ProjectWatcher } from "./watcher.ts";
import { NoticedPaths } from "./noticed_paths.ts";
import type { ProjectWatch } from "../project/project_watch.ts";

/** Time limits of a managed server; tests shorten them. */
export interface ServerTimeouts {
  /** One request, once the server is ready. */
  requestMs: number;
  /** Waiting for the server to finish loading the project. */
  readyMs: number;
  /** Spawn to `initialize` answered. */
  initializeMs: number;
  /** Waiting for pushed diagnostics of the version we sent. */
  diagnosticsMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<ServerTimeouts> = Object.freeze({
  requestMs: 60_000,
  readyMs: 120_000,
  initializeMs: 60_000,
  diagnosticsMs: 30_000,
});

/** Consecutive crashes after which we stop restarting until `restartAll`. */
const MAX_CRASHES = 8;
/** A server that ran this long without crashing starts its backoff from zero again. */
const STABLE_MS = 60_000;
/**
 * How long, after a publish from a server that sends no version, a later one may still come to
 * replace it when the publish may be of the content before a change (see diagnostics()).
 */
const UNVERSIONED_SETTLE_MS = 300;

/** Requests never retried: they may have had effects before the server died or went busy. */
const NOT_RETRIED = new Set(["workspace/executeCommand", "shutdown"]);

/** Delay before restart attempt `n` (1-based): 0, 0.5 s, 1 s, 2 s, ... up to 30 s. */
export function backoffMs(crashes: number): number {
  if (crashes <= 1) return 0;
  return Math.min(30_000, 500 * 2 ** (crashes - 2));
}

/** A server's state as {@linkcode ManagedServer.state} reports it. */
export interface ServerState {
  state: "starting" | "indexing" | "ready" | "crashed" | "stopped";
  /** The server's own progress report while indexing. */
  progress: string | null;
}

export class ManagedServer implements LanguageServer {
  readonly id: string;
  readonly spec: ServerSpec;
  readonly #project: Project;
  readonly #timeouts: ServerTimeouts;
  #client: LspClient | null = null;
  #docs: DocumentSync | null = null;
  #watcher: ProjectWatcher | null = null;
  #pull = new PullDiagnostics();
  #starting: Promise<LspClient> | null = null;
  #crashes = 0;
  #startedAt = 0;
  #restarts = 0;
  #disposed = false;
  #applyEdit: ApplyEditHandler | null = null;

  /** The project's shared watcher, if it has one (else a forwarder watches on its own). */
  readonly #watch: ProjectWatch | undefined;

  constructor(
    spec: ServerSpec,
    project: Project,
    timeouts: Partial<ServerTimeouts> = {},
    watch?: ProjectWatch,
  ) {
    this.id = spec.id;
    this.spec = spec;
    this.#project = project;
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...timeouts };
    this.#watch = watch;
  }

  /** Executable name of the first candidate (or the one running), for messages. */
  get command(): string {
    return this.#running?.command ?? this.spec.commands[0]?.command ?? this.id;
  }

  #running: { command: string; path: string; queuedAnswers: boolean } | null = null;
  /** Path of the executable last tried, for messages. */
  #attemptPath: string | null = null;

  /**
   * The server's capabilities, with those it registered dynamically (`client/registerCapability`)
   * added: Eclipse JDT LS offers `textDocument/implementation` and others only that way.
   */
  get capabilities(): Record<string, unknown> {
    const client = this.#client;
    if (!client) return {};
    let merged: Record<string, unknown> | null = null;
    for (const r of client.registrations.values()) {
      const key = DYNAMIC_PROVIDERS[r.method];
      if (!key || client.capabilities[key]) continue;
      merged ??= { ...client.capabilities };
      merged[key] = r.registerOptions ?? true;
    }
    return merged ?? client.capabilities;
  }

  /** Process id of the running server (its process group id too), or null. */
  get pid(): number | null {
    return this.#client?.alive ? this.#client.pid : null;
  }

  /** How often the process was started again after it ended unexpectedly. */
  get restarts(): number {
    return this.#restarts;
  }

  /**
   * Where the server is, for the service's dashboard: starting, indexing (with the progress it
   * reports), ready, crashed (it ended unexpectedly; the next request starts it again) or stopped.
   */
  get state(): ServerState {
    if (this.#starting) return { state: "starting", progress: null };
    const client = this.#client;
    if (client?.alive) {
      return client.progress.busy
        ? { state: "indexing", progress: client.progress.describe() }
        : { state: "ready", progress: null };
    }
    return { state: this.#crashes > 0 ? "crashed" : "stopped", progress: null };
  }

  /** The `serverInfo` of `initialize` (name and version), when running. */
  get serverInfo(): { name?: string; version?: string } {
    return this.#client?.serverInfo ?? {};
  }

  setApplyEditHandler(handler: ApplyEditHandler | null): void {
    this.#applyEdit = handler;
  }

  /** Start the process now if it does not run (lazily called by every request). */
  async start(options: RequestOptions = {}): Promise<void> {
    await this.#ensureClient(options);
  }

  uriOf(relPath: string): string {
    return this.#documents().uriOf(relPath);
  }

  relPathOf(uri: string): string | null {
    return relPathOfUri(this.#project.root, uri);
  }

  async request<R>(
    method: string,
    params: unknown,
    options: RequestOptions & { sync?: readonly string[] } = {},
  ): Promise<R> {
    // The question's moment: every change made on disk before it is in the answer.
    const asked = options.since ?? performance.now();
    const attempt = async (): Promise<R> => {
      const client = await this.#ensureClient(options);
      const lease = await this.#syncWith(client, options.sync ?? [], options.transient, asked);
      try {
        if (this.#running?.queuedAnswers) {
          return await this.#sendQueued<R>(client, method, params, options);
        }
        await this.#waitReady(client, options);
        const epoch = client.progress.epoch;
        const result = await this.#send<R>(client, method, params, options);
        if (NOT_RETRIED.has(method)) return result;
        if (client.progress.epoch === epoch && !client.progress.busy) return result;
        // The server began (re)loading while answering: that answer may be partial. Ask again.
        log.debug(`${this.id}: ${method} answered while loading; asking again once ready`);
        await this.#waitReady(client, options);
        return await this.#send<R>(client, method, params, options);
      } finally {
        await lease.release();
      }
    };
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ServerExitedError) || this.#disposed || NOT_RETRIED.has(method)) {
        throw this.#describe(error, method);
      }
      options.signal?.throwIfAborted();
      log.info(`${this.id} language server died during ${method}; restarting and retrying once`);
      try {
        return await attempt();
      } catch (second) {
        throw this.#describe(second, method);
      }
    }
  }

  async syncFiles(relPaths: readonly string[], options: RequestOptions = {}): Promise<void> {
    const client = await this.#ensureClient(options);
    await (await this.#syncWith(client, relPaths, false, options.since)).release();
  }

  /** Project-relative paths of the documents open in the running server. */
  openDocuments(): string[] {
    return this.#docs?.openDocuments() ?? [];
  }

  /** Once the server runs and has loaded its project (rule 1); sends nothing. */
  async loaded(options: RequestOptions = {}): Promise<void> {
    await this.#waitReady(await this.#ensureClient(options), options);
  }

  /**
   * A file's diagnostics for the content on disk now (synced first, version-matched).
   * `errorsOnly`: the caller keeps only errors, so a server may skip passes that yield none
   * (tsserver's suggestion diagnostics).
   */
  async diagnostics(
    relPath: string,
    options: RequestOptions & { errorsOnly?: boolean } = {},
  ): Promise<Diagnostic[]> {
    const client = await this.#ensureClient(options);
    const docs = this.#documents();
    const uri = docs.uriOf(relPath);
    const serialBefore = client.diagnostics.serial(uri);
    const versionBefore = docs.versionOf(relPath);
    // A publish of the content the server has may still be on its way (see waitFor's settleMs).
    const unanswered = !client.diagnostics.answered(uri);
    const lease = await this.#syncWith(client, [relPath], options.transient);
    try {
      return await this.#diagnosticsOf(client, relPath, versionBefore, serialBefore, {
        ...options,
        unanswered,
      });
    } finally {
      await lease.release();
    }
  }

  async #diagnosticsOf(
    client: LspClient,
    relPath: string,
    versionBefore: number | null,
    serialBefore: number,
    options: RequestOptions & { errorsOnly?: boolean; unanswered?: boolean },
  ): Promise<Diagnostic[]> {
    const docs = this.#documents();
    const uri = docs.uriOf(relPath);
    await this.#waitReady(client, options);
    const send = <R>(method: string, params: unknown) =>
      this.#send<R>(client, method, params, options);
    try {
      if (
        supportsPull(
          client.capabilities,
          [...client.registrations.values()].map((r) => r.method),
        )
      ) {
        return await this.#pull.pull(send, uri);
      }
      if (this.#running?.command === "typescript-language-server") {
        return await pullTsserverDiagnostics(send, uri, {
          errorsOnly: options.errorsOnly === true,
        });
      }
    } catch (error) {
      throw this.#describe(error, "diagnostics");
    }
    const version = docs.versionOf(relPath) ?? 0;
    const unchanged = versionBefore === version;
    const published = await client.diagnostics.waitFor(uri, {
      version,
      // Unchanged content keeps the diagnostics already published; new content needs new ones.
      afterSerial: unchanged && serialBefore > 0 ? serialBefore - 1 : serialBefore,
      // New content sent while the server had not published for the content before: from a
      // server that says no version (yaml-language-server), the first publish after the change
      // may be of that content, so the last one once they stop.
      ...(!unchanged && options.unanswered ? { settleMs: UNVERSIONED_SETTLE_MS } : {}),
    }, { timeoutMs: this.#timeouts.diagnosticsMs, signal: options.signal });
    if (!published) {
      throw new ToolError(
        `The ${this.id} language server (${this.command}) published no diagnostics for ` +
          `'${relPath}' within ${Math.round(this.#timeouts.diagnosticsMs / 1000)} s.`,
      );
    }
    return published.diagnostics as Diagnostic[];
  }

  /** Our own tools changed these files: resync them now if the server runs. */
  async notifyChanged(relPaths: readonly string[]): Promise<void> {
    const relevant = relPaths;
    if (!this.#client?.alive || !this.#docs) return;
    this.#pull.forget();
    await this.#docs.changed(relevant);
  }

  /**
   * Our own tools moved files or folders: documents open at the old paths are closed and opened
   * at the new ones, the moves are announced as file events, and a server that asked for
   * `workspace/didRenameFiles` hears of them.
   */
  async notifyMoved(moves: readonly RelativeMove[]): Promise<void> {
    const client = this.#client;
    if (!client?.alive || !this.#docs) return;
    this.#pull.forget();
    await this.#docs.moved(moves);
    if (wantsDidRename(client.capabilities)) {
      await client.notify("workspace/didRenameFiles", {
        files: moves.map((m) => ({ oldUri: this.uriOf(m.from), newUri: this.uriOf(m.to) })),
      });
    }
  }

  /** Stop the process (shutdown, exit, kill the process group). The server may start again. */
  async stop(): Promise<void> {
    const starting = this.#starting;
    if (starting) await starting.catch(() => {});
    const client = this.#client;
    this.#client = null;
    this.#docs?.dispose();
    this.#docs = null;
    this.#pull = new PullDiagnostics();
    await this.#stopWatching();
    if (client) await client.stop();
  }

  /**
   * Stop the process and start it afresh (the dashboard's restart of a stuck server): the count
   * of crashes in a row starts over, so a server that gave up restarting itself starts again.
   */
  async restart(options: RequestOptions = {}): Promise<void> {
    await this.stop();
    this.#crashes = 0;
    await this.start(options);
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    await this.stop();
  }

  #documents(): DocumentSync {
    if (!this.#docs) {
      // Before the first start: a detached sync object only used for URIs.
      return new DocumentSync({
        root: this.#project.root,
        server: { notify: () => Promise.resolve() },
        languageId: (rel) => languageIdOf(this.spec, rel),
      });
    }
    return this.#docs;
  }

  async #syncWith(
    client: LspClient,
    relPaths: readonly string[],
    transient: boolean | undefined,
    since = performance.now(),
  ): Promise<Lease> {
    if (this.#client !== client || !this.#docs) throw new ServerExitedError(this.id, "");
    this.#watchIfAsked(client);
    return await this.#docs.sync(relPaths, { transient, since });
  }

  /** Start forwarding file events once the server registered for them (pyright does). */
  #watchIfAsked(client: LspClient): void {
    if (this.#watcher) return;
    const asked = [...client.registrations.values()].some((r) =>
      r.method === "workspace/didChangeWatchedFiles"
    );
    if (!asked) return;
    try {
      this.#watcher = new ProjectWatcher(this.#watch ?? this.#project.root, (changes) => {
        void client.notify("workspace/didChangeWatchedFiles", { changes });
      });
    } catch (error) {
      log.debug(`${this.id}: cannot watch ${this.#project.root}: ${String(error)}`);
    }
  }

  async #stopWatching(): Promise<void> {
    const watcher = this.#watcher;
    this.#watcher = null;
    await watcher?.close();
  }

  async #ensureClient(options: RequestOptions): Promise<LspClient> {
    if (this.#disposed) throw new ToolError(`The ${this.id} language server was shut down.`);
    if (this.#client?.alive) return this.#client;
    this.#starting ??= this.#spawn(options).finally(() => {
      this.#starting = null;
    });
    return await this.#starting;
  }

  async #spawn(options: RequestOptions): Promise<LspClient> {
    const resolved = resolveCommand(this.spec, this.#project.root);
    if ("error" in resolved) throw new ToolError(resolved.error);
    if (this.#startedAt && Date.now() - this.#startedAt > STABLE_MS) this.#crashes = 0;
    if (this.#crashes >= MAX_CRASHES) {
      throw new ToolError(
        `The ${this.id} language server (${resolved.command.command}) crashed ${this.#crashes} ` +
          "times in a row; not restarting it. Restart the language servers to try again.",
      );
    }
    const delay = backoffMs(this.#crashes);
    if (delay > 0) {
      options.onProgress?.(`Restarting the ${this.id} language server in ${delay / 1000} s`);
      await abortableDelay(delay, options.signal);
    }
    options.onProgress?.(`Starting the ${this.id} language server (${resolved.command.command})`);
    const began = performance.now();
    this.#startedAt = Date.now();
    this.#attemptPath = resolved.path;
    let client: LspClient;
    try {
      client = await LspClient.start({
        ...clientOptionsOf(this.spec, resolved, this.#project.root, this.#project.name),
        initializeTimeoutMs: this.#timeouts.initializeMs,
        // Looked up per request, so a handler set later (and restarts) are honoured.
        applyEdit: (edit) =>
          this.#applyEdit?.(edit) ?? Promise.resolve({
            applied: false,
            failureReason: "Sextant applies workspace edits through its own tools.",
          }),
      });
    } catch (error) {
      this.#crashes++;
      throw launchFailureError(error, this.spec.label, resolved.command.command, resolved.path) ??
        this.#describe(error, "initialize");
    }
    if (this.#disposed) {
      await client.stop();
      throw new ToolError(`The ${this.id} language server was shut down.`);
    }
    log.debug(
      `${this.id}: started ${resolved.path} (pid ${client.pid}) in ` +
        `${Math.round(performance.now() - began)} ms`,
    );
    if (this.#running) this.#restarts++;
    this.#running = {
      command: resolved.command.command,
      path: resolved.path,
      queuedAnswers: resolved.command.queuedAnswers === true,
    };
    this.#client = client;
    const pull = this.#pull = new PullDiagnostics();
    // The documents of a process replaced before its exit was handled (its engine died).
    this.#docs?.dispose();
    const docs = this.#docs = new DocumentSync({
      root: this.#project.root,
      server: client,
      languageId: (rel) => languageIdOf(this.spec, rel),
      encoding: this.#project.settings.encoding,
      fileSet: new FileSet({
        root: this.#project.root,
        extensions: this.spec.extensions,
        ignored: (rel, isDir) => this.#project.ignore.isIgnored(rel, isDir),
        // The walk tells the ignore rules which folders have no `.gitignore` (a failed open per
        // folder was most of the first scan's cost, before the first request).
        listedWithout: (rel) => this.#project.ignore.listedWithout(rel),
      }),
      // A warm query on an unchanged project then checks nothing against disk.
      ...(this.#watch?.root === this.#project.root
        ? { noticed: new NoticedPaths(this.#watch) }
        : {}),
      // What the server reported on a closed document is never asked for again: drop it.
      onClose: (uri) => {
        client.diagnostics.forget(uri);
        pull.forget(uri);
      },
    });
    // Only open documents are ever asked about (diagnostics() opens its file first).
    client.diagnostics.retainOnly((uri) => docs.isOpen(uri));
    void client.exited.then(() => {
      // A server whose engine died may already have been replaced by the next request.
      if (client.backendDied && this.#client !== client) this.#crashes++;
      if (this.#client !== client) return;
      this.#crashes++;
      this.#client = null;
      this.#docs?.dispose();
      this.#docs = null;
      void this.#stopWatching();
    });
    return client;
  }

  async #waitReady(client: LspClient, options: RequestOptions): Promise<void> {
    if (!client.progress.busy) return;
    const report = (text: string) => options.onProgress?.(`${this.id} language server: ${text}`);
    await client.untilExit(client.progress.whenIdle({
      timeoutMs: this.#timeouts.readyMs,
      signal: options.signal,
      report,
      onTimeout: () =>
        new ToolError(
          `The ${this.id} language server (${this.command}) is still loading the project ` +
            `after ${Math.round(this.#timeouts.readyMs / 1000)} s ` +
            `(${client.progress.describe()}). Try again later.`,
        ),
    }));
  }

  /**
   * Send at once to a server that answers behind its project loading (see
   * `ServerCommand.queuedAnswers`): waiting for the load to end first would only add the time
   * between its end and our request. While it loads, its progress still reaches the caller, and
   * the request may take as long as loading may.
   */
  async #sendQueued<R>(
    client: LspClient,
    method: string,
    params: unknown,
    options: RequestOptions,
  ): Promise<R> {
    const report = options.onProgress;
    const unwatch = report
      ? client.progress.watch((text) => report(`${this.id} language server: ${text}`))
      : () => {};
    const loading = client.progress.busy || Date.now() - this.#startedAt < this.#timeouts.readyMs;
    try {
      return await this.#send<R>(client, method, params, options, loading);
    } finally {
      unwatch();
    }
  }

  async #send<R>(
    client: LspClient,
    method: string,
    params: unknown,
    options: RequestOptions,
    /** The server may still be loading the project: allow for that too. */
    loading = false,
  ): Promise<R> {
    // Our own controller: cancels on the caller's signal and on our timeout ($/cancelRequest).
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      options.signal?.throwIfAborted();
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
          once: true,
        });
      });
      return await withTimeout(
        Promise.race([
          client.request<R>(method, withRequestToken(method, params), controller.signal),
          aborted,
        ]),
        this.#timeouts.requestMs + (loading ? this.#timeouts.readyMs : 0),
        `${method} to the ${this.id} language server (${this.command})`,
      );
    } catch (error) {
      if (error instanceof TimeoutError) controller.abort(error);
      throw error;
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Turn low-level failures into messages that name the server and the method. */
  #describe(error: unknown, method: string): unknown {
    return describeFailure(error, method, {
      id: this.id,
      command: this.command,
      path: this.#attemptPath ?? this.command,
    });
  }
}

/** The capability a dynamically registered request method stands for. */
const DYNAMIC_PROVIDERS: Record<string, string> = {
  "textDocument/implementation": "implementationProvider",
  "textDocument/typeDefinition": "typeDefinitionProvider",
  "textDocument/declaration": "declarationProvider",
  "textDocument/definition": "definitionProvider",
  "textDocument/references": "referencesProvider",
  "textDocument/hover": "hoverProvider",
  "textDocument/rename": "renameProvider",
  "textDocument/documentSymbol": "documentSymbolProvider",
  "workspace/symbol": "workspaceSymbolProvider",
  "textDocument/formatting": "documentFormattingProvider",
  "textDocument/rangeFormatting": "documentRangeFormattingProvider",
  "textDocument/codeAction": "codeActionProvider",
  "textDocument/completion": "completionProvider",
  "textDocument/signatureHelp": "signatureHelpProvider",
  "textDocument/prepareCallHierarchy": "callHierarchyProvider",
  "textDocument/prepareTypeHierarchy": "typeHierarchyProvider",
  "workspace/executeCommand": "executeCommandProvider",
};

/** Whether a server's capabilities ask for `workspace/didRenameFiles`. */
function wantsDidRename(capabilities: Record<string, unknown>): boolean {
  const workspace = capabilities.workspace as { fileOperations?: { didRename?: unknown } };
  return workspace?.fileOperations?.didRename !== undefined;
}

/** Whether a server offers `workspace/willRenameFiles` (it computes the edits a move needs). */
export function offersWillRename(capabilities: Record<string, unknown>): boolean {
  const workspace = capabilities.workspace as { fileOperations?: { willRename?: unknown } };
  return workspace?.fileOperations?.willRename !== undefined;
}
