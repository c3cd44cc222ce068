/**
 * get_current_config: everything that decides what the session sees (project, context, modes,
 * tools, language servers).
 * @module
 */
import { readRegisteredProjects } from "../../config/global_config.ts";
import { globalConfigPath } from "../../config/load.ts";
import { contextDefinition, knownContexts, knownModes } from "../../config/toolsets.ts";
import { detectLanguages, resolveCommand, serverSpecs } from "../../lsp/registry.ts";
import type { Project } from "../../project/project.ts";
import type { Session } from "../../session/session.ts";
import { detectWorktree } from "../../project/worktree.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { unknownToolNames } from "../../config/tool_selection.ts";
import { contextListSizes, listSize } from "../listing.ts";
import { ENABLE_SHELL_HINT } from "../shared/params.ts";
import { realPathOrNull } from "../../project/open_project.ts";

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
  description: "Shows projects, context, modes, tools (active, inactive, list size) and language " +
    "servers.",
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
        ? `Active project: '${project.name}' at ${project.root}${worktreeNote(project.root)}`
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
      `Active tools (${active.length}, ${
        listSize(session.activeTools()).toLocaleString("en")
      } characters of tools/list): ${active.join(", ")}`,
      `List size per context with these modes: ${
        contextListSizes(session.allTools, settings, session.modes)
          .map((c) => `${c.context} ${c.tools} tools, ${c.chars.toLocaleString("en")} chars`)
          .join("; ")
      }`,
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
    for (const notice of project?.ignore.notices() ?? []) lines.push(`Notice: ${notice}`);
    return lines.join("\n");
  },
});

/** ` (git worktree 'name' of /main/checkout)` for a worktree, else nothing. */
function worktreeNote(root: string): string {
  const worktree = detectWorktree(root);
  if (!worktree) return "";
  return ` (git worktree '${worktree.name}'` +
    (worktree.mainRoot
      ? ` of ${worktree.mainRoot}; memories shared with it unless ` +
        'memories: "worktree"'
      : "") +
    ")";
}
