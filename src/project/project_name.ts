/**
 * The name a project folder goes by, wherever it is opened (`--project` at start, the client's
 * root, activate_project, manage_projects): the name it is registered under in the global config,
 * else the `project_name` of its Serena project file (`.serena/project.yml`) when no other
 * registered project has that name, else its folder name made unique among the registered ones.
 * @module
 */
import { basename } from "node:path";
import type { RegisteredProject } from "../config/schema.ts";
import { readSerenaProject } from "./serena_project.ts";

/** The registered project whose folder is the real folder `realRoot`, if any. */
export function registeredAt(
  registered: readonly RegisteredProject[],
  realRoot: string,
): RegisteredProject | undefined {
  return registered.find((p) => {
    try {
      return Deno.realPathSync(p.path) === realRoot;
    } catch {
      return false;
    }
  });
}

/** `base`, or `base-2`, `base-3`, ... : the first that no name in `taken` has. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** What {@linkcode projectNameFor} found. */
export interface ProjectName {
  name: string;
  /** The folder is registered under that name already. */
  registered: boolean;
}

/**
 * The name of the project in the real folder `realRoot` (see the module documentation).
 *
 * @example
 * ```ts
 * import { projectNameFor } from "./project_name.ts";
 * const root = Deno.makeTempDirSync();
 * console.log(projectNameFor(root, []).registered); // false
 * ```
 */
export function projectNameFor(
  realRoot: string,
  registered: readonly RegisteredProject[],
): ProjectName {
  const entry = registeredAt(registered, realRoot);
  if (entry) return { name: entry.name, registered: true };
  const taken = new Set(registered.map((p) => p.name));
  const serenaName = readSerenaProject(realRoot).projectName;
  if (serenaName && !taken.has(serenaName)) return { name: serenaName, registered: false };
  return { name: uniqueName(basename(realRoot) || "project", taken), registered: false };
}
