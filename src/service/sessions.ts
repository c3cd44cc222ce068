/**
 * One MCP session from a front's command line: settings layered from the config files and the
 * command line, the starting project, and an MCP server for it. The one-process server
 * (`--standalone`) and the shared service build their sessions here, so both behave alike.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import { loadSettings } from "../config/load.ts";
import type { SettingsFile } from "../config/schema.ts";
import { log } from "../log.ts";
import { createServer } from "../mcp/server.ts";
import type { McpServer } from "../mcp/protocol.ts";
import { type Project, refuseBroadRoot } from "../project/project.ts";
import { chooseProjectRoot } from "../project/roots.ts";
import { callerFolder, callerPath, type FrontPlace } from "../project/caller_folder.ts";
import { openProject } from "../project/open_project.ts";
import { systemPrompt } from "../prompts/system.ts";
import { Session } from "../session/session.ts";
import { CATALOG_TOOLS, catalogProjectHost, preloadTools } from "../tools/catalog.ts";
import type { ProjectHost, ProjectServices } from "../project_host.ts";
import { prestartServer } from "../lsp/prestart.ts";

export type { FrontPlace };

export function cliOverrides(options: CliOptions): SettingsFile {
  const overrides: SettingsFile = {};
  if (options.context) overrides.context = options.context;
  if (options.modes) overrides.modes = options.modes;
  if (options.logLevel) overrides.log_level = options.logLevel;
  if (options.enableShell) overrides.enable_shell = true;
  if (options.agentInterface) overrides.agent_interface = options.agentInterface;
  return overrides;
}

function isBroadRoot(path: string): boolean {
  try {
    refuseBroadRoot(Deno.realPathSync(path));
    return false;
  } catch {
    return true;
  }
}

export interface OpenedSession {
  session: Session;
  server: McpServer;
}

/**
 * A session for a front's options, with its MCP server (not yet connected). Throws for an
 * unknown context or mode, or an invalid config file, before anything starts.
 */
export async function openSession(
  options: CliOptions,
  place: FrontPlace,
  host?: ProjectHost,
): Promise<OpenedSession> {
  const overrides = cliOverrides(options);
  const globalSettings = await loadSettings({ overrides });
  let project: Project | null = null;
  // Clients often start servers in `/` or the home folder: without --project, that is no
  // project, and the agent activates one.
  let root = options.project !== undefined
    ? callerPath(place, options.project)
    : callerFolder(place);
  if (!options.noProject && options.project === undefined && isBroadRoot(root)) {
    log.warn(`${root} is not a project folder; starting without one (use activate_project).`);
    root = "";
  }
  // Without --project, the session works in the folder the client names as its root (a
  // worktree, a second window), and follows it when the client's roots change. Roots first: no
  // folder is opened before the client's roots are known, so the folder the client was started
  // in is opened only when the client names none.
  const follows = options.project === undefined && !options.noProject;
  if (!options.noProject && root !== "" && !follows) {
    project = await openProject(root, {
      settings: await loadSettings({ projectRoot: root, overrides }),
    });
    // A standalone process spawned it before loading this module (cli/serve.ts).
    if (host) spawnServerAhead(host.peek(project), project);
  }
  const session = new Session({
    settings: globalSettings,
    // The catalog: listing the tools loads none of their modules (tools/catalog.ts).
    tools: CATALOG_TOOLS,
    project,
    onlyTools: options.tools,
    // Without a shared host, the session makes its own once a tool needs it.
    host: host ?? catalogProjectHost,
  });
  // Fail fast on an unknown context or mode named on the command line.
  session.activeTools();
  const server = createServer(session, {
    instructions: () => systemPrompt(session, { projectPending: follows }),
  });
  const fallback = follows ? root : "";
  const follow = () => void session.decide(() => followRoots(server, session, overrides, fallback));
  server.oninitialized = () => {
    // `initialize` is answered: load the tools now, while the client lists them and the agent
    // thinks, so that the first call need not wait for them.
    setTimeout(() => preloadTools().catch((error) => log.error("loading the tools:", error)), 0);
    if (follows) follow();
  };
  if (follows) server.setNotificationHandler("notifications/roots/list_changed", follow);
  return { session, server };
}

/**
 * The project's language server, started now with its handshake so that it loads while the
 * session's first call does (lsp/prestart.ts), unless the project's servers are running already.
 */
function spawnServerAhead(services: ProjectServices | undefined, project: Project): void {
  if (services && services.pool.running().length > 0) return;
  prestartServer(project.root);
}

/**
 * Make the client's root (the first, with several) the session's active project; when the
 * client names none (no `roots` capability, no usable root) and the session has no project yet,
 * the folder it was started in (`fallback`, "" for none).
 */
async function followRoots(
  server: McpServer,
  session: Session,
  overrides: SettingsFile,
  fallback: string,
) {
  const root = await clientRoot(server);
  if (root === null) {
    if (session.project || fallback === "") return;
    try {
      const settings = await loadSettings({ projectRoot: fallback, overrides });
      // As a project given at start would: its config may choose the context and modes.
      session.context = settings.context;
      session.modes = [...settings.modes];
      await session.setProject(await openProject(fallback, { settings }));
      spawnServerAhead(session.existingServices(session.project!), session.project!);
    } catch (error) {
      log.warn(`${fallback} could not be opened as a project (use activate_project):`, error);
    }
    return;
  }
  let real: string;
  try {
    real = Deno.realPathSync(root);
  } catch {
    return;
  }
  if (session.project && Deno.realPathSync(session.project.root) === real) return;
  const settings = await loadSettings({ projectRoot: real, overrides });
  await session.setProject(await openProject(real, { settings }));
  spawnServerAhead(session.existingServices(session.project!), session.project!);
  log.info(`following the client's root: ${real}`);
}

/** The client's root folder (see chooseProjectRoot), or null when it names no usable one. */
async function clientRoot(server: McpServer): Promise<string | null> {
  if (!server.getClientCapabilities()?.roots) return null;
  let root: string | null;
  try {
    root = chooseProjectRoot(await server.listRoots({ timeout: 5000 }));
  } catch (error) {
    log.debug("roots/list failed:", error);
    return null;
  }
  return root === null || isBroadRoot(root) ? null : root;
}
