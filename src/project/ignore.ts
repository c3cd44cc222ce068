/**
 * Which project files are ignored: always-ignored folders, nested `.gitignore` files, and the
 * config's `ignored_paths` (gitignore syntax, relative to the root).
 * @module
 */
import { join } from "node:path";
import { type Ignore, ignore } from "../deps_start.ts";

/** Folders no tool should ever walk into. */
export const ALWAYS_IGNORED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  ".sextant",
  ".serena",
  "node_modules",
]);

export interface IgnoreOptions {
  /** Gitignore-syntax patterns relative to the root. */
  ignoredPaths?: readonly string[];
  /** Honour `.gitignore` files (default true). */
  useGitignore?: boolean;
}

/** Verdicts kept at most (then forgotten all at once: a walk of a large tree passes through). */
const MAX_VERDICTS = 4096;

/** Answers "is this project-relative path ignored?", reading `.gitignore` files lazily once. */
export class IgnoreRules {
  readonly #root: string;
  readonly #useGitignore: boolean;
  readonly #configured: Ignore;
  /** `.gitignore` matcher per folder (project-relative, "" for the root); null when none. */
  readonly #perDir = new Map<string, Ignore | null>();
  /**
   * Verdicts by probe (a folder's with a trailing `/`): a reference answer asks about the same
   * few hundred files on every call. Valid as long as the `.gitignore` contents they came from.
   */
  readonly #verdicts = new Map<string, boolean>();

  constructor(root: string, options: IgnoreOptions = {}) {
    this.#root = root;
    this.#useGitignore = options.useGitignore ?? true;
    this.#configured = ignore().add([...(options.ignoredPaths ?? [])]);
  }

  #gitignoreOf(dir: string): Ignore | null {
    let matcher = this.#perDir.get(dir);
    if (matcher !== undefined) return matcher;
    matcher = null;
    try {
      const text = Deno.readTextFileSync(join(this.#root, dir, ".gitignore"));
      matcher = ignore().add(text);
    } catch { /* no .gitignore here */ }
    this.#perDir.set(dir, matcher);
    return matcher;
  }

  /** Forget cached `.gitignore` contents and the verdicts drawn from them (after files changed). */
  reset(): void {
    this.#perDir.clear();
    this.#verdicts.clear();
  }

  /**
   * Whether `relPath` (posix separators, relative to the root) is ignored. Parents are not
   * checked here: walkers prune ignored folders, and {@linkcode isIgnoredDeep} checks the chain.
   */
  isIgnored(relPath: string, isDir: boolean): boolean {
    if (relPath === "." || relPath === "") return false;
    const probe = isDir ? `${relPath}/` : relPath;
    let verdict = this.#verdicts.get(probe);
    if (verdict === undefined) {
      verdict = this.#decide(relPath, probe, isDir);
      if (this.#verdicts.size >= MAX_VERDICTS) this.#verdicts.clear();
      this.#verdicts.set(probe, verdict);
    }
    return verdict;
  }

  #decide(relPath: string, probe: string, isDir: boolean): boolean {
    const parts = relPath.split("/");
    const base = parts[parts.length - 1]!;
    if (isDir && ALWAYS_IGNORED_DIRS.has(base)) return true;
    if (this.#configured.ignores(probe)) return true;
    if (!this.#useGitignore) return false;
    // As in git, a deeper .gitignore overrides its parents (e.g. re-includes with `!`).
    let ignored = false;
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const matcher = this.#gitignoreOf(dir);
      if (!matcher) continue;
      const sub = parts.slice(i).join("/");
      const verdict = matcher.test(isDir ? `${sub}/` : sub);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  /** Like {@linkcode isIgnored}, but also true when any parent folder is ignored. */
  isIgnoredDeep(relPath: string, isDir: boolean): boolean {
    if (relPath === "." || relPath === "") return false;
    const parts = relPath.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (this.isIgnored(parts.slice(0, i).join("/"), true)) return true;
    }
    return this.isIgnored(relPath, isDir);
  }
}
