/**
 * The state of one MCP session: settings, the active project, which files the agent has read,
 * and the tool set its context and modes expose. Tools receive it through their context.
 *
 * The session sits below the tools: it holds them as the {@linkcode SelectableTool}s that
 * selection reads (its type parameter keeps whatever more its builder gave it), so this module
 * imports nothing of tools/.
 * @module
 */
import type { Settings } from "../config/schema.ts";
import { ToolError } from "../errors.ts";
import type { Project } from "../project/project.ts";
import { modeDefinition } from "../config/toolsets.ts";
import { type SelectableTool, selectTools } from "../config/tool_selection.ts";
import { Workspace } from "../project/workspace.ts";
import { CodeActionStore } from "./code_action_store.ts";
import type { ProjectHost, ProjectServices } from "../project_host.ts";
import type { ToolCallObserver } from "./call_observer.ts";
import { ReadTracker } from "./read_tracker.ts";
import { LateReports } from "./late_reports.ts";

/** Resources that must be released on shutdown (language servers, child processes). */
export interface Disposable {
  dispose(): Promise<void>;
}

export interface SessionOptions<T extends SelectableTool = SelectableTool> {
  settings: Settings;
  tools: readonly T[];
  project?: Project | null;
  /** Expose only these tools (the `--tools` option), on top of contexts and modes. */
  onlyTools?: readonly string[] | undefined;
  /**
   * The projects' shared services (language servers, symbol lookup, declaration index): a host
   * shared with other sessions (the service's), or a factory the session calls on first use to
   * make a host of its own, which stops a project's servers as soon as the session lets go of
   * it. Whoever builds the session passes it, so that this module loads none of the engine.
   * Omitted, the session has no project services (a tool that needs them fails clearly).
   */
  host?: ProjectHost | (() => ProjectHost);
}

export class Session<T extends SelectableTool = SelectableTool> {
  /**
   * Eight hex digits naming the session, fixed for its life: the instructions state it, and code
   * mode's `repl` without `session` uses it (as Serena 2.1's session parameters do).
   */
  readonly id: string = [...crypto.getRandomValues(new Uint8Array(4))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  settings: Settings;
  /** The active project (Serena's); always one of {@linkcode projects}. */
  project: Project | null;
  /** Every project loaded in this session, the last used one, smart project selection. */
  readonly projects = new Workspace();
  readonly reads = new ReadTracker();
  /** Reports of its edits not ready when they answered, for its next answer (tools/new_errors.ts). */
  readonly lateReports = new LateReports();
  readonly allTools: readonly T[];
  context: string;
  modes: string[];
  readonly onlyTools: ReadonlySet<string> | null;
  /** Called when the exposed tool set changes (the server sends `tools/list_changed`). */
  onToolsChanged: () => void = () => {};
  /** Told of every write by Sextant's tools (real paths), e.g. to refresh code actions. */
  readonly writeListeners = new Set<(realPaths: readonly string[]) => void>();
  /** Told of each tool call while someone watches (the service's dashboard); null: nobody. */
  callObserver: ToolCallObserver | null = null;
  readonly #disposables = new Set<Disposable>();
  /** The projects' host: given, or made on first use by {@linkcode #makeHost}. */
  #host: ProjectHost | null;
  readonly #makeHost: (() => ProjectHost) | null;
  readonly #ownsHost: boolean;
  /** The projects whose services this session holds, by project object. */
  readonly #services = new Map<Project, ProjectServices>();
  /** Code actions this session was shown, per project (ids stay valid across calls). */
  readonly #codeActions = new Map<Project, CodeActionStore>();
  #deciding: Promise<void> = Promise.resolve();

  constructor(options: SessionOptions<T>) {
    this.settings = options.settings;
    this.project = options.project ?? null;
    if (this.project) this.projects.load(this.project);
    this.allTools = options.tools;
    // The starting project's config may choose the context and modes (command line still wins:
    // it is layered into the project's settings too).
    const initial = options.project?.settings ?? options.settings;
    this.context = initial.context;
    this.modes = [...initial.modes];
    this.onlyTools = options.onlyTools ? new Set(options.onlyTools) : null;
    const host = options.host;
    this.#ownsHost = typeof host === "function";
    this.#makeHost = typeof host === "function" ? host : null;
    this.#host = typeof host === "function" ? null : host ?? null;
  }

  #projectHost(): ProjectHost {
    if (!this.#host) {
      if (!this.#makeHost) {
        throw new Error(
          "This session has no project services: whoever builds it gives it a host " +
            "(SessionOptions.host)",
        );
      }
      this.#host = this.#makeHost();
    }
    return this.#host;
  }

  /**
   * The shared services (language-server pool, symbol index) of `project`: created on first
   * use, shared with every session on the same folder.
   */
  services(project: Project): ProjectServices {
    const held = this.#services.get(project);
    if (held && !held.pool.disposed) {
      held.lastUsed = Date.now();
      return held;
    }
    const services = this.#projectHost().servicesFor(project, this);
    this.#services.set(project, services);
    return services;
  }

  /**
   * The services of `project` if they exist (this session's, or another session's on the same
   * folder), without creating or claiming any: for reports that must start nothing.
   */
  existingServices(project: Project): ProjectServices | undefined {
    const held = this.#services.get(project);
    if (held && !held.pool.disposed) return held;
    const shared = this.#host?.peek(project);
    return shared && !shared.pool.disposed ? shared : undefined;
  }

