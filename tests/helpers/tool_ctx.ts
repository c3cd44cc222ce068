/**
 * Test helpers: a temporary project with a {@linkcode Session} and a {@linkcode ToolContext}, so
 * tool handlers can be called directly, without MCP. Arguments go through the tool's zod schema
 * (so defaults apply) and answers through `limitAnswer`, exactly as the server does.
 * @module
 */
import { dirname, join } from "node:path";
import { z } from "../../src/deps.ts";
import { loadSettings } from "../../src/config/load.ts";
import type { SettingsFile } from "../../src/config/schema.ts";
import { limitAnswer } from "../../src/tools/limit.ts";
import { Project } from "../../src/project/project.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { applyParamAliases, type Tool, type ToolContext } from "../../src/tools/tool.ts";
import { recordCall } from "../../scripts/checks/language_matrix_lib.ts";

/** File content by project-relative path: text is written as UTF-8, bytes as they are. */
export type FileTree = Record<string, string | Uint8Array>;

export interface ToolHarness {
  /** Real path of the project root. */
  root: string;
  project: Project;
  session: Session<Tool>;
  ctx: ToolContext;
  /** Absolute path of a project-relative path. */
  path(rel: string): string;
  read(rel: string): Promise<string>;
  bytes(rel: string): Promise<Uint8Array>;
  write(rel: string, content: string | Uint8Array): Promise<void>;
  exists(rel: string): Promise<boolean>;
  /** Call a tool; resolves with its (limited) answer text, rejects with the tool's error. */
  call(tool: Tool, args: Record<string, unknown>): Promise<string>;
  /** The notes beside the last answer (reports about earlier edits; see `ToolAnswer`). */
  notes(): readonly string[];
  /** Call a tool; an error becomes `{ isError: true, text: message }`. */
  run(tool: Tool, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Names of every file and folder under the root (recursive, sorted), e.g. to spot temp files. */
  listAll(): Promise<string[]>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface HarnessOptions {
  /** Written to `.sextant/project.jsonc`; a function is given the project's root. */
  projectConfig?: SettingsFile | ((root: string) => SettingsFile);
  /** Top settings layer (like the command line); a function is given the project's root. */
  overrides?: SettingsFile | ((root: string) => SettingsFile);
}

export async function writeTree(root: string, files: FileTree): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    await Deno.mkdir(dirname(abs), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(abs, content);
    else await Deno.writeFile(abs, content);
  }
}

/** A temporary real folder, removed on dispose. */
export async function tempDir(
  prefix = "sextant-unit-",
): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = Deno.realPathSync(await Deno.makeTempDir({ prefix }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Build a project in a fresh temp folder (inside a parent folder tests may use as "outside"). */
export async function toolHarness(
  files: FileTree = {},
  options: HarnessOptions = {},
): Promise<ToolHarness & { outside: string }> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-unit-" }));
  const root = join(parent, "project");
  const outside = join(parent, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  await writeTree(root, files);
  if (options.projectConfig) {
    const config = typeof options.projectConfig === "function"
      ? options.projectConfig(root)
      : options.projectConfig;
    await writeTree(root, { ".sextant/project.jsonc": JSON.stringify(config) });
  }
  const settings = await loadSettings({
    projectRoot: root,
    globalFile: null,
    ...(options.overrides
      ? {
        overrides: typeof options.overrides === "function"
          ? options.overrides(root)
          : options.overrides,
      }
      : {}),
  });
  const project = Project.open(root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project,
  });
  const controller = new AbortController();
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: controller.signal,
    progress: () => Promise.resolve(),
  };

  let lastNotes: readonly string[] = [];
  const call = async (tool: Tool, rawArgs: Record<string, unknown>): Promise<string> => {
    const args = z.strictObject(tool.params).parse(applyParamAliases(tool, rawArgs)) as Record<
      string,
      unknown
    >;
    lastNotes = [];
    const answer = await tool.handler(args, ctx);
    if (typeof answer !== "string") lastNotes = answer.notes ?? [];
    await recordCall(
      root,
      tool.name,
      args,
      false,
      typeof answer === "string" ? answer : answer.text,
    );
    const max = typeof args.max_answer_chars === "number" ? args.max_answer_chars : -1;
    const limit = session.project?.settings.default_max_tool_answer_chars ??
      session.settings.default_max_tool_answer_chars;
    return limitAnswer(answer, max, limit);
  };

  const listAll = async (): Promise<string[]> => {
    const out: string[] = [];
    const walk = async (dir: string, prefix: string) => {
      for await (const entry of Deno.readDir(dir)) {
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        out.push(rel);
        if (entry.isDirectory) await walk(join(dir, entry.name), rel);
      }
    };
    await walk(root, "");
    return out.sort();
  };

  return {
    root,
    outside,
    project,
    session,
    ctx,
    path: (rel) => join(root, rel),
    read: (rel) => Deno.readTextFile(join(root, rel)),
    bytes: (rel) => Deno.readFile(join(root, rel)),
    write: (rel, content) => writeTree(root, { [rel]: content }),
    exists: async (rel) => {
      try {
        await Deno.lstat(join(root, rel));
        return true;
      } catch {
        return false;
      }
    },
    call,
    notes: () => lastNotes,
    run: async (tool, args) => {
      try {
        return { text: await call(tool, args), isError: false };
      } catch (error) {
        return { text: (error as Error).message, isError: true };
      }
    },
    listAll,
    async [Symbol.asyncDispose]() {
      controller.abort();
      await session.dispose();
      await Deno.remove(parent, { recursive: true }).catch(() => {});
    },
  };
}
