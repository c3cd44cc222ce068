/**
 * Git worktrees. A linked worktree is a project of its own (its files differ, so it gets its own
 * language servers, index and caches), but it shares the memories of its main checkout unless
 * config says `memories: "worktree"`. Found by reading git's own files, without running git: a
 * linked worktree's `.git` is a file `gitdir: <main>/.git/worktrees/<name>`, and that folder's
 * `commondir` names the main repository's `.git`.
 *
 * The `.git` file comes with the folder, so whoever wrote the folder chose where it points. It is
 * followed only to a git folder that git made for this very worktree: one named
 * `<commondir>/worktrees/<name>` whose own `gitdir` file points back at this `.git` file, in a
 * repository with a `HEAD`. Anything else is not a worktree, and the project keeps its memories.
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Settings } from "../config/schema.ts";

/** A linked git worktree. */
export interface WorktreeInfo {
  /** The worktree's root (as given, resolved). */
  root: string;
  /** Its private git folder (`<main>/.git/worktrees/<name>`). */
  gitDir: string;
  /** The repository's common git folder (`<main>/.git`). */
  commonDir: string;
  /** The main checkout's root, or null for a bare repository (it has none). */
  mainRoot: string | null;
  /** The worktree's name in git (the folder under `.git/worktrees/`). */
  name: string;
}

function readTextOrNull(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/**
 * The linked worktree `projectRoot` is, or null when it is a main checkout, a submodule, or not
 * in git at all. Only the root's own `.git` is looked at: a project is a worktree's root.
 *
 * @example
 * ```ts ignore
 * const info = detectWorktree("/src/app-feature");
 * console.log(info?.mainRoot); // "/src/app"
 * ```
 */
export function detectWorktree(projectRoot: string): WorktreeInfo | null {
  const root = resolve(projectRoot);
  const dotGit = readTextOrNull(join(root, ".git"));
  if (dotGit === null) return null; // a folder (main checkout), or no git
  const pointer = dotGit.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  if (!pointer) return null;
  const gitDir = isAbsolute(pointer) ? pointer : resolve(root, pointer);
  // Submodules have a gitdir file too, but no commondir: they are repositories of their own.
  const common = readTextOrNull(join(gitDir, "commondir"))?.trim();
  if (!common) return null;
  const commonDir = isAbsolute(common) ? common : resolve(gitDir, common);
  if (!isGitOfWorktree(root, gitDir, commonDir)) return null;
  const mainRoot = basename(commonDir) === ".git" ? dirname(commonDir) : null;
  return { root, gitDir, commonDir, mainRoot, name: basename(gitDir) };
}

/** The real path of `path`, or null when it does not exist. */
function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * Whether `gitDir` is the folder git keeps for the worktree at `root`: it sits in
 * `<commonDir>/worktrees/`, its `gitdir` file names `<root>/.git`, and `commonDir` is a
 * repository (it has a `HEAD`).
 */
function isGitOfWorktree(root: string, gitDir: string, commonDir: string): boolean {
  const realGitDir = realOrNull(gitDir);
  const realCommon = realOrNull(commonDir);
  if (realGitDir === null || realCommon === null) return false;
  if (dirname(realGitDir) !== join(realCommon, "worktrees")) return false;
  if (readTextOrNull(join(realCommon, "HEAD")) === null) return false;
  const back = readTextOrNull(join(realGitDir, "gitdir"))?.trim();
  if (!back) return false;
  const pointed = realOrNull(isAbsolute(back) ? back : resolve(realGitDir, back));
  return pointed !== null && pointed === realOrNull(join(root, ".git"));
}

/**
 * The folder whose `.sextant/memories/` (and `.serena/memories/`) a project uses: for a linked
 * worktree, its main checkout's real root (so every worktree sees the same memories), unless
 * `settings.memories` is `"worktree"` or the repository is bare; otherwise the project root.
 * Pass the result to `new Memories(...)`.
 *
 * @example
 * ```ts ignore
 * const memories = new Memories(memoryRootFor(project.root, project.settings));
 * ```
 */
export function memoryRootFor(
  projectRoot: string,
  settings: Pick<Settings, "memories">,
): string {
  if (settings.memories === "worktree") return projectRoot;
  const main = detectWorktree(projectRoot)?.mainRoot;
  if (!main) return projectRoot;
  try {
    return Deno.realPathSync(main);
  } catch {
    return projectRoot; // the main checkout was moved or deleted: keep the worktree's own
  }
}
