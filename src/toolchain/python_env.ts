/**
 * The project's own Python: its virtual environment, and how to start that environment's
 * interpreter under Sextant's Deno permissions.
 *
 * Only the environment's own interpreter reads its `.pth` files (an editable install, what
 * `pip install -e .` and `uv sync` give), so the tests import the project's code and not a
 * released copy of it. Deno's `--allow-run` list allows exact paths: a name on it is looked up on
 * PATH when Sextant starts, and a path is compared as written (`python3` on the list does not
 * allow `/p/.venv/bin/python3`, even as a symbolic link to the same file; see
 * tests/toolchain/python_env_test.ts). No entry can allow every project's environment, so when
 * the interpreter is not allowed itself it is started through `sh` (on the list), which replaces
 * itself with it (`exec`): the way `npm exec` starts a project's `node_modules/.bin` programs.
 * @module
 */
import { delimiter, join, relative } from "node:path";
import { jsonc, parseToml } from "../deps.ts";
import { findExecutable, isExecutableFile, runGranted, throughSh } from "../executables.ts";
import { pathExists } from "./reported_paths.ts";
import { sha256 } from "../sha.ts";

const windows = Deno.build.os === "windows";

/** A virtual environment of the project. */
export interface VirtualEnv {
  /** Its folder (absolute). */
  dir: string;
  /** Its interpreter (absolute). */
  python: string;
  /** How the answer names it: the folder relative to the root, or `$VIRTUAL_ENV (path)`. */
  label: string;
}

/** The interpreter inside environment `dir`, if it has one. */
function interpreterIn(dir: string): string | null {
  const candidates = windows
    ? [join(dir, "Scripts", "python.exe")]
    : [join(dir, "bin", "python"), join(dir, "bin", "python3")];
  return candidates.find(isExecutableFile) ?? null;
}

/**
 * Folders of `root` that are virtual environments (`pyvenv.cfg` in them; `.venv` and `venv` also
 * without one, as conda makes them), `.venv` and `venv` first.
 */
