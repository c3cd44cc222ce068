/**
 * Which project a tool works on: smart project selection over the projects loaded in the session, routing a tool context to one of them, and finding the project that
 * issued a code action id.
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import type { ToolContext } from "../tool.ts";
import type { Project } from "../../project/project.ts";
import type { Session } from "../../session/session.ts";

/**
 * The absolute path a project argument names: `~` and `~/...` are below the home folder, a
 * relative path is taken from the working folder. Symlinks are not resolved.
 */
export function projectPath(arg: string): string {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  const given = home && (arg === "~" || arg.startsWith("~/")) ? join(home, arg.slice(1)) : arg;
  return isAbsolute(given) ? given : resolve(Deno.cwd(), given);
}

export { registeredAt } from "../../project/project_name.ts";

/**
 * Smart project selection (ARCHITECTURE.md §3): `projectName` when given (it becomes the last used
 * project), else the last used project, else the first loaded one; a ToolError naming the
 * loaded projects otherwise.
 */
export function selectProject(ctx: ToolContext, projectName: string | undefined): Project {
  return ctx.session.projects.select(projectName);
}

/** The same tool context, working on `project` (what `ctx.project()` returns). */
export function forProject(ctx: ToolContext, project: Project): ToolContext {
  return { ...ctx, project: () => project };
}

/** Stop a project's language servers (when it is unloaded or replaced). */
export async function stopProjectServers(session: Session, project: Project): Promise<void> {
  await session.releaseProject(project);
}

/**
 * The loaded project whose code-action cache holds `actionId`: the active project first, then
 * the others in load order; null when none has it. (For execute_code_action across projects.)
 */
export function projectOfAction(session: Session, actionId: string): Project | null {
  const id = actionId.trim();
  const active = session.project;
  const order = active ? [active, ...session.projects.list().filter((p) => p !== active)] : [
    ...session.projects.list(),
  ];
  return order.find((p) => session.codeActions(p).get(id) !== undefined) ?? null;
}
