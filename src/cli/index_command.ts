/**
 * `sextant index build`: builds the project's SCIP index and its manifest
 * (symbols/scip/build.ts), printing each indexer's step and a summary. Exit code 0 when at least
 * one indexer produced documents, 1 otherwise.
 * @module
 */
import { resolve } from "node:path";
import type { CliOptions } from "../config/cli_options.ts";
import { buildIndex, describeBuild } from "../symbols/scip/build.ts";
import { callerPath, currentPlace } from "../project/caller_folder.ts";

export async function indexCommand(options: CliOptions): Promise<number> {
  const root = resolve(callerPath(currentPlace(), options.project));
  try {
    const result = await buildIndex(root, {
      ...(options.output ? { output: resolve(root, options.output) } : {}),
      onStep: (message) => console.error(message),
    });
    console.log(describeBuild(root, result));
    return result.runs.some((r) => !r.ok) ? 1 : 0;
  } catch (error) {
    console.error(`sextant index build: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
}
