/**
 * A project: a real root folder, its layered settings and ignore rules, and safe file access.
 * Every file operation a tool performs on a project goes through here.
 * @module
 */
import { basename, join, parse, relative, sep } from "node:path";
import type { Settings } from "../config/schema.ts";
import { ToolError } from "../errors.ts";
import { readTextFile, type TextFile } from "../edit/text_file.ts";
import { IgnoreRules } from "./ignore.ts";
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
  /** Skip ignored files and prune ignored folders (default true). */
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

  constructor(realRoot: string, settings: Settings, name = basename(realRoot)) {
    this.root = realRoot;
    this.name = name;
    this.settings = settings;
    this.ignore = new IgnoreRules(realRoot, {
      ignoredPaths: settings.ignored_paths,
      useGitignore: settings.ignore_all_files_in_gitignore,
    });
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
    const stack: string[] = [start === "." ? "" : start];
    // Linked folders are listed but not walked: that avoids cycles through links.
    const linkedDirs = new Set<string>();
    while (stack.length > 0) {
      options.signal?.throwIfAborted();
      const dir = stack.pop()!;
      const entries: WalkEntry[] = [];
      try {
        for await (const entry of Deno.readDir(join(this.root, dir))) {
          const path = dir ? `${dir}/${entry.name}` : entry.name;
          let isDirectory = entry.isDirectory;
          if (entry.isSymlink) {
            // Follow links only when they stay inside the root; never walk out of the sandbox.
            try {
              const resolved = resolveInProject(this.root, path);
              isDirectory = Deno.statSync(resolved.real).isDirectory;
              const realRel = toPosix(relative(this.root, resolved.real));
              if (skipIgnored && this.ignore.isIgnoredDeep(realRel, isDirectory)) continue;
              if (isDirectory) linkedDirs.add(path);
            } catch {
              continue;
            }
          }
          if (skipIgnored && this.ignore.isIgnored(path, isDirectory)) continue;
          if (!skipIgnored && isDirectory && entry.name === ".git") continue;
          entries.push({ path, isDirectory });
        }
      } catch (error) {
        if (
          error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied
        ) {
          continue;
        }
        throw error;
      }
      entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const entry of entries) yield entry;
      if (recursive) {
        for (let i = entries.length - 1; i >= 0; i--) {
          const entry = entries[i]!;
          if (entry.isDirectory && !linkedDirs.has(entry.path)) stack.push(entry.path);
        }
      }
    }
  }
}
