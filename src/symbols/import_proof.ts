/**
 * What the import-graph proof (import_reach.ts) must know of a project beyond its import lines:
 * where a bare specifier (`react`, `@app/core`, `#internal`) may lead. It may lead into the
 * project through tsconfig `paths` or `baseUrl`, the project's own package names (a package
 * importing itself through its `exports`, a workspace), `#` subpath imports, or a
 * `node_modules` entry linked back into the project; anywhere else it names a library, which
 * cannot import a project file. Also the JSX runtimes `.tsx` files import implicitly.
 *
 * Read from the project's `tsconfig*.json`, `jsconfig*.json` and `package.json` files (and the
 * configs they extend), which are few; what cannot be read makes every bare specifier unsure.
 * @module
 */
import { posix } from "node:path";
import { jsonc } from "../deps.ts";
import { type BareVerdict, folderOf, packageOf } from "./import_reach.ts";

/** How bare specifiers resolve in one project, and what it was read from. */
export interface ProjectResolution {
  bare(importer: string, spec: string): BareVerdict;
  /**
   * Why relative specifiers may lead elsewhere than their path says (`rootDirs`,
   * `moduleSuffixes` in a config): then the proof cannot decide. Null otherwise.
   */
  undecidable: string | null;
  /** `<jsxImportSource>/jsx-runtime` of every config (and React's default). */
  jsxRuntimes: string[];
  /** Where a project folder's (lower case) `package.json` leads an import of the folder. */
  folderEntries(folder: string): readonly string[] | null;
  /** The files read (absolute) with their modification times (0: absent), to tell when to read again. */
  read: ReadonlyMap<string, number>;
}

const CONFIG = /(^|\/)(tsconfig|jsconfig)[^/]*\.json$/i;
/**
 * The top-level names of Node.js's built-in modules (as `require("module").builtinModules` lists
 * them in Node.js 20-22): an import of one never leads into the project. Written out, not read from
 * node:module, which would bring Deno's Node.js layer into every serving process.
 */
const BUILTIN = new Set([
  "_http_agent",
  "_http_client",
  "_http_common",
  "_http_incoming",
  "_http_outgoing",
  "_http_server",
  "_stream_duplex",
  "_stream_passthrough",
  "_stream_readable",
  "_stream_transform",
  "_stream_wrap",
  "_stream_writable",
  "_tls_common",
  "_tls_wrap",
  "assert",
  "async_hooks",
  "buffer",
  "child_process",
  "cluster",
  "console",
  "constants",
  "crypto",
  "dgram",
  "diagnostics_channel",
  "dns",
  "domain",
  "events",
  "fs",
  "http",
  "http2",
  "https",
  "inspector",
  "module",
  "net",
  "os",
  "path",
  "perf_hooks",
  "process",
  "punycode",
  "querystring",
  "readline",
  "repl",
  "stream",
  "string_decoder",
  "sys",
  "timers",
  "tls",
  "trace_events",
  "tty",
  "url",
  "util",
  "v8",
  "vm",
  "wasi",
  "worker_threads",
  "zlib",
]);

interface CompilerOptions {
  paths?: Record<string, unknown>;
  rootDirs?: unknown;
  moduleSuffixes?: unknown;
  baseUrl?: string;
  jsxImportSource?: string;
}

/**
 * The resolution of bare specifiers in the project at `root` whose files (every kind,
 * project-relative) are `files`.
 */
