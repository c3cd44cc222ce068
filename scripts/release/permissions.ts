/**
 * Sextant's Deno permissions, defined once: the `sextant` permission set in deno.json, which
 * `deno task start` and the end-to-end tests use as `-P=sextant`. This module turns that set into
 * explicit flags for everything that cannot name the set: `deno compile` (scripts/release/compile.ts),
 * `deno run` from a URL or another folder, `deno install`, and the snippets of the README and
 * docs/.
 *
 * ```sh
 * deno run -A scripts/release/permissions.ts                  # the flags, on one line
 * deno run -A scripts/release/permissions.ts --json           # the flags as a JSON array
 * deno run -A scripts/release/permissions.ts --update-docs    # rewrite the flags in the docs' snippets
 * ```
 *
 * `SEXTANT_EXTRA_RUN` (comma-separated program names or absolute paths; `*` for any program)
 * widens `--allow-run` for user-defined language servers; see {@linkcode extraRunFromEnv}.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jsonc } from "../../src/deps.ts";
import {
  type FlagOptions,
  PERMISSION_KINDS,
  permissionFlags,
  type PermissionSet,
  RUNTIME_FLAGS,
} from "../../src/cli/permission_flags.ts";

export {
  type FlagOptions,
  grantsOf,
  PERMISSION_KINDS,
  permissionFlags,
  type PermissionKind,
  type PermissionList,
  type PermissionSet,
  type PermissionValue,
  runGrant,
  RUNTIME_FLAGS,
} from "../../src/cli/permission_flags.ts";

/** The name of the permission set in deno.json. */
export const PERMISSION_SET_NAME = "sextant";

/** A file of the repository: a path in a checkout, the URL when Sextant runs from one. */
function ownFile(name: string): string {
  const url = new URL(`../../${name}`, import.meta.url);
  return url.protocol === "file:" ? fileURLToPath(url) : url.href;
}

/** The repository's deno.json. */
export const DENO_JSON: string = ownFile("deno.json");

/** The repository's README.md. */
export const README: string = ownFile("README.md");

/**
 * The Markdown files whose code blocks may hold Sextant's flags: README.md and every page of
 * docs/ (in a checkout; none when Sextant runs from a URL).
 */
export function snippetFiles(): string[] {
  const docs = ownFile("docs");
  if (docs.includes("://")) return [];
  const pages = [...Deno.readDirSync(docs)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => join(docs, entry.name))
    .sort();
  return [README, ...pages];
}

/**
 * Read the permission set `name` from a deno.json (or deno.jsonc) file.
 *
 * @example
 * ```ts
 * import { loadPermissionSet } from "./permissions.ts";
 * const set = loadPermissionSet();
 * console.log(set.net); // false
 * ```
 */
export function loadPermissionSet(
  configPath = DENO_JSON,
  name = PERMISSION_SET_NAME,
): PermissionSet {
  const text = Deno.readTextFileSync(configPath);
  const errors: jsonc.ParseError[] = [];
  const config = jsonc.parse(text, errors, { allowTrailingComma: true }) as {
    permissions?: Record<string, PermissionSet>;
  };
  if (errors.length > 0) throw new SyntaxError(`Cannot parse ${configPath}.`);
  const set = config.permissions?.[name];
  if (!set || typeof set !== "object") {
    throw new TypeError(`No permission set "${name}" under "permissions" in ${configPath}.`);
  }
  for (const kind of Object.keys(set)) {
    if (!(PERMISSION_KINDS as readonly string[]).includes(kind)) {
      throw new TypeError(`Unknown permission "${kind}" in set "${name}" of ${configPath}.`);
    }
  }
  return set;
}

/** {@linkcode RUNTIME_FLAGS} followed by the flags of the `sextant` set (from deno.json). */
export function sextantFlags(options: FlagOptions = {}, configPath = DENO_JSON): string[] {
  return [...RUNTIME_FLAGS, ...permissionFlags(loadPermissionSet(configPath), options)];
}

