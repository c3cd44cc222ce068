/**
 * The command line: `sextant [serve|doctor] [--project PATH] [--context NAME] [--mode NAME]...
 * [--tools LIST] [--log-level LEVEL] [--enable-shell]`, `sextant setup <client> ...`,
 * `sextant hook <event> --client <client>`, plus `--help` and `--version`.
 * @module
 */
import { parseArgs } from "node:util";
import { LOG_LEVELS, type LogLevel } from "../log.ts";

export const USAGE = `Sextant: code intelligence for AI coding agents, over MCP (stdio).

Usage:
  sextant [serve] [options]      serve a project over MCP on stdin/stdout
  sextant doctor [--project PATH]
                                 check the project's language servers, Sextant's permissions
                                 and the MCP clients set up on this machine
  sextant setup <client> [--scope user|project] [--hooks] [--dry-run] [--force]
                                 register Sextant with claude-code, codex, cursor, vscode,
                                 claude-desktop or gemini-cli (--hooks: also its hooks)
  sextant hook <event> --client <client>
                                 a client hook (pre-tool-use, post-tool-use, session-start,
                                 session-end); reads the hook's JSON on stdin

Options:
  --project PATH       project root (default: the current directory)
  --context NAME       desktop-app (default), agent, claude-code, codex, ide, ada
  --mode NAME          a mode; repeat for several (default: interactive, editing)
  --tools LIST         expose only these tools (comma-separated names)
  --log-level LEVEL    debug, info, warn, error or off (logs go to stderr)
  --enable-shell       enable execute_shell_command (off by default)
  --no-project         start without an active project (use activate_project)
  --scope SCOPE        setup: user (default) or project (the current folder, or --project)
  --hooks              setup: also install the hooks that steer agents to symbolic tools
  --dry-run            setup: print the change, write nothing
  --force              setup: replace an entry named sextant that does not start Sextant
  -h, --help           show this help
  -V, --version        show the version
`;

/** The commands. */
export type Command = "serve" | "doctor" | "setup" | "hook" | "help" | "version";

export interface CliOptions {
  command: Command;
  project?: string | undefined;
  noProject: boolean;
  context?: string | undefined;
  modes?: string[] | undefined;
  tools?: string[] | undefined;
  logLevel?: LogLevel | undefined;
  enableShell: boolean;
  /** setup: the client; hook: `--client`. */
  client?: string | undefined;
  /** hook: the event. */
  event?: string | undefined;
  /** setup: `--scope`. */
  scope?: "user" | "project" | undefined;
  dryRun: boolean;
  force: boolean;
  hooks: boolean;
}

export class UsageError extends Error {
  override name = "UsageError";
}

export function parseCommandLine(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: "string" },
        "no-project": { type: "boolean", default: false },
        context: { type: "string" },
        mode: { type: "string", multiple: true },
        tools: { type: "string" },
        "log-level": { type: "string" },
        "enable-shell": { type: "boolean", default: false },
        client: { type: "string" },
        scope: { type: "string" },
        hooks: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command = "serve", ...rest] = positionals;
  if (!["serve", "doctor", "setup", "hook"].includes(command)) {
    throw new UsageError(`Unknown command '${command}'.\n\n${USAGE}`);
  }
  // setup and hook take one word: the client, the event.
  const [word, ...extra] = command === "setup" || command === "hook" ? rest : [undefined, ...rest];
  if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'.\n\n${USAGE}`);
  const wantsHelp = values.help || values.version;
  if (command === "setup" && word === undefined && !wantsHelp) {
    throw new UsageError(
      "setup needs a client: claude-code, codex, cursor, vscode, claude-desktop or gemini-cli.",
    );
  }
  if (command === "hook" && word === undefined && !wantsHelp) {
    throw new UsageError(
      "hook needs an event: pre-tool-use, post-tool-use, session-start, session-end.",
    );
  }
  const scope = values.scope;
  if (scope !== undefined && scope !== "user" && scope !== "project") {
    throw new UsageError(`--scope must be user or project; got '${scope}'.`);
  }
  const level = values["log-level"];
  if (level !== undefined && !(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}; got '${level}'.`);
  }
  if (values.project !== undefined && values["no-project"]) {
    throw new UsageError("--project and --no-project cannot be used together.");
  }
  return {
    command: values.help ? "help" : values.version ? "version" : command as Command,
    project: values.project,
    noProject: values["no-project"],
    context: values.context,
    modes: values.mode,
    tools: values.tools?.split(",").map((t) => t.trim()).filter(Boolean),
    logLevel: level as LogLevel | undefined,
    enableShell: values["enable-shell"],
    client: command === "setup" ? word : values.client,
    event: command === "hook" ? word : undefined,
    scope,
    dryRun: values["dry-run"],
    force: values.force,
    hooks: values.hooks,
  };
}