function environmentsIn(root: string): string[] {
  const found: string[] = [];
  try {
    for (const entry of Deno.readDirSync(root)) {
      if (!entry.isDirectory) continue;
      const dir = join(root, entry.name);
      const named = entry.name === ".venv" || entry.name === "venv";
      if (pathExists(join(dir, "pyvenv.cfg")) || (named && interpreterIn(dir))) {
        found.push(entry.name);
      }
    }
  } catch {
    return [];
  }
  const rank = (name: string) => (name === ".venv" ? 0 : name === "venv" ? 1 : 2);
  return found.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** `$VIRTUAL_ENV`, when this process may read it (the `sextant` permission set does not). */
function activatedEnvironment(): string | null {
  try {
    return Deno.env.get("VIRTUAL_ENV") || null;
  } catch {
    return null;
  }
}

function readToml(path: string): Record<string, unknown> | null {
  try {
    return parseToml(Deno.readTextFileSync(path)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const table = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" ? value as Record<string, unknown> : {};

/**
 * The name poetry gives a project's environments, before `-py3.x`: the project's name
 * (normalized as a package name, some characters replaced, at most 42 of them), a dash, and the
 * first 8 characters of the URL-safe base64 SHA-256 of the project's real path (lower case on
 * Windows). Checked against poetry 2.5.1: "My_Poetry.Pkg" in /tmp/poetryproj is
 * `my-poetry-pkg-IgxoB9Ps`.
 */
export function poetryEnvName(projectName: string, realRoot: string): string {
  const name = projectName.toLowerCase().replace(/[-_.]+/g, "-")
    .replace(/[ $`!*@"\\\r\n\t]/g, "_").slice(0, 42);
  const path = windows ? realRoot.toLowerCase() : realRoot;
  const hash = base64Url(sha256(new TextEncoder().encode(path))).slice(0, 8);
  return `${name}-${hash}`;
}

/** Base64 with the URL-safe alphabet and no padding (RFC 4648 §5). */
function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Where poetry keeps environments: its config's `virtualenvs.path` or `cache-dir`, else the default. */
function poetryVirtualenvsFolder(home: string): string {
  const configDir = Deno.build.os === "darwin"
    ? join(home, "Library", "Application Support", "pypoetry")
    : windows
    ? join(home, "AppData", "Roaming", "pypoetry")
    : join(home, ".config", "pypoetry");
  const config = readToml(join(configDir, "config.toml")) ?? {};
  const cacheDir = typeof config["cache-dir"] === "string"
    ? config["cache-dir"]
    : Deno.build.os === "darwin"
    ? join(home, "Library", "Caches", "pypoetry")
    : windows
    ? join(home, "AppData", "Local", "pypoetry", "Cache")
    : join(home, ".cache", "pypoetry");
  const path = table(config.virtualenvs).path;
  return typeof path === "string"
    ? path.replace("{cache-dir}", cacheDir).replace(/^~(?=[\\/])/, home)
    : join(cacheDir, "virtualenvs");
}

/**
 * A poetry project's environment outside the project, found as poetry finds it, without running
 * poetry: `<virtualenvs>/<name>-<hash>-py<minor>`, the minor version from poetry's `envs.toml`,
 * else the newest one there.
 */
function poetryEnvironment(root: string, home: string | undefined): VirtualEnv | null {
  if (!home) return null;
  const pyproject = readToml(join(root, "pyproject.toml"));
  const tools = table(pyproject?.tool);
  if (!("poetry" in tools)) return null;
  const projectName = table(pyproject?.project).name ?? table(tools.poetry).name;
  if (typeof projectName !== "string") return null;
  let realRoot: string;
  try {
    realRoot = Deno.realPathSync(root);
  } catch {
    return null;
  }
  const envName = poetryEnvName(projectName, realRoot);
  const folder = poetryVirtualenvsFolder(home);
  const minor = table(table(readToml(join(folder, "envs.toml")))[envName]).minor;
  const versions: string[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      const version = entry.name.startsWith(`${envName}-py`)
        ? entry.name.slice(envName.length + 3)
        : null;
      if (entry.isDirectory && version) versions.push(version);
    }
  } catch {
    return null;
  }
  const newest = (a: string, b: string) => {
    const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
    return (y[0]! - x[0]!) || (y[1]! - x[1]!);
  };
  const chosen = typeof minor === "string" && versions.includes(minor)
    ? minor
    : versions.sort(newest)[0];
  if (!chosen) return null;
  const dir = join(folder, `${envName}-py${chosen}`);
  const python = interpreterIn(dir);
  return python ? { dir, python, label: `poetry's environment (${dir})` } : null;
}

/** Options of {@linkcode findVirtualEnv}. */
export interface FindVirtualEnvOptions {
  /** The home folder poetry's environments are under (default: `HOME` or `USERPROFILE`). */
  home?: string;
}

function homeFolder(): string | undefined {
  try {
    return Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  } catch {
    return undefined;
  }
}

/**
 * The project's virtual environment: a folder of the root with a `pyvenv.cfg` (`.venv` first,
 * then `venv`, then others by name; uv and `poetry config virtualenvs.in-project` make `.venv`),
 * else a poetry project's environment in poetry's cache, else the activated one (`$VIRTUAL_ENV`,
 * when Sextant may read it). Null when there is none.
 *
 * @example
 * ```ts
 * findVirtualEnv("/work/flask"); // { dir: "/work/flask/.venv", python: ".../bin/python", label: ".venv" }
 * ```
 */
export function findVirtualEnv(
  root: string,
  options: FindVirtualEnvOptions = {},
): VirtualEnv | null {
  for (const name of environmentsIn(root)) {
    const dir = join(root, name);
    const python = interpreterIn(dir);
    if (python) return { dir, python, label: name };
  }
  const poetry = poetryEnvironment(root, options.home ?? homeFolder());
  if (poetry) return poetry;
  const active = activatedEnvironment();
  if (active) {
    const python = interpreterIn(active);
    if (python) return { dir: active, python, label: `$VIRTUAL_ENV (${active})` };
  }
  return null;
}

/**
 * Whether the project's pyright config chooses its environment itself (`venv` or `venvPath` in
 * `pyrightconfig.json` or `[tool.pyright]` of `pyproject.toml`).
 */
export function configuredPyrightEnv(root: string): boolean {
  const names = (table: unknown) =>
    !!table && typeof table === "object" && ("venv" in table || "venvPath" in table);
  try {
    const text = Deno.readTextFileSync(join(root, "pyrightconfig.json"));
    if (names(jsonc.parse(text, [], { allowTrailingComma: true }))) return true;
  } catch {
    // No such file.
  }
  try {
    const pyproject = parseToml(Deno.readTextFileSync(join(root, "pyproject.toml")));
    const tool = (pyproject as { tool?: { pyright?: unknown } }).tool;
    return names(tool?.pyright);
  } catch {
    return false;
  }
}

/** How to start a program: the command line before its own arguments. */
export type Launch = { argv: string[] } | { refused: string };

/**
 * How to start `program` (an interpreter in the project): as it is when the permissions allow it,
 * else through `sh` when that is allowed; else refused, with the flag that would allow it.
 */
export function launchProjectProgram(program: string, root: string): Launch {
  if (runGranted(program)) return { argv: [program] };
  const viaSh = throughSh(program);
  if (viaSh) return { argv: viaSh };
  const shown = relative(root, program).startsWith("..") ? program : relative(root, program);
  return {
    refused: `Sextant may not start the project's interpreter ${shown}: it is not on Deno's ` +
      `--allow-run list${windows ? "" : ", nor is sh"}. Add "${program}" to the --allow-run list ` +
      "in your MCP client's config (or build the executable with " +
      `SEXTANT_EXTRA_RUN=${program} deno task compile).`,
  };
}

/** The environment variables that activating `env` sets (its `bin` first on PATH). */
export function activationEnv(env: VirtualEnv): Record<string, string> {
  const bin = join(env.dir, windows ? "Scripts" : "bin");
  const path = [bin, Deno.env.get("PATH") ?? ""].filter(Boolean).join(delimiter);
  return { VIRTUAL_ENV: env.dir, PATH: path };
}

/** Whether `module` imports with the interpreter that `launch` starts. */
export async function canImport(
  launch: string[],
  env: Record<string, string>,
  module: string,
): Promise<boolean> {
  const [program, ...args] = launch;
  try {
    const probe = await new Deno.Command(program!, {
      args: [...args, "-c", `import ${module}`],
      env,
      stdout: "null",
      stderr: "null",
      stdin: "null",
    }).output();
    return probe.success;
  } catch {
    return false; // not runnable
  }
}

/** A Python on PATH that can import `module` (for a project without a virtual environment). */
async function pathPythonWith(module: string): Promise<string | null> {
  const candidates = [
    findExecutable("python3", { useToolCache: false }),
    findExecutable("python", { useToolCache: false }),
    "/usr/bin/python3",
  ].filter((p): p is string => p !== null && pathExists(p) && runGranted(p));
  for (const python of new Set(candidates)) {
    if (await canImport([python], {}, module)) return python;
  }
  return null;
}

/** How a Python module runs for the project: the command before `-m module`, and its names. */
export interface PythonRun {
  launch: string[];
  env: Record<string, string>;
  /** The interpreter as the answer shows it (relative to the root when inside it). */
  interpreter: string;
  note: string;
}

/**
 * How `python -m <module>` (pytest, mypy) runs for the project: with its virtual environment's
 * own interpreter, never another one in its place (when that cannot start or lacks the module,
 * `missing` says why and what to do); without an environment, with a Python on PATH that has it.
 */
export async function projectPythonRun(
  root: string,
  module: string,
): Promise<PythonRun | { missing: string }> {
  const venv = findVirtualEnv(root);
  if (!venv) {
    const python = await pathPythonWith(module);
    if (!python) {
      return {
        missing: "no virtual environment in the project (.venv, venv, or a folder with a " +
          `pyvenv.cfg), and no Python on PATH with ${module} (make a .venv with ${module}, or ` +
          `apt-get install python3-${module}).`,
      };
    }
    return {
      launch: [python],
      env: {},
      interpreter: python,
      note: "No virtual environment in the project (.venv, venv, or a folder with a " +
        `pyvenv.cfg): ${module} ran with ${python} from PATH.`,
    };
  }
  const inside = relative(root, venv.python);
  const interpreter = inside.startsWith("..") ? venv.python : inside;
  const launch = launchProjectProgram(venv.python, root);
  if ("refused" in launch) return { missing: launch.refused };
  const env = activationEnv(venv);
  if (!await canImport(launch.argv, env, module)) {
    return {
      missing: `the project's virtual environment ${venv.label} has no ${module}: install it ` +
        `there (${interpreter} -m pip install ${module}, or the project's dev dependencies).`,
    };
  }
  return {
    launch: launch.argv,
    env,
    interpreter,
    note: `${module} ran with the project's interpreter ${interpreter}` +
      (interpreter.startsWith(`${venv.label}/`) ? "." : `, of ${venv.label}.`),
  };
}
