/**
 * `sextant doctor --install [--yes]`: for each language of the project whose server is missing,
 * the exact install commands with the package managers found on PATH (install_hints.ts); with
 * `--yes`, the first command that Sextant may run is run, and doctor reports its exit code and
 * whether the server is found afterwards. apt-get commands are printed, never run (they need
 * root); a package manager that is not on the `--allow-run` list is printed with that reason.
 * @module
 */
import { delimiter, join } from "node:path";
import { describeError } from "../errors.ts";
import {
  INSTALL_HINTS,
  INSTALLERS_RUN,
  MANAGER_PROGRAMS,
  type PackageManager,
} from "../lsp/install_hints.ts";
import { resolveCommand, type ServerSpec } from "../lsp/registry.ts";

/** How long one install command may run before it is killed. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** Lines of a failed command's output shown in the report. */
const OUTPUT_TAIL_LINES = 5;

/** One way to install a server binary. */
export interface InstallOption {
  /** The server binary it installs. */
  binary: string;
  manager: PackageManager;
  /** The command as printed (and, with `--yes`, run). */
  command: string;
  /** The package manager's path on PATH, or null when the user does not have it. */
  managerPath: string | null;
}

/** The path of a program in the folders of PATH, or null. */
export function onPath(program: string): string | null {
  const suffixes = Deno.build.os === "windows" ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const dir of (Deno.env.get("PATH") ?? "").split(delimiter).filter(Boolean)) {
    for (const suffix of suffixes) {
      const path = join(dir, program + suffix);
      try {
        const info = Deno.statSync(path);
        if (info.isFile && (info.mode === null || (info.mode & 0o111) !== 0)) return path;
      } catch { /* not here */ }
    }
  }
  return null;
}

/** Every known install command of a spec's servers, in the spec's order of preference. */
export function installOptions(spec: ServerSpec): InstallOption[] {
  const options: InstallOption[] = [];
  for (const { command: binary } of spec.commands) {
    const hints = INSTALL_HINTS[binary] ?? {};
    for (const [manager, command] of Object.entries(hints) as Array<[PackageManager, string]>) {
      options.push({ binary, manager, command, managerPath: onPath(MANAGER_PROGRAMS[manager]) });
    }
  }
  return options;
}

async function runAllowed(path: string): Promise<boolean> {
  return (await Deno.permissions.query({ name: "run", command: path })).state === "granted";
}

/** Why `--yes` cannot run an option, or null when it can. */
async function whyNotRunnable(option: InstallOption): Promise<string | null> {
  if (!option.managerPath) return `${MANAGER_PROGRAMS[option.manager]} is not on PATH`;
  if (!INSTALLERS_RUN.includes(option.manager)) {
    return "apt-get installs system packages: run it yourself as root";
  }
  if (!await runAllowed(option.managerPath)) {
    return `${MANAGER_PROGRAMS[option.manager]} is not on Sextant's --allow-run list ` +
      "(add it, or run the command yourself)";
  }
  return null;
}

/** Run one install command; its exit code and the last lines of its output. */
async function runInstall(
  option: InstallOption,
): Promise<{ code: number; tail: string[] } | { error: string }> {
  const [, ...args] = option.command.split(" ");
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(option.managerPath!, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { error: describeError(error) };
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, INSTALL_TIMEOUT_MS);
  try {
    const out = await child.output();
    const decoder = new TextDecoder();
    const text = `${decoder.decode(out.stdout)}\n${decoder.decode(out.stderr)}`;
    const lines = text.split("\n").map((l) => l.trimEnd()).filter(Boolean);
    return { code: out.code, tail: lines.slice(-OUTPUT_TAIL_LINES) };
  } finally {
    clearTimeout(timer);
  }
}

/** Where a package manager puts what it installs, when that is often missing from PATH. */
const INSTALL_FOLDER: Partial<Record<PackageManager, string>> = {
  go: "$(go env GOPATH)/bin",
  pip: "pip's scripts folder (a pyenv user: run 'pyenv rehash')",
  pipx: "~/.local/bin",
  npm: "$(npm prefix -g)/bin",
  rustup: "~/.cargo/bin",
};

/**
 * Offer (and with `yes`, run) the install commands of the missing servers; writes the report
 * lines and resolves to true when every install that ran left its server found.
 */
export async function offerInstalls(
  root: string,
  missing: readonly ServerSpec[],
  yes: boolean,
  write: (line: string) => void,
): Promise<boolean> {
  if (missing.length === 0) {
    write("install: no server is missing");
    return true;
  }
  let allFound = true;
  let offered = false;
  for (const spec of missing) {
    const label = `install ${spec.id}:`;
    const options = installOptions(spec);
    const usable = options.filter((o) => o.managerPath);
    const absent = [...new Set(options.filter((o) => !o.managerPath).map((o) => o.manager))];
    if (usable.length === 0) {
      const how = spec.commands.map((c) => `${c.command}: ${c.install}`).join("; ");
      const none = absent.length > 0
        ? `none of ${absent.map((m) => MANAGER_PROGRAMS[m]).join(", ")} is on PATH`
        : "no package manager command is known for it";
      write(`${label} ${none}; install it yourself (${how})`);
      continue;
    }
    offered = true;
    for (const option of usable) {
      const asRoot = option.manager === "apt" ? " (as root, or with sudo)" : "";
      write(`${label} ${option.binary} with ${option.manager}: ${option.command}${asRoot}`);
    }
    if (absent.length > 0) {
      write(
        `${label} (not offered: ${absent.map((m) => MANAGER_PROGRAMS[m]).join(", ")} not on PATH)`,
      );
    }
    if (!yes) continue;
    let chosen: InstallOption | null = null;
    for (const option of usable) {
      const why = await whyNotRunnable(option);
      if (why === null) {
        chosen = option;
        break;
      }
      write(`${label} --yes does not run '${option.command}': ${why}`);
    }
    if (!chosen) {
      allFound = false;
      continue;
    }
    write(`${label} running '${chosen.command}' (${chosen.managerPath})`);
    const result = await runInstall(chosen);
    if ("error" in result) {
      allFound = false;
      write(`${label} '${chosen.command}' could not start: ${result.error}`);
      continue;
    }
    const resolved = resolveCommand(spec, root);
    const now = "error" in resolved
      ? `${chosen.binary} is still not found (searched SEXTANT_LSP_PATH, the project's ` +
        `node_modules/.bin and PATH; put ${INSTALL_FOLDER[chosen.manager]} on PATH)`
      : `${resolved.command.command} is now found at ${resolved.path}` +
        (await runAllowed(resolved.path)
          ? ""
          : " (restart Sextant: Deno looks up --allow-run names on PATH when it starts)");
    write(`${label} '${chosen.command}' exited with code ${result.code}; ${now}`);
    if (result.code !== 0) {
      for (const line of result.tail) write(`${label}   | ${line}`);
    }
    if (result.code !== 0 || "error" in resolved) allFound = false;
  }
  if (!yes && offered) {
    write(
      "install: nothing was run; 'sextant doctor --install --yes' runs the first command of " +
        "each server that Sextant may run (npm, pip, pipx, go, rustup; apt-get is printed only)",
    );
  }
  return allFound;
}
