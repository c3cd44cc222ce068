/**
 * Starting the shared service when a front finds none running: the command, with this process's
 * permissions, and the environment it starts with. Loaded only then (cli/relay.ts), so a front
 * that finds its service running loads neither this nor `node:` modules.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import { type Launch, sextantLaunch } from "./launch.ts";
import { ownProgram } from "../executables.ts";
import { SEXTANT_ENV } from "./permission_flags.ts";
import { LSP_PATH_ENV, servicePath } from "../lsp_path.ts";
import { log } from "../log.ts";
import type { ServicePaths } from "../service/endpoint.ts";
import { rotateLog, withStderrToLog } from "../service/log_file.ts";

/**
 * The command that starts the service with this process's own permissions: the executable
 * itself when Sextant is compiled, else `deno run` with the `sextant` permission set.
 */
export function serviceCommand(options: Pick<CliOptions, "idleTimeout" | "logLevel">): Launch {
  const launch = sextantLaunch();
  const tail = ["service", "run"];
  if (options.idleTimeout !== undefined) tail.push("--idle-timeout", String(options.idleTimeout));
  if (options.logLevel !== undefined) tail.push("--log-level", options.logLevel);
  return { command: ownProgram(launch.command), args: [...launch.args, ...tail] };
}

/**
 * The environment the service starts with: ours, with SEXTANT_ENV, and with the folders of
 * `SEXTANT_LSP_PATH` put first on PATH. Deno resolves the names of the permission set's run list
 * (`tsc`, `pyright-langserver`, ...) on PATH when the service starts, and refuses any other path
 * to a program of that name: only so may the servers found in `SEXTANT_LSP_PATH` be run under
 * `deno task start`.
 */
export function serviceEnv(): Record<string, string> {
  const lspPath = Deno.env.get(LSP_PATH_ENV);
  if (!lspPath) return { ...SEXTANT_ENV };
  return { ...SEXTANT_ENV, PATH: servicePath(lspPath, Deno.env.get("PATH")) };
}

/**
 * Start the service detached, its stderr to its log; false (with a warning) when it cannot be
 * started. The caller waits for its endpoint file.
 */
export function startService(
  paths: ServicePaths,
  options: Pick<CliOptions, "idleTimeout" | "logLevel">,
): boolean {
  // Its stderr goes to its log, so what the runtime prints as it dies is kept.
  rotateLog(paths.log);
  const { command, args } = withStderrToLog(serviceCommand(options), paths.log);
  try {
    const child = new Deno.Command(command, {
      args,
      env: serviceEnv(),
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
    child.unref();
    return true;
  } catch (error) {
    log.warn(`cannot start the shared service (${(error as Error).message})`);
    return false;
  }
}
