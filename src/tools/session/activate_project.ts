/**
 * activate_project: choose the session's project (a registered name or a folder, registered once
 * it opened), with the activation message Serena gives.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { readRegisteredProjects, registerProject } from "../../config/global_config.ts";
import {
  globalConfigPath,
  globalOnlySettingsNotice,
  ignoredGlobalOnlySettings,
  ignoredProgramSettings,
  loadSettings,
  programSettingsNotice,
  projectConfigPath,
} from "../../config/load.ts";
import type { RegisteredProject } from "../../config/schema.ts";
import type { Project } from "../../project/project.ts";
import { detectLanguages, serverSpecs } from "../../lsp/registry.ts";
import { readSerenaProject } from "../../project/serena_project.ts";
import { projectNameFor } from "../../project/project_name.ts";
import { memoriesOf } from "./project_memories.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { openProject, realPathOrNull } from "../../project/open_project.ts";
import { projectPath, registeredAt, stopProjectServers } from "../shared/project_selection.ts";
import { isActive } from "./active_tools.ts";

interface Target {
  entry: RegisteredProject;
  /** The global config to register it in, when it is a new path (null: no config folder). */
  register?: string | null;
}

/** Find the project a name or path means (a new path is registered once it opened). */
async function resolveTarget(arg: string): Promise<Target> {
  const file = globalConfigPath();
  const registered = file ? await readRegisteredProjects(file) : [];
  const byName = registered.find((p) => p.name === arg);
  if (byName) return { entry: byName };
  const absolute = projectPath(arg);
  const real = realPathOrNull(absolute);
  if (real === null || !Deno.statSync(real).isDirectory) {
    const names = registered.map((p) => p.name);
    throw new ToolError(
      `No registered project is named '${arg}' and '${absolute}' is not a folder. ` +
        (names.length > 0
          ? `Registered projects: ${names.join(", ")}.`
          : "No projects are registered yet; give the path of a project folder."),
    );
  }
  // A project Serena knows keeps the name its project file gives it.
  const known = projectNameFor(real, registered);
  if (known.registered) return { entry: registeredAt(registered, real)! };
  return { entry: { name: known.name, path: real }, register: file ?? null };
}

export const activateProject = defineTool({
  name: "activate_project",
  description: "Activates a project by name or folder path (a new path gets registered).",
  params: {
    project: z.string().min(1).describe(
      "Project name or folder path.",
    ),
    session: z.string().min(1).optional().describe(
      "Session id from initial_instructions.",
    ),
  },
  markers: ["no-project"],
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const workspace = ctx.session.projects;
    // A project loaded in this session (manage_projects) is found by its name first.
    const loaded = workspace.byName(args.project.trim());
    const target: Target = loaded
      ? { entry: { name: loaded.name, path: loaded.root } }
      : await resolveTarget(args.project.trim());
    const settings = await loadSettings({ projectRoot: target.entry.path });
    // Already loaded with the same settings: keep it, with its servers and code actions.
    const existing = workspace.byRoot(realPathOrNull(target.entry.path) ?? target.entry.path);
    let project: Project;
    if (existing && JSON.stringify(existing.settings) === JSON.stringify(settings)) {
      project = existing;
    } else {
      try {
        project = await openProject(target.entry.path, { name: target.entry.name, settings });
      } catch (error) {
        if (!(error instanceof ToolError) || target.register !== undefined) throw error;
        throw new ToolError(
          `${error.message} Project '${target.entry.name}' is registered at ${target.entry.path}; ` +
            "remove it with remove_project if it moved or is gone.",
        );
      }
      // Its config changed: the new project object replaces the loaded one and its servers.
      if (existing && existing !== ctx.session.project) {
        await stopProjectServers(ctx.session, existing);
      }
    }
    if (target.register) await registerProject(target.register, target.entry);
    await ctx.session.setProject(project);
    // Serena 2.1's message, line for line (get_current_config shows where it is registered). A
    // folder this session opened already (`--project`, the client's root) is not new to it, as
    // Serena registers the project it starts with.
    const created = target.register !== undefined && !existing;
    const lines = await activationMessage(ctx, project, created);
    return `${lines.join("\n")}\n`;
  },
});

/** Sessions that were given the activation message of their current project. */
const told = new WeakMap<object, Project>();

/**
 * Serena's project activation message: "The project with name '…' at … is activated." (or
 * "Created and activated a new project …" for a path seen the first time), the file encoding,
 * and the memories (or a hint to onboard). activate_project always gives it; initial_instructions
 * adds it once per session (see {@linkcode activationMessageOnce}).
 */
export async function activationMessage(
  ctx: ToolContext,
  project: Project,
  created = false,
): Promise<string[]> {
  told.set(ctx.session, project);
  const lines = [
    created
      ? `Created and activated a new project with name '${project.name}' at ${project.root}.`
      : `The project with name '${project.name}' at ${project.root} is activated.`,
    `File encoding: ${project.settings.encoding}.`,
  ];
  // A repository config whose program settings were left out says so, each time.
  const ignored = await ignoredProgramSettings(project.root);
  if (ignored.length > 0) {
    lines.push(programSettingsNotice(ignored, projectConfigPath(project.root)));
  }
  const globalOnly = await ignoredGlobalOnlySettings(project.root);
  if (globalOnly.length > 0) {
    lines.push(globalOnlySettingsNotice(globalOnly, projectConfigPath(project.root)));
  }
  const servers = await languageServerKeys(project, ctx.signal);
  // Left out for a project with no source files yet (Serena would print an empty list).
  if (servers.length > 0) lines.splice(1, 0, `Active language servers: ${servers.join(", ")}.`);
  if (isActive(ctx.session, "list_memories")) {
    const names = (await memoriesOf(ctx).list()).sort();
    if (names.length > 0) {
      lines.push(
        // Serena prints it with Python's separators: `{"memories": ["a", "b"]}`.
        `{"memories": [${names.map((name) => JSON.stringify(name)).join(", ")}]}`,
        "Use `read_memory` to read these memories later if they are relevant to the task.",
      );
    } else if (isActive(ctx.session, "onboarding")) {
      lines.push(
        "Onboarding has not been performed yet. Ask the user whether to perform onboarding " +
          "and if so, call `onboarding`.",
      );
    } else if (isActive(ctx.session, "check_onboarding_performed")) {
      lines.push("The project has no memories yet: call check_onboarding_performed.");
    }
  }
  return lines;
}

/**
 * The project's language servers by key (`typescript`, `python`), as Serena names them: those its
 * `.serena/project.yml` lists, else those of the languages found in its files.
 */
async function languageServerKeys(project: Project, signal: AbortSignal): Promise<string[]> {
  const listed = readSerenaProject(project.root).languageServers;
  if (listed) return listed;
  const specs = serverSpecs(project.root, project.settings.language_servers);
  // Bounded like manage_projects' listing: activation must stay quick on a large tree.
  return (await detectLanguages(project, specs, signal, 5000)).map((spec) => spec.id);
}

/** The activation message, unless this session was already given it for its project. */
export async function activationMessageOnce(ctx: ToolContext): Promise<string[]> {
  const project = ctx.session.project;
  if (!project || told.get(ctx.session) === project) return [];
  return await activationMessage(ctx, project);
}
