/**
 * The command line: `sextant [serve|doctor|service ...] [--project PATH] [--context NAME]
 * [--mode NAME]... [--tools LIST] [--log-level LEVEL] [--enable-shell] [--agent-interface
 * tools|repl] [--standalone] [--http ADDR]`, `sextant setup <client> ...`, `sextant hook <event>
 * --client <client>`, plus `--help` and `--version`.
 * @module
 */
import type { CliOptions, Command, ServiceAction } from "../config/cli_options.ts";
import { LOG_LEVELS, type LogLevel } from "../log.ts";

export const USAGE = `Sextant: code intelligence for AI coding agents, over MCP (stdio).

Usage:
  sextant [serve] [options]      serve a project over MCP on stdin/stdout
  sextant doctor [--project PATH] [--install [--yes]]
                                 check the project's language servers, Sextant's permissions
                                 and the MCP clients set up on this machine; --install: print
                                 the install commands of missing servers, --yes: run them
  sextant service status|stop    show or stop the shared service of this user
  sextant index build [--project PATH] [--output FILE]
                                 build the project's SCIP code index (.sextant/index.scip)
                                 with each language's indexer, and its manifest (docs/scale.md)
  sextant dashboard [--open]     print the link to the shared service's web dashboard (starting
                                 the service if needed); --open: open it in the browser
  sextant setup <client> [--scope user|project] [--hooks] [--dry-run] [--force]
                                 register Sextant with claude-code, codex, cursor, vscode,
                                 claude-desktop or gemini-cli (--hooks: also its hooks)
  sextant hook <event> --client <client>
                                 a client hook (pre-tool-use, post-tool-use, session-start,
                                 session-end); reads the hook's JSON on stdin

Options:
  --project PATH       project root (default: the client's workspace root when it names one,
                       else the current directory unless it is / or your home folder)
  --context NAME       desktop-app (default), agent, claude-code, codex, ide, devtools, ada
  --mode NAME          a mode; repeat for several (default: interactive, editing)
  --tools LIST         expose only these tools (comma-separated names)
  --log-level LEVEL    debug, info, warn, error or off (logs go to stderr)
  --enable-shell       enable execute_shell_command (off by default)
  --agent-interface I  tools (default: one MCP tool per tool) or repl (code mode)
  --no-project         start without an active project (use activate_project)
  --standalone         serve in this process, with language servers of its own, instead of
                       relaying to the shared per-user service
  --idle-timeout SECS  the shared service exits this long after its last session (default 300)
  --http ADDR          serve MCP over Streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8765)
  --allow-remote       let --http bind an address other than loopback (bearer token required)
  --scope SCOPE        setup: user (default) or project (the current folder, or --project)
  --hooks              setup: also install the hooks that steer agents to symbolic tools
  --dry-run            setup: print the change, write nothing
  --force              setup: replace an entry named sextant that does not start Sextant
  -h, --help           show this help
  -V, --version        show the version
`;

export class UsageError extends Error {
  override name = "UsageError";
}

/** An option of the command line: a flag, a value, or a value that may repeat. */
interface OptionSpec {
  type: "boolean" | "string";
  multiple?: boolean;
  short?: string;
}

