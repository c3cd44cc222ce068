/**
 * The module graph `deno run` loads for an entry point: what it reaches through code imports,
 * dynamic ones with a literal specifier included (type-only imports are not loaded).
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert } from "./assert.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string } }>;
}

/**
 * The specifiers `entry` (a path from the repository's root) reaches through code imports:
 * `file:` URLs, `npm:` and `node:` specifiers.
 */
export async function codeGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(ROOT, "deno.json"), join(ROOT, entry)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: InfoModule[];
    redirects?: Record<string, string>;
  };
  const byUrl = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const queue = [new URL(entry, `file://${ROOT}`).href];
  while (queue.length > 0) {
    const url = queue.pop()!;
    const target = info.redirects?.[url] ?? url;
    if (seen.has(target)) continue;
    seen.add(target);
    for (const dep of byUrl.get(target)?.dependencies ?? []) {
      if (dep.code) queue.push(dep.code.specifier);
    }
  }
  return seen;
}

/** The `file:` URL of a path from the repository's root, as {@linkcode codeGraph} names it. */
export const moduleUrl = (path: string): string => new URL(path, `file://${ROOT}`).href;
