/**
 * The start bundle: what a serving process loads (the session, the tools, the language-server
 * engine and their npm packages) as one module, so that `deno run` loads one file instead of
 * ~300. Deno's cost per module (reading it, its cached transpilation and code, npm resolution
 * and the CommonJS loader for the npm packages) was ~80 ms of a cold answer on hono
 * (docs/performance.md, "Session 9").
 *
 * `deno bundle` builds it from main_bundle.ts (the compiled program's entry, which takes in
 * every lazily loaded module) into the checkout's `.cache/start/`, named by a stamp of the files
 * it is built from: every module under `src/` (tests aside), the entry points, deno.json and
 * deno.lock, each by path, size and modification time. A changed file changes the stamp, so a
 * bundle is never stale. A start that finds none for its stamp builds it first (~0.7 s, once
 * per change). One that cannot runs the modules as they are: no `deno` it may run, another
 * process building it, or a build that failed or took over 10 s (not tried again for the same
 * files). Only the commands that load the whole program use it: `--standalone`, `--http` and
 * the shared service; the stdio front that relays to the service keeps its small graph, and so
 * does every other command.
 *
 * This module is in main.ts's graph: it loads no `node:` module (tests/cli/front_graph_test.ts).
 * @module
 */
import { parseCommandLine } from "./args.ts";

/** The bundles' folder, from the repository's root. */
export const START_BUNDLE_FOLDER = ".cache/start";

/** The repository's root as a `file:` URL ending in `/`, or null when run from elsewhere. */
function rootUrl(): URL | null {
  const root = new URL("../../", import.meta.url);
  return root.protocol === "file:" ? root : null;
}

/** A `file:` URL's path on this platform (node:url stays out of the front's graph). */
function pathOf(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  return Deno.build.os === "windows" ? path.slice(1).replaceAll("/", "\\") : path;
}

/** Whether the command line starts a process that loads the whole program. */
export function loadsWholeProgram(args: readonly string[]): boolean {
  try {
    const options = parseCommandLine([...args]);
    if (options.command === "serve") return options.standalone || options.http !== undefined;
    return options.command === "service" && options.serviceAction === "run";
  } catch {
    return false; // main reports the usage error
  }
}

/**
 * Two 32-bit FNV-1a hashes of `text` (the second seeded and mixed differently), as 16 hex
 * digits, in 32-bit integer arithmetic: the whole stamp took 3.2 ms with one 64-bit hash in
 * BigInts, 2.5 ms so (the rest is the `stat` of every file).
 */
function fnv1a(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
    b ^= b >>> 13;
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/**
 * The stamp of the files the bundle of the checkout at `root` (a path ending in a separator) is
 * built from; null when one of them cannot be read.
 */
export function sourceStamp(root: string): string | null {
  const entries: string[] = [];
  const note = (rel: string) => {
    const info = Deno.statSync(root + rel);
    entries.push(`${rel}:${info.size}:${info.mtime?.getTime() ?? 0}`);
  };
  const walk = (rel: string) => {
    for (const entry of Deno.readDirSync(root + rel)) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory) walk(child);
      else if (!entry.name.endsWith("_test.ts")) note(child);
    }
  };
  try {
    for (const file of ["main.ts", "main_bundle.ts", "deno.json", "deno.lock"]) note(file);
    walk("src");
  } catch {
    return null;
  }
  entries.sort();
  return fnv1a(entries.join("\n"));
}

/**
 * How long a build may take before it is stopped and the modules run as they are: well inside
 * the 15 s a front waits for the service it starts (cli/relay.ts).
 */
const BUILD_LIMIT_MS = 10_000;

/** Build the bundle at `target` (a partial file beside it first, then renamed); whether it is there. */
async function build(root: string, target: string): Promise<boolean> {
  // Ending in `.js`: deno bundle chooses its output's module format by the extension.
  const partial = target.replace(/\.js$/, `.${Deno.pid}.partial.js`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // This deno, or under a permission set that allows programs by name, `deno` (as
    // executables.ts ownProgram, which is outside the front's graph).
    const exec = Deno.execPath();
    const allowed = Deno.permissions.querySync({ name: "run", command: exec }).state === "granted";
    const child = new Deno.Command(allowed ? exec : "deno", {
      args: [
        "bundle",
        "--quiet",
        // Half the text: the start reads, hashes and deserialises it from V8's code cache (an
        // import of the bundle 43 -> 28 ms; `initialize` 11-28 ms sooner). Names are not kept
        // (`--keep-names` gave back half of it): errors carry their own `name`, and nothing
        // reads a function's.
        "--minify",
        "--platform",
        "deno",
        "--config",
        `${root}deno.json`,
        "--output",
        partial,
        `${root}main_bundle.ts`,
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* ended meanwhile */ }
    }, BUILD_LIMIT_MS);
    if (!(await child.status).success) return false;
    Deno.renameSync(partial, target);
    return true;
  } catch {
    return false; // not allowed to run deno, or no deno bundle: the modules as they are
  } finally {
    clearTimeout(timer);
    try {
      Deno.removeSync(partial);
    } catch { /* renamed, or never written */ }
  }
}

