/**
 * `sextant doctor [--project PATH]`: what Sextant would find and be allowed to do on a project.
 * It detects the project's languages by the extensions of its (not ignored) files, looks up
 * each language's server as the engine does, asks it for its version, does a live LSP
 * `initialize` handshake with the engine's own client, and reports the Deno permissions in
 * force, and the MCP clients set up on this machine. Plain text on stdout, one line per finding;
 * exit code 0 when every server the project needs is found and completes the handshake, 1
 * otherwise. Servers of data and script files (JSON, YAML, Bash: not `primary`) are optional: a
 * missing one is named, and the code stays 0. With `--install` it then offers the install commands of
 * the missing servers, and runs them with `--yes` (doctor_install.ts).
 * @module
 */
import { pathToFileURL } from "node:url";
import { describeError } from "../errors.ts";
import { setLogLevel } from "../log.ts";
import { LspClient } from "../lsp/client.ts";
import { launchFailureError } from "../lsp/install_hints.ts";
import { resolveCommand, type ServerSpec, serverSpecs, specForFile } from "../lsp/registry.ts";
import type { Project } from "../project/project.ts";
import { openProject } from "../project/open_project.ts";
import { callerPath, currentPlace } from "../project/caller_folder.ts";
import { VERSION } from "../version.ts";
import type { CliOptions } from "../config/cli_options.ts";
import { processEnv } from "./clients.ts";
import { clientLines } from "./doctor_clients.ts";
import { offerInstalls } from "./doctor_install.ts";

/** Files looked at to detect languages; enough to find every language of a real project. */
const MAX_FILES = 20_000;
/** How long `--version` may take. */
const VERSION_TIMEOUT_MS = 5_000;
/** How long the `initialize` handshake may take (a cold rust-analyzer or tsserver is slow). */
const HANDSHAKE_TIMEOUT_MS = 60_000;

/** Options of {@linkcode runDoctor}. */
export interface DoctorOptions {
  /** Project folder (default: the current directory). */
  project?: string | undefined;
  /** Offer the install commands of missing servers (`--install`). */
  install?: boolean;
  /** With `install`: run them (`--yes`). */
  yes?: boolean;
  /** Receives each line of the report (default: stdout). */
  write?: (line: string) => void;
}

/** The Deno permissions doctor reports, in order. */
export const REPORTED_PERMISSIONS = ["read", "write", "run", "env", "net", "ffi", "sys"] as const;

/**
 * The Deno permissions in force, one line each (Deno.permissions.query): `granted`, `limited`
 * (granted for some items only; `--allow-run=list`, `--allow-env=list`) or `not granted`.
 * Read and write are also asked for the project folder, which is what the tools need.
 */
export async function permissionLines(projectRoot: string): Promise<string[]> {
  const lines: string[] = [];
  const state = async (descriptor: Deno.PermissionDescriptor) =>
    (await Deno.permissions.query(descriptor)).state;
  for (const name of REPORTED_PERMISSIONS) {
    if (await state({ name }) === "granted") {
      lines.push(`permission ${name}: granted`);
      continue;
    }
    if (name === "read" || name === "write") {
      const here = await state({ name, path: projectRoot });
      lines.push(
        here === "granted"
          ? `permission ${name}: limited (granted for the project folder)`
          : `permission ${name}: not granted for the project folder (tools that ${name} files ` +
            "will fail with a permission error)",
      );
    } else if (name === "run") {
      lines.push(
        "permission run: limited to the programs on --allow-run (each server below says " +
          "whether it may run)",
      );
    } else if (name === "env") {
      const vars = ["PATH", "HOME", "XDG_CONFIG_HOME", "SEXTANT_LSP_PATH"];
      const states = await Promise.all(
        vars.map(async (variable) => `${variable} ${await state({ name, variable })}`),
      );
      lines.push(
        `permission env: limited (${states.join(", ")}; other variables read as unset, ` +
          "language servers still get the whole environment)",
      );
    } else if (name === "net" && await state({ name, host: "127.0.0.1" }) === "granted") {
      lines.push(
        "permission net: loopback only (127.0.0.1: the shared service and --http; nothing " +
          "beyond this machine)",
      );
    } else {
      lines.push(`permission ${name}: not granted`);
    }
  }
  return lines;
}

/** Files per language spec, counted over the project's files that are not ignored. */
export async function detectProjectLanguages(
  project: Project,
  specs: readonly ServerSpec[],
): Promise<Array<{ spec: ServerSpec; files: number }>> {
  const counts = new Map<ServerSpec, number>();
  let seen = 0;
  for await (const entry of project.walk(".")) {
    if (entry.isDirectory) continue;
    const spec = specForFile(specs, entry.path);
    if (spec) counts.set(spec, (counts.get(spec) ?? 0) + 1);
    if (++seen >= MAX_FILES) break;
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([spec, files]) => ({ spec, files }));
}

