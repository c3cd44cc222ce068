/**
 * Folders inside a project that are not the project's own code: virtual environments, installed
 * packages, caches, build output and vendored dependencies. They stay out of every walk of the
 * tree (the declaration index, the candidate files of references and renames, search, language
 * detection), so `find_symbol Command` in a Flask checkout with a `.venv` answers Flask's classes,
 * not pip's. Unlike ignored paths they are not refused: a tool given a path inside one still reads
 * it, and a walk that starts inside one walks it (the user asked for that folder on purpose).
 * The config's `included_paths` keeps a folder that looks like one of these.
 *
 * What counts (docs/configuration.md "What is not the project" says the same to users):
 * - by name, anywhere: folders no tool ever writes source into (`__pycache__`, `site-packages`,
 *   `.venv`, tool caches, framework build folders such as `.next`);
 * - by content: a Python environment (`pyvenv.cfg`, conda's `conda-meta`), a cache folder tagged
 *   by the Cache Directory Tagging convention (`CACHEDIR.TAG`, which cargo writes into `target`);
 * - by the manifest beside it: `target` beside `Cargo.toml` or `pom.xml`, `build` beside a Gradle
 *   build file, `vendor` beside `go.mod` (with `modules.txt`) or `composer.json` (with
 *   `autoload.php`), and `dist`, `build` or `out` when `package.json`'s entry points or
 *   `tsconfig.json`'s `outDir` name it and its sources are beside it (a `tsconfig.json` or a
 *   `src` folder: a package as npm publishes it is its output). A bare `build` or `dist` is kept: many projects keep build
 *   scripts there. `third_party` is kept: projects build and patch the code they put there.
 * @module
 */
import { join } from "node:path";
import { type Ignore, ignore, jsonc } from "../deps_start.ts";

/** Folder names that only ever hold environments, installed packages, caches or build output. */
export const NON_PROJECT_NAMES: ReadonlySet<string> = new Set([
  "__pycache__",
  "site-packages",
  "dist-packages",
  ".venv",
  ".tox",
  ".nox",
  ".eggs",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  ".angular",
  ".gradle",
  ".dart_tool",
]);

/** Names `package.json` or `tsconfig.json` may name as where the build writes. */
const OUTPUT_NAMES: ReadonlySet<string> = new Set(["dist", "build", "out"]);

/** Files whose presence makes the folder holding them one that is not the project's. */
const INSIDE_MARKERS: ReadonlySet<string> = new Set([
  "pyvenv.cfg",
  "conda-meta",
  "CACHEDIR.TAG",
  "modules.txt",
  "autoload.php",
]);
/** Manifests that decide which of their sibling folders hold output, and those folders. */
const SIBLING_MARKERS: Readonly<Record<string, readonly string[]>> = {
  "Cargo.toml": ["target"],
  "pom.xml": ["target"],
  "build.gradle": ["build"],
  "build.gradle.kts": ["build"],
  "go.mod": ["vendor"],
  "composer.json": ["vendor"],
  "package.json": [...OUTPUT_NAMES],
  "tsconfig.json": [...OUTPUT_NAMES],
};

/**
 * The folders whose verdict a change of `relPath` may turn (when it is a marker file): the
 * folder holding it, or the output folders beside a manifest. Empty for any other file.
 */
export function markedFolders(relPath: string): string[] {
  const slash = relPath.lastIndexOf("/");
  const dir = slash === -1 ? "" : relPath.slice(0, slash);
  const name = relPath.slice(slash + 1);
  if (INSIDE_MARKERS.has(name)) return dir === "" ? [] : [dir];
  return (SIBLING_MARKERS[name] ?? []).map((folder) => dir === "" ? folder : `${dir}/${folder}`);
}

/** Answers whether a name exists in a folder (from a listing in hand, or from the disk). */
export type Has = (name: string) => boolean;

/**
 * Whether a package's output folder is built from sources beside it: its `tsconfig.json` or a
 * `src` folder. A published package (hono or zod from npm) ships only its output: there the
 * output is all the code there is, and setting it aside would leave nothing to answer from.
 */
function builtHere(inPackage: Has): boolean {
  return inPackage("tsconfig.json") || inPackage("src");
}

/** Options of {@linkcode NonProjectFolders}. */
export interface NonProjectOptions {
  /** Gitignore-syntax patterns (relative to the root) of folders that are the project after all. */
  includedPaths?: readonly string[];
}

/** See the module documentation. */
export class NonProjectFolders {
  readonly #root: string;
  readonly #included: Ignore | null;
  /** Reason per project-relative folder ("" when it is the project's), decided once. */
  readonly #reasons = new Map<string, string>();
  /** Output folder names per folder holding a `package.json` or `tsconfig.json`. */
  readonly #outputs = new Map<string, ReadonlySet<string>>();

