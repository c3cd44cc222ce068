/**
 * Which project files are ignored: always-ignored folders, nested `.gitignore` files, and the
 * config's `ignored_paths` (gitignore syntax, relative to the root).
 * @module
 */
import { join } from "node:path";
import { type Ignore, ignore } from "../deps_start.ts";
import { log } from "../log.ts";

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

/**
 * The most rules of one `.gitignore` applied, and the most bytes read of it. Each path is tested
 * against every rule in turn, on the service's one thread: measured, 2,000 rules cost 0.2 ms a
 * path, 5,000 cost 1.2 ms, and a generated 10 MB file (276,000 rules) 2.7 s to parse and 1.3 s a
 * path, which stalled every session. Hand-written files stay far below the bound.
 */
export const MAX_GITIGNORE_RULES = 2_000;
export const MAX_GITIGNORE_BYTES = 256 * 1024;

/** Verdicts kept at most (then forgotten all at once: a walk of a large tree passes through). */
const MAX_VERDICTS = 4096;

/** Answers "is this project-relative path ignored?", reading `.gitignore` files lazily once. */
export class IgnoreRules {
  readonly #root: string;
  readonly #useGitignore: boolean;
  /** The config's `ignored_paths`; null when it has none (most projects: nothing to test). */
  readonly #configured: Ignore | null;
  /** `.gitignore` matcher per folder (project-relative, "" for the root); null when none. */
  readonly #perDir = new Map<string, Ignore | null>();
  /**
   * Verdicts by probe (a folder's with a trailing `/`): a reference answer asks about the same
   * few hundred files on every call. Valid as long as the `.gitignore` contents they came from.
   */
  readonly #verdicts = new Map<string, boolean>();
  /** What was cut from `.gitignore` files over the bound, by folder. */
  readonly #notices = new Map<string, string>();

  constructor(root: string, options: IgnoreOptions = {}) {
    this.#root = root;
    this.#useGitignore = options.useGitignore ?? true;
    const patterns = (options.ignoredPaths ?? []).filter((line) =>
      line.trim() !== "" && !line.startsWith("#")
    );
    this.#configured = patterns.length > 0 ? ignore().add(patterns) : null;
  }

  #gitignoreOf(dir: string): Ignore | null {
    let matcher = this.#perDir.get(dir);
    if (matcher !== undefined) return matcher;
    matcher = null;
    const rules = this.#rulesOf(dir);
    if (rules !== null) matcher = ignore().add(rules);
    this.#perDir.set(dir, matcher);
    return matcher;
  }

  /**
   * A walk listed `dir` and saw no `.gitignore` in it: the folder has no rules of its own, known
   * without trying to open one (that failed open, once per folder, was a third of a cold walk's
   * CPU). Forgotten with the rest on {@linkcode reset}.
   */
  listedWithout(dir: string): void {
    if (!this.#perDir.has(dir)) this.#perDir.set(dir, null);
  }

  /** The rules of a folder's `.gitignore` within the bounds, or null when it has none. */
  #rulesOf(dir: string): string[] | null {
    const path = join(this.#root, dir, ".gitignore");
    let bytes: Uint8Array;
    let size: number;
    try {
      using file = Deno.openSync(path);
      size = file.statSync().size;
      bytes = new Uint8Array(Math.min(size, MAX_GITIGNORE_BYTES));
      let read = 0;
      while (read < bytes.length) {
        const n = file.readSync(bytes.subarray(read));
        if (n === null) break;
        read += n;
      }
      bytes = bytes.subarray(0, read);
    } catch {
      return null; // no .gitignore here
    }
    const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
    // A line cut at the byte bound is no rule.
    if (size > bytes.length) lines.pop();
    const rules = lines.filter((line) => line.trim() !== "" && !line.startsWith("#"));
    if (size > bytes.length || rules.length > MAX_GITIGNORE_RULES) {
      const count = (n: number) => n.toLocaleString("en");
      const over = size > bytes.length
        ? `is ${count(size)} bytes, over ${count(MAX_GITIGNORE_BYTES)}`
        : `has ${count(rules.length)} rules, over ${count(MAX_GITIGNORE_RULES)}`;
      const notice = `${dir ? `${dir}/` : ""}.gitignore ${over}: Sextant applies its first ` +
        `${count(Math.min(rules.length, MAX_GITIGNORE_RULES))} rules (more would stall every ` +
        "walk of the project); put the folders that matter in ignored_paths.";
      if (!this.#notices.has(dir)) log.warn(`${this.#root}: ${notice}`);
      this.#notices.set(dir, notice);
    }
    return rules.slice(0, MAX_GITIGNORE_RULES);
  }

  /** What the bounds cut from the project's `.gitignore` files (read so far), one line each. */
  notices(): string[] {
    return [...this.#notices.values()];
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
    if (isDir && ALWAYS_IGNORED_DIRS.has(relPath.slice(relPath.lastIndexOf("/") + 1))) return true;
    if (this.#configured?.ignores(probe)) return true;
    if (!this.#useGitignore) return false;
    // As in git, a deeper .gitignore overrides its parents (e.g. re-includes with `!`). Each
    // folder above the path, the root first: the folder is the path's text before the slash at
    // `cut` (none for the root), and the matcher tests what follows it.
    let ignored = false;
    let cut = -1;
    do {
      const matcher = this.#gitignoreOf(cut < 0 ? "" : relPath.slice(0, cut));
      if (matcher) {
        const verdict = matcher.test(probe.slice(cut + 1));
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      cut = relPath.indexOf("/", cut + 1);
    } while (cut >= 0);
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
