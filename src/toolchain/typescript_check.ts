/**
 * What check_project checks in a TypeScript or Node project: what the project's own build
 * checks.
 *
 * - A type-check script the project declares in `package.json` (see
 *   {@linkcode CHECK_SCRIPTS}) runs through `npm run`, as test_project runs its `test` script.
 * - Else tsc checks each config of the project's build: `tsconfig.json` when it has inputs of its
 *   own, and every config it references (`references`, recursively, each once). A solution-style
 *   `tsconfig.json` (`"files": []` with `references`, as hono's) has none, and `tsc -p` on it
 *   alone checks nothing. Each config is checked with `tsc -p <config> --noEmit` rather than
 *   `tsc -b`, which writes outputs and `.tsbuildinfo` files into the project; and each check
 *   keeps its build info in a temporary folder (`--incremental --tsBuildInfoFile`), as a
 *   `composite` or `incremental` config would write its `.tsbuildinfo` even with `--noEmit`.
 *
 * `--listFiles` tells how many of the project's files each check read.
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { jsonc } from "../deps.ts";
import { findExecutable, projectProgram } from "../executables.ts";
import { type CheckPlan, PLAIN_ENV, type SkippedPlan } from "./check_plan.ts";
import { parseTsc } from "./parsers/tsc.ts";
import { toProjectPath } from "./reported_paths.ts";
import type { RunResult } from "./run.ts";
import type { ToolchainId } from "./types.ts";

/**
 * The `package.json` scripts taken as the project's own type check, in this order: the first one
 * the project declares runs (`npm run <name>`) in place of Sextant's tsc runs.
 */
export const CHECK_SCRIPTS: readonly string[] = [
  "typecheck",
  "type-check",
  "check-types",
  "check:types",
  "types:check",
  "lint:types",
  "tsc",
];

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Deno.readTextFileSync(path)) as unknown;
    return value && typeof value === "object" ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/** The first of {@linkcode CHECK_SCRIPTS} that `package.json` declares, with its command. */
export function declaredCheckScript(root: string): { name: string; command: string } | null {
  const scripts = readJson(join(root, "package.json"))?.scripts;
  if (!scripts || typeof scripts !== "object") return null;
  for (const name of CHECK_SCRIPTS) {
    const command = (scripts as Record<string, unknown>)[name];
    if (typeof command === "string" && command.trim()) return { name, command };
  }
  return null;
}

const both = (result: RunResult) => `${result.stdout}\n${result.stderr}`;

/** A line of `--listFiles`: an absolute path to a file tsc read. */
const LISTED_FILE = /^(?:\/|[A-Za-z]:[\\/]).*\.(?:[cm]?[jt]sx?|json)$/;

/** How many of the files tsc listed belong to the project (not its node_modules, not tsc's libs). */
function projectFiles(stdout: string, root: string): number {
  let count = 0;
  for (const line of stdout.split("\n")) {
    const path = line.trim();
    if (!LISTED_FILE.test(path)) continue;
    const rel = toProjectPath(root, path);
    if (
      !rel.startsWith("/") && !/^[A-Za-z]:/.test(rel) && !rel.split("/").includes("node_modules")
    ) {
      count++;
    }
  }
  return count;
}

/** A config file's own JSONC text, parsed; null when it cannot be read. */
function readConfig(path: string): Record<string, unknown> | null {
  try {
    const value = jsonc.parse(Deno.readTextFileSync(path), [], { allowTrailingComma: true });
    return value && typeof value === "object" ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/** The config file a reference names: a folder's `tsconfig.json`, or the file itself. */
function referencedConfig(from: string, path: string): string {
  const target = resolve(dirname(from), path);
  try {
    if (Deno.statSync(target).isDirectory) return join(target, "tsconfig.json");
  } catch {
    // A missing reference: tsc reports it when it checks it.
  }
  return target;
}

/**
 * Whether a config has inputs of its own. Only `"files": []` without `include` says it has none:
 * tsc's default `include` is every file, and a base config (`extends`) may give it some. tsc
 * decides the rest (its `--listFiles` counts them; a config with none is reported by tsc).
 */
function hasOwnInputs(config: Record<string, unknown>): boolean {
  const files = config.files;
  const empty = Array.isArray(files) && files.length === 0;
  return !(empty && config.include === undefined && config.extends === undefined);
}

/**
 * The configs of the project's build, from `tsconfig` (absolute): itself when it has inputs of
 * its own (or cannot be read, so that tsc's error about it is reported), then the configs it
 * references, depth first, each once. References are read from each file itself: `extends` does
 * not pass them on.
 */
function configsToCheck(tsconfig: string): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const config = readConfig(path);
    if (!config || hasOwnInputs(config)) found.push(path);
    const references = Array.isArray(config?.references) ? config.references : [];
    for (const reference of references as Array<{ path?: unknown }>) {
      if (typeof reference?.path === "string") visit(referencedConfig(path, reference.path));
    }
  };
  visit(tsconfig);
  return found;
}

