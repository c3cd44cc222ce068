/**
 * Sextant's own files (a worker's module, a child's, the entry point, the checkout's `.cache`),
 * found from the repository's root whatever the running code came from:
 * - the checkout's modules as `deno run` loads them: the folder above this module;
 * - the start bundle (src/cli/start_bundle.ts), a single module under `.cache/`: the root its
 *   loader registers ({@linkcode registerOwnRoot});
 * - a compiled executable, which embeds them at their repository paths under its entry point's
 *   folder (scripts/release/compile.ts).
 * @module
 */

let registeredRoot: string | null = null;

/** The repository's root as a `file:` URL ending in `/` (the start bundle's loader knows it). */
export function registerOwnRoot(rootUrl: string): void {
  registeredRoot = rootUrl.endsWith("/") ? rootUrl : `${rootUrl}/`;
}

/** Whether this process runs from the start bundle (its loader registered the root). */
export function fromStartBundle(): boolean {
  return registeredRoot !== null;
}

/**
 * The URL of one of Sextant's own files, by its path from the repository's root.
 *
 * @example
 * ```ts
 * import { ownUrl } from "./own_files.ts";
 * console.log(ownUrl("main.ts").pathname.endsWith("/main.ts")); // true
 * ```
 */
export function ownUrl(pathFromRoot: string): URL {
  if (registeredRoot !== null) return new URL(pathFromRoot, registeredRoot);
  if (Deno.build.standalone) return new URL(pathFromRoot, Deno.mainModule);
  return new URL(`../${pathFromRoot}`, import.meta.url);
}
