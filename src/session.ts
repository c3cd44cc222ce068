/**
 * The state of one MCP session: settings, the active project, which files the agent has read,
 * and the tool set its context and modes expose. Tools receive it through their context.
 * @module
 */
import type { Settings } from "./config/schema.ts";
import { ToolError } from "./errors.ts";
import type { Project } from "./project/project.ts";
import type { Tool } from "./tools/tool.ts";
import { modeDefinition, selectTools } from "./config/toolsets.ts";
import { Workspace } from "./project/workspace.ts";

/** Line ranges (0-based, inclusive) read per file; the prior-read rule of the line tools. */
export class ReadTracker {
  readonly #everRead = new Set<string>();
  readonly #ranges = new Map<string, Array<[number, number]>>();

  /** Record a read of lines `start..end` (inclusive; `end` Infinity for "to the end"). */
  recordRead(realPath: string, start = 0, end = Infinity): void {
    this.#everRead.add(realPath);
    const ranges = this.#ranges.get(realPath) ?? [];
    ranges.push([start, end]);
    this.#ranges.set(realPath, ranges);
  }

  wasRead(realPath: string): boolean {
    return this.#everRead.has(realPath);
  }

  /** Whether a read since the last line edit covered all of `start..end`. */
  rangeWasRead(realPath: string, start: number, end: number): boolean {
    const ranges = this.#ranges.get(realPath) ?? [];
    return ranges.some(([s, e]) => s <= start && end <= e);
  }

  /** After an edit, line numbers have moved: line ranges must be read again. */
  noteEdited(realPath: string): void {
    this.#ranges.delete(realPath);
  }

  /** A file created by the agent counts as read (it knows the content). */
  noteCreated(realPath: string): void {
    this.#ranges.delete(realPath);
    this.recordRead(realPath);
  }
}

/** Resources that must be released on shutdown (language servers, child processes). */
export interface Disposable {
  dispose(): Promise<void>;
}

export interface SessionOptions {
  settings: Settings;
  tools: readonly Tool[];
  project?: Project | null;
  /** Expose only these tools (the `--tools` option), on top of contexts and modes. */
  onlyTools?: readonly string[] | undefined;
}

export class Session {
  settings: Settings;
  /** The active project (Serena's); always one of {@linkcode projects}. */
  project: Project | null;
  /** Every project loaded in this session, the last used one, smart project selection. */
  readonly projects = new Workspace();
  readonly reads = new ReadTracker();
  readonly allTools: readonly Tool[];
  context: string;
  modes: string[];
  readonly onlyTools: ReadonlySet<string> | null;
  /** Called when the exposed tool set changes (the server sends `tools/list_changed`). */
  onToolsChanged: () => void = () => {};
  readonly #disposables = new Set<Disposable>();
  readonly #fileListeners = new Set<(realPaths: readonly string[]) => void | Promise<void>>();
  readonly #projectListeners = new Set<
    (project: Project | null, previous: Project | null) => void | Promise<void>
  >();

  constructor(options: SessionOptions) {
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
   * becomes the last used one. Project listeners run first (e.g. to stop the previous project's
   * language servers), then the client is told the tool set may differ. Activating the active
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
    await Promise.allSettled([...this.#projectListeners].map((l) => l(project, previous)));
    this.onToolsChanged();
  }

  /** Listen for project switches. */
  onProjectChanged(
    listener: (project: Project | null, previous: Project | null) => void | Promise<void>,
  ): void {
    this.#projectListeners.add(listener);
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
  activeTools(): Tool[] {
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
  exposedTools(): Tool[] {
    const selected = selectTools(this.allTools, {
      settings: this.project?.settings ?? this.settings,
      context: this.context,
      modes: this.modes,
    });
    const only = this.onlyTools;
    return only ? selected.filter((t) => only.has(t.name)) : selected;
  }

  /** Listen for files changed by our own tools (the language-server engine syncs on this). */
  onFilesChanged(listener: (realPaths: readonly string[]) => void | Promise<void>): void {
    this.#fileListeners.add(listener);
  }

  /** Tell listeners that our tools wrote these files; they are synced before this resolves. */
  async filesChanged(realPaths: readonly string[]): Promise<void> {
    await Promise.allSettled([...this.#fileListeners].map((l) => l(realPaths)));
  }

  /** Register something to release on shutdown. */
  own(resource: Disposable): void {
    this.#disposables.add(resource);
  }

  async dispose(): Promise<void> {
    const all = [...this.#disposables];
    this.#disposables.clear();
    await Promise.allSettled(all.map((d) => d.dispose()));
  }
}
