/**
 * Imports that stay out of the importer's module graph. `deno run` loads every dynamic import
 * whose specifier is a string literal (reading and parsing its whole graph, and resolving its npm
 * packages, without a lockfile from their registry data) as soon as the importing module loads,
 * even one that never runs: a literal `import("./serve.ts")` in main.ts made the front, which
 * only relays, hold the module graph of all of Sextant (a front started with `--no-config`, as
 * client configs start it, peaked at 52 MB before doing anything, 35 MB without it). A
 * specifier computed at run time is loaded only when it is imported.
 *
 * A bundle (`deno compile --bundle`, `deno bundle`) cannot follow such imports, so its entry
 * point, main_bundle.ts, imports each of {@linkcode LAZY_MODULES} literally and registers the
 * loaders here; {@linkcode lazyImport} uses them when they are there.
 * @module
 */

/** The modules imported through {@linkcode lazyImport}, from the repository's root. */
export const LAZY_MODULES = [
  "src/cli/dashboard_command.ts",
  "src/cli/doctor.ts",
  "src/cli/hook.ts",
  "src/cli/index_command.ts",
  "src/cli/relay.ts",
  "src/cli/serve.ts",
  "src/cli/service_command.ts",
  "src/cli/service_start.ts",
  "src/cli/setup.ts",
  "src/lsp/prestart.ts",
  "src/mcp/stdio.ts",
  "src/repl/child.ts",
  "src/service/http.ts",
  "src/service/sessions.ts",
  "src/tools/shared/regex_child.ts",
] as const;

/** One of {@linkcode LAZY_MODULES}. */
export type LazyModule = typeof LAZY_MODULES[number];

/** A loader per lazy module: a literal `import()` of it. */
export type LazyLoaders = Readonly<Record<LazyModule, () => Promise<unknown>>>;

let registered: LazyLoaders | null = null;

/** Use these loaders from now on (a bundle's entry point, where paths lead nowhere). */
export function registerLazyModules(loaders: LazyLoaders): void {
  registered = loaders;
}

/** Whether a bundle's entry point registered its loaders (it then runs main itself). */
export function bundled(): boolean {
  return registered !== null;
}

/**
 * Import one of {@linkcode LAZY_MODULES} by its path from the repository's root; type it with
 * `typeof import(...)`, which Deno does not load.
 *
 * @example
 * ```ts ignore
 * const { serve } = await lazyImport<typeof import("./serve.ts")>("src/cli/serve.ts");
 * ```
 */
export function lazyImport<T>(path: LazyModule): Promise<T> {
  const load = registered?.[path];
  if (load) return load() as Promise<T>;
  return import(new URL(`../../${path}`, import.meta.url).href);
}