/**
 * Programs to add to `--allow-run`, from `SEXTANT_EXTRA_RUN` (comma-separated names or absolute
 * paths, `*` for any program). Read by scripts/release/compile.ts: a compiled binary's permissions are
 * fixed when it is built.
 */
export function extraRunFromEnv(): string[] {
  const value = Deno.env.get("SEXTANT_EXTRA_RUN") ?? "";
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

/** A permission flag, with its list if any. */
const PERMISSION_FLAG = String.raw`--(?:allow|deny|ignore)-(?:${PERMISSION_KINDS.join("|")})` +
  String.raw`(?:=[^\s"',\]]+(?:,[^\s"',\]]+)*)?(?![\w-])`;
/** Matches one flag that {@linkcode sextantFlags} can produce. */
const FLAG = String
  .raw`(?:--quiet|--no-prompt|--unstable-worker-options|--v8-flags=[^\s"',\]]+(?:,[^\s"',\]]+)*|${PERMISSION_FLAG})(?![\w-])`;
/** A run of such flags in a shell command, space separated, not inside quotes. */
const SHELL_RUN = new RegExp(String.raw`(?<!["\w-])${FLAG}(?:[ \t]+${FLAG})*`, "g");
/** A run of such flags as quoted items of a JSON or TOML array. */
const QUOTED_RUN = new RegExp(String.raw`"${FLAG}"(?:,\s*"${FLAG}")*`, "g");
const ONE_FLAG = new RegExp(FLAG, "g");
/** A run counts only when it grants or denies something: `--quiet` alone is another tool's. */
const isPermissionRun = (run: string) => new RegExp(PERMISSION_FLAG).test(run);

/**
 * Fenced code blocks of a Markdown text that hold commands or client configs (sh, json, toml):
 * prose, and sample output in `text` blocks, may name a flag without being a snippet.
 */
const CODE_BLOCK = /^```(?:sh|bash|shell|console|powershell|json|jsonc|toml)[ \t]*\n[\s\S]*?^```/gm;

/**
 * Every run of Sextant flags in the fenced code blocks of a Markdown `text` (shell words, or
 * quoted items of JSON/TOML arrays), each as its list of flags, in the order they appear.
 */
export function findFlagRuns(text: string): string[][] {
  const runs: string[][] = [];
  for (const block of text.match(CODE_BLOCK) ?? []) {
    const found: Array<{ index: number; flags: string[] }> = [];
    for (const pattern of [QUOTED_RUN, SHELL_RUN]) {
      for (const match of block.matchAll(pattern)) {
        if (!isPermissionRun(match[0])) continue;
        found.push({ index: match.index, flags: match[0].match(ONE_FLAG) ?? [] });
      }
    }
    runs.push(...found.sort((a, b) => a.index - b.index).map((run) => run.flags));
  }
  return runs;
}

/** `text` with every run of Sextant flags in its code blocks replaced by `flags`, in its style. */
export function rewriteFlagRuns(text: string, flags: readonly string[]): string {
  const quoted = flags.map((f) => `"${f}"`).join(", ");
  return text.replace(
    CODE_BLOCK,
    (block) =>
      block
        .replace(QUOTED_RUN, (run) => isPermissionRun(run) ? quoted : run)
        .replace(SHELL_RUN, (run) => isPermissionRun(run) ? flags.join(" ") : run),
  );
}

if (import.meta.main) {
  const flags = sextantFlags({ extraRun: extraRunFromEnv() });
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(flags));
  } else if (Deno.args.includes("--update-docs")) {
    for (const file of snippetFiles()) {
      const text = Deno.readTextFileSync(file);
      const updated = rewriteFlagRuns(text, sextantFlags());
      if (updated !== text) Deno.writeTextFileSync(file, updated);
      console.error(`${file} ${updated === text ? "already up to date" : "updated"}`);
    }
  } else {
    console.log(flags.join(" "));
  }
}
