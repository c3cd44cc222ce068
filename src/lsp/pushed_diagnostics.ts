/**
 * Pushed diagnostics (`textDocument/publishDiagnostics`), stored per document with the version
 * they were computed for (ARCHITECTURE.md §5 rule 3). Callers wait for the diagnostics of the version they
 * sent instead of sleeping. Only documents someone may ask about are stored (see
 * {@linkcode DiagnosticsStore.retainOnly}), so the store does not grow with every file a server
 * ever reported on.
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
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Per document: the serial counter when its content was last sent (opened or changed). */
  readonly #sentAt = new Map<string, number>();
  /** One counter for every document: a forgotten document never sees its serials again. */
  #serial = 0;
  #retain: (uri: string) => boolean = () => true;

  /**
   * Store publishes only for documents `retain` accepts (the open ones) or someone waits for;
   * others are dropped at once. Entries already stored are kept until {@linkcode forget}.
   */
  retainOnly(retain: (uri: string) => boolean): void {
    this.#retain = retain;
  }

  /** Record a `publishDiagnostics` notification. */
  publish(uri: string, version: number | null, diagnostics: unknown[]): void {
    const serial = ++this.#serial;
    const waiters = this.#waiters.get(uri);
    if (!waiters && !this.#retain(uri)) {
      this.#entries.delete(uri);
      return;
    }
    this.#entries.set(uri, { version, diagnostics, serial });
    for (const waiter of [...(waiters ?? [])]) waiter();
  }

  /** Drop what was published for a document (it was closed). */
  forget(uri: string): void {
    this.#entries.delete(uri);
    this.#sentAt.delete(uri);
  }

  /** A document's content was sent to the server (opened or changed). */
  sent(uri: string): void {
    this.#sentAt.set(uri, this.#serial);
  }

  /**
   * Whether the server published for a document since its content was last sent: else a
   * publish of the content sent before may still be on its way, and a server that says no
   * version cannot tell it from one of the content sent next.
   */
  answered(uri: string): boolean {
    const sent = this.#sentAt.get(uri);
    return sent === undefined || (this.#entries.get(uri)?.serial ?? -1) > sent;
  }

  /** How many documents have stored diagnostics. */
  get size(): number {
    return this.#entries.size;
  }

  /** The latest diagnostics published for a document, if any. */
  get(uri: string): PublishedDiagnostics | undefined {
    return this.#entries.get(uri);
  }

  /** Every document with published diagnostics. */
  uris(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * The serial of the latest publish stored for `uri`, or, when none is stored, the latest
   * serial of any document (so only later publishes count): take it before sending a change.
   */
  serial(uri: string): number {
    return this.#entries.get(uri)?.serial ?? this.#serial;
  }

  /** Forget published results (the server asked for a refresh, or the document was closed). */
  invalidateAll(): void {
    this.#entries.clear();
  }

  /**
   * Wait for diagnostics that belong to document `version`: a publish carrying that version (or
   * a later one), or, from servers that send no version, the first publish after `afterSerial`.
   * `settleMs` (for a server that sends no version, when a publish of the content sent before
   * may still come: {@linkcode answered}): from the first publish after `afterSerial` on, the
   * latest one once none has come for that long.
   * Resolves null when `timeoutMs` passes first; rejects when `signal` aborts.
   */
  async waitFor(
    uri: string,
    want: { version: number; afterSerial: number; settleMs?: number },
    options: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<PublishedDiagnostics | null> {
    const matches = (entry: PublishedDiagnostics | undefined): boolean => {
      if (!entry) return false;
      if (entry.version !== null) return entry.version >= want.version;
      return entry.serial > want.afterSerial;
    };
    const settleMs = want.settleMs ?? 0;
    const current = this.#entries.get(uri);
    if (matches(current) && (settleMs === 0 || current!.version !== null)) return current!;
    options.signal?.throwIfAborted();
    const { promise, resolve, reject } = Promise.withResolvers<PublishedDiagnostics | null>();
    let settling: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const entry = this.#entries.get(uri);
      if (!matches(entry)) return;
      if (settleMs === 0 || entry!.version !== null) return resolve(entry!);
      clearTimeout(settling);
      settling = setTimeout(() => resolve(this.#entries.get(uri) ?? entry!), settleMs);
    };
    check();
    const onAbort = () => reject(options.signal?.reason);
    const timer = setTimeout(() => {
      const entry = this.#entries.get(uri);
      resolve(settling !== undefined && matches(entry) ? entry! : null);
    }, options.timeoutMs);
    let set = this.#waiters.get(uri);
    if (!set) this.#waiters.set(uri, set = new Set());
    set.add(check);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await promise;
    } finally {
      clearTimeout(timer);
      clearTimeout(settling);
      set.delete(check);
      if (set.size === 0) this.#waiters.delete(uri);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }
}
