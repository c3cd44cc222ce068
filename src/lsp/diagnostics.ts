/**
 * Pushed diagnostics (`textDocument/publishDiagnostics`), stored per document with the version
 * they were computed for (engine rule 3). Callers wait for the diagnostics of the version they
 * sent instead of sleeping.
 * @module
 */

/** What a server published for one document. */
export interface PublishedDiagnostics {
  /** The document version the server computed them for; null when it did not say. */
  version: number | null;
  diagnostics: unknown[];
  /** Increases with every publish for this document. */
  serial: number;
}

export class DiagnosticsStore {
  readonly #entries = new Map<string, PublishedDiagnostics>();
  readonly #serials = new Map<string, number>();
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Record a `publishDiagnostics` notification. */
  publish(uri: string, version: number | null, diagnostics: unknown[]): void {
    const serial = (this.#serials.get(uri) ?? 0) + 1;
    this.#serials.set(uri, serial);
    this.#entries.set(uri, { version, diagnostics, serial });
    for (const waiter of [...(this.#waiters.get(uri) ?? [])]) waiter();
  }

  /** The latest diagnostics published for a document, if any. */
  get(uri: string): PublishedDiagnostics | undefined {
    return this.#entries.get(uri);
  }

  /** Every document with published diagnostics. */
  uris(): string[] {
    return [...this.#entries.keys()];
  }

  /** The serial of the latest publish for `uri` (0 when none): take it before sending a change. */
  serial(uri: string): number {
    return this.#serials.get(uri) ?? 0;
  }

  /** Forget published results (the server asked for a refresh, or the document was closed). */
  invalidateAll(): void {
    this.#entries.clear();
  }

  /**
   * Wait for diagnostics that belong to document `version`: a publish carrying that version (or
   * a later one), or, from servers that send no version, the first publish after `afterSerial`.
   * Resolves null when `timeoutMs` passes first; rejects when `signal` aborts.
   */
  async waitFor(
    uri: string,
    want: { version: number; afterSerial: number },
    options: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<PublishedDiagnostics | null> {
    const matches = (entry: PublishedDiagnostics | undefined): boolean => {
      if (!entry) return false;
      if (entry.version !== null) return entry.version >= want.version;
      return entry.serial > want.afterSerial;
    };
    const current = this.#entries.get(uri);
    if (matches(current)) return current!;
    options.signal?.throwIfAborted();
    const { promise, resolve, reject } = Promise.withResolvers<PublishedDiagnostics | null>();
    const check = () => {
      const entry = this.#entries.get(uri);
      if (matches(entry)) resolve(entry!);
    };
    const onAbort = () => reject(options.signal?.reason);
    const timer = setTimeout(() => resolve(null), options.timeoutMs);
    let set = this.#waiters.get(uri);
    if (!set) this.#waiters.set(uri, set = new Set());
    set.add(check);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await promise;
    } finally {
      clearTimeout(timer);
      set.delete(check);
      if (set.size === 0) this.#waiters.delete(uri);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }
}
