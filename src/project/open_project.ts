/**
 * The one way to open a project folder, for the tools (activate_project, manage_projects), the
 * service's sessions and doctor alike: refuse a folder too broad to be a project, load its
 * layered settings, and name it as it is registered.
 * @module
 */
import { loadSettings } from "../config/load.ts";
import type { Settings } from "../config/schema.ts";
import { Project, refuseBroadRoot } from "./project.ts";
import { projectNameFor } from "./project_name.ts";

/** The real path of `path` (symlinks resolved), or null when it does not exist. */
export function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** Options of {@linkcode openProject}. */
export interface OpenProjectOptions {
  /**
   * The project's name in the session; by default the name it goes by (registered, or its
   * `.serena/project.yml`'s `project_name`, else its folder's).
   */
  name?: string;
  /** Its settings, when already loaded; else they are loaded (global and project config). */
  settings?: Settings;
}

/**
 * Open the project in a folder: refuse the filesystem root and the home folder (they would put
 * every file inside the sandbox), load its layered settings and open it. Throws a ToolError
 * for a folder that is too broad, missing or not a folder.
 */
export async function openProject(
  root: string,
  options: OpenProjectOptions = {},
): Promise<Project> {
  const real = realPathOrNull(root);
  if (real !== null) refuseBroadRoot(real);
  const settings = options.settings ?? await loadSettings({ projectRoot: root });
  const name = options.name ?? projectNameFor(real ?? root, settings.projects).name;
  return Project.open(root, settings, name);
}
