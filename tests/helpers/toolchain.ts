/**
 * Helpers of the toolchain tests: fixture copies, skipping when a program is missing, JSON tool
 * answers, and process liveness.
 * @module
 */
import { join } from "node:path";
import { findExecutable } from "../../src/executables.ts";
import type { Tool } from "../../src/tools/tool.ts";
import type { FileTree } from "./tool_ctx.ts";

export const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;
const BUILD_OUTPUTS = new Set([
  "target",
  "obj",
  "bin",
  "node_modules",
  "__pycache__",
  ".pytest_cache",
]);

/** A fixture folder as a file tree (build outputs left out), to copy into a temp project. */
export function fixtureTree(name: string): FileTree {
  const tree: FileTree = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (BUILD_OUTPUTS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path, `${prefix}${entry.name}/`);
      else tree[`${prefix}${entry.name}`] = Deno.readFileSync(path);
    }
  };
  walk(join(FIXTURES, name), "");
  return tree;
}

/** Skip (with a printed reason) unless a program is installed. */
export function skipWithout(program: string, root?: string): boolean {
  const found = findExecutable(program, root ? { projectRoot: root } : {});
  if (!found) console.log(`skipping: ${program} is not installed`);
  return found === null;
}

// deno-lint-ignore no-explicit-any
export type Json = any;

export async function callJson(
  h: { call(tool: Tool, args: Record<string, unknown>): Promise<string> },
  tool: Tool,
  args: Record<string, unknown> = {},
): Promise<Json> {
  return JSON.parse(await h.call(tool, args));
}

/** The first of `python3` (on PATH) and `/usr/bin/python3` that can import pytest, if any. */
export const pytestPython: string | null = (() => {
  for (const python of ["python3", "/usr/bin/python3"]) {
    try {
      if (
        new Deno.Command(python, { args: ["-c", "import pytest"], stderr: "null" }).outputSync()
          .success
      ) {
        return python;
      }
    } catch {
      // try the next
    }
  }
  return null;
})();

export const hasPytest = pytestPython !== null;

/** Whether a process is alive (zombies count as dead). */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

export async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}
