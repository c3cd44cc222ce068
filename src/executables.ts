/**
 * Where a program is: the one lookup of executables that language servers, toolchains and doctor
 * share. It searches, in order, the folders of `SEXTANT_LSP_PATH` (each folder, its
 * `node_modules/.bin` and its `bin`), the project's `node_modules/.bin`, Sextant's own tool cache
 * (`<checkout>/.cache/lsp/node_modules/.bin`, when run from files) and PATH; on Windows it tries
 * the `.exe`, `.cmd` and `.bat` suffixes too. It also tells the deno CLI from a compiled Sextant,
 * and names the program that runs this executable again under the run permission it was given.
 * @module
 */
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { lspPathFolders } from "./lsp_path.ts";
import { ownUrl } from "./own_files.ts";

export { LSP_PATH_ENV, lspPathFolders, servicePath } from "./lsp_path.ts";

/**
 * Whether `path` (a path or a bare name) is the `deno` CLI, not an executable made by
 * `deno compile`: the one test of what Sextant runs under, or of what a command runs.
 */
export function isDenoCli(path: string): boolean {
  return /(^|[\\/])deno(\.exe)?$/i.test(path);
}

/**
 * The program that runs this executable again: itself when the run permission allows its path,
 * else its name, `deno` or `sextant` (`--allow-run=deno` allows the program of that name found on
 * PATH, which may be a link to this executable rather than the executable itself).
 */
export function ownProgram(execPath = Deno.execPath()): string {
  const allowed = Deno.permissions.querySync({ name: "run", command: execPath }).state ===
    "granted";
  return allowed ? execPath : isDenoCli(execPath) ? "deno" : "sextant";
}

/** Options of {@linkcode findExecutable}. */
export interface ExecutableSearch {
  /** The project: its `node_modules/.bin` is searched, and relative commands resolve from it. */
  projectRoot?: string;
  /** Search `SEXTANT_LSP_PATH` and Sextant's own tool cache too (default true). */
  useToolCache?: boolean;
  /**
   * Search `SEXTANT_LSP_PATH` before the project's `node_modules/.bin`, and not the tool cache:
   * the order of language servers, so that a pinned server set by the user wins (default false,
   * the order of toolchains, where the project's own tsc or vitest wins).
   */
  serverOrder?: boolean;
}

/** The folders of PATH. */
export function pathFolders(): string[] {
  return (Deno.env.get("PATH") ?? "").split(delimiter).filter(Boolean);
}

/** Sextant's own tool cache (`<checkout>/.cache/lsp/node_modules/.bin`), when run from files. */
function toolCache(): string | null {
  const url = ownUrl(".cache/lsp/node_modules/.bin");
  return url.protocol === "file:" ? fileURLToPath(url) : null;
}

/** The folders {@linkcode findExecutable} searches, in order. */
export function searchFolders(options: ExecutableSearch = {}): string[] {
  const project = options.projectRoot ? [join(options.projectRoot, "node_modules", ".bin")] : [];
  if (options.serverOrder) return [...lspPathFolders(), ...project, ...pathFolders()];
  const cache = toolCache();
  const tools = options.useToolCache ?? true
    ? [...lspPathFolders(), ...(cache ? [cache] : [])]
    : [];
  return [...project, ...tools, ...pathFolders()];
}

/** Whether `path` is a file this user may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return false;
    return Deno.build.os === "windows" || info.mode === null || (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The absolute path of program `name`, or null when it is not installed. A name with a path
 * separator is resolved from the project root (or the working directory) and only checked.
 *
 * @example
 * ```ts
 * findExecutable("tsc", { projectRoot: "/app" }); // "/app/node_modules/.bin/tsc" if present
 * ```
 */
export function findExecutable(name: string, options: ExecutableSearch = {}): string | null {
  if (isAbsolute(name) || name.includes("/") || name.includes("\\")) {
    const abs = resolve(options.projectRoot ?? ".", name);
    return isExecutableFile(abs) ? abs : null;
  }
  const suffixes = Deno.build.os === "windows" ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const dir of searchFolders(options)) {
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/** Whether this process may run the program at `path` (Deno's run permission). */
export function runGranted(path: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command: path }).state === "granted";
  } catch {
    return false;
  }
}

/** `sh` replaces itself with the program named after the script; arguments are never parsed. */
const EXEC_SCRIPT = 'exec "$0" "$@"';

/**
 * The command line that starts `program` through `sh`, when the permission set allows `sh` but
 * not the program itself (its allow list names programs on PATH, never a project's own files);
 * null on Windows or when `sh` may not run either. `sh` execs the program: its process is the
 * program's, with nothing in between.
 */
export function throughSh(program: string): string[] | null {
  if (Deno.build.os === "windows") return null;
  const sh = findExecutable("sh", { useToolCache: false });
  return sh && runGranted(sh) ? [sh, "-c", EXEC_SCRIPT, program] : null;
}

/**
 * How to run `path` with `args`: as it is, or, when it is the project's own
 * `node_modules/.bin/<name>` and the permission set does not let us run it (its allow list names
 * programs on PATH), through `npm exec --no -- <name>`, which the list allows and which runs the
 * project's own binary (`--no`: never download anything).
 *
 * @example
 * ```ts
 * projectProgram("/app/node_modules/.bin/tsc", ["--noEmit"], "/app");
 * // ["/app/node_modules/.bin/tsc", "--noEmit"], or ["/usr/bin/npm", "exec", "--no", "--", "tsc", "--noEmit"]
 * ```
 */
export function projectProgram(path: string, args: readonly string[], root: string): string[] {
  const bin = join(root, "node_modules", ".bin");
  const inProject = path.startsWith(bin + "/") || path.startsWith(bin + "\\");
  if (!inProject || runGranted(path)) return [path, ...args];
  const npm = findExecutable(Deno.build.os === "windows" ? "npm.cmd" : "npm", {
    useToolCache: false,
  });
  if (npm === null || !runGranted(npm)) return [path, ...args];
  const name = path.slice(bin.length + 1).replace(/\.(cmd|exe|bat)$/i, "");
  return [npm, "exec", "--no", "--", name, ...args];
}
