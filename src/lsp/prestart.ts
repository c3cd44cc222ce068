/**
 * The project's language server, started as soon as the project is known, before Sextant has
 * loaded the modules that will talk to it. A cold first question otherwise waits for both, one
 * after the other: Sextant's modules (~150 ms before the first tool can run) and then the
 * server's own start (a Node.js process loading its code: ~130 ms for typescript-language-server,
 * ~220 ms for pyright, before its `initialize` is even read) and its handshake, in which it reads
 * the project's configuration (TypeScript 7 asks for its settings and sets up its project,
 * ~100-150 ms on hono; pyright finds the Python environment). Started ahead, the server does all
 * that on the second core while Sextant loads on the first; the client that first needs it takes
 * it (lsp/client.ts `startAhead`) where its options are exactly those it would have started it
 * with. One nobody takes is stopped after a while and at shutdown.
 *
 * Only where the choice is certain without reading the settings: one language marked at the
 * project's root (`package.json`, `pyproject.toml`, ...), no settings file that names language
 * servers, and no SCIP index, whose answers need no server at all (symbols/scip/). Anything else
 * spawns nothing here and the server starts on first need as before.
 * @module
 */
import { basename, join, parse } from "node:path";
import { globalConfigPath, projectConfigPath } from "../config/paths.ts";
import { log } from "../log.ts";
import { pathExists } from "../toolchain/reported_paths.ts";
import { callerPath, type FrontPlace } from "../project/caller_folder.ts";
import { clientOptionsOf, markedPrimary, resolveCommand, serverSpecs } from "./registry.ts";
import { type ClientOptions, startAhead } from "./client.ts";

export { stopStartedAhead } from "./client.ts";

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
export function prestartChoice(root: string): {
  id: string;
  path: string;
  args: string[];
  options: ClientOptions;
} | {
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
  return {
    id: spec.id,
    path: resolved.path,
    args: [...resolved.command.args],
    options: clientOptionsOf(spec, resolved, root, basename(root)),
  };
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
    log.debug(`${choice.id}: starting ahead ${choice.path}`);
    startAhead(choice.options);
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
