/**
 * The projects loaded in one session (the dev-tools workflow's workspace): several at once, each with its own
 * language servers (the engine keys its pools by {@linkcode Project}), which one was used last,
 * and smart project selection for every tool that takes `project_name`.
 *
 * The session's active project (Serena's `activate_project`, `session.project`) is always one of
 * the loaded projects; "last used" is a separate, lighter notion: the project a `project_name`
 * tool worked on most recently. This module is plain state: starting and stopping language
 * servers is the tools' business.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { Project } from "./project.ts";

/** How to load a project, for error messages. */
const LOAD_HINT = "Load one with manage_projects(add_project_path=<absolute path>).";

/** See the module documentation. */
export class Workspace {
  readonly #loaded: Project[] = [];
  #lastUsed: Project | null = null;

  /** The loaded projects, in the order they were loaded. */
  list(): readonly Project[] {
    return [...this.#loaded];
  }

  /** The project a `project_name` tool used most recently, if it is still loaded. */
  get lastUsed(): Project | null {
    return this.#lastUsed;
  }

  /** Whether this very project object is loaded. */
  has(project: Project): boolean {
    return this.#loaded.includes(project);
  }

  /** The loaded project with this name, if any. */
  byName(name: string): Project | undefined {
    return this.#loaded.find((p) => p.name === name);
  }

  /** The loaded project with this name; a ToolError naming the loaded ones when none has it. */
  named(name: string): Project {
    const project = this.byName(name);
    if (!project) throw this.#unknown(name);
    return project;
  }

  /** The loaded project with this real root folder, if any. */
  byRoot(root: string): Project | undefined {
    return this.#loaded.find((p) => p.root === root);
  }

  /**
   * Load a project. A project with the same root that is already loaded is replaced in place
   * (and returned, so the caller can stop its language servers); loading the same object again
   * changes nothing.
   */
  load(project: Project): Project | null {
    const index = this.#loaded.findIndex((p) => p.root === project.root);
    if (index === -1) {
      this.#loaded.push(project);
      return null;
    }
    const old = this.#loaded[index]!;
    if (old === project) return null;
    this.#loaded[index] = project;
    if (this.#lastUsed === old) this.#lastUsed = project;
    return old;
  }

  /**
   * Unload the project named `name` and return it; "last used" is cleared when it was that
   * project. A ToolError names the loaded projects when none has that name.
   */
  unload(name: string): Project {
    const project = this.named(name);
    this.#loaded.splice(this.#loaded.indexOf(project), 1);
    if (this.#lastUsed === project) this.#lastUsed = null;
    return project;
  }

  /** Remember `project` (which must be loaded) as the last used one. */
  use(project: Project): void {
    if (this.has(project)) this.#lastUsed = project;
  }

  /**
   * Smart project selection (ARCHITECTURE.md §3): the project named `name` when one is given (it becomes
   * the last used one); else the last used project; else the first loaded one (which becomes
   * the last used one); with nothing loaded, or an unknown name, a ToolError that says what is
   * loaded and how to load a project.
   */
  select(name?: string): Project {
    const wanted = name?.trim() ?? "";
    if (wanted !== "") {
      const project = this.named(wanted);
      this.#lastUsed = project;
      return project;
    }
    if (this.#lastUsed) return this.#lastUsed;
    const first = this.#loaded[0];
    if (!first) {
      throw new ToolError(
        "No project_name provided and no projects available. Please use manage_projects with " +
          "add_project_path parameter to load a project first (or activate_project).",
      );
    }
    this.#lastUsed = first;
    return first;
  }

  /** A name for a project at `path` that no loaded project (nor `taken`) uses. */
  uniqueName(base: string, taken: Iterable<string> = []): string {
    const used = new Set([...taken, ...this.#loaded.map((p) => p.name)]);
    const name = base || "project";
    if (!used.has(name)) return name;
    let n = 2;
    while (used.has(`${name}-${n}`)) n++;
    return `${name}-${n}`;
  }

  #unknown(name: string): ToolError {
    if (this.#loaded.length === 0) {
      return new ToolError(
        `No project named '${name}' is loaded; no project is loaded. ${LOAD_HINT}`,
      );
    }
    const loaded = this.#loaded.map((p) => `'${p.name}' (${p.root})`).join(", ");
    return new ToolError(
      `No project named '${name}' is loaded. Loaded projects: ${loaded}. Pass one of these ` +
        `names as project_name, or omit it to use the last used project. ${LOAD_HINT}`,
    );
  }
}
