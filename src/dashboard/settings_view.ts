/**
 * The dashboard's configuration panel: the effective settings of a project with the layer each
 * comes from (the project file, the global file, or the defaults), the global file's text,
 * editable and validated before it is saved, and the project file's text, read only. The
 * project file is read through the project's sandbox: a link out of the project is not shown.
 * @module
 */
import { dirname } from "node:path";
import {
  GLOBAL_ONLY_KEYS,
  globalConfigPath,
  globalOnlySettingsNotice,
  loadSettings,
  parseSettings,
  programSettingsNotice,
  withoutGlobalOnlySettings,
  withoutProgramSettings,
} from "../config/load.ts";
import type { SettingsFile } from "../config/schema.ts";
import { writeFileAtomic } from "../edit/text_file.ts";
import { describeError, ToolError } from "../errors.ts";
import { resolveInProject } from "../project/sandbox.ts";

/** One effective setting. */
export interface SettingView {
  key: string;
  /** The value as JSON. */
  value: string;
  source: "project" | "global" | "default";
}

/** A config file as the page shows it. */
export interface FileView {
  path: string;
  exists: boolean;
  text: string;
  /** Why the file is not used as it is (invalid, or a setting a project may not make). */
  error: string | null;
}

export interface SettingsView {
  global: FileView | null;
  project: FileView | null;
  effective: SettingView[];
  /** Why the effective settings could not be worked out. */
  error: string | null;
}

/** The project's config file, relative to its root. */
const PROJECT_CONFIG_FILE = ".sextant/project.jsonc";

async function readText(path: string): Promise<{ exists: boolean; text: string }> {
  try {
    return { exists: true, text: await Deno.readTextFile(path) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { exists: false, text: "" };
    throw error;
  }
}

function layer(file: FileView | null, check?: (parsed: SettingsFile) => void): SettingsFile {
  if (!file || !file.exists) return {};
  try {
    const parsed = parseSettings(file.text, file.path);
    check?.(parsed);
    return parsed;
  } catch (error) {
    file.error = describeError(error);
    return {};
  }
}

/** The settings of `root` (null: no project, the global file and the defaults). */
export async function settingsView(root: string | null): Promise<SettingsView> {
  const globalPath = globalConfigPath();
  const global: FileView | null = globalPath
    ? { path: globalPath, ...(await readText(globalPath)), error: null }
    : null;
  let project: FileView | null = null;
  if (root !== null) {
    const resolved = resolveInProject(root, PROJECT_CONFIG_FILE, { mustExist: false });
    project = {
      path: resolved.absolute,
      ...(resolved.exists ? await readText(resolved.real) : { exists: false, text: "" }),
      error: null,
    };
  }
  const globalLayer = layer(global);
  // A repository's program settings are ignored when the project opens: the page says so.
  const projectLayer = layer(project, (parsed) => {
    const { ignored } = withoutProgramSettings(parsed);
    if (ignored.length > 0) project!.error = programSettingsNotice(ignored, project!.path);
    const globalOnly = withoutGlobalOnlySettings(parsed).ignored;
    if (globalOnly.length > 0) {
      const notice = globalOnlySettingsNotice(globalOnly, project!.path);
      project!.error = project!.error ? `${project!.error}\n${notice}` : notice;
    }
  });
  let effective: Record<string, unknown> = {};
  let error: string | null = null;
  try {
    effective = { ...await loadSettings(root === null ? {} : { projectRoot: root }) };
  } catch (failure) {
    error = describeError(failure);
  }
  const settings = Object.keys(effective).sort().map((key) => ({
    key,
    value: JSON.stringify(effective[key]),
    source: key in projectLayer && key !== "projects" &&
        !(GLOBAL_ONLY_KEYS as readonly string[]).includes(key)
      ? "project" as const
      : key in globalLayer
      ? "global" as const
      : "default" as const,
  }));
  return { global, project, effective: settings, error };
}

/**
 * Replace the global config file with `text`, after checking it as Sextant will read it (JSONC,
 * the settings schema); a file that does not pass is refused and nothing is written.
 */
export async function saveGlobalSettings(text: string): Promise<string> {
  const path = globalConfigPath();
  if (!path) throw new ToolError("No global config file: set HOME or XDG_CONFIG_HOME.");
  parseSettings(text, path);
  let mode: number | null = null;
  try {
    mode = (await Deno.stat(path)).mode;
  } catch { /* a new file */ }
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, new TextEncoder().encode(text), mode);
  return `Saved ${path}; new sessions read it (running sessions keep their settings).`;
}