/** The check of a declared `package.json` script, through `npm run`. */
function scriptPlan(
  toolchain: ToolchainId,
  npm: string,
  script: { name: string; command: string },
  root: string,
): CheckPlan {
  return {
    toolchain,
    argv: [npm, "run", script.name],
    env: { ...PLAIN_ENV },
    note: `The project's own check: the "${script.name}" script of package.json ` +
      `(${script.command}).`,
    parse: (result) => parseTsc(both(result), root),
  };
}

/**
 * The checks of a TypeScript (`tsconfig.json`) or Node (`package.json`) project: its declared
 * check script, else tsc on each config of its build. A Node project without a check script has
 * nothing to check; a TypeScript project whose configs have no inputs neither: both are skipped
 * with the reason.
 */
export function planTypeScriptChecks(
  root: string,
  toolchain: { id: ToolchainId; marker: string },
): Array<CheckPlan | SkippedPlan> {
  const script = declaredCheckScript(root);
  const npm = script ? findExecutable("npm", { useToolCache: false }) : null;
  if (script && npm) return [scriptPlan(toolchain.id, npm, script, root)];
  const npmMissing = script
    ? `package.json's "${script.name}" script could not run (npm was not found); `
    : "";
  if (toolchain.id !== "typescript") {
    return [{
      toolchain: toolchain.id,
      skipped: npmMissing ||
        `plain JavaScript has no type checker here: add a tsconfig.json to use tsc, or a ` +
          `package.json script named ${CHECK_SCRIPTS.slice(0, 3).join(", ")}, ... to run yours.`,
    }];
  }
  const tsc = findExecutable("tsc", { projectRoot: root });
  if (!tsc) {
    return [{
      toolchain: "typescript",
      skipped: `${npmMissing}tsc was not found (run npm install, or npm i -g typescript).`,
    }];
  }
  const configs = configsToCheck(join(root, toolchain.marker));
  if (configs.length === 0) {
    return [{
      toolchain: "typescript",
      skipped: `nothing to check: ${toolchain.marker} has no input files of its own ` +
        `(e.g. "files": []) and references no config that has.`,
    }];
  }
  // tsc -b would write outputs and .tsbuildinfo files into the project. Each config is checked
  // with -p instead, and builds incrementally into a temporary folder: a composite or incremental
  // config would otherwise write its .tsbuildinfo beside its outputs, even with --noEmit.
  const buildInfo = Deno.makeTempDirSync({ prefix: "sextant-tsc-" });
  let removed = false;
  const cleanup = () => {
    if (removed) return;
    removed = true;
    try {
      Deno.removeSync(buildInfo, { recursive: true });
    } catch {
      // Already gone.
    }
  };
  return configs.map((config, i): CheckPlan => {
    const shown = toProjectPath(root, config);
    const info = join(buildInfo, `${i}.tsbuildinfo`);
    const own = ["--listFiles", "--incremental", "--tsBuildInfoFile", info];
    const argv = projectProgram(tsc, ["--noEmit", "--pretty", "false", "-p", shown, ...own], root);
    const plan: CheckPlan = {
      toolchain: "typescript",
      argv,
      // The command as the user would type it: without what only Sextant needs.
      display: argv.filter((a) => !own.includes(a)).map((a, k) => (k === 0 ? basename(a) : a)),
      env: { ...PLAIN_ENV },
      config: shown,
      parse: (result) => parseTsc(result.stdout, root),
      checkedFiles: (result) => projectFiles(result.stdout, root),
      explain: (result) =>
        /error TS6305:/.test(result.stdout)
          ? `TS6305: ${shown} imports from a project it references, which has not been built: ` +
            "tsc -p reads a referenced project's outputs (.d.ts), not its sources. Build it " +
            "(tsc -b, which writes its outputs), then check again."
          : undefined,
      keepInTail: (line) => !LISTED_FILE.test(line.trim()),
      cleanup,
    };
    if (i === 0 && npmMissing) plan.note = `${npmMissing}tsc checked each config instead.`;
    return plan;
  });
}
