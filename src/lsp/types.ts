/**
 * The seam between the language-server engine (client, pool, readiness, document sync) and its
 * users (symbol retrieval, tools). Tools never speak JSON-RPC themselves: they ask a
 * {@linkcode LanguageServer} obtained from the {@linkcode LanguageServerPool}.
 * `lsp/` knows nothing of MCP: progress is reported through plain callbacks.
 * @module
 */

/** Reports long waits (server start, project loading) so callers can forward them as progress. */
export type ProgressReporter = (message: string) => void;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ProgressReporter | undefined;
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

  /** Make sure the server has the current disk content of these project-relative files. */
  syncFiles(relPaths: readonly string[], options?: RequestOptions): Promise<void>;

  /** `file://` URI of a project-relative path, and back (null when outside the project). */
  uriOf(relPath: string): string;
  relPathOf(uri: string): string | null;
}

export interface LanguageServerPool {
  /** The server for a file, chosen by extension and project markers; started lazily. */
  serverFor(relPath: string, options?: RequestOptions): Promise<LanguageServer>;
  /** Servers for every language detected in the project (started lazily). */
  serversForProject(options?: RequestOptions): Promise<LanguageServer[]>;
  /** Whether any registered server handles this file (by extension). */
  handles(relPath: string): boolean;
  /** Stop every server; the next request starts them again. */
  restartAll(): Promise<void>;
  /** Stop every server and kill its process group. */
  dispose(): Promise<void>;
}