const OPTIONS = {
  project: { type: "string" },
  "no-project": { type: "boolean" },
  context: { type: "string" },
  mode: { type: "string", multiple: true },
  tools: { type: "string" },
  "log-level": { type: "string" },
  "enable-shell": { type: "boolean" },
  standalone: { type: "boolean" },
  "idle-timeout": { type: "string" },
  http: { type: "string" },
  "allow-remote": { type: "boolean" },
  "agent-interface": { type: "string" },
  client: { type: "string" },
  scope: { type: "string" },
  hooks: { type: "boolean" },
  "dry-run": { type: "boolean" },
  output: { type: "string" },
  force: { type: "boolean" },
  install: { type: "boolean" },
  yes: { type: "boolean" },
  open: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const satisfies Record<string, OptionSpec>;

type OptionName = keyof typeof OPTIONS;
type OptionValues = {
  [K in OptionName]: typeof OPTIONS[K] extends { type: "boolean" } ? boolean
    : typeof OPTIONS[K] extends { multiple: true } ? string[] | undefined
    : string | undefined;
};

/**
 * The options and the other words of `argv`: `--name value`, `--name=value`, flags, `-h` and `-V`
 * (also together, `-hV`), and `--` before words that are not options. Strict: an unknown option,
 * a value missing, or a value given to a flag is a UsageError. (Written here rather than taken
 * from `node:util`: any `node:` module starts Deno's Node layer, 8 ms of CPU at every start of a
 * front, which loads this module.)
 */
function parseOptions(argv: readonly string[]): { values: OptionValues; positionals: string[] } {
  const values: Record<string, boolean | string | string[] | undefined> = {};
  for (const [name, spec] of Object.entries(OPTIONS)) {
    if (spec.type === "boolean") values[name] = false;
  }
  const positionals: string[] = [];
  const shorts = new Map<string, OptionName>();
  for (const [name, spec] of Object.entries(OPTIONS) as Array<[OptionName, OptionSpec]>) {
    if (spec.short) shorts.set(spec.short, name);
  }
  const set = (name: OptionName, value: string | undefined, shown: string) => {
    const spec: OptionSpec = OPTIONS[name];
    if (spec.type === "boolean") {
      if (value !== undefined) throw new UsageError(`Option '${shown}' takes no value.`);
      values[name] = true;
    } else if (value === undefined) {
      throw new UsageError(`Option '${shown}' needs a value.`);
    } else if (spec.multiple) {
      values[name] = [...(values[name] as string[] | undefined) ?? [], value];
    } else {
      values[name] = value;
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (word.startsWith("--")) {
      const equals = word.indexOf("=");
      const name = word.slice(2, equals === -1 ? undefined : equals);
      if (!Object.hasOwn(OPTIONS, name)) throw new UsageError(`Unknown option '--${name}'.`);
      const option = name as OptionName;
      let value = equals === -1 ? undefined : word.slice(equals + 1);
      // A value's own word: the next one, unless it is an option (`--project --standalone`).
      if (value === undefined && OPTIONS[option].type === "string") {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith("-")) value = argv[++i];
      }
      set(option, value, `--${name}`);
    } else if (word.startsWith("-") && word.length > 1) {
      for (const letter of word.slice(1)) {
        const option = shorts.get(letter);
        if (!option) throw new UsageError(`Unknown option '-${letter}'.`);
        set(option, undefined, `-${letter}`);
      }
    } else {
      positionals.push(word);
    }
  }
  return { values: values as OptionValues, positionals };
}

export function parseCommandLine(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command = "serve", ...rest] = positionals;
  if (!["serve", "doctor", "service", "dashboard", "setup", "hook", "index"].includes(command)) {
    throw new UsageError(`Unknown command '${command}'.\n\n${USAGE}`);
  }
  let serviceAction: ServiceAction | undefined;
  if (command === "service") {
    const action = rest.shift();
    if (action !== "run" && action !== "status" && action !== "stop") {
      throw new UsageError(`'sextant service' takes status or stop.\n\n${USAGE}`);
    }
    serviceAction = action;
  }
  let indexAction: "build" | undefined;
  if (command === "index") {
    const action = rest.shift();
    if (action !== "build") throw new UsageError(`'sextant index' takes build.\n\n${USAGE}`);
    indexAction = action;
  }
  if (values.output !== undefined && command !== "index") {
    throw new UsageError("--output is an option of 'sextant index build'.");
  }
  let idleTimeout: number | undefined;
  if (values["idle-timeout"] !== undefined) {
    idleTimeout = Number(values["idle-timeout"]);
    if (!Number.isFinite(idleTimeout) || idleTimeout < 0) {
      throw new UsageError(
        `--idle-timeout must be a number of seconds (0 or more); got '${values["idle-timeout"]}'.`,
      );
    }
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
  const agentInterface = values["agent-interface"]?.toLowerCase();
  if (agentInterface !== undefined && agentInterface !== "tools" && agentInterface !== "repl") {
    throw new UsageError(`--agent-interface must be tools or repl; got '${agentInterface}'.`);
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
    standalone: values.standalone,
    idleTimeout,
    http: values.http,
    allowRemote: values["allow-remote"],
    ...(serviceAction ? { serviceAction } : {}),
    ...(indexAction ? { indexAction } : {}),
    ...(values.output !== undefined ? { output: values.output } : {}),
    agentInterface,
    client: command === "setup" ? word : values.client,
    event: command === "hook" ? word : undefined,
    scope,
    dryRun: values["dry-run"],
    force: values.force,
    hooks: values.hooks,
    install: values.install,
    yes: values.yes,
    ...(values.open ? { open: true } : {}),
  };
}
