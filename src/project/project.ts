/**
 * A project: a real root folder, its layered settings and ignore rules, and safe file access.
 * Every file operation a tool performs on a project goes through here.
 * @module
 */
import { basename, join, parse, relative, sep } from "node:path";
import type { Settings } from "../config/schema.ts";
import { ToolError } from "../errors.ts";
import { Turns } from "../turns.ts";
import { readTextFile, type TextFile } from "../edit/text_file.ts";
import { IgnoreRules } from "./ignore.ts";
import { NON_PROJECT_NAMES, NonProjectFolders } from "./non_project.ts";
import { type ResolvedPath, resolveInProject, type ResolveOptions } from "./sandbox.ts";

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

export interface WalkEntry {
  /** Project-relative posix path. */
  path: string;
  isDirectory: boolean;
}

export interface WalkOptions {
  /**
   * Skip ignored files and prune ignored folders and folders that are not the project's code
   * (non_project.ts), unless the walk starts inside one of those (default true).
   */
  skipIgnored?: boolean;
  /** Descend into sub-folders (default true). */
  recursive?: boolean;
  signal?: AbortSignal | undefined;
}

export interface ValidateOptions extends ResolveOptions {
  /** Refuse paths matched by the ignore rules (default true). */
  requireNotIgnored?: boolean;
}

/**
 * Refuse a folder that would put all of the user's files inside the sandbox: the filesystem root
 * or the home folder. Agents choose projects with activate_project and manage_projects; without
 * this, one call would undo the sandbox.
 */
export function refuseBroadRoot(realPath: string): void {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  let realHome: string | null = null;
  try {
    realHome = home ? Deno.realPathSync(home) : null;
  } catch { /* no such folder */ }
  if (realPath === parse(realPath).root || realPath === realHome) {
    throw new ToolError(
      `'${realPath}' is ${realPath === realHome ? "the home folder" : "the filesystem root"}, ` +
        "not a project: every file below it would be inside the sandbox. Give the project's own " +
        "folder.",
    );
  }
}

export class Project {
  readonly root: string;
  readonly name: string;
  readonly settings: Settings;
  readonly ignore: IgnoreRules;
  /** Environments, caches, build output and vendored folders: walks leave them out. */
  readonly nonProject: NonProjectFolders;

  constructor(realRoot: string, settings: Settings, name = basename(realRoot)) {
    this.root = realRoot;
    this.name = name;
    this.settings = settings;
    this.ignore = new IgnoreRules(realRoot, {
      ignoredPaths: settings.ignored_paths,
      useGitignore: settings.ignore_all_files_in_gitignore,
    });
    this.nonProject = new NonProjectFolders(realRoot, { includedPaths: settings.included_paths });
  }

  /**
   * Whether a walk of the whole project leaves `relPath` out: it is ignored, or lies in a folder
   * that is not the project's code (the rule for paths the watcher or a server reports).
   */
  isLeftOut(relPath: string, isDir: boolean): boolean {
    return this.ignore.isIgnoredDeep(relPath, isDir) ||
      this.nonProject.reasonDeep(relPath, isDir) !== null;
  }

