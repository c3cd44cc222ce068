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

/** A message fit for the agent from any thrown value; never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return `Sextant lacks a Deno permission for this: ${error.message}. ` +
      "Run it with the permission flags shown in the README.";
  }
  if (error instanceof Deno.errors.NotFound) return `Not found: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
