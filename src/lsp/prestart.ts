/**
 * The project's language server, spawned as soon as the project is known, before Sextant has
 * loaded the modules that will talk to it. A cold first question otherwise waits for both, one
 * after the other: Sextant's modules (~150 ms before the first tool can run) and then the
 * server's own start (a Node.js process loading its code: ~130 ms for typescript-language-server,
 * ~220 ms for pyright, before its `initialize` is even read). Spawned ahead, the server loads on
 * the second core while Sextant loads on the first; the client that first needs it takes it
 * (lsp/server_process.ts `takeSpawnedAhead`) and sends `initialize` as it would to a process of
 * its own. One nobody takes is stopped after a while and at shutdown.
 *
 * Only where the choice is certain without reading the settings: one language marked at the
 * project's root (`package.json`, `pyproject.toml`, ...), no settings file that names language
 * servers, and no SCIP index, whose answers need no server at all (symbols/scip/). Anything else
 * spawns nothing here and the server starts on first need as before.
 * @module
 */
import { join, parse } from "node:path";
import { globalConfigPath, projectConfigPath } from "../config/paths.ts";
import { log } from "../log.ts";
import { pathExists } from "../toolchain/reported_paths.ts";
import { callerPath, type FrontPlace } from "../project/caller_folder.ts";
import { markedPrimary, resolveCommand, serverSpecs } from "./registry.ts";
import { spawnAhead } from "./server_process.ts";

export { stopSpawnedAhead } from "./server_process.ts";

/** Where a project's SCIP index is looked for (symbols/scip/project_scip.ts INDEX_LOCATIONS). */
export const SCIP_INDEX_LOCATIONS: readonly string[] = ["index.scip", ".sextant/index.scip"];

function readText(path: string | undefined): string {
  if (path === undefined) return "";
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

function realHome(): string | null {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  try {
    return home ? Deno.realPathSync(home) : null;
  } catch {
    return null;
  }
}

/**
 * The id of the server {@linkcode prestartServer} would spawn for the project at `root` (a real
 * path), or why none: the decision alone, spawning nothing.
 */
export function prestartChoice(root: string): { id: string; path: string; args: string[] } | {
  none: string;
} {
  // Refused as a project (project/project.ts refuseBroadRoot): nothing will take a server there.
  if (root === parse(root).root || root === realHome()) return { none: "not a project folder" };
  const settings = readText(globalConfigPath()) + readText(projectConfigPath(root));
  if (/language_servers|scip_indexes/.test(settings)) return { none: "settings name servers" };
  const index = SCIP_INDEX_LOCATIONS.find((path) => pathExists(join(root, path)));
  if (index) return { none: `a SCIP index (${index})` };
  let names: string[];
  try {
    names = [...Deno.readDirSync(root)].map((entry) => entry.name);
  } catch {
    return { none: "the folder cannot be listed" };
  }
  const marked = markedPrimary(serverSpecs(root), names);
  if (marked.length !== 1) return { none: `${marked.length} languages marked` };
  const spec = marked[0]!;
  const resolved = resolveCommand(spec, root);
  if ("error" in resolved) return { none: `${spec.id}: not installed` };
  return { id: spec.id, path: resolved.path, args: [...resolved.command.args] };
}

/**
 * Spawn the language server the project at `root` (a real path) will ask for first, where
 * {@linkcode prestartChoice} finds one; never throws.
 */
export function prestartServer(root: string): void {
  try {
    const choice = prestartChoice(root);
    if ("none" in choice) {
      log.debug(`no server spawned ahead: ${choice.none}`);
      return;
    }
    log.debug(`${choice.id}: spawning ahead ${choice.path}`);
    spawnAhead(choice.path, choice.args, { cwd: root, label: choice.id });
  } catch (error) {
    log.debug("no server spawned ahead:", error);
  }
}

/**
 * {@linkcode prestartServer} for the project a command line names (`--project`, relative to the
 * caller's folder), before the session that opens it is loaded.
 */
export function prestartNamed(given: string, place: FrontPlace): void {
  let root: string;
  try {
    root = Deno.realPathSync(callerPath(place, given));
  } catch {
    return; // The session reports the missing folder.
  }
  prestartServer(root);
}
