/**
 * The folder a user ran Sextant from, which is the project when none is named: the working
 * folder; but `deno task --config <checkout>/deno.json start` (or `setup`, `doctor`) runs in
 * Sextant's own checkout, and `deno task` passes the folder it was run from as `INIT_CWD`.
 * Serving, setup and doctor ask this one place, so that a project-scope `.mcp.json` lands in the
 * project that is served, not in Sextant's checkout.
 * @module
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ownUrl } from "../own_files.ts";

/** Where a command was started: its folder, and the folder `deno task` was run from. */
export interface FrontPlace {
  cwd: string;
  /** `INIT_CWD`, set by `deno task` (which runs in Sextant's own folder). */
  initCwd?: string | undefined;
}

/** This process's place. */
export function currentPlace(): FrontPlace {
  return { cwd: Deno.cwd(), initCwd: Deno.env.get("INIT_CWD") };
}

/**
 * The folder the command was started in; but when that is Sextant's own checkout (`deno task`),
 * the folder the user ran it from (INIT_CWD).
 */
export function callerFolder(place: FrontPlace): string {
  const { cwd, initCwd } = place;
  const root = ownUrl("./");
  if (!initCwd || root.protocol !== "file:") return cwd;
  try {
    const ownFolder = Deno.realPathSync(fileURLToPath(root));
    return Deno.realPathSync(cwd) === ownFolder ? initCwd : cwd;
  } catch {
    return cwd;
  }
}

/** A folder named on the command line, relative to the caller's folder; else that folder. */
export function callerPath(place: FrontPlace, given?: string): string {
  const folder = callerFolder(place);
  return given === undefined ? folder : resolve(folder, given);
}
