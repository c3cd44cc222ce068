/**
 * The configuration schema, shared by the global file (`$XDG_CONFIG_HOME/sextant/config.jsonc`)
 * and the project file (`<root>/.sextant/project.jsonc`). Keys are snake_case like Serena's.
 * @module
 */
import { z } from "../deps_start.ts";

export const LanguageServerConfigSchema = z.strictObject({
  command: z.string().min(1).optional().describe(
    "Executable to start (name on PATH or absolute path); required for a new language, " +
      "optional when overriding or disabling a built-in one (typescript, python, ...).",
  ),
  args: z.array(z.string()).optional(),
  extensions: z.array(z.string()).optional().describe('File extensions, e.g. [".ts", ".tsx"].'),
  language_id: z.string().optional(),
  initialization_options: z.unknown().optional(),
  settings: z.unknown().optional(),
  disabled: z.boolean().optional(),
});
export type LanguageServerConfig = z.infer<typeof LanguageServerConfigSchema>;

/** Markers classify tools; contexts and modes select tool sets by them (as Serena does). */
export const MarkerSchema = z.enum([
  "can-edit",
  "symbolic-read",
  "symbolic-edit",
  "optional",
  "no-project",
]);
export type Marker = z.infer<typeof MarkerSchema>;

/** A context or mode: data, not code. Either may be defined or overridden in config. */
export const ToolSetDefinitionSchema = z.strictObject({
  description: z.string().optional(),
  prompt: z.string().optional(),
  included_tools: z.array(z.string()).optional(),
  excluded_tools: z.array(z.string()).optional(),
  included_markers: z.array(MarkerSchema).optional(),
  excluded_markers: z.array(MarkerSchema).optional(),
});
export type ToolSetDefinition = z.infer<typeof ToolSetDefinitionSchema>;

export const RegisteredProjectSchema = z.strictObject({
  name: z.string().min(1),
  path: z.string().min(1),
});
export type RegisteredProject = z.infer<typeof RegisteredProjectSchema>;

/**
 * Where a project's SCIP index comes from, when not from the project itself: a file path, or a
 * URL (`http:`/`https:`) downloaded into the project's cache. Global config only: a repository's
 * own config may not make Sextant read a file elsewhere on the machine or download anything.
 */
