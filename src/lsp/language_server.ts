/**
 * The seam between the language-server engine (client, pool, readiness, document sync) and its
 * users (symbol retrieval, tools). Tools never speak JSON-RPC themselves: they ask a
 * {@linkcode LanguageServer} obtained from the {@linkcode LanguageServerPool}.
 * `lsp/` knows nothing of MCP: progress is reported through plain callbacks.
 * @module
 */
import type { Diagnostic } from "../deps.ts";

/** Reports long waits (server start, project loading) so callers can forward them as progress. */
export type ProgressReporter = (message: string) => void;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ProgressReporter | undefined;
  /**
   * The files this call opens (a request's `sync`, the file of `diagnostics`) are needed only
   * for this call: close them again when it ends, unless they were open already or another call
   * still needs them. For one-off reads over many files (a symbol scan), so the server does not
   * keep hundreds of documents open and analyse them all after every change. Some servers
   * answer only for open documents (typescript-language-server's `documentSymbol`), so a
   * transient open is still an open.
   */
  transient?: boolean | undefined;
  /**
   * When the question began (`performance.now()`): the request answers for every change made
   * on disk before it. Defaults to the request's own start; a question that already waited for
   * the project watcher's barrier since it began (queries.ts) lets the request share it.
   */
  since?: number | undefined;
}

/** One running (or restartable) language server for one language in one project. */
export interface LanguageServer {
  /** Registry id, e.g. "typescript", "python". */
  readonly id: string;
  /** Executable name, for messages. */
  readonly command: string;
  /** The server's capabilities from `initialize` (raw LSP object). */
  readonly capabilities: Record<string, unknown>;

  /**
   * Send a request once the server is ready (project loaded). Files named by `sync` (project-
   * relative) are synced with disk first. A crashed server is restarted and the request retried
   * once; a hung request times out with a clear error; an aborted signal sends $/cancelRequest.
   */
  request<R>(
    method: string,
    params: unknown,
    options?: RequestOptions & { sync?: readonly string[] },
  ): Promise<R>;

  /**
   * Make sure the server has the current disk content of these project-relative files (they
   * stay open; `transient` does not apply).
   */
  syncFiles(relPaths: readonly string[], options?: RequestOptions): Promise<void>;

  /**
   * Diagnostics of a project-relative file for its content on disk now: the file is synced, then
   * its diagnostics are pulled (`textDocument/diagnostic`, or tsserver's own commands) or, from
   * push-only servers, awaited for exactly the document version just sent. No sleeps.
   */
  diagnostics(relPath: string, options?: RequestOptions): Promise<Diagnostic[]>;

  /**
   * Decide the server's `workspace/applyEdit` requests; null refuses them (the default, since
   * tools apply edits themselves). One handler at a time: set it around a
   * `workspace/executeCommand` and clear it afterwards.
   */
  setApplyEditHandler(handler: ApplyEditHandler | null): void;

  /** Project-relative paths of the documents open in the server now, where it keeps track. */
  openDocuments?(): string[];

  /**
   * Resolves once the server runs and has loaded its project (what {@linkcode request} waits
   * for), where the server can tell; sends nothing.
   */
  loaded?(options?: RequestOptions): Promise<void>;

  /** `file://` URI of a project-relative path, and back (null when outside the project). */
  uriOf(relPath: string): string;
  relPathOf(uri: string): string | null;
}

/** A file or folder moved inside the project (project-relative paths). */
export interface RelativeMove {
  from: string;
  to: string;
}

/** The answer to a server's `workspace/applyEdit` request. */
export interface ApplyEditResult {
  applied: boolean;
  failureReason?: string;
}

/** Decides a server's `workspace/applyEdit` requests (the raw LSP WorkspaceEdit). */
export type ApplyEditHandler = (edit: unknown) => Promise<ApplyEditResult>;

export interface LanguageServerPool {
  /** The server for a file, chosen by extension and project markers; started lazily. */
  serverFor(relPath: string, options?: RequestOptions): Promise<LanguageServer>;
  /** Servers for every language detected in the project (started lazily). */
  serversForProject(options?: RequestOptions): Promise<LanguageServer[]>;
  /** Whether any registered server handles this file (by extension). */
  handles(relPath: string): boolean;
  /**
   * The registry id (`LanguageServer.id`) of the server {@linkcode serverFor} would pick for
   * this file, or null when none handles it. Starts nothing.
   */
  serverIdFor(relPath: string): string | null;
  /** Stop every server; the next request starts them again. */
  restartAll(): Promise<void>;
  /** Stop every server and kill its process group. */
  dispose(): Promise<void>;
}
