/**
 * Serena's configuration tools: activate_project, remove_project, switch_modes and
 * get_current_config. Registered projects live in the global config file (global_config.ts).
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import { z } from "../deps.ts";
import { ToolError } from "../errors.ts";
import {
  readRegisteredProjects,
  registerProject,
  uniqueProjectName,
  unregisterProject,
} from "../config/global_config.ts";
import { globalConfigPath, loadSettings } from "../config/load.ts";
import type { RegisteredProject } from "../config/schema.ts";
import {
  contextDefinition,
  knownContexts,
  knownModes,
  modeDefinition,
  unknownToolNames,
} from "../config/toolsets.ts";
import { detectLanguages, resolveCommand, serverSpecs } from "../lsp/registry.ts";
import { Project, refuseBroadRoot } from "../project/project.ts";
import { readManualReminder } from "../prompts/workflow.ts";
import type { Session } from "../session.ts";
import { memoriesOf } from "./memory_tools.ts";
import { stopProjectServers } from "./project_tools.ts";
import { defineTool, type ToolContext } from "./tool.ts";

/** How to turn the shell on; shared with the shell tool's error. */
export const ENABLE_SHELL_HINT = 'set "enable_shell": true in the global config ' +
  "($XDG_CONFIG_HOME/sextant/config.jsonc, usually ~/.config/sextant/config.jsonc) or start " +
  "Sextant with --enable-shell, then restart the MCP server";

function isActive(session: Session, name: string): boolean {
  return session.activeTools().some((t) => t.name === name);
}

function realPathOrNull(path: string): string | null {
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

export const switchModes = defineTool({
  name: "switch_modes",
  description: "Activates modes by name, replacing the current ones, e.g. ['planning', " +
    "'one-shot'] or ['editing', 'interactive']. The tool set changes accordingly.",
  params: {
    modes: z.array(z.string().min(1)).describe("Names of the modes to activate."),
  },
  markers: ["optional"],
  readOnly: false,
  destructive: false,
  handler(args, ctx) {
    const project = ctx.project();
    ctx.session.setModes(args.modes);
    const prompts = ctx.session.modes
      .map((m) => modeDefinition(project.settings, m).prompt)
      .filter((p): p is string => Boolean(p));
    const tools = ctx.session.activeTools().map((t) => t.name);
    return Promise.resolve(
      [
        `Active modes: ${ctx.session.modes.join(", ") || "(none)"}`,
        ...prompts,
        `Currently active tools: ${tools.join(", ")}`,
      ].join("\n"),
    );
  },
});

/** The language servers for the project's languages, and whether each is installed. */
async function languageServerSummary(ctx: ToolContext, project: Project): Promise<string[]> {
  const specs = serverSpecs(project.root, project.settings.language_servers);
  const detected = await detectLanguages(project, specs, ctx.signal);
  if (detected.length === 0) {
    return ["Language servers: none (no source files of a known language)"];
  }
  return [
    "Language servers for the project's languages:",
    ...detected.map((spec) => {
      const found = resolveCommand(spec, project.root);
      return "error" in found
        ? `  - ${spec.label}: not installed (${spec.commands.map((c) => c.install).join("; or ")})`
        : `  - ${spec.label}: ${found.command.command} (${found.path})`;
    }),
  ];
}

/** The projects loaded in the session (manage_projects), when there is more than one. */
function loadedProjectsLine(session: Session): string[] {
  const loaded = session.projects.list();
  if (loaded.length < 2) return [];
  const described = loaded.map((p) =>
    `${p.name} (${p.root})${p === session.projects.lastUsed ? " [last used]" : ""}`
  );
  return [`Loaded projects (manage_projects): ${described.join(", ")}`];
}

export const getCurrentConfig = defineTool({
  name: "get_current_config",
  description: "Shows the current configuration: active and registered projects, context, " +
    "modes, active and inactive tools, and the project's language servers.",
  params: {},
  // Works without a project too: it is how an agent finds the projects it can activate.
  markers: ["no-project"],
  readOnly: true,
  async handler(_args, ctx) {
    const session = ctx.session;
    const project = session.project;
    const settings = project?.settings ?? session.settings;
    const file = globalConfigPath();
    const registered = file ? await readRegisteredProjects(file) : [];
    const active = session.activeTools().map((t) => t.name);
    const inactive = session.allTools.map((t) => t.name).filter((n) => !active.includes(n));
    const context = contextDefinition(settings, session.context);
    const lines = [
      project
        ? `Active project: '${project.name}' at ${project.root}`
        : "Active project: none (activate one with activate_project)",
      ...loadedProjectsLine(session),
      `Registered projects${file ? ` (${file})` : ""}:` +
      (registered.length === 0 ? " none" : ""),
      ...registered.map((p) =>
        `  - ${p.name}: ${p.path}${
          project && realPathOrNull(p.path) === project.root ? " (active)" : ""
        }`
      ),
      `Context: ${session.context}${context.description ? ` - ${context.description}` : ""}`,
      `Active modes: ${session.modes.join(", ") || "(none)"}`,
      `Available contexts (chosen at startup with --context): ${
        knownContexts(settings).join(", ")
      }`,
      `Available modes (switch_modes): ${knownModes(settings).join(", ")}`,
      `Active tools (${active.length}): ${active.join(", ")}`,
      `Inactive tools: ${inactive.join(", ") || "(none)"}`,
      `Read-only: ${settings.read_only ? "yes (editing tools hidden)" : "no"}`,
      `Shell commands: ${
        session.settings.enable_shell ? "enabled" : `disabled (to enable, ${ENABLE_SHELL_HINT})`
      }`,
    ];
    const unknown = unknownToolNames(session.allTools, {
      settings,
      context: session.context,
      modes: session.modes,
    });
    if (unknown.length > 0) {
      lines.push(`Tool names in the configuration that match no tool: ${unknown.join(", ")}`);
    }
    if (project) lines.push(...(await languageServerSummary(ctx, project)));
    return lines.join("\n");
  },
});

/** Every configuration tool, in registry order. */
export const CONFIG_TOOLS = [
  activateProject,
  removeProject,
  switchModes,
  getCurrentConfig,
] as const;
