/**
 * How this Sextant was started, as a command a client can run again: the compiled executable
 * itself, or `deno run` with Sextant's permission flags and this checkout's (or URL's) `main.ts`.
 * `sextant setup` writes it into client configs and hook commands.
 * @module
 */
import { ownUrl } from "../own_files.ts";
import { fileURLToPath } from "node:url";
import { isDenoCli } from "../executables.ts";
import { permissionFlags, RUNTIME_FLAGS } from "./permission_flags.ts";
import { SEXTANT_PERMISSIONS } from "./permission_set.ts";

/** A program and the arguments that come before Sextant's own (command, options). */
export interface Launch {
  command: string;
  args: string[];
}

/** Options of {@linkcode sextantLaunch}; the defaults describe the running process. */
export interface LaunchOptions {
  /** The running executable (default `Deno.execPath()`). */
  execPath?: string;
  /** Sextant's `main.ts`, as a file URL or a remote URL (default: this checkout's). */
  mainUrl?: string;
}

/**
 * The command that starts this Sextant. Compiled: the executable, no arguments (its permissions
 * are built in). Under `deno run`: `deno run --no-config <flags> <main.ts>`, where `--no-config`
 * keeps the client's working folder's own deno.json out of it.
 *
 * @example
 * ```ts
 * import { sextantLaunch } from "./launch.ts";
 * const launch = sextantLaunch({ execPath: "/opt/bin/sextant" });
 * console.log(launch); // { command: "/opt/bin/sextant", args: [] }
 * ```
 */
export function sextantLaunch(options: LaunchOptions = {}): Launch {
  const execPath = options.execPath ?? Deno.execPath();
  if (!isDenoCli(execPath)) return { command: execPath, args: [] };
  const main = options.mainUrl ?? ownUrl("main.ts").href;
  const script = main.startsWith("file:") ? fileURLToPath(main) : main;
  return {
    command: execPath,
    args: [
      "run",
      "--no-config",
      ...RUNTIME_FLAGS,
      ...permissionFlags(SEXTANT_PERMISSIONS),
      script,
    ],
  };
}

/** Quote one word for a POSIX shell (or cmd.exe on Windows) when it needs it. */
export function shellQuote(word: string, windows = Deno.build.os === "windows"): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (windows) return `"${word.replaceAll('"', '""')}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A launch plus Sextant's own arguments, as one shell command line (for hook commands). */
export function commandLine(launch: Launch, extra: readonly string[]): string {
  return [launch.command, ...launch.args, ...extra].map((w) => shellQuote(w)).join(" ");
}