/** A bundle of another stamp unused this long is removed when a new one is built. */
const OLD_BUNDLE_MS = 60 * 60_000;
/**
 * Bundles of other stamps kept at most, the most recently used: a developer who changes a source
 * file between starts builds one per change (~3 MB each: 48 MB in an hour was seen).
 */
export const OTHER_BUNDLES_KEPT = 4;

/**
 * Remove the bundles of other stamps (earlier builds of this checkout) not used for an hour, and
 * beyond the {@linkcode OTHER_BUNDLES_KEPT} most recently used: a second checkout sharing the
 * folder keeps its own while it is used. `keep`: this start's bundle's name.
 */
export function removeOldBundles(folder: string, keep: string, now = Date.now()): void {
  try {
    const others: Array<{ path: string; used: number }> = [];
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.name.startsWith(keep) || !/^sextant-[0-9a-f]+\.js(\.failed)?$/.test(entry.name)) {
        continue;
      }
      const path = `${folder}/${entry.name}`;
      const stat = Deno.statSync(path);
      others.push({ path, used: (stat.atime ?? stat.mtime)?.getTime() ?? 0 });
    }
    others.sort((a, b) => b.used - a.used);
    for (const [i, { path, used }] of others.entries()) {
      if (i >= OTHER_BUNDLES_KEPT || now - used > OLD_BUNDLE_MS) Deno.removeSync(path);
    }
  } catch { /* another process cleans up too */ }
}

/** A build lock this old was left by a process that died while building. */
const STALE_LOCK_MS = 60_000;

function removeIfStale(lock: string): void {
  try {
    const since = Date.now() - (Deno.statSync(lock).mtime?.getTime() ?? Date.now());
    if (since > STALE_LOCK_MS) Deno.removeSync(lock);
  } catch { /* gone */ }
}

/**
 * The URL of the start bundle of this checkout (or of the one at `url`, a `file:` URL ending in
 * `/`) for its current files, built if it is missing; null when there is none to use (see the
 * module's documentation).
 */
export async function startBundle(url: URL | null = rootUrl()): Promise<string | null> {
  if (url === null) return null;
  const root = pathOf(url);
  const stamp = sourceStamp(root);
  if (stamp === null) return null;
  const folder = `${root}${START_BUNDLE_FOLDER}`;
  const name = `sextant-${stamp}.js`;
  const target = `${folder}/${name}`;
  try {
    if (Deno.statSync(target).isFile) return new URL(`${START_BUNDLE_FOLDER}/${name}`, url).href;
  } catch { /* not built yet */ }
  // A build of these files failed or took too long once: not again, the modules run as they are.
  const failed = `${target}.failed`;
  try {
    Deno.statSync(failed);
    return null;
  } catch { /* no failure on record */ }
  const lock = `${target}.building`;
  try {
    Deno.mkdirSync(folder, { recursive: true });
    // One builder at a time; the others run the modules as they are meanwhile.
    Deno.writeTextFileSync(lock, String(Deno.pid), { createNew: true });
  } catch {
    removeIfStale(lock);
    return null;
  }
  try {
    if (!await build(root, target)) {
      try {
        Deno.writeTextFileSync(failed, "");
      } catch { /* the next start tries again */ }
      return null;
    }
    removeOldBundles(folder, name);
    return new URL(`${START_BUNDLE_FOLDER}/${name}`, url).href;
  } finally {
    try {
      Deno.removeSync(lock);
    } catch { /* gone */ }
  }
}

/**
 * Run the command `args` name from the start bundle (of this checkout, or of the one at `url`)
 * when it loads the whole program and a bundle can be had; whether it ran (false: the caller
 * runs main as it is).
 */
export async function runFromBundle(
  args: string[],
  url: URL | null = rootUrl(),
): Promise<boolean> {
  if (!loadsWholeProgram(args) || url === null) return false;
  const bundle = await startBundle(url);
  if (bundle === null) return false;
  let bundled: { runBundled(args: string[], rootUrl: string): Promise<void> };
  try {
    bundled = await import(bundle);
    if (typeof bundled.runBundled !== "function") throw new Error("not a start bundle");
  } catch {
    // A bundle that does not load (damaged on disk) is set aside; the modules run as they are.
    try {
      Deno.renameSync(new URL(bundle), new URL(`${bundle}.failed`));
    } catch { /* another process did */ }
    return false;
  }
  await bundled.runBundled(args, url.href);
  return true;
}
