/**
 * `sextant serve`: load settings, open the project, start the MCP server on stdio, and shut down
 * cleanly on stdin EOF, SIGINT or SIGTERM (language servers stopped first).
 * @module
 */
import { fileURLToPath } from "node:url";
import { loadSettings } from "../config/load.ts";
import type { SettingsFile } from "../config/schema.ts";
import { log, setLogLevel } from "../log.ts";
import { createServer } from "../mcp/server.ts";
import { DenoStdioTransport } from "../mcp/stdio.ts";
import { Project, refuseBroadRoot } from "../project/project.ts";
import { systemPrompt } from "../prompts/system.ts";
import { Session } from "../session.ts";
import { ALL_TOOLS } from "../tools/mod.ts";
import type { CliOptions } from "./args.ts";

export function cliOverrides(options: CliOptions): SettingsFile {
  const overrides: SettingsFile = {};
  if (options.context) overrides.context = options.context;
  if (options.modes) overrides.modes = options.modes;
  if (options.logLevel) overrides.log_level = options.logLevel;
  if (options.enableShell) overrides.enable_shell = true;
  if (options.agentInterface) overrides.agent_interface = options.agentInterface;
  return overrides;
}

/**
 * The current directory; but `deno task start` runs in Sextant's own folder, so there the folder
 * the user ran it from (INIT_CWD, set by `deno task`) is meant.
 */
function defaultProjectRoot(): string {
  const cwd = Deno.cwd();
  const initCwd = Deno.env.get("INIT_CWD");
  if (!initCwd || !import.meta.url.startsWith("file:")) return cwd;
  try {
    const ownFolder = Deno.realPathSync(fileURLToPath(new URL("../../", import.meta.url)));
    return Deno.realPathSync(cwd) === ownFolder ? initCwd : cwd;
  } catch {
    return cwd;
  }
}

function isBroadRoot(path: string): boolean {
  try {
    refuseBroadRoot(Deno.realPathSync(path));
    return false;
  } catch {
    return true;
  }
}

export async function serve(options: CliOptions): Promise<void> {
  if (options.logLevel) setLogLevel(options.logLevel);
  const overrides = cliOverrides(options);
  const globalSettings = await loadSettings({ overrides });
  let project: Project | null = null;
  // Clients often start servers in `/` or the home folder: without --project, that is no
  // project, and the agent activates one.
  let root = options.project ?? defaultProjectRoot();
  if (!options.noProject && options.project === undefined && isBroadRoot(root)) {
    log.warn(`${root} is not a project folder; starting without one (use activate_project).`);
    root = "";
  }
  if (!options.noProject && root !== "") {
    const settings = await loadSettings({ projectRoot: root, overrides });
    project = Project.open(root, settings);
  }
  setLogLevel(project?.settings.log_level ?? globalSettings.log_level);
  const session = new Session({
    settings: globalSettings,
    tools: ALL_TOOLS,
    project,
    onlyTools: options.tools,
  });
  // Fail fast on an unknown context or mode named on the command line.
  session.activeTools();

  const server = createServer(session, { instructions: () => systemPrompt(session) });
  const transport = new DenoStdioTransport();

  let stopping: Promise<void> | null = null;
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log.debug(`shutting down (${why})`);
      await session.dispose();
      await server.close().catch(() => {});
      Deno.exit(0);
    })();
    return stopping;
  };
  transport.onclose = () => void stop("stdin closed");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, () => void stop(signal));
    } catch { /* signal not supported on this platform */ }
  }
  await server.connect(transport);
  log.info(
    project ? `serving project ${project.root}` : "serving without a project (activate_project)",
  );
}
