/**
 * What the command line asks for, as data: the command and its options. The parser is
 * `cli/args.ts`; the service (`service/`) reads the options a front was started with, so they
 * live here, below both.
 * @module
 */
import type { LogLevel } from "../log.ts";

/** What `sextant service` does: run the service (started by a front), show it, stop it. */
export type ServiceAction = "run" | "status" | "stop";

/** The commands. */
export type Command =
  | "serve"
  | "doctor"
  | "service"
  | "dashboard"
  | "setup"
  | "hook"
  | "index"
  | "help"
  | "version";

export interface CliOptions {
  command: Command;
  /** With `command: "service"`. */
  serviceAction?: ServiceAction | undefined;
  /** With `command: "index"`: only `build` so far. */
  indexAction?: "build" | undefined;
  /** `index build --output PATH`. */
  output?: string | undefined;
  project?: string | undefined;
  noProject: boolean;
  context?: string | undefined;
  modes?: string[] | undefined;
  tools?: string[] | undefined;
  logLevel?: LogLevel | undefined;
  enableShell: boolean;
  standalone: boolean;
  /** Seconds the shared service lives on after its last session. */
  idleTimeout?: number | undefined;
  /** `host:port` for Streamable HTTP. */
  http?: string | undefined;
  allowRemote: boolean;
  agentInterface?: "tools" | "repl" | undefined;
  /** setup: the client; hook: `--client`. */
  client?: string | undefined;
  /** hook: the event. */
  event?: string | undefined;
  /** setup: `--scope`. */
  scope?: "user" | "project" | undefined;
  dryRun: boolean;
  force: boolean;
  hooks: boolean;
  /** doctor: `--install`, and `--yes` to run the install commands. */
  install: boolean;
  yes: boolean;
  /** dashboard: `--open`, open the page in the browser. */
  open?: boolean;
}