export const ScipIndexSourceSchema = z.union([
  z.string().min(1),
  z.strictObject({
    path: z.string().min(1).optional(),
    url: z.string().regex(/^https?:\/\//i, "an http: or https: URL").optional(),
    manifest_url: z.string().regex(/^https?:\/\//i, "an http: or https: URL").optional()
      .describe("The manifest's URL; default: the index's URL with `.files` appended."),
    max_bytes: z.number().int().positive().optional().describe(
      "The largest index a download accepts (default 2 GiB).",
    ),
  }).refine((v) => (v.path === undefined) !== (v.url === undefined), {
    message: "give exactly one of 'path' and 'url'",
  }),
]);
export type ScipIndexSource = z.infer<typeof ScipIndexSourceSchema>;

export const SettingsSchema = z.strictObject({
  encoding: z.string().optional(),
  ignored_paths: z.array(z.string()).optional(),
  included_paths: z.array(z.string()).optional().describe(
    "Folders (gitignore syntax) that are the project's code though they look like an " +
      "environment, a cache, build output or vendored dependencies.",
  ),
  ignore_all_files_in_gitignore: z.boolean().optional(),
  default_max_tool_answer_chars: z.number().int().positive().optional(),
  tool_timeout: z.number().positive().optional().describe("Seconds before a tool call fails."),
  read_only: z.boolean().optional(),
  included_tools: z.array(z.string()).optional(),
  excluded_tools: z.array(z.string()).optional(),
  context: z.string().optional(),
  modes: z.array(z.string()).optional(),
  enable_shell: z.boolean().optional(),
  log_level: z.enum(["debug", "info", "warn", "error", "off"]).optional(),
  language_servers: z.record(z.string(), LanguageServerConfigSchema).optional(),
  contexts: z.record(z.string(), ToolSetDefinitionSchema).optional(),
  mode_definitions: z.record(z.string(), ToolSetDefinitionSchema).optional(),
  projects: z.array(RegisteredProjectSchema).optional(),
  agent_interface: z.string().toLowerCase().pipe(z.enum(["tools", "repl"])).optional().describe(
    "tools: one MCP tool per tool (default); repl: code mode, one `repl` tool running TypeScript.",
  ),
  repl_timeout: z.number().positive().optional().describe("Default seconds per repl call."),
  included_apis: z.array(z.string()).optional().describe("Code mode: only these facades of s."),
  excluded_apis: z.array(z.string()).optional().describe("Code mode: facades of s to leave out."),
  memories: z.enum(["shared", "worktree"]).optional().describe(
    "In a git worktree: share the main checkout's memories (shared) or keep its own (worktree).",
  ),
  hook_search_limit: z.number().int().min(0).optional().describe(
    "Text searches or whole-file reads in a row before the pre-tool-use hook denies one; 0 = off.",
  ),
  scip_indexes: z.record(z.string(), ScipIndexSourceSchema).optional().describe(
    "Global config only. Project root → its SCIP index built in CI: a path, a URL, or " +
      "{path} / {url, manifest_url?, max_bytes?} (docs/scale.md).",
  ),
  report_new_diagnostics: z.union([z.boolean(), z.literal("wait")]).optional().describe(
    "Editing tools report the errors their edit introduced: true (default) in the edit's answer " +
      'when ready within about 2 s, else in the next answer; "wait": always in the edit\'s own ' +
      "answer; false: never.",
  ),
});
export type SettingsFile = z.infer<typeof SettingsSchema>;

/** Settings after layering: every field has a value. */
export interface Settings {
  encoding: string;
  ignored_paths: string[];
  included_paths: string[];
  ignore_all_files_in_gitignore: boolean;
  default_max_tool_answer_chars: number;
  tool_timeout: number;
  read_only: boolean;
  included_tools: string[];
  excluded_tools: string[];
  context: string;
  modes: string[];
  enable_shell: boolean;
  log_level: "debug" | "info" | "warn" | "error" | "off";
  language_servers: Record<string, LanguageServerConfig>;
  contexts: Record<string, ToolSetDefinition>;
  mode_definitions: Record<string, ToolSetDefinition>;
  projects: RegisteredProject[];
  agent_interface: "tools" | "repl";
  repl_timeout: number;
  included_apis: string[];
  excluded_apis: string[];
  memories: "shared" | "worktree";
  hook_search_limit: number;
  report_new_diagnostics: boolean | "wait";
  scip_indexes: Record<string, ScipIndexSource>;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  encoding: "utf-8",
  ignored_paths: [],
  included_paths: [],
  ignore_all_files_in_gitignore: true,
  default_max_tool_answer_chars: 150_000,
  tool_timeout: 240,
  read_only: false,
  included_tools: [],
  excluded_tools: [],
  context: "desktop-app",
  modes: ["interactive", "editing"],
  enable_shell: false,
  log_level: "info",
  language_servers: {},
  contexts: {},
  mode_definitions: {},
  projects: [],
  agent_interface: "tools",
  repl_timeout: 120,
  included_apis: [],
  excluded_apis: [],
  memories: "shared",
  hook_search_limit: 3,
  report_new_diagnostics: true,
  scip_indexes: {},
});

/** Keys whose lists add up across layers instead of replacing each other. */
const ADDITIVE_KEYS = [
  "ignored_paths",
  "included_paths",
  "included_tools",
  "excluded_tools",
  "included_apis",
  "excluded_apis",
] as const;
/** Keys whose records merge entry by entry across layers. */
const RECORD_KEYS = ["language_servers", "contexts", "mode_definitions", "scip_indexes"] as const;

/** Layer `over` on top of `base`: scalars replace, some lists add, records merge by key. */
export function layerSettings(base: Settings, over: SettingsFile): Settings {
  const result: Settings = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    (result as unknown as Record<string, unknown>)[key] = value;
  }
  for (const key of ADDITIVE_KEYS) {
    if (over[key]) result[key] = [...new Set([...base[key], ...over[key]])];
  }
  for (const key of RECORD_KEYS) {
    if (over[key]) result[key] = { ...base[key], ...over[key] } as never;
  }
  // A server's entry merges key by key too: the program comes from the user's layer, and a
  // project may still give that server its file extensions or turn it off.
  for (const [id, entry] of Object.entries(over.language_servers ?? {})) {
    result.language_servers[id] = { ...base.language_servers[id], ...entry };
  }
  return result;
}
