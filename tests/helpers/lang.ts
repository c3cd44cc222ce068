/**
 * Helpers for the per-language MCP tests (tests/languages/): a fixture copied to a temp folder,
 * optionally with a project config, served by `main.ts` with the `start` task's permissions and
 * an MCP client connected to it; on dispose, every language-server process group Sextant started
 * must be gone.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "./assert.ts";
import { FIXTURES, linkTypeScript7, liveInGroup, LSP_CACHE } from "./lsp.ts";
import { call, connect, type Connected } from "./mcp.ts";
import { recordCall } from "../../scripts/checks/language_matrix_lib.ts";

/** Process groups led by children of `pid` (the language servers Sextant started). Linux only. */
export function serverGroupsOf(pid: number): number[] {
  const groups: number[] = [];
  if (Deno.build.os !== "linux") return groups;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && Number(fields[2]) === Number(entry.name)) {
        groups.push(Number(entry.name));
      }
    } catch { /* process ended meanwhile */ }
  }
  return groups;
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

export interface LangSession {
  /** The project root (a temp copy of the fixture). */
  root: string;
  connected: Connected;
  /** Call a tool; fails the test when the result is an error. */
  ok(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Call a tool and return its text and error flag. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  read(rel: string): Promise<string>;
  write(rel: string, text: string): Promise<void>;
  /** Language-server process groups running now. */
  groups(): number[];
  [Symbol.asyncDispose](): Promise<void>;
}

export interface LangOptions {
  /** Written as `.sextant/project.jsonc`. */
  config?: Record<string, unknown>;
  /** Written as the user's global config (where language servers are chosen). */
  globalConfig?: Record<string, unknown>;
  /** Extra command-line arguments of main.ts. */
  args?: string[];
  /** Extra environment of main.ts. */
  env?: Record<string, string>;
  /** Copy several fixtures side by side: folder name in the project → fixture path. */
  layout?: Record<string, string>;
  /** 7: the project depends on TypeScript 7, so its own server runs (see linkTypeScript7). */
  typescript?: 5 | 7;
}

/**
 * Copy `fixtures/<fixture>` to a temp folder and serve it over MCP. Every language server it
 * starts is checked to be gone after dispose.
 */
export async function langSession(
  fixture: string,
  options: LangOptions = {},
): Promise<LangSession> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-lang-" }));
  const root = join(parent, fixture.replaceAll("/", "_"));
  if (options.layout) {
    for (const [folder, from] of Object.entries(options.layout)) {
      await copyTree(join(FIXTURES, from), join(root, folder));
    }
  } else {
    await copyTree(join(FIXTURES, fixture), root);
  }
  if (options.typescript === 7) await linkTypeScript7(root);
  if (options.config) {
    await Deno.mkdir(join(root, ".sextant"), { recursive: true });
    await Deno.writeTextFile(
      join(root, ".sextant", "project.jsonc"),
      JSON.stringify(options.config),
    );
  }
  if (options.globalConfig) {
    await Deno.mkdir(join(parent, "xdg", "sextant"), { recursive: true });
    await Deno.writeTextFile(
      join(parent, "xdg", "sextant", "config.jsonc"),
      JSON.stringify(options.globalConfig),
    );
  }
  let connected: Connected;
  try {
    connected = await connect(root, options.args ?? [], {
      SEXTANT_LSP_PATH: LSP_CACHE,
      XDG_CONFIG_HOME: join(parent, "xdg"),
      ...options.env,
    });
  } catch (error) {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
    throw error;
  }
  const seen = new Set<number>();
  const groups = () => {
    const now = connected.pid ? serverGroupsOf(connected.pid) : [];
    for (const g of now) seen.add(g);
    return now;
  };
  return {
    root,
    connected,
    call: async (name, args = {}) => {
      const result = await call(connected.client, name, args);
      groups();
      await recordCall(root, name, args, result.isError, result.text);
      return result;
    },
    ok: async (name, args = {}) => {
      const result = await call(connected.client, name, args);
      groups();
      await recordCall(root, name, args, result.isError, result.text);
      assert(!result.isError, `${name} failed: ${result.text}`);
      return result.text;
    },
    read: (rel) => Deno.readTextFile(join(root, rel)),
    write: (rel, text) => Deno.writeTextFile(join(root, rel), text),
    groups,
    async [Symbol.asyncDispose]() {
      try {
        groups();
        await connected.close();
        for (const pgid of seen) {
          assertEquals(liveInGroup(pgid), 0, `server group ${pgid} survived`);
        }
      } finally {
        await Deno.remove(parent, { recursive: true }).catch(() => {});
      }
    },
  };
}

/** The optional symbolic and IDE tools the language tests exercise, for `included_tools`. */
export const IDE_TOOLS = [
  // Sextant's own tools that the default (Serena 2.1) list leaves out.
  "goto_definition",
  "hover",
  "execute_code_action",
  "project_info",
  "edit",
  "rename_file",
  "type_definition",
  "implementation",
  "find_references",
  "signature_help",
  "completions",
  "call_hierarchy",
  "document_symbols",
  "workspace_symbols",
  "diagnostics",
  "code_actions",
  "list_code_actions",
  "refresh_code_actions",
  "format_file",
  "get_symbol_info",
  "find_symbol_usages",
  "manage_projects",
];
