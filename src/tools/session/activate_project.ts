/**
 * activate_project and remove_project: choose the session's project, forget a registered one.
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import {
  readRegisteredProjects,
  registerProject,
  uniqueProjectName,
  unregisterProject,
} from "../../config/global_config.ts";
import { globalConfigPath, loadSettings } from "../../config/load.ts";
import type { RegisteredProject } from "../../config/schema.ts";
import { Project, refuseBroadRoot } from "../../project/project.ts";
import { readManualReminder } from "../../prompts/workflow.ts";
import { memoriesOf } from "./memories.ts";
import { defineTool } from "../tool.ts";
import { stopProjectServers } from "../shared/projects.ts";
import { isActive } from "./config.ts";

export function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

function expandHome(path: string): string {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!home || !(path === "~" || path.startsWith("~/"))) return path;
  return join(home, path.slice(1));
}

interface Target {
  entry: RegisteredProject;
  /** Where it was registered just now (null: it was registered already). */
  registeredIn: string | null;
  /** Why it could not be registered (no config folder), when that happened. */
  notRegistered?: string;
}

/** Find the project a name or path means; register a new path in the global config. */
async function resolveTarget(arg: string): Promise<Target> {
  const file = globalConfigPath();
  const registered = file ? await readRegisteredProjects(file) : [];
  const byName = registered.find((p) => p.name === arg);
  if (byName) return { entry: byName, registeredIn: null };
  const given = expandHome(arg);
  const absolute = isAbsolute(given) ? given : resolve(Deno.cwd(), given);
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
  const byPath = registered.find((p) => realPathOrNull(p.path) === real);
  if (byPath) return { entry: byPath, registeredIn: null };
  refuseBroadRoot(real);
  const entry = { name: uniqueProjectName(real, registered), path: real };
  if (!file) {
    return { entry, registeredIn: null, notRegistered: "no config folder (set XDG_CONFIG_HOME)" };
  }
  await registerProject(file, entry);
  return { entry, registeredIn: file };
}

export const activateProject = defineTool({
  name: "activate_project",
  description: "Activates a project by registered name, by the name of a project loaded in " +
    "this session, or by folder path. A new path is registered in the global config so it " +
    "can later be activated by name.",
  params: {
    project: z.string().min(1).describe(
      "Name of a registered or loaded project, or path to its folder.",
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
      ? { entry: { name: loaded.name, path: loaded.root }, registeredIn: null }
      : await resolveTarget(args.project.trim());
    const settings = await loadSettings({ projectRoot: target.entry.path });
    // Already loaded with the same settings: keep it, with its servers and code actions.
    const existing = workspace.byRoot(realPathOrNull(target.entry.path) ?? target.entry.path);
    let project: Project;
    if (existing && JSON.stringify(existing.settings) === JSON.stringify(settings)) {
      project = existing;
    } else {
      try {
        project = Project.open(target.entry.path, settings, target.entry.name);
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
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
    await ctx.session.setProject(project);
    const lines = [`The project '${project.name}' at ${project.root} is now active.`];
    if (target.registeredIn) {
      lines.push(
        `Registered it as '${project.name}' in ${target.registeredIn}; next time, activate it ` +
          "by that name.",
      );
    } else if (target.notRegistered) {
      lines.push(`Not registered: ${target.notRegistered}.`);
    }
    if (isActive(ctx.session, "list_memories")) {
      const names = await memoriesOf(ctx).list();
      lines.push(
        names.length > 0
          ? `Available memories: ${JSON.stringify(names)}. Read those that matter for the task ` +
            "with read_memory."
          : "The project has no memories yet" +
            (isActive(ctx.session, "check_onboarding_performed")
              ? ": call check_onboarding_performed."
              : "."),
      );
    }
    lines.push(readManualReminder(isActive(ctx.session, "initial_instructions")));
    return lines.join("\n");
  },
});

export const removeProject = defineTool({
  name: "remove_project",
  description: "Removes a project from the registered projects in the global config (its " +
    "files are not touched).",
  params: { project_name: z.string().min(1).describe("Name of the registered project.") },
  markers: ["optional", "no-project"],
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const file = globalConfigPath();
    if (!file) throw new ToolError("No global config file: set XDG_CONFIG_HOME or HOME.");
    const removed = await unregisterProject(file, args.project_name);
    const stillActive = ctx.session.project?.root === realPathOrNull(removed.path)
      ? " It stays active in this session."
      : "";
    return `Successfully removed project '${removed.name}' (${removed.path}) from ${file}. ` +
      `Its files were not touched.${stillActive}`;
  },
});