  /** Open a project folder; throws a ToolError when it is not a directory. */
  static open(path: string, settings: Settings, name?: string): Project {
    let real: string;
    try {
      real = Deno.realPathSync(path);
      if (!Deno.statSync(real).isDirectory) throw new ToolError(`'${path}' is not a directory.`);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`Project folder '${path}' does not exist or cannot be read.`);
    }
    return new Project(real, settings, name);
  }

  /** Resolve a tool's path argument inside the sandbox, optionally refusing ignored paths. */
  resolve(userPath: string, options: ValidateOptions = {}): ResolvedPath {
    const resolved = resolveInProject(this.root, userPath, options);
    if ((options.requireNotIgnored ?? true) && resolved.relative !== ".") {
      const isDir = resolved.exists && Deno.statSync(resolved.real).isDirectory;
      // Check where a symlink leads as well: a link must not open an ignored folder.
      const realRel = toPosix(relative(this.root, resolved.real)) || ".";
      if (
        this.ignore.isIgnoredDeep(resolved.relative, isDir) ||
        (realRel !== resolved.relative && this.ignore.isIgnoredDeep(realRel, isDir))
      ) {
        throw new ToolError(
          `Path '${resolved.relative}' is ignored by the project's ignore rules ` +
            "(.gitignore or ignored_paths in .sextant/project.jsonc).",
        );
      }
    }
    return resolved;
  }

  /** Resolve a path that must be an existing regular file. */
  resolveFile(userPath: string, options: ValidateOptions = {}): ResolvedPath {
    const resolved = this.resolve(userPath, options);
    if (Deno.statSync(resolved.real).isDirectory) {
      throw new ToolError(`'${resolved.relative}' is a directory, not a file.`);
    }
    return resolved;
  }

  absolute(relPath: string): string {
    return join(this.root, relPath);
  }

  async readText(resolved: ResolvedPath): Promise<TextFile> {
    return await readTextFile(resolved.real, this.settings.encoding);
  }

  /** Walk files and folders below `start` (project-relative), in sorted order. */
  async *walk(start = ".", options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
    const skipIgnored = options.skipIgnored ?? true;
    const recursive = options.recursive ?? true;
    const first = start === "." ? "" : start;
    // A walk that starts inside a folder that is not the project's code was asked for it.
    const skipNonProject = skipIgnored && (first === "" ||
      this.nonProject.reasonDeep(first, true) === null);
    const stack: Pending[] = [{ dir: first, listing: undefined }];
    // Entries of listings read ahead and held on the stack (bounded: see MAX_HELD_ENTRIES).
    let held = 0;
    // Linked folders are listed but not walked: that avoids cycles through links.
    const linkedDirs = new Set<string>();
    // Folders are listed synchronously (listFolder): the event loop gets its turns between them.
    const turns = new Turns();
    while (stack.length > 0) {
      await turns.pause();
      options.signal?.throwIfAborted();
      const { dir, listing: known } = stack.pop()!;
      held -= known?.length ?? 0;
      const listing = known !== undefined ? known : listFolder(join(this.root, dir));
      if (listing === null) continue;
      if (skipIgnored && !listing.some((e) => e.name === ".gitignore")) {
        this.ignore.listedWithout(dir);
      }
      const names = skipNonProject ? new Set(listing.map((e) => e.name)) : null;
      const entries: Array<WalkEntry & { listing: Deno.DirEntry[] | null | undefined }> = [];
      for (const entry of listing) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        let isDirectory = entry.isDirectory;
        let linked = false;
        if (entry.isSymlink) {
          // Follow links only when they stay inside the root; never walk out of the sandbox.
          try {
            const resolved = resolveInProject(this.root, path);
            isDirectory = Deno.statSync(resolved.real).isDirectory;
            const realRel = toPosix(relative(this.root, resolved.real));
            if (skipIgnored && this.ignore.isIgnoredDeep(realRel, isDirectory)) continue;
            if (skipNonProject && this.nonProject.reasonDeep(realRel, isDirectory) !== null) {
              continue;
            }
            if (isDirectory) {
              linkedDirs.add(path);
              linked = true;
            }
          } catch {
            continue;
          }
        }
        if (skipIgnored && this.ignore.isIgnored(path, isDirectory)) continue;
        if (!skipIgnored && isDirectory && entry.name === ".git") continue;
        let inner: Deno.DirEntry[] | null | undefined;
        if (names && isDirectory && !linked) {
          // The folder's own listing decides (pyvenv.cfg, CACHEDIR.TAG); its walk reuses it.
          if (!NON_PROJECT_NAMES.has(entry.name)) inner = listFolder(join(this.root, path));
          const inside = inner ? new Set(inner.map((e) => e.name)) : new Set<string>();
          const has = (name: string) => inside.has(name);
          if (this.nonProject.reasonWith(path, (name) => names.has(name), has) !== null) continue;
        }
        entries.push({ path, isDirectory, listing: inner });
      }
      entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const entry of entries) yield { path: entry.path, isDirectory: entry.isDirectory };
      if (recursive) {
        for (let i = entries.length - 1; i >= 0; i--) {
          const entry = entries[i]!;
          if (entry.isDirectory && !linkedDirs.has(entry.path)) {
            // Past the bound a listing is read again when its folder's turn comes.
            const keep = entry.listing && held + entry.listing.length <= MAX_HELD_ENTRIES;
            if (keep) held += entry.listing!.length;
            stack.push({ dir: entry.path, listing: keep ? entry.listing : undefined });
          }
        }
      }
    }
  }
}

/**
 * The most entries of folder listings a walk holds while it waits to walk them: a folder with
 * thousands of sub-folders must not hold all their listings at once.
 */
const MAX_HELD_ENTRIES = 20_000;

/** A folder the walk has yet to yield; its listing when the walk read it already. */
interface Pending {
  dir: string;
  listing: Deno.DirEntry[] | null | undefined;
}

/** A folder's entries, or null when it is gone or unreadable. */
function listFolder(path: string): Deno.DirEntry[] | null {
  // Listed synchronously: the asynchronous iterator costs an operation per entry, and typeorm's
  // npm package (2,996 files in 299 folders) took 20-28 ms to list that way against 3-4 ms.
  // A folder's listing holds the event loop for microseconds.
  try {
    return Array.from(Deno.readDirSync(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) {
      return null;
    }
    throw error;
  }
}
