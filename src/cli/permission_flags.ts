/**
 * Deno permission sets (as deno.json's `permissions` holds them) turned into command-line
 * flags. The scripts use it to bake the `sextant` set into executables and into the snippets of
 * the README and docs/; the front uses it to start the shared service with exactly its own
 * permissions.
 * @module
 */

/** A permission's grant: everything (`true`), nothing (`false`), or a list of items. */
export type PermissionList = boolean | string[];

/** A permission in a deno.json permission set: a grant, or `allow`/`deny`/`ignore` grants. */
export type PermissionValue = PermissionList | {
  allow?: PermissionList;
  deny?: PermissionList;
  ignore?: PermissionList;
};

/** The permission kinds Deno knows, in the order their flags are written. */
export const PERMISSION_KINDS = [
  "read",
  "write",
  "run",
  "env",
  "net",
  "ffi",
  "sys",
  "import",
] as const;

/** One of {@linkcode PERMISSION_KINDS}. */
export type PermissionKind = typeof PERMISSION_KINDS[number];

/** A deno.json permission set. */
export type PermissionSet = Partial<Record<PermissionKind, PermissionValue>>;

/** Options of {@linkcode permissionFlags} and {@linkcode sextantFlags}. */
export interface FlagOptions {
  /**
   * Programs added to the set's `run` list (names or absolute paths). `"*"` lifts the
   * restriction: `--allow-run` for every program.
   */
  extraRun?: readonly string[];
}

/**
 * V8 flags chosen by measurement (scripts/profiles/memory.ts, docs/performance.md, "Memory"):
 * Liftoff only (the index's tree-sitter WASM is never tiered up to TurboFan, which cost ~100 MB
 * while it compiled) and optimize for size; together they halve the service's peak RSS on the
 * 3,000-file bench. `deno task start` (deno.json) names the same flags.
 */
export const SEXTANT_V8_FLAGS = "--v8-flags=--liftoff-only,--optimize-for-size";

/**
 * Environment chosen by measurement for Sextant's long-lived processes: glibc's malloc keeps at
 * most two arenas. Each parse worker's thread otherwise gets arenas of its own, whose freed
 * memory glibc keeps; on the 3,000-file bench the index build's peak drops from ~150 to ~132 MB
 * and the RSS after it from ~120 to ~104 MB, at the same build time (scripts/profiles/memory.ts,
 * docs/performance.md, "Memory"). The front sets it when it starts the shared service, and
 * `deno task start` (deno.json) sets it too; a process cannot set it for itself.
 */
export const SEXTANT_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/**
 * Flags that are not permissions but belong with them wherever Sextant runs outside
 * `deno task start`: never stop to ask for a permission (an MCP server has no one to ask), and
 * keep Deno's own notes (downloads, programs of the `run` list that are not installed) off stderr,
 * and let code mode start its worker with no permissions (the `worker-options` feature), and
 * {@linkcode SEXTANT_V8_FLAGS}.
 */
export const RUNTIME_FLAGS: readonly string[] = [
  "--quiet",
  "--no-prompt",
  "--unstable-worker-options",
  SEXTANT_V8_FLAGS,
];

/** The allow/deny/ignore grants of one permission value, normalized. */
export function grantsOf(value: PermissionValue | undefined): {
  allow: PermissionList;
  deny: PermissionList;
  ignore: PermissionList;
} {
  if (value === undefined) return { allow: false, deny: false, ignore: false };
  if (typeof value === "boolean" || Array.isArray(value)) {
    return { allow: value, deny: false, ignore: false };
  }
  return { allow: value.allow ?? false, deny: value.deny ?? false, ignore: value.ignore ?? false };
}

function flag(mode: "allow" | "deny" | "ignore", kind: PermissionKind, list: PermissionList) {
  if (list === true) return [`--${mode}-${kind}`];
  if (list === false || list.length === 0) return [];
  for (const item of list) {
    if (item.includes(",")) throw new TypeError(`A ${kind} item cannot hold a comma: "${item}".`);
  }
  return [`--${mode}-${kind}=${list.join(",")}`];
}

/** The `run` list of a set with `extra` programs added (`true` when `extra` holds `"*"`). */
export function runGrant(set: PermissionSet, extra: readonly string[] = []): PermissionList {
  const allow = grantsOf(set.run).allow;
  if (allow === true || extra.includes("*")) return true;
  const base = allow === false ? [] : allow;
  return [...new Set([...base, ...extra.map((e) => e.trim()).filter(Boolean)])];
}

/**
 * The `--allow-*`, `--deny-*` and `--ignore-*` flags equivalent to a permission set. A `false`
 * or absent permission gives no flag: Deno denies what is not granted.
 *
 * @example
 * ```ts
 * import { permissionFlags } from "./permission_flags.ts";
 * const flags = permissionFlags({ read: true, run: ["gopls"], env: { allow: ["HOME"], ignore: true } });
 * console.log(flags.join(" ")); // --allow-read --allow-run=gopls --allow-env=HOME --ignore-env
 * ```
 */
export function permissionFlags(set: PermissionSet, options: FlagOptions = {}): string[] {
  const flags: string[] = [];
  for (const kind of PERMISSION_KINDS) {
    const grants = grantsOf(set[kind]);
    const allow = kind === "run" ? runGrant(set, options.extraRun) : grants.allow;
    flags.push(...flag("allow", kind, allow));
    flags.push(...flag("deny", kind, grants.deny));
    flags.push(...flag("ignore", kind, grants.ignore));
  }
  return flags;
}
