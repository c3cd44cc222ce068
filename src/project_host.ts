/**
 * The projects a Sextant process serves and what each one owns: its language-server pool, its
 * symbol lookup, its declaration index (tree-sitter, src/symbols/index/) and what its edits'
 * error checks remember. One
 * {@linkcode ProjectHost} per process holds them by project root, so every session on the same
 * folder shares one warm set of servers; sessions reach them through `session.services(project)`.
 *
 * This module sits below the session (docs/ARCHITECTURE.md §1): it knows nothing of sessions or
 * tools, and whoever builds a session hands it a host, or a factory of one (session/session.ts
 * `SessionOptions.host`).
 *
 * A project whose last session let go of it keeps its servers for `projectIdleMs` (the shared
 * service keeps them warm for the next session; a one-session process stops them at once).
 * @module
 */
import { DeclarationIndex } from "./symbols/index/mod.ts";
import { log } from "./log.ts";
import { ServerPool } from "./lsp/pool.ts";
import { SymbolLookup } from "./symbols/lookup.ts";
import type { Project } from "./project/project.ts";
import { ChangeFeed } from "./project/change_feed.ts";
import { ProjectWatch } from "./project/project_watch.ts";
import { ProjectScip } from "./symbols/scip/project_scip.ts";
import { ImportIndex } from "./toolchain/graph/importers.ts";
import { EditChecks } from "./lsp/edit_checks.ts";

/** What one project owns, shared by every session that works on it. */
export class ProjectServices {
  /** The project as the first session opened it (its settings choose the servers). */
  readonly project: Project;
  readonly pool: ServerPool;
  readonly symbols: SymbolLookup;
  /**
   * Which files declare a name, parsed syntactically. Built, and its parse workers and watcher
   * started, only on the first folder-wide `find_symbol`.
   */
  readonly declarations: DeclarationIndex;
  /**
   * The project's one recursive file watcher, shared by the declaration index, the change feed
   * and the servers that ask for file events; started by the first of them that needs it.
   */
  readonly watch: ProjectWatch;
  /** What changed on disk, from the watcher (started on the first warm query that asks). */
  readonly changes: ChangeFeed;
  /** The SCIP index built in CI, when the project has one (loaded on first need). */
  readonly scip: ProjectScip;
  /**
   * What the checks for errors an edit introduced remember between edits: each file's errors,
   * importers found, the checks running (tools/new_errors.ts reports them).
   */
  readonly editChecks = new EditChecks();
  /** Every file's import lines, for the importers of a moved or edited file. */
  readonly imports: ImportIndex;
  /** Sessions (any object that identifies one) using the project now. */
  readonly users = new Set<object>();
  /** When a session last used the project (ms since the epoch). */
  lastUsed = Date.now();

  constructor(project: Project) {
    this.project = project;
    this.watch = new ProjectWatch(project.root);
    this.pool = new ServerPool(project, undefined, {}, this.watch);
    this.declarations = new DeclarationIndex(project, { projectWatch: this.watch });
    this.changes = new ChangeFeed(this.watch);
    this.symbols = new SymbolLookup(project, this.pool, this.declarations, this.changes);
    this.scip = new ProjectScip(project, this.watch);
    this.imports = new ImportIndex(project);
  }

  /** Our own tools wrote these files: the servers see the new content before this resolves. */
  async filesChanged(realPaths: readonly string[]): Promise<void> {
    await Promise.all([
      this.pool.filesChanged(realPaths),
      this.declarations.filesChanged(realPaths),
    ]);
  }

  /** Our own tools moved files or folders (real paths): the servers and the caches follow. */
  async filesMoved(moves: ReadonlyArray<{ from: string; to: string }>): Promise<void> {
    const relative = this.pool.relativeMoves(moves);
    this.symbols.moved(relative);
    await Promise.all([
      this.pool.filesMoved(relative),
      this.declarations.filesChanged(moves.flatMap((m) => [m.from, m.to])),
    ]);
  }

  /**
   * Save the symbol cache and the declaration index, stop the index's parse workers, stop every
   * language server, then the file watcher.
   */
  async dispose(): Promise<void> {
    this.scip.dispose();
    await this.changes.dispose();
    await Promise.all([
      this.symbols.dispose().catch((error) => log.debug("symbol index save failed:", error)),
      this.declarations.dispose().catch((error) =>
        log.debug("declaration index save failed:", error)
      ),
    ]);
    try {
      await this.pool.dispose();
    } finally {
      await this.watch.dispose();
    }
  }
}

