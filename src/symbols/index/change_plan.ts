/**
 * What taking in changed paths takes, for the declaration index (declaration_index.ts) to keep
 * current: a path gone is forgotten with everything below it, a folder walked again (files gone
 * from it forgotten), a path the project now leaves out forgotten, a file the index does not parse
 * listed as such, and a source file becomes a parse job. The tables are brought up to date but
 * for the jobs, which the caller sends to the workers.
 * @module
 */
import type { Project } from "../../project/project.ts";
import type { DeclarationTables } from "./declaration_tables.ts";
import { grammarFor } from "./grammars.ts";
import type { ParseJob } from "./worker_messages.ts";

/** The jobs left to run, and whether the store on disk is out of date already. */
export interface ChangePlan {
  jobs: ParseJob[];
  changed: boolean;
}

/**
 * A plan being made: one job a path, and a path reported on its own keeps its job (hashed even
 * when size and time look the same) over the one its folder's walk planned.
 */
interface Planning {
  jobs: Map<string, ParseJob>;
  changed: boolean;
}

/** Walk `folder` ("." for the whole tree) again: files gone are dropped, the others planned. */
export async function planFolder(
  project: Project,
  tables: DeclarationTables,
  folder: string,
): Promise<ChangePlan> {
  const plan: Planning = { jobs: new Map(), changed: false };
  await addFolder(project, tables, folder, plan);
  return { jobs: [...plan.jobs.values()], changed: plan.changed };
}

/** Plan the paths reported changed (files or folders, present or gone). */
export async function planPaths(
  project: Project,
  tables: DeclarationTables,
  paths: readonly string[],
): Promise<ChangePlan> {
  const plan: Planning = { jobs: new Map(), changed: false };
  for (const rel of paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(project.absolute(rel));
    } catch {
      if (tables.removeUnder(rel)) plan.changed = true;
      continue;
    }
    if (info.isDirectory) {
      await addFolder(project, tables, rel, plan);
    } else if (project.isLeftOut(rel, false)) {
      if (tables.remove(rel)) plan.changed = true;
    } else if (grammarFor(rel) === null) {
      tables.addOther(rel);
    } else {
      plan.jobs.set(rel, jobFor(project, tables, rel, false));
    }
  }
  return { jobs: [...plan.jobs.values()], changed: plan.changed };
}

async function addFolder(
  project: Project,
  tables: DeclarationTables,
  folder: string,
  plan: Planning,
): Promise<void> {
  const present = new Set<string>();
  const ignored = folder !== "." && project.isLeftOut(folder, true);
  if (!ignored) {
    for await (const entry of project.walk(folder)) {
      if (entry.isDirectory) continue;
      present.add(entry.path);
      if (grammarFor(entry.path) === null) tables.addOther(entry.path);
      else if (!plan.jobs.has(entry.path)) {
        plan.jobs.set(entry.path, jobFor(project, tables, entry.path, true));
      }
    }
  }
  const prefix = folder === "." ? "" : folder + "/";
  for (const f of tables.allFiles()) {
    if ((prefix === "" || f.startsWith(prefix)) && !present.has(f) && tables.remove(f)) {
      plan.changed = true;
    }
  }
}

function jobFor(
  project: Project,
  tables: DeclarationTables,
  relPath: string,
  trustTimes: boolean,
): ParseJob {
  const known = tables.files.get(relPath);
  return {
    relPath,
    absPath: project.absolute(relPath),
    // A path reported as changed is hashed even when size and time look the same.
    known: known && (trustTimes ? known : { ...known, mtime: -1 }),
  };
}