  constructor(root: string, options: NonProjectOptions = {}) {
    this.#root = root;
    const included = options.includedPaths ?? [];
    this.#included = included.length > 0 ? ignore().add([...included]) : null;
  }

  /** Forget every decision (after files changed). */
  reset(): void {
    this.#reasons.clear();
    this.#outputs.clear();
  }

  /**
   * Why the folder `relDir` is not the project's code, or null when it is. `inParent` and
   * `inside` tell which names its parent folder and the folder itself hold; a walk passes its
   * listings, so deciding costs it no file-system call.
   */
  reasonWith(relDir: string, inParent: Has, inside: Has): string | null {
    let reason = this.#reasons.get(relDir);
    if (reason === undefined) {
      reason = this.#decide(relDir, inParent, inside) ?? "";
      this.#reasons.set(relDir, reason);
    }
    return reason === "" ? null : reason;
  }

  /** {@linkcode reasonWith} asking the disk (for one path, e.g. from the watcher). */
  reason(relDir: string): string | null {
    const slash = relDir.lastIndexOf("/");
    const parent = slash === -1 ? "" : relDir.slice(0, slash);
    return this.reasonWith(relDir, this.#exists(parent), this.#exists(relDir));
  }

  /** The reason of the first folder on `relPath`'s way from the root that is not the project's. */
  reasonDeep(relPath: string, isDir: boolean): string | null {
    const parts = relPath.split("/");
    const folders = isDir ? parts.length : parts.length - 1;
    for (let i = 1; i <= folders; i++) {
      const reason = this.reason(parts.slice(0, i).join("/"));
      if (reason !== null) return `'${parts.slice(0, i).join("/")}' is ${reason}`;
    }
    return null;
  }

  #exists(relDir: string): Has {
    return (name) => {
      try {
        Deno.statSync(join(this.#root, relDir, name));
        return true;
      } catch {
        return false;
      }
    };
  }

  #decide(relDir: string, inParent: Has, inside: Has): string | null {
    if (relDir === "" || relDir === ".") return null;
    if (this.#included?.ignores(`${relDir}/`)) return null;
    const name = relDir.slice(relDir.lastIndexOf("/") + 1);
    if (NON_PROJECT_NAMES.has(name)) return `a '${name}' folder (environments, packages, caches)`;
    if (inside("pyvenv.cfg")) return "a Python virtual environment (pyvenv.cfg)";
    if (inside("conda-meta")) return "a conda environment";
    if (inside("CACHEDIR.TAG")) return "a cache folder (CACHEDIR.TAG)";
    if (name === "target" && (inParent("Cargo.toml") || inParent("pom.xml"))) {
      return "build output (beside Cargo.toml or pom.xml)";
    }
    if (name === "build" && (inParent("build.gradle") || inParent("build.gradle.kts"))) {
      return "Gradle's build output";
    }
    if (
      name === "vendor" &&
      ((inParent("go.mod") && inside("modules.txt")) ||
        (inParent("composer.json") && inside("autoload.php")))
    ) {
      return "vendored dependencies";
    }
    if (
      OUTPUT_NAMES.has(name) && (inParent("package.json") || inParent("tsconfig.json")) &&
      builtHere(inParent) &&
      this.#outputsOf(relDir.slice(0, Math.max(0, relDir.lastIndexOf("/")))).has(name)
    ) {
      return "build output (named by package.json or tsconfig.json)";
    }
    return null;
  }

  /** The output folder names `package.json` entry points and `tsconfig.json`'s `outDir` name. */
  #outputsOf(parent: string): ReadonlySet<string> {
    let names = this.#outputs.get(parent);
    if (names) return names;
    const found = new Set<string>();
    const note = (path: unknown) => {
      if (typeof path !== "string") return;
      const first = path.replace(/^\.\//, "").split("/")[0]!;
      if (OUTPUT_NAMES.has(first)) found.add(first);
    };
    const visit = (value: unknown): void => {
      if (typeof value === "string") note(value);
      else if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
    };
    const manifest = this.#readJson(parent, "package.json");
    if (manifest) {
      for (const key of ["main", "module", "types", "typings", "bin", "exports"]) {
        visit(manifest[key]);
      }
    }
    const tsconfig = this.#readJson(parent, "tsconfig.json");
    const options = tsconfig?.compilerOptions as Record<string, unknown> | undefined;
    note(options?.outDir);
    names = found;
    this.#outputs.set(parent, names);
    return names;
  }

  #readJson(dir: string, name: string): Record<string, unknown> | null {
    try {
      const value = jsonc.parse(Deno.readTextFileSync(join(this.#root, dir, name)));
      return value !== null && typeof value === "object" ? value as Record<string, unknown> : null;
    } catch {
      return null;
    }
  }
}
