/**
 * A failure the caller can fix: bad input, a missing file, an ambiguous match. Its message is
 * shown to the agent as-is, so it must say what was wrong and what to do instead.
 */
export class ToolError extends Error {
  override name = "ToolError";
  /** Show the message without the "Error: " prefix (e.g. when it is JSON by contract). */
  readonly bare: boolean;

  constructor(message: string, options: { bare?: boolean } = {}) {
    super(message);
    this.bare = options.bare ?? false;
  }
}

/** What each Deno permission lets Sextant do, as a verb phrase for messages. */
const PERMISSION_ACTIONS: Readonly<Record<string, string>> = {
  read: "read",
  write: "write",
  run: "run",
  env: "read the environment variable",
  net: "connect to",
  ffi: "load the library",
  sys: "query the system information",
  import: "import from",
};

/**
 * The message for a Deno permission refusal (`Deno.errors.NotCapable`): which permission is
 * missing, for what, and the flag that grants it. Deno's own text is kept at the end.
 *
 * @example
 * ```ts
 * import { describePermissionError } from "./errors.ts";
 * const error = new Deno.errors.NotCapable(
 *   'Requires write access to "/p/a.txt", run again with the --allow-write flag',
 * );
 * describePermissionError(error);
 * // 'Sextant is not allowed to write "/p/a.txt": its Deno permission "write" (flag --allow-write) ...'
 * ```
 */
export function describePermissionError(error: Error): string {
  const text = error.message;
  const fix = "Sextant runs with a fixed set of Deno permissions (docs/security.md, " +
    '"Permissions"): add it to the flags in the MCP client\'s config, or rebuild the binary with ' +
    "it (deno task compile).";
  const env = /spawn subprocess with (\w+) environment variable/.exec(text);
  if (env) {
    return `Sextant cannot start programs while ${env[1]} is set: Deno allows that only with ` +
      `an unrestricted --allow-run. Unset ${env[1]} in the environment the MCP client gives ` +
      `Sextant, or grant --allow-run without a list. (Deno: ${text})`;
  }
  const match = /Requires (\w+) access(?: to "?(.*?)"?)?, run again with the (--allow-[\w-]+) flag/
    .exec(text);
  if (!match) return `Sextant lacks a Deno permission for this. ${fix} (Deno: ${text})`;
  const [, kind = "", target, flag = ""] = match;
  const action = PERMISSION_ACTIONS[kind] ?? `use ${kind} access for`;
  if (target === undefined) {
    const what = kind === "run" ? "signal or manage processes" : `use ${kind} access`;
    return `Sextant is not allowed to ${what}: its Deno permission "${kind}" needs the ` +
      `unrestricted flag ${flag}. ${fix} (Deno: ${text})`;
  }
  const listed = kind === "run" || kind === "env" || kind === "net" || kind === "sys" ||
    kind === "ffi";
  const grant = listed ? `${flag}=${target}` : flag;
  const note = kind === "run"
    ? " A program named on --allow-run is looked up on PATH when Sextant starts; one elsewhere " +
      "needs its absolute path there."
    : "";
  return `Sextant is not allowed to ${action} "${target}": its Deno permission "${kind}" ` +
    `(flag ${grant}) is not granted. ${fix}${note} (Deno: ${text})`;
}

/** A message fit for the agent from any thrown value; never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  const refusal = permissionRefusal(error);
  if (refusal) return describePermissionError(refusal);
  if (error instanceof Deno.errors.PermissionDenied) {
    return `The operating system refused access: ${error.message}. Check the file's owner and ` +
      "mode.";
  }
  if (error instanceof Deno.errors.NotFound) return `Not found: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** A Deno permission refusal, at the top or in the `cause` chain of an error. */
function permissionRefusal(error: unknown): Error | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof Deno.errors.NotCapable) return e;
  }
  return null;
}
