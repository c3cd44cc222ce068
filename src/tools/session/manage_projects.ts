/**
 * Several projects in one session (ARCHITECTURE.md §3): `manage_projects` loads and unloads projects and
 * lists them; {@linkcode selectProject} is the smart project selection every tool with a
 * `project_name` parameter uses; {@linkcode forProject} routes a tool context to the selected
 * project, so the engine helpers that ask `ctx.project()` work on it.
 * @module
 */
import { basename } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { readRegisteredProjects } from "../../config/global_config.ts";
import { globalConfigPath } from "../../config/load.ts";
import type { RegisteredProject } from "../../config/schema.ts";
import { detectLanguages, serverSpecs } from "../../lsp/registry.ts";
import type { Project } from "../../project/project.ts";
import { projectNameFor } from "../../project/project_name.ts";
import type { Session } from "../../session/session.ts";
import { detectToolchains } from "../../toolchain/detect.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { openProject } from "../../project/open_project.ts";
import { projectPath, registeredAt, stopProjectServers } from "../shared/project_selection.ts";

/** The real folder a path names, or a ToolError saying what is wrong with it. */
function projectFolder(path: string): string {
  const absolute = projectPath(path.trim());
  let real: string;
  try {
    real = Deno.realPathSync(absolute);
  } catch {
    throw new ToolError(
      `'${absolute}' does not exist. Give the absolute path of a project folder.`,
    );
  }
  if (!Deno.statSync(real).isDirectory) {
    throw new ToolError(`'${real}' is a file, not a folder. Give the project's root folder.`);
  }
  return real;
}

/** Registered projects of the global config (none when it cannot be read). */
async function registered(): Promise<RegisteredProject[]> {
  const file = globalConfigPath();
  if (!file) return [];
  try {
    return await readRegisteredProjects(file);
  } catch {
    return [];
  }
}

/** Load the project at `path` (or find it loaded); it becomes the last used project. */
async function addProject(session: Session, path: string): Promise<string[]> {
  const root = projectFolder(path);
  const workspace = session.projects;
  const loaded = workspace.byRoot(root);
  if (loaded) {
    workspace.use(loaded);
    return [`Project '${loaded.name}' at ${root} is already loaded; it is now the last used one.`];
  }
  // The name it is registered under (activate_project knows it by that name), else its Serena
  // project_name or folder name, made unique among the loaded and the registered projects.
  const known = await registered();
  const entry = registeredAt(known, root);
  const name = entry && !workspace.byName(entry.name) ? entry.name : workspace.uniqueName(
    entry ? basename(root) : projectNameFor(root, known).name,
    known.filter((p) => p !== entry).map((p) => p.name),
  );
  const project = await openProject(root, { name });
  workspace.load(project);
  workspace.use(project);
  const messages = [`Loaded project '${name}' at ${root}; it is now the last used project.`];
  if (!session.project) {
    await session.setProject(project);
    messages.push(`There was no active project: '${name}' is now the active project too.`);
  }
  return messages;
}

/** Unload a project and stop its language servers; the active project moves on if it was it. */
async function removeLoaded(session: Session, name: string): Promise<string[]> {
  const workspace = session.projects;
  const project = workspace.named(name.trim());
  const messages = [
    `Removed project '${project.name}' (${project.root}) from this session; ` +
    "its language servers were stopped and its files are untouched.",
  ];
  if (project === session.project) {
    const next = workspace.list().find((p) => p !== project) ?? null;
    await session.setProject(next);
    messages.push(
      next
        ? `It was the active project: '${next.name}' is the active project now.`
        : "It was the active project: no project is active now.",
    );
  }
  workspace.unload(project.name);
  await stopProjectServers(session, project);
  return messages;
}

/** One loaded project as manage_projects lists it. */
async function describeProject(
  ctx: ToolContext,
  project: Project,
): Promise<Record<string, unknown>> {
  const session = ctx.session;
  const specs = serverSpecs(project.root, project.settings.language_servers);
  let languages: string[] = [];
  try {
    languages = (await detectLanguages(project, specs, ctx.signal, 5000)).map((s) => s.label);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
  }
  const pool = session.services(project).pool;
  const servers: Record<string, string> = {};
  for (const server of pool.running()) {
    servers[server.id] = server.pid !== null ? `running (pid ${server.pid})` : "stopped";
  }
  return {
    name: project.name,
    path: project.root,
    ...(project === session.project ? { active: true } : {}),
    ...(project === session.projects.lastUsed ? { last_used: true } : {}),
    languages,
    toolchains: detectToolchains(project.root).map((t) => t.id),
    language_servers: servers,
  };
}

export const manageProjects = defineTool({
  name: "manage_projects",
  description: "Loads, unloads and lists the projects of this session; several can be loaded " +
    "at once, each with its own language servers. remove_project_name is handled first (its " +
    "servers stop), then add_project_path (an absolute folder path; the project becomes the " +
    "last used one). Tools taking project_name use that project, else the last used one, else " +
    'the first loaded. Returns {"messages", "projects": [{"name", "path", "active", ' +
    '"last_used", "languages", "toolchains", "language_servers"}], "default_project"}.',
  params: {
    add_project_path: z.string().optional().describe(
      "Absolute path of a project folder to load.",
    ),
    remove_project_name: z.string().optional().describe(
      "Name of a loaded project to unload (its files are not touched).",
    ),
  },
  markers: ["optional", "no-project"],
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const session = ctx.session;
    const messages: string[] = [];
    if (args.remove_project_name?.trim()) {
      messages.push(...await removeLoaded(session, args.remove_project_name));
    }
    if (args.add_project_path?.trim()) {
      try {
        messages.push(...await addProject(session, args.add_project_path));
      } catch (error) {
        if (!(error instanceof ToolError) || messages.length === 0) throw error;
        throw new ToolError(`${messages.join(" ")} Then loading failed: ${error.message}`);
      }
    }
    const loaded = session.projects.list();
    const projects = [];
    for (const project of loaded) projects.push(await describeProject(ctx, project));
    const fallback = session.projects.lastUsed ?? loaded[0];
    return JSON.stringify({
      ...(messages.length > 0 ? { messages } : {}),
      projects,
      count: projects.length,
      ...(fallback ? { default_project: fallback.name } : {}),
      ...(loaded.length === 0
        ? { note: "No project is loaded: pass add_project_path (an absolute folder path)." }
        : {}),
    });
  },
});