export interface ProjectHostOptions {
  /**
   * How long a project no session uses keeps its servers, in ms. 0 stops them as soon as the
   * last session lets go (a process that serves one session).
   */
  projectIdleMs?: number;
}

/** A summary of one served project, for `sextant service status`. */
export interface ProjectStatus {
  root: string;
  sessions: number;
  idleSeconds: number;
  servers: Array<{ id: string; pid: number | null }>;
}

function realRoot(project: Project): string {
  try {
    return Deno.realPathSync(project.root);
  } catch {
    return project.root;
  }
}

/** Every project the process serves, by real root path. */
export class ProjectHost {
  readonly #byRoot = new Map<string, ProjectServices>();
  readonly #projectIdleMs: number;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: ProjectHostOptions = {}) {
    this.#projectIdleMs = options.projectIdleMs ?? 0;
  }

  /**
   * The services of `project` for session `user`, created on first use. A session on a folder
   * another session already serves gets that session's warm servers.
   */
  servicesFor(project: Project, user: object): ProjectServices {
    const root = realRoot(project);
    let services = this.#byRoot.get(root);
    if (!services || services.pool.disposed) {
      services = new ProjectServices(project);
      this.#byRoot.set(root, services);
    }
    services.users.add(user);
    services.lastUsed = Date.now();
    return services;
  }

  /** The services of `project` if they exist, without creating or claiming them. */
  peek(project: Project): ProjectServices | undefined {
    return this.#byRoot.get(realRoot(project));
  }

  /**
   * Session `user` no longer works on `project`. When no session uses it any more, its servers
   * stop now (`projectIdleMs` 0) or after the idle time.
   */
  async release(project: Project, user: object): Promise<void> {
    const root = realRoot(project);
    const services = this.#byRoot.get(root);
    if (!services) return;
    services.users.delete(user);
    services.lastUsed = Date.now();
    if (services.users.size > 0) return;
    if (this.#projectIdleMs === 0) {
      this.#byRoot.delete(root);
      await services.dispose();
    } else {
      this.#scheduleSweep();
    }
  }

  /** Stop the servers of `project` now, whoever uses it (remove_project, restart). */
  async stop(project: Project): Promise<void> {
    const root = realRoot(project);
    const services = this.#byRoot.get(root);
    if (!services) return;
    this.#byRoot.delete(root);
    await services.dispose();
  }

  /** Stop projects no session has used for the idle time. */
  async sweep(now = Date.now()): Promise<void> {
    const stale = [...this.#byRoot].filter(([, s]) =>
      s.users.size === 0 && now - s.lastUsed >= this.#projectIdleMs
    );
    for (const [root] of stale) this.#byRoot.delete(root);
    await Promise.allSettled(stale.map(([, s]) => s.dispose()));
    if (![...this.#byRoot.values()].some((s) => s.users.size === 0)) this.#clearSweep();
  }

  #scheduleSweep(): void {
    if (this.#timer !== null) return;
    const every = Math.max(1000, Math.min(60_000, this.#projectIdleMs / 4));
    this.#timer = setInterval(() => void this.sweep(), every);
    Deno.unrefTimer(this.#timer);
  }

  #clearSweep(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** The services of every project served now. */
  served(): ProjectServices[] {
    return [...this.#byRoot.values()];
  }

  /** What the host serves: projects, their sessions and their servers. */
  status(now = Date.now()): ProjectStatus[] {
    return [...this.#byRoot].map(([root, s]) => ({
      root,
      sessions: s.users.size,
      idleSeconds: s.users.size > 0 ? 0 : Math.round((now - s.lastUsed) / 1000),
      servers: s.pool.running().map((server) => ({ id: server.id, pid: server.pid ?? null })),
    }));
  }

  /** Stop everything (a later use starts afresh). */
  async dispose(): Promise<void> {
    this.#clearSweep();
    const all = [...this.#byRoot.values()];
    this.#byRoot.clear();
    await Promise.allSettled(all.map((s) => s.dispose()));
  }
}
