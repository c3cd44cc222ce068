/**
 * Helpers for language-server integration tests: the test server cache (`.cache/lsp`, filled by
 * scripts/checks/test_setup.ts) on `SEXTANT_LSP_PATH`, fixture projects copied to a temp folder, a
 * pool with short timeouts, and process checks that prove no server outlives its test.
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSettings } from "../../src/config/load.ts";
import type { SettingsFile } from "../../src/config/schema.ts";
import { groupMembers } from "../../src/process.ts";
import { findServerBinary, LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import type { ServerTimeouts } from "../../src/lsp/managed_server.ts";
import { Project } from "../../src/project/project.ts";
import { prestartChoice } from "../../src/lsp/prestart.ts";

export const REPO_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const LSP_CACHE = join(REPO_ROOT, ".cache", "lsp");
export const FIXTURES = join(REPO_ROOT, "fixtures");
/** TypeScript 7 as scripts/checks/test_setup.ts installs it (apart from 5.9, which tsserver needs). */
export const TS7_MODULES = join(LSP_CACHE, "ts7", "node_modules");

/**
 * The TypeScript generations the language tests run on: typescript-language-server over
 * TypeScript 5.9 (tsserver), and TypeScript 7's own server (`tsc --lsp`), chosen by the registry
 * because the project's `node_modules/typescript` is version 7.
 */
export const TS_GENERATIONS = [
  { name: "typescript-language-server", typescript: 5, command: "typescript-language-server" },
  { name: "TypeScript 7 (tsc --lsp)", typescript: 7, command: "tsc" },
] as const;

/** Whether TypeScript 7's server is installed for the tests. */
export function hasTypeScript7(): boolean {
  try {
    return Deno.statSync(join(TS7_MODULES, ".bin", "tsc")).isFile;
  } catch {
    return false;
  }
}

/** Whether a generation's server is installed for the tests. */
export function hasTypeScriptGeneration(typescript: 5 | 7): boolean {
  return typescript === 7 ? hasTypeScript7() : hasServer("typescript-language-server");
}

/**
 * Give a project TypeScript 7 as its own dependency (`node_modules/typescript`, its platform
 * package and `.bin/tsc`, linked to the test cache), as `npm install typescript@7` would.
 */
export async function linkTypeScript7(root: string): Promise<void> {
  const modules = join(root, "node_modules");
  await Deno.mkdir(join(modules, ".bin"), { recursive: true });
  await Deno.mkdir(join(modules, "@typescript"), { recursive: true });
  await Deno.symlink(join(TS7_MODULES, "typescript"), join(modules, "typescript"));
  for await (const entry of Deno.readDir(join(TS7_MODULES, "@typescript"))) {
    await Deno.symlink(
      join(TS7_MODULES, "@typescript", entry.name),
      join(modules, "@typescript", entry.name),
    );
  }
  await Deno.symlink(join(modules, "typescript", "bin", "tsc"), join(modules, ".bin", "tsc"));
}

// Every test process finds the servers scripts/checks/test_setup.ts installed.
Deno.env.set(LSP_PATH_ENV, LSP_CACHE);

/** Whether a server binary is installed (and, with `probe`, actually runs with those args). */
export function hasServer(command: string, probe?: string[]): boolean {
  const path = findServerBinary(command, REPO_ROOT);
  if (!path) return false;
  if (!probe) return true;
  try {
    return new Deno.Command(path, { args: probe, stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** `Deno.test` ignore flag for a missing server, printing why the test is skipped. */
export function skipUnless(available: boolean, what: string): boolean {
  if (!available) {
    console.log(`skipping ${what}: not installed (run 'deno task test', or install it)`);
  }
  return !available;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory) await copyTree(src, dst);
    else if (entry.isFile) await Deno.copyFile(src, dst);
  }
}

export interface FixtureProject {
  root: string;
  project: Project;
  pool: ServerPool;
  path(rel: string): string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Copy `fixtures/<name>` to a temp folder and open it as a project with its own pool. */
export async function fixtureProject(
  name: string,
  options: {
    config?: SettingsFile;
    /** The user's layer (global config or command line): where servers are chosen. */
    overrides?: SettingsFile;
    timeouts?: Partial<ServerTimeouts>;
    /** 7: the project depends on TypeScript 7, so its own server runs (see linkTypeScript7). */
    typescript?: 5 | 7;
  } = {},
): Promise<FixtureProject> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-lsp-" }));
  const root = join(parent, name);
  await copyTree(join(FIXTURES, name), root);
  if (options.typescript === 7) await linkTypeScript7(root);
  if (options.config) {
    await Deno.mkdir(join(root, ".sextant"), { recursive: true });
    await Deno.writeTextFile(
      join(root, ".sextant", "project.jsonc"),
      JSON.stringify(options.config),
    );
  }
  const settings = await loadSettings({
    projectRoot: root,
    globalFile: null,
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
  const project = Project.open(root, settings);
  const pool = new ServerPool(project, undefined, options.timeouts);
  return {
    root,
    project,
    pool,
    path: (rel) => join(root, rel),
    async [Symbol.asyncDispose]() {
      await pool.dispose();
      await Deno.remove(parent, { recursive: true }).catch(() => {});
    },
  };
}

/** Whether a process id is alive (not a zombie). Linux only; true elsewhere. */
export function processAlive(pid: number): boolean {
  if (Deno.build.os !== "linux") return true;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Live processes in a process group (Linux), -1 elsewhere. */
export function liveInGroup(pgid: number): number {
  return groupMembers(pgid);
}

/** An LSP Location or LocationLink, reduced to uri and start line/character. */
export interface Loc {
  uri: string;
  line: number;
  character: number;
}

export function toLocs(result: unknown): Loc[] {
  if (!Array.isArray(result)) return [];
  return result.map((r) => {
    const uri = (r.uri ?? r.targetUri) as string;
    const range = (r.range ?? r.targetSelectionRange) as {
      start: { line: number; character: number };
    };
    return { uri, line: range.start.line, character: range.start.character };
  });
}

/** 0-based position of the first `needle` in a file (after `after`, when given). */
export async function positionOf(
  file: string,
  needle: string,
  after?: string,
): Promise<{ line: number; character: number }> {
  const text = await Deno.readTextFile(file);
  const from = after ? text.indexOf(after) : 0;
  const offset = text.indexOf(needle, from < 0 ? 0 : from);
  if (offset < 0) throw new Error(`'${needle}' not found in ${file}`);
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/**
 * `prestartChoice` (lsp/prestart.ts) for the project at `root`, with a global config folder of the
 * project's own (none unless written there).
 */
export function prestartChoiceIn(root: string): ReturnType<typeof prestartChoice> {
  const before = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", join(root, ".xdg"));
  try {
    return prestartChoice(root);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", before);
  }
}
