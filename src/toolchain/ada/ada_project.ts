/**
 * An Ada project as a whole: its GPR files (which one to build), its Alire manifest, and the
 * naming scheme and source folders that tell where units live.
 * @module
 */
import { basename, join } from "node:path";
import { parseToml } from "../../deps.ts";
import { listDir } from "../detect.ts";
import { type GprProject, parseGpr } from "./gpr.ts";
import { DEFAULT_NAMING } from "./units.ts";
import type { GprNaming } from "./gpr.ts";

/** A GPR file of the project with what it says. */
export interface GprFile {
  /** Relative to the project root. */
  path: string;
  project: GprProject;
}

/** What an Alire manifest (alire.toml) says, in the shape of the Ada MCP plan's alire_info. */
export interface AlireInfo {
  isAlireProject: boolean;
  crateName: string | null;
  version: string | null;
  description: string | null;
  authors: string[];
  licenses: string | null;
  dependencies: Array<{ name: string; version: string }>;
  /** The build profile of this crate (`[build-profiles]`, default "development"). */
  buildProfile: string;
  /** A toolchain pinned by a `gnat*` dependency, e.g. "gnat_native=^14". */
  toolchain: string | null;
  executables: string[];
  projectFiles: string[];
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** The .gpr files in the project root, parsed (unreadable ones are left out). */
export function readGprFiles(root: string): GprFile[] {
  const files: GprFile[] = [];
  for (const name of listDir(root)) {
    if (!name.toLowerCase().endsWith(".gpr")) continue;
    const text = readText(join(root, name));
    if (text === null) continue;
    try {
      files.push({ path: name, project: parseGpr(text) });
    } catch {
      // A file we cannot read is not worth failing over; gprbuild will say what is wrong.
    }
  }
  return files;
}

/**
 * Read `alire.toml` in `root`. Returns null when there is none; throws on invalid TOML.
 *
 * @example
 * ```ts
 * const info = readAlire("/path/to/crate"); // { crateName: "hello", version: "0.1.0", ... }
 * ```
 */
export function readAlire(root: string): AlireInfo | null {
  const text = readText(join(root, "alire.toml"));
  if (text === null) return null;
  const toml = parseToml(text) as Record<string, unknown>;
  const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  const dependencies: AlireInfo["dependencies"] = [];
  const dependsOn = toml["depends-on"];
  for (const table of Array.isArray(dependsOn) ? dependsOn : dependsOn ? [dependsOn] : []) {
    if (!table || typeof table !== "object") continue;
    for (const [name, version] of Object.entries(table as Record<string, unknown>)) {
      dependencies.push({
        name,
        version: typeof version === "string" ? version : JSON.stringify(version),
      });
    }
  }
  const crateName = str(toml.name);
  const profiles = (toml["build-profiles"] ?? {}) as Record<string, unknown>;
  const buildProfile = str(crateName ? profiles[crateName] : undefined) ?? str(profiles["*"]) ??
    "development";
  const gnat = dependencies.find((d) => /^gnat(_|$)/.test(d.name));
  return {
    isAlireProject: true,
    crateName,
    version: str(toml.version),
    description: str(toml.description),
    authors: strings(toml.authors),
    licenses: str(toml.licenses),
    dependencies,
    buildProfile,
    toolchain: gnat ? `${gnat.name}=${gnat.version}` : null,
    executables: strings(toml.executables),
    projectFiles: strings(toml["project-files"]),
  };
}

/** The project file to build, and why it was chosen. */
export interface GprChoice {
  file: GprFile;
  /** Other candidates, when there were several. */
  others: string[];
}

/**
 * The GPR file to build: the first of alire.toml's `project-files`, else the only concrete
 * (non-abstract) one, else the one named like the crate or the folder, else one with mains.
 */
export function chooseGpr(root: string, files: GprFile[] = readGprFiles(root)): GprChoice | null {
  const concrete = files.filter((f) => f.project.qualifier !== "abstract");
  if (concrete.length === 0) return null;
  const others = (chosen: GprFile) => concrete.filter((f) => f !== chosen).map((f) => f.path);
  let alire: AlireInfo | null = null;
  try {
    alire = readAlire(root);
  } catch {
    alire = null;
  }
  const listed = alire?.projectFiles[0];
  const byName = (name: string | null | undefined) =>
    name
      ? concrete.find((f) => basename(f.path, ".gpr").toLowerCase() === name.toLowerCase())
      : undefined;
  const chosen = concrete.find((f) => f.path === listed) ??
    (concrete.length === 1 ? concrete[0] : undefined) ??
    byName(alire?.crateName) ?? byName(basename(root)) ??
    concrete.find((f) => f.project.mains.length > 0) ?? concrete[0]!;
  return { file: chosen!, others: others(chosen!) };
}

/** The naming scheme of the chosen project (GNAT's default without one). */
export function projectNaming(root: string): GprNaming {
  return chooseGpr(root)?.file.project.naming ?? DEFAULT_NAMING;
}