  /**
   * Wait until work that decides the session's project (following the client's roots) is
   * done, so a tool call never runs against the folder the session is about to leave.
   */
  settled(): Promise<void> {
    return this.#deciding.then(() => {}, () => {});
  }

  /** Run `work`, which may change the active project, before later tool calls proceed. */
  decide(work: () => Promise<void>): Promise<void> {
    const next = this.#deciding.then(work, work);
    this.#deciding = next.catch(() => {});
    return next;
  }

  /** The code actions this session was shown for `project`. */
  codeActions(project: Project): CodeActionStore {
    let store = this.#codeActions.get(project);
    if (!store) {
      store = new CodeActionStore(project);
      this.#codeActions.set(project, store);
    }
    return store;
  }

  /**
   * This session no longer works on `project` (unloaded or switched away from): its servers
   * stop unless another session uses them (see ProjectHost).
   */
  async releaseProject(project: Project): Promise<void> {
    this.#codeActions.delete(project);
    if (!this.#services.delete(project)) return;
    await this.#host?.release(project, this);
  }

  /** Stop the servers of `project` now, for every session (restart_language_server). */
  async stopProjectServers(project: Project): Promise<void> {
    this.#services.delete(project);
    await this.#host?.stop(project);
  }

  /** The active project, or a ToolError telling the agent to activate one. */
  requireProject(): Project {
    if (!this.project) {
      throw new ToolError(
        "No active project. Call activate_project with a project path or name first.",
      );
    }
    return this.project;
  }

  /**
   * Make `project` the active one (activate_project); it is loaded into {@linkcode projects} and
   * becomes the last used one. The previous project is released first (its servers stop unless
   * it is still loaded or another session uses it), then the client is told the tool set may differ. Activating the active
   * project again changes nothing.
   */
  async setProject(project: Project | null): Promise<void> {
    const previous = this.project;
    if (project) {
      this.projects.load(project);
      this.projects.use(project);
    }
    if (project === previous) return;
    this.project = project;
    // A project still loaded in the session (manage_projects) keeps its servers.
    if (previous && !this.projects.has(previous)) await this.releaseProject(previous);
    this.onToolsChanged();
  }

  /**
   * Replace the active modes (switch_modes); a ToolError for an unknown mode, naming the known
   * ones, leaves the modes unchanged. The client is told the tool set changed.
   */
  setModes(modes: readonly string[]): void {
    const settings = this.project?.settings ?? this.settings;
    for (const mode of modes) modeDefinition(settings, mode);
    this.modes = [...new Set(modes)];
    this.onToolsChanged();
  }

  /**
   * The tools the client sees. With `agent_interface: repl` (code mode) that is `repl` and the
   * two companions Serena keeps beside it, when the context and modes expose them; every other
   * tool is reached through `repl`'s API.
   */
  activeTools(): T[] {
    // Asked on every call: kept while what it depends on stays (each is replaced, not changed).
    const settings = this.project?.settings ?? this.settings;
    const memo = this.#active;
    if (
      memo !== null && memo.settings === settings && memo.context === this.context &&
      memo.modes === this.modes
    ) {
      return memo.tools;
    }
    const tools = this.#selectActive();
    this.#active = { settings, context: this.context, modes: this.modes, tools };
    return tools;
  }

  #active: { settings: Settings; context: string; modes: readonly string[]; tools: T[] } | null =
    null;

  #selectActive(): T[] {
    const exposed = this.exposedTools();
    if ((this.project?.settings ?? this.settings).agent_interface !== "repl") {
      return exposed.filter((t) => t.name !== "repl");
    }
    return this.allTools.filter((t) =>
      t.name === "repl" ||
      (["initial_instructions", "activate_project"].includes(t.name) && exposed.includes(t))
    );
  }

  /** The tools the current context, modes and settings expose (code mode's API offers these). */
  exposedTools(): T[] {
    const selected = selectTools(this.allTools, {
      settings: this.project?.settings ?? this.settings,
      context: this.context,
      modes: this.modes,
    });
    const only = this.onlyTools;
    return only ? selected.filter((t) => only.has(t.name)) : selected;
  }

  /**
   * Our tools wrote these files: every project this session holds syncs them with its language
   * servers before this resolves (other sessions on the project share those servers).
   */
  async filesChanged(realPaths: readonly string[]): Promise<void> {
    for (const listener of this.writeListeners) listener(realPaths);
    await Promise.allSettled([...this.#services.values()].map((s) => s.filesChanged(realPaths)));
  }

  /**
   * Our tools moved these files or folders (real paths): read records, open documents, the
   * symbol cache and the language servers follow before this resolves.
   */
  async filesMoved(moves: ReadonlyArray<{ from: string; to: string }>): Promise<void> {
    for (const move of moves) this.reads.noteMoved(move.from, move.to);
    await Promise.allSettled([...this.#services.values()].map((s) => s.filesMoved(moves)));
  }

  /** Register something to release on shutdown. */
  own(resource: Disposable): void {
    this.#disposables.add(resource);
  }

  /** Release everything the session holds; its own host (if it has one) stops its servers. */
  async dispose(): Promise<void> {
    const all = [...this.#disposables];
    this.#disposables.clear();
    const projects = [...this.#services.keys()];
    await Promise.allSettled([
      ...all.map((d) => d.dispose()),
      ...projects.map((p) => this.releaseProject(p)),
    ]);
    if (this.#ownsHost) await this.#host?.dispose();
  }
}