/** The first line a program prints for `--version` (gopls: `version`), or null. */
export async function programVersion(path: string): Promise<string | null> {
  const args = /(^|[\\/])gopls(\.exe)?$/.test(path) ? ["version"] : ["--version"];
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(path, { args, stdin: "null", stdout: "piped", stderr: "piped" })
      .spawn();
  } catch {
    return null;
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, VERSION_TIMEOUT_MS);
  try {
    const out = await child.output();
    if (!out.success) return null;
    const decoder = new TextDecoder();
    const text = decoder.decode(out.stdout).trim() || decoder.decode(out.stderr).trim();
    return text.split("\n")[0]?.trim() || null;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the Deno permissions let Sextant run this program. */
async function runAllowed(path: string): Promise<boolean> {
  return (await Deno.permissions.query({ name: "run", command: path })).state === "granted";
}

/** "name at path", or just the path when the command was one. */
function found(command: string, path: string): string {
  return command === path ? path : `${command} at ${path}`;
}

/** The result of checking one language's server. */
export type ServerCheck = "ok" | "missing" | "failed";

async function checkServer(
  project: Project,
  spec: ServerSpec,
  write: (line: string) => void,
): Promise<ServerCheck> {
  const label = spec.id;
  const resolved = resolveCommand(spec, project.root);
  if ("error" in resolved) {
    const installs = spec.commands.map((c) => `${c.command}: ${c.install}`).join("; ");
    write(`${label}: missing${spec.primary ? "" : ", optional"} (${installs})`);
    return "missing";
  }
  const { command, path } = resolved;
  if (!await runAllowed(path)) {
    write(
      `${label}: found ${found(command.command, path)}, but Sextant may not run it: not on ` +
        "--allow-run (Deno looks the list's names up on PATH when Sextant starts, and this is " +
        "not the first of its name there: put its folder first on PATH, where the shared " +
        "service also puts SEXTANT_LSP_PATH's folders, or install it where PATH finds it)",
    );
    return "failed";
  }
  // pyright-langserver has no --version; the pyright beside it is the same release.
  const sibling = /-langserver(\.cmd|\.exe)?$/.test(path)
    ? path.replace(/-langserver(\.cmd|\.exe)?$/, "$1")
    : null;
  const version = await programVersion(path) ??
    (sibling && await runAllowed(sibling) ? await programVersion(sibling) : null);
  write(`${label}: found ${found(command.command, path)}, version ${version ?? "unknown"}`);
  const started = performance.now();
  let client: LspClient | null = null;
  try {
    client = await LspClient.start({
      id: spec.id,
      command: path,
      args: command.args,
      root: project.root,
      rootUri: pathToFileURL(project.root).href,
      projectName: project.name,
      initializationOptions: command.initializationOptions,
      settings: command.settings,
      initializeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
    });
    const ms = performance.now() - started;
    const info = client.serverInfo;
    const name = info.name
      ? ` (server says: ${info.name}${info.version ? ` ${info.version}` : ""})`
      : "";
    const capabilities = Object.keys(client.capabilities).length;
    write(`${label}: handshake ok in ${ms.toFixed(0)} ms, ${capabilities} capabilities${name}`);
    return "ok";
  } catch (error) {
    const hint = launchFailureError(error, spec.label, command.command, path);
    const text = (hint ? hint.message : describeError(error)).split("\n").join(" | ");
    write(`${label}: handshake FAILED: ${text}`);
    return "failed";
  } finally {
    await client?.stop().catch(() => {});
  }
}

/**
 * Run the checks and write the report; resolves to the exit code (0: every server the project
 * needs was found and completed the handshake; 1: one is missing or did not).
 *
 * @example
 * ```ts ignore
 * const code = await runDoctor({ project: "fixtures/typescript" });
 * Deno.exit(code);
 * ```
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<number> {
  const write = options.write ?? ((line: string) => console.log(line));
  const root = options.project ?? Deno.cwd();
  const project = await openProject(root);
  write(`sextant ${VERSION} doctor (deno ${Deno.version.deno}, ${Deno.build.target})`);
  write(`project: ${project.root}`);
  for (const line of await permissionLines(project.root)) write(line);
  try {
    const path = Deno.env.get("PATH") ?? "";
    for (const line of clientLines(processEnv(), project.root, path)) write(line);
  } catch (error) {
    write(`clients: cannot look for client configs (${describeError(error)})`);
  }

  const specs = serverSpecs(project.root, project.settings.language_servers);
  const languages = await detectProjectLanguages(project, specs);
  if (languages.length === 0) {
    write("languages: none detected (no file has an extension a language server handles)");
  }
  const results: ServerCheck[] = [];
  const missing: ServerSpec[] = [];
  const optionalMissing: string[] = [];
  for (const { spec, files } of languages) {
    write(`language ${spec.label}: ${files} file${files === 1 ? "" : "s"} (server id ${spec.id})`);
    const result = await checkServer(project, spec, write);
    if (result === "missing") missing.push(spec);
    // Without the server of its data or script files, the project's code is served all the same.
    if (result === "missing" && !spec.primary) optionalMissing.push(spec.id);
    else results.push(result);
  }
  const installed = options.install
    ? await offerInstalls(project.root, missing, options.yes ?? false, write)
    : true;
  const count = (check: ServerCheck) => results.filter((r) => r === check).length;
  const failed = count("failed");
  // A server the project needs and does not have is a failure too, unless --install --yes
  // installed it.
  const stillMissing = count("missing") > 0 && !(options.install && options.yes && installed);
  const code = failed > 0 || !installed || stillMissing ? 1 : 0;
  write(
    `summary: ${count("ok")} server(s) ok, ${failed} failed, ${count("missing")} missing` +
      (optionalMissing.length > 0 ? `, optional missing: ${optionalMissing.join(", ")}` : "") +
      (options.yes && options.install ? `, install ${installed ? "done" : "incomplete"}` : "") +
      (code > 0 ? " (exit code 1)" : ""),
  );
  return code;
}

/** `sextant doctor`: run the checks for the command line's project; resolves to the exit code. */
export async function doctor(options: CliOptions): Promise<number> {
  setLogLevel(options.logLevel ?? "error");
  return await runDoctor({
    project: callerPath(currentPlace(), options.project),
    install: options.install,
    yes: options.yes,
  });
}