export function projectResolution(root: string, files: readonly string[]): ProjectResolution {
  const read = new Map<string, number>();
  const readText = (abs: string): string | null => {
    try {
      const text = Deno.readTextFileSync(abs);
      read.set(abs, Deno.statSync(abs).mtime?.getTime() ?? 0);
      return text;
    } catch {
      return null;
    }
  };
  /** `paths` patterns (prefix and suffix around `*`), `baseUrl` folders, JSX sources. */
  const patterns: Array<{ prefix: string; suffix: string }> = [];
  const baseFolders = new Set<string>();
  const jsxSources = new Set<string>(["react"]);
  let unsure = false;
  let undecidable: string | null = null;
  const visit = (abs: string, depth: number): void => {
    if (depth > 8) return;
    const text = readText(abs);
    if (text === null) return; // the server cannot read it either
    const errors: jsonc.ParseError[] = [];
    const config = jsonc.parse(text, errors, { allowTrailingComma: true }) as {
      extends?: unknown;
      compilerOptions?: CompilerOptions;
    } | null;
    if (config === null || typeof config !== "object") {
      unsure = true;
      return;
    }
    const options = config.compilerOptions ?? {};
    const dir = posix.dirname(abs);
    for (const option of ["rootDirs", "moduleSuffixes"] as const) {
      if (options[option] !== undefined) {
        undecidable ??= `${posix.relative(root, abs)} sets ${option}`;
      }
    }
    if (options.paths && typeof options.paths === "object") {
      for (const key of Object.keys(options.paths)) {
        const star = key.indexOf("*");
        patterns.push(
          star === -1
            ? { prefix: key, suffix: "\0exact" }
            : { prefix: key.slice(0, star), suffix: key.slice(star + 1) },
        );
      }
    }
    if (typeof options.baseUrl === "string") baseFolders.add(posix.resolve(dir, options.baseUrl));
    if (typeof options.jsxImportSource === "string") jsxSources.add(options.jsxImportSource);
    const parents = Array.isArray(config.extends) ? config.extends : [config.extends];
    for (const parent of parents) {
      if (typeof parent !== "string") continue;
      if (parent.startsWith(".") || parent.startsWith("/")) {
        const path = posix.resolve(dir, parent);
        visit(path.endsWith(".json") ? path : `${path}.json`, depth + 1);
      } else {
        const found = [parent, `${parent}.json`, `${parent}/tsconfig.json`]
          .map((p) => nodeModulesEntry(root, folderOf(posix.relative(root, abs)), p))
          .find((p) => p !== null && isFile(p));
        if (found) visit(found, depth + 1);
      }
    }
  };
  const names = new Set<string>();
  const folderEntries = new Map<string, string[] | null>();
  for (const file of files) {
    if (CONFIG.test(file)) visit(`${root}/${file}`, 0);
    else if (posix.basename(file) === "package.json") {
      const text = readText(`${root}/${file}`);
      const folder = folderOf(file).toLowerCase();
      try {
        const manifest = text === null ? {} : JSON.parse(text) as Record<string, unknown>;
        if (typeof manifest.name === "string") names.add(manifest.name);
        // `typesVersions` maps paths as `paths` does: not followed here.
        folderEntries.set(
          folder,
          manifest.typesVersions !== undefined ? null : ["types", "typings", "main"]
            .map((field) => manifest[field])
            .filter((entry): entry is string => typeof entry === "string"),
        );
      } catch {
        unsure = true;
        folderEntries.set(folder, null);
      }
    }
  }
  // Whether a path below a `baseUrl` folder may be a project file or folder.
  const entries = new Set<string>();
  if (baseFolders.size > 0) {
    for (const file of files) {
      for (let path = `${root}/${file}`; path.length > root.length; path = posix.dirname(path)) {
        entries.add(path.replace(/\.[^./]+$/, "").toLowerCase());
        entries.add(path.toLowerCase());
      }
    }
  }
  // An install changes where packages lead (a workspace linked in): the root's node_modules
  // folder is watched for that, existing or not.
  read.set(`${root}/node_modules`, mtimeOf(`${root}/node_modules`));
  const linked = new Map<string, BareVerdict>();
  const modulesFound = new Map<string, string | null>();
  return {
    read,
    undecidable,
    jsxRuntimes: [...jsxSources].map((s) => `${s}/jsx-runtime`),
    folderEntries: (folder) => folderEntries.get(folder) ?? null,
    bare(importer, spec) {
      if (spec.startsWith("node:")) return "outside";
      if (spec.startsWith("#") || unsure) return "maybe-inside";
      for (const { prefix, suffix } of patterns) {
        if (
          suffix === "\0exact" ? spec === prefix : spec.startsWith(prefix) && spec.endsWith(suffix)
        ) {
          return "maybe-inside";
        }
      }
      for (const base of baseFolders) {
        const path = posix.join(base, spec).toLowerCase();
        if (entries.has(path) || entries.has(path.replace(/\.[^./]+$/, ""))) return "maybe-inside";
      }
      const pkg = packageOf(spec);
      if (names.has(pkg)) return "maybe-inside";
      if (BUILTIN.has(pkg)) return "outside";
      // Node's lookup: node_modules folders from the importer's folder up to the root.
      const from = folderOf(importer);
      const key = `${from}\0${pkg}`;
      let verdict = linked.get(key);
      if (verdict === undefined) {
        const entry = nodeModulesEntry(root, from, pkg, modulesFound);
        verdict = entry === null
          ? "outside"
          : linksInside(root, entry)
          ? "maybe-inside"
          : "outside";
        linked.set(key, verdict);
      }
      return verdict;
    },
  };
}

/** Whether every file a resolution was read from is unchanged. */
export function resolutionUnchanged(resolution: ProjectResolution): boolean {
  for (const [abs, mtime] of resolution.read) if (mtimeOf(abs) !== mtime) return false;
  return true;
}

/** A path's modification time; 0 when it does not exist. */
function mtimeOf(abs: string): number {
  try {
    return Deno.statSync(abs).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/**
 * The first `node_modules/<entry>` that exists from project folder `from` up to the root; each
 * folder is asked once per entry when `known` is kept between calls.
 */
function nodeModulesEntry(
  root: string,
  from: string,
  entry: string,
  known: Map<string, string | null> = new Map(),
): string | null {
  const key = `${from}\0${entry}`;
  const remembered = known.get(key);
  if (remembered !== undefined) return remembered;
  const path = `${root}/${from ? `${from}/` : ""}node_modules/${entry}`;
  let found: string | null = null;
  try {
    Deno.lstatSync(path);
    found = path;
  } catch {
    found = from === "" ? null : nodeModulesEntry(root, folderOf(from), entry, known);
  }
  known.set(key, found);
  return found;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Whether a `node_modules` entry is (or links to) a project folder outside `node_modules`. */
function linksInside(root: string, entry: string): boolean {
  let real: string;
  try {
    real = Deno.realPathSync(entry);
  } catch {
    return false; // a dangling link leads nowhere
  }
  let realRoot = root;
  try {
    realRoot = Deno.realPathSync(root);
  } catch { /* keep */ }
  const rel = posix.relative(realRoot, real);
  if (rel.startsWith("..") || posix.isAbsolute(rel)) return false;
  return !rel.split("/").includes("node_modules");
}
