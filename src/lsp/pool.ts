/**
 * The language-server pool of a project: one server per language, started lazily on first need,
 * shared by every tool call and every session on the project, restarted after a crash. Tool
 * code gets it as `ctx.session.services(project).pool` (see project_host.ts).
 * @module
 */
import { extname } from "node:path";
import { ToolError } from "../errors.ts";
import { log } from "../log.ts";
import type { Project } from "../project/project.ts";
import type { ProjectWatch } from "../project/project_watch.ts";
import type {
  LanguageServer,
  LanguageServerPool,
  RelativeMove,
  RequestOptions,
} from "./language_server.ts";
import { detectLanguages, type ServerSpec, serverSpecs, specForFile } from "./registry.ts";
import { ManagedServer, type ServerTimeouts } from "./managed_server.ts";

/** One server per registry entry for one project; see {@linkcode LanguageServerPool}. */
export class ServerPool implements LanguageServerPool {
  readonly project: Project;
  readonly #specs: ServerSpec[];
  readonly #servers = new Map<string, ManagedServer>();
  readonly #timeouts: Partial<ServerTimeouts>;
  /** The project's shared file watcher, for servers that ask for file events. */
  readonly #watch: ProjectWatch | undefined;
  #disposed = false;

  constructor(
    project: Project,
    specs?: ServerSpec[],
    timeouts: Partial<ServerTimeouts> = {},
    watch?: ProjectWatch,
  ) {
    this.project = project;
    this.#specs = specs ?? serverSpecs(project.root, project.settings.language_servers);
    this.#timeouts = timeouts;
    this.#watch = watch;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  /** The registry entries this pool chooses from (after config and project markers). */
  get specs(): readonly ServerSpec[] {
    return this.#specs;
  }

  handles(relPath: string): boolean {
    return specForFile(this.#specs, relPath) !== undefined;
  }

  serverIdFor(relPath: string): string | null {
    return specForFile(this.#specs, relPath)?.id ?? null;
  }

  async serverFor(relPath: string, options: RequestOptions = {}): Promise<LanguageServer> {
    const spec = specForFile(this.#specs, relPath);
    if (!spec) {
      throw new ToolError(
        `No language server handles '${relPath}' (extension '${extname(relPath) || "none"}'). ` +
          "Add one under language_servers in your global config (~/.config/sextant/config.jsonc).",
      );
    }
    const server = this.#server(spec);
    await server.start(options);
    return server;
  }

  async serversForProject(options: RequestOptions = {}): Promise<LanguageServer[]> {
    const specs = await detectLanguages(this.project, this.#specs, options.signal);
    const started = await Promise.allSettled(specs.map(async (spec) => {
      const server = this.#server(spec);
      await server.start(options);
      return server;
    }));
    const servers: LanguageServer[] = [];
    const failures: string[] = [];
    for (const result of started) {
      if (result.status === "fulfilled") servers.push(result.value);
      else {failures.push(
          result.reason instanceof Error ? result.reason.message : String(result.reason),
        );}
    }
    // One failing server never blocks the others: report it only when nothing else works.
    if (servers.length === 0 && failures.length > 0) throw new ToolError(failures.join("\n"));
    for (const failure of failures) log.warn(failure);
    return servers;
  }

  /** Servers already created (running or restartable), for status reports and tests. */
  running(): ManagedServer[] {
    return [...this.#servers.values()];
  }

  /** Our own tools wrote these files (real absolute paths): sync them with every server now. */
  async filesChanged(realPaths: readonly string[]): Promise<void> {
    const rel: string[] = [];
    for (const path of realPaths) {
      const relPath = this.#relative(path);
      if (relPath !== null) rel.push(relPath);
    }
    if (rel.length === 0) return;
    await Promise.allSettled([...this.#servers.values()].map((s) => s.notifyChanged(rel)));
  }

  /** Real-path moves as project-relative ones (moves outside the project are left out). */
  relativeMoves(moves: ReadonlyArray<{ from: string; to: string }>): RelativeMove[] {
    const out: RelativeMove[] = [];
    for (const move of moves) {
      const from = this.#relative(move.from);
      const to = this.#relative(move.to);
      if (from !== null && to !== null) out.push({ from, to });
    }
    return out;
  }

  /** Our own tools moved files or folders: every running server follows (see notifyMoved). */
  async filesMoved(moves: readonly RelativeMove[]): Promise<void> {
    if (moves.length === 0) return;
    await Promise.allSettled([...this.#servers.values()].map((s) => s.notifyMoved(moves)));
  }

  async restartAll(): Promise<void> {
    const servers = [...this.#servers.values()];
    this.#servers.clear();
    await Promise.allSettled(servers.map((s) => s.dispose()));
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    await this.restartAll();
  }

  #server(spec: ServerSpec): ManagedServer {
    if (this.#disposed) throw new ToolError("The language-server pool is shut down.");
    let server = this.#servers.get(spec.id);
    if (!server) {
      server = new ManagedServer(spec, this.project, this.#timeouts, this.#watch);
      this.#servers.set(spec.id, server);
    }
    return server;
  }

  #relative(realPath: string): string | null {
    const root = this.project.root;
    if (realPath === root) return null;
    const prefix = root.endsWith("/") ? root : root + "/";
    return realPath.startsWith(prefix) ? realPath.slice(prefix.length) : null;
  }
}
