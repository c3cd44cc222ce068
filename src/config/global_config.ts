/**
 * The registered projects in the global config file (`$XDG_CONFIG_HOME/sextant/config.jsonc`):
 * read them, add one, remove one. Edits go through jsonc-parser's `modify`, so the user's
 * comments and formatting survive, and the file is replaced atomically.
 * @module
 */
import { basename, dirname } from "node:path";
import { jsonc } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { writeFileAtomic } from "../edit/text_file.ts";
import { parseSettings } from "./load.ts";
import type { RegisteredProject } from "./schema.ts";

const FORMATTING: jsonc.FormattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
const NEW_FILE_HEADER =
  "// Sextant's global configuration (JSONC). See docs/configuration.md for every key.\n";

interface ConfigText {
  text: string;
  /** Permission bits of the existing file, kept on rewrite. */
  mode: number | null;
}

async function readConfigText(file: string): Promise<ConfigText> {
  try {
    const [text, info] = await Promise.all([Deno.readTextFile(file), Deno.stat(file)]);
    return { text, mode: info.mode };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { text: "", mode: null };
    throw error;
  }
}

async function writeConfigText(file: string, text: string, mode: number | null): Promise<void> {
  await Deno.mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, new TextEncoder().encode(text), mode);
}

/** The projects registered in `file` (none when the file does not exist). */
export async function readRegisteredProjects(file: string): Promise<RegisteredProject[]> {
  const { text } = await readConfigText(file);
  return text.trim() === "" ? [] : parseSettings(text, file).projects ?? [];
}

/** A name for `path` that no registered project uses yet: its folder name, then `name-2`, ... */
export function uniqueProjectName(path: string, registered: readonly RegisteredProject[]): string {
  const base = basename(path) || "project";
  const taken = new Set(registered.map((p) => p.name));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/**
 * Add a project to `file`'s `projects` list, keeping comments. Refuses (ToolError) when the name
 * is already registered. The file and its folder are created when missing.
 */
export async function registerProject(file: string, project: RegisteredProject): Promise<void> {
  const { text, mode } = await readConfigText(file);
  const existing = text.trim() === "" ? [] : parseSettings(text, file).projects;
  if (existing?.some((p) => p.name === project.name)) {
    throw new ToolError(`A project named '${project.name}' is already registered in ${file}.`);
  }
  const base = text.trim() === "" ? `${NEW_FILE_HEADER}{}\n` : text;
  const entry = { name: project.name, path: project.path };
  const edits = existing === undefined
    ? jsonc.modify(base, ["projects"], [entry], { formattingOptions: FORMATTING })
    : jsonc.modify(base, ["projects", -1], entry, {
      formattingOptions: FORMATTING,
      isArrayInsertion: true,
    });
  await writeConfigText(file, jsonc.applyEdits(base, edits), mode);
}

/** Remove the project named `name` from `file`; returns it, or throws a ToolError naming the known ones. */
export async function unregisterProject(file: string, name: string): Promise<RegisteredProject> {
  const { text, mode } = await readConfigText(file);
  const projects = text.trim() === "" ? [] : parseSettings(text, file).projects ?? [];
  const index = projects.findIndex((p) => p.name === name);
  if (index === -1) {
    const known = projects.length > 0
      ? `Registered projects: ${projects.map((p) => p.name).join(", ")}.`
      : "No projects are registered.";
    throw new ToolError(`No project named '${name}' is registered in ${file}. ${known}`);
  }
  const edits = jsonc.modify(text, ["projects", index], undefined, {
    formattingOptions: FORMATTING,
  });
  await writeConfigText(file, jsonc.applyEdits(text, edits), mode);
  return projects[index]!;
}
