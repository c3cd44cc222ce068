/**
 * Each loaded project's diagnostics as an MCP resource (`sextant://diagnostics/<project>`, JSON):
 * what the project's running language servers report for the documents open in them, each for
 * its content on disk now (pulled, or awaited for the version sent; lsp/managed_server.ts). Only
 * servers already running are asked and only their open documents: reading the resource starts
 * no server and opens no file. Loaded on the first read or subscription, so a session nobody asks
 * for diagnostics computes nothing.
 *
 * A subscription is checked after each tool call that wrote into the subscribed project: the
 * diagnostics are computed again in the background (the call's answer does not wait for them)
 * and `notifications/resources/updated` follows when they differ from those last seen.
 * @module
 */
import { sep } from "node:path";
import { log } from "../log.ts";
import type { ManagedServer } from "../lsp/managed_server.ts";
import { splitLines } from "../lsp/positions.ts";
import type { Project } from "../project/project.ts";
import type { Session } from "../session/session.ts";
import { mapLimit } from "../map_limit.ts";
import { diagnosticDict, type FileDiagnostics } from "../tools/ide/diagnostics.ts";
import { toJson } from "../tools/shared/json.ts";

/** Open documents reported at most (the rest are counted in `filesSkipped`). */
const MAX_FILES = 200;
/** Files asked about at once. */
const CONCURRENCY = 4;

/**
 * The resource's text: `{"diagnostics": [{"file", "line", "column", "end_line", "end_column",
 * "severity", "message", "code", "source"}], "errorCount", "warningCount", "infoCount",
 * "hintCount", "filesChecked"}`, as the `diagnostics` tool answers, sorted by file and position;
 * `filesSkipped` and `failures` when there are any.
 */
export async function projectDiagnosticsText(
  session: Session,
  project: Project,
  signal?: AbortSignal,
): Promise<string> {
  const pool = session.existingServices(project)?.pool;
  const open: Array<{ server: ManagedServer; relPath: string }> = [];
  for (const server of pool?.running() ?? []) {
    if (server.pid === null) continue;
    for (const relPath of server.openDocuments()) open.push({ server, relPath });
  }
  open.sort((a, b) => a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  const checked = open.slice(0, MAX_FILES);
  const failures: string[] = [];
  const results = await mapLimit(checked, CONCURRENCY, async ({ server, relPath }) => {
    signal?.throwIfAborted();
    try {
      const resolved = project.resolveFile(relPath, { requireNotIgnored: false });
      const diagnostics = await server.diagnostics(relPath, { signal });
      const lines = splitLines((await project.readText(resolved)).text);
      return { relPath, lines, diagnostics } satisfies FileDiagnostics;
    } catch (error) {
      if (signal?.aborted) throw error;
      // A document deleted since it was opened has no diagnostics left to show.
      if (error instanceof Deno.errors.NotFound) return null;
      failures.push(`${relPath}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  });
  const counts = [0, 0, 0, 0, 0];
  const diagnostics: Record<string, unknown>[] = [];
  let files = 0;
  for (const file of results) {
    if (!file) continue;
    files++;
    const sorted = [...file.diagnostics].sort((a, b) =>
      a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
    );
    for (const d of sorted) {
      const severity = d.severity ?? 1;
      if (severity >= 1 && severity <= 4) counts[severity]!++;
      diagnostics.push(diagnosticDict(file, d));
    }
  }
  return toJson({
    diagnostics,
    errorCount: counts[1],
    warningCount: counts[2],
    infoCount: counts[3],
    hintCount: counts[4],
    filesChecked: files,
    ...(open.length > checked.length ? { filesSkipped: open.length - checked.length } : {}),
    ...(failures.length > 0 ? { failures } : {}),
  });
}

function realRoot(project: Project): string {
  try {
    return Deno.realPathSync(project.root);
  } catch {
    return project.root;
  }
}

interface Subscription {
  /** The project's name, as the URI names it. */
  project: string;
  /** The text last seen (read or announced); null: none could be computed. */
  last: Promise<string | null>;
  /** A tool wrote into the project since the last check. */
  dirty: boolean;
}

/**
 * The diagnostics subscriptions of one MCP session. `announce` sends
 * `notifications/resources/updated` for a URI.
 */
export class DiagnosticsSubscriptions {
  readonly #session: Session;
  readonly #projectOf: (name: string) => Project | undefined;
  readonly #announce: (uri: string) => Promise<void>;
  readonly #subscriptions = new Map<string, Subscription>();
  #checking: Promise<void> | null = null;
  #again = false;
  readonly #onWrite = (realPaths: readonly string[]) => this.#noteWrites(realPaths);

  constructor(
    session: Session,
    projectOf: (name: string) => Project | undefined,
    announce: (uri: string) => Promise<void>,
  ) {
    this.#session = session;
    this.#projectOf = projectOf;
    this.#announce = announce;
  }

  /** Subscribe to `uri`, the diagnostics of project `project`; its current text is the baseline. */
  subscribe(uri: string, project: string): void {
    if (this.#subscriptions.has(uri)) return;
    const subscription: Subscription = { project, last: Promise.resolve(null), dirty: false };
    subscription.last = this.#compute(project);
    this.#subscriptions.set(uri, subscription);
    this.#session.writeListeners.add(this.#onWrite);
  }

  unsubscribe(uri: string): void {
    this.#subscriptions.delete(uri);
    if (this.#subscriptions.size === 0) this.#session.writeListeners.delete(this.#onWrite);
  }

  /** A client read `uri`: what it saw is what later changes are measured against. */
  noteRead(uri: string, text: string): void {
    const subscription = this.#subscriptions.get(uri);
    if (subscription && !subscription.dirty) subscription.last = Promise.resolve(text);
  }

  /**
   * A tool call ended: check the subscriptions a write made dirty, in the background. Returns
   * the check (tests and shutdown may wait for it; it never rejects).
   */
  afterCall(): Promise<void> {
    if (![...this.#subscriptions.values()].some((s) => s.dirty)) {
      return this.#checking ?? Promise.resolve();
    }
    if (this.#checking) {
      this.#again = true;
      return this.#checking;
    }
    this.#checking = (async () => {
      try {
        do {
          this.#again = false;
          await this.#checkDirty();
        } while (this.#again);
      } finally {
        this.#checking = null;
      }
    })().catch((error) => log.debug("diagnostics subscription check failed:", error));
    return this.#checking;
  }

  async #checkDirty(): Promise<void> {
    for (const [uri, subscription] of this.#subscriptions) {
      if (!subscription.dirty) continue;
      subscription.dirty = false;
      const before = await subscription.last;
      const now = this.#compute(subscription.project);
      subscription.last = now;
      const text = await now;
      if (text === null || text === before || !this.#subscriptions.has(uri)) continue;
      await this.#announce(uri).catch(() => {});
    }
  }

  #compute(name: string): Promise<string | null> {
    const project = this.#projectOf(name);
    if (!project) return Promise.resolve(null);
    return projectDiagnosticsText(this.#session, project).catch(() => null);
  }

  #noteWrites(realPaths: readonly string[]): void {
    for (const subscription of this.#subscriptions.values()) {
      const project = this.#projectOf(subscription.project);
      if (!project) continue;
      const root = realRoot(project);
      if (realPaths.some((p) => p === root || p.startsWith(root + sep))) subscription.dirty = true;
    }
  }
}
