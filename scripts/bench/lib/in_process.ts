/**
 * A session on a folder in this process, as the shared service's sessions are, with the tool
 * context a tool's handler is called with: for the checks and profiles that ask tools directly
 * (no MCP framing) and compare or time their answers.
 * @module
 */
import { loadSettings } from "../../../src/config/load.ts";
import { Project } from "../../../src/project/project.ts";
import { ProjectHost } from "../../../src/project_host.ts";
import { Session } from "../../../src/session/session.ts";
import { ALL_TOOLS } from "../../../src/tools/mod.ts";
import type { ToolContext } from "../../../src/tools/tool.ts";

/** What {@linkcode inProcessSession} opens. */
export interface InProcessSession {
  session: Session;
  project: Project;
  /** The context a tool's handler takes; its signal aborts on dispose. */
  ctx: ToolContext;
  /** Abort what runs, then close the session (its project's servers stop with it). */
  dispose(): Promise<void>;
}

/** A session on `root` with every tool, the project's own settings and no global config. */
export async function inProcessSession(root: string): Promise<InProcessSession> {
  const settings = await loadSettings({ projectRoot: root, globalFile: null });
  const project = Project.open(root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project,
  });
  const controller = new AbortController();
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: controller.signal,
    progress: () => Promise.resolve(),
  };
  return {
    session,
    project,
    ctx,
    async dispose() {
      controller.abort();
      await session.dispose();
    },
  };
}
