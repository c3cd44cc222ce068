/**
 * Reading JSONC settings files, with errors that name the file, line and field.
 * @module
 */
import { jsonc } from "../deps_start.ts";
import { ToolError } from "../errors.ts";
import { log } from "../log.ts";
import { DEFAULT_SETTINGS, layerSettings, type Settings, type SettingsFile } from "./schema.ts";
import { SettingsSchema } from "./schema.ts";
import { globalConfigPath, projectConfigPath } from "./paths.ts";

export { globalConfigPath, projectConfigPath };

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `${line}:${column}`;
}

/** Parse and validate settings text; `file` is only used in error messages. */
export function parseSettings(text: string, file: string): SettingsFile {
  // A new file may hold nothing yet, or only comments: that is an empty config.
  if (jsonc.stripComments(text).trim() === "") return {};
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    throw new ToolError(
      `Invalid config file ${file}:${lineAndColumn(text, first.offset)}: ` +
        `${jsonc.printParseErrorCode(first.error)}.`,
    );
  }
  const value = tree ? jsonc.getNodeValue(tree) : {};
  const parsed = SettingsSchema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  // Point at the deepest node that exists; an unknown key's own node is more useful still.
  let node = tree;
  for (let depth = path.length; depth >= 0 && tree; depth--) {
    const found = jsonc.findNodeAtLocation(tree, path.slice(0, depth));
    if (found) {
      node = found;
      break;
    }
  }
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  if (node && keys.length > 0 && node.type === "object") {
    const keyNode = node.children?.find((p) => p.children?.[0]?.value === keys[0]);
    if (keyNode) node = keyNode;
  }
  const where = node ? `:${lineAndColumn(text, node.offset)}` : "";
  const field = [...path, ...keys].join(".") || "(top level)";
  throw new ToolError(`Invalid config file ${file}${where}: field '${field}': ${issue.message}.`);
}

/** Read a settings file; a missing file is an empty one. */
export async function readSettingsFile(file: string): Promise<SettingsFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw error;
  }
  return parseSettings(text, file);
}

export interface LoadSettingsOptions {
  /** Project root whose `.sextant/project.jsonc` is layered over the global file. */
  projectRoot?: string | undefined;
  /** Command-line values: the top layer. */
  overrides?: SettingsFile;
  /** Global config file; defaults to {@linkcode globalConfigPath}. `null` skips it. */
  globalFile?: string | null;
}

/**
 * The keys of a language server's entry that choose what runs: the program and its arguments,
 * and the free-form options a server passes on to programs it starts itself (a TypeScript SDK
 * path, rust-analyzer's check command, a Python interpreter). A project's config file comes with
 * the repository, so a cloned repository must not be able to set them.
 */
export const PROGRAM_KEYS = ["command", "args", "initialization_options", "settings"] as const;

/** A project layer without the settings that choose programs, and those it set. */
export interface RestrictedLayer {
  layer: SettingsFile;
  /** The settings left out, as `language_servers.<id>.<key>`. */
  ignored: string[];
}

/**
 * A project layer with every setting of {@linkcode PROGRAM_KEYS} left out: the project opens
 * restricted, as an editor opens a folder it does not trust, rather than being refused. Only the
 * user's global config and the command line choose programs.
 */
export function withoutProgramSettings(layer: SettingsFile): RestrictedLayer {
  const ignored: string[] = [];
  const servers = layer.language_servers;
  if (servers === undefined) return { layer, ignored };
  const kept: NonNullable<SettingsFile["language_servers"]> = {};
  for (const [id, server] of Object.entries(servers)) {
    const entry: Record<string, unknown> = { ...server };
    for (const key of PROGRAM_KEYS) {
      if (entry[key] === undefined) continue;
      ignored.push(`language_servers.${id}.${key}`);
      delete entry[key];
    }
    kept[id] = entry as typeof server;
  }
  return { layer: { ...layer, language_servers: kept }, ignored };
}

/**
 * The notice for a project config whose program settings were ignored: what, why, and how the
 * user allows them.
 */
export function programSettingsNotice(ignored: readonly string[], file: string): string {
  const global = globalConfigPath() ?? "the global config file";
  const these = ignored.length > 1 ? "these settings choose" : "this setting chooses";
  const them = ignored.length > 1 ? "them" : "it";
  return `Notice: ${file} sets ${ignored.join(", ")}; ${these} a program to run, and a ` +
    "repository's own config may not, so the project was opened without " +
    `${them} (Sextant's default servers are used). To allow ${them}, put ${them} in your ` +
    `global config (${global}) under the same keys.`;
}

/** The program settings a project's own config sets, which Sextant ignores (see above). */
export async function ignoredProgramSettings(projectRoot: string): Promise<string[]> {
  try {
    return withoutProgramSettings(await readSettingsFile(projectConfigPath(projectRoot))).ignored;
  } catch {
    return []; // an unreadable config is reported where it is loaded
  }
}

/**
 * Settings only the user's global config (or the command line) may give: `scip_indexes` names a
 * file anywhere on the machine or a URL to download, which a cloned repository must not choose.
 */
export const GLOBAL_ONLY_KEYS = ["scip_indexes"] as const;

/** A project layer without {@linkcode GLOBAL_ONLY_KEYS}, and those it set. */
export function withoutGlobalOnlySettings(layer: SettingsFile): RestrictedLayer {
  const kept: Record<string, unknown> = { ...layer };
  const ignored: string[] = [];
  for (const key of GLOBAL_ONLY_KEYS) {
    if (kept[key] === undefined) continue;
    ignored.push(key);
    delete kept[key];
  }
  return { layer: kept as SettingsFile, ignored };
}

/** The notice for a project config whose global-only settings were ignored. */
export function globalOnlySettingsNotice(ignored: readonly string[], file: string): string {
  const global = globalConfigPath() ?? "the global config file";
  return `Notice: ${file} sets ${ignored.join(", ")}, which only your global config ` +
    `(${global}) may set: a repository's own config may not choose a file outside it to read ` +
    "or an address to download from. It was ignored; the project's own index.scip (at its " +
    "root or under .sextant/) is still used.";
}

/** The global-only settings a project's own config sets, which Sextant ignores (see above). */
export async function ignoredGlobalOnlySettings(projectRoot: string): Promise<string[]> {
  try {
    return withoutGlobalOnlySettings(await readSettingsFile(projectConfigPath(projectRoot)))
      .ignored;
  } catch {
    return []; // an unreadable config is reported where it is loaded
  }
}

/** defaults < global < project < command line. */
export async function loadSettings(options: LoadSettingsOptions = {}): Promise<Settings> {
  let settings: Settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  const globalFile = options.globalFile === undefined ? globalConfigPath() : options.globalFile;
  if (globalFile) settings = layerSettings(settings, await readSettingsFile(globalFile));
  if (options.projectRoot) {
    const file = projectConfigPath(options.projectRoot);
    const restricted = withoutProgramSettings(await readSettingsFile(file));
    if (restricted.ignored.length > 0) log.warn(programSettingsNotice(restricted.ignored, file));
    const { layer, ignored } = withoutGlobalOnlySettings(restricted.layer);
    if (ignored.length > 0) log.warn(globalOnlySettingsNotice(ignored, file));
    // Registered projects live only in the global file.
    const { projects: _ignored, ...projectLayer } = layer;
    settings = layerSettings(settings, projectLayer);
  }
  if (options.overrides) settings = layerSettings(settings, options.overrides);
  return settings;
}
