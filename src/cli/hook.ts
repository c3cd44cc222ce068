/**
 * `sextant hook <event> --client <client>`: the hooks that keep an agent on Sextant's symbolic
 * tools. The client runs it on its hook events with the event's JSON on stdin (Claude Code's
 * schema; Codex uses the same one) and reads the answer on stdout.
 *
 * - `pre-tool-use`: after N text searches or whole-file reads of source files in a row (3 by
 *   default; `hook_search_limit` in config or `SEXTANT_HOOK_SEARCH_LIMIT`, 0 turns it off), the
 *   next one is denied with a reason that names the Sextant tool answering it.
 * - `post-tool-use`: a Sextant symbolic tool resets the count.
 * - `session-start`: one line of context: the active project and where to start.
 * - `session-end`: removes the session's state.
 *
 * It runs on every tool call, so it loads almost nothing (no MCP SDK, no zod, no tools), and it
 * never breaks the client: on any error it allows the call and prints nothing.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import { classifyToolUse, denyReason } from "./hook_rules.ts";

/** The events `sextant hook` answers. */
export const HOOK_EVENTS = [
  "pre-tool-use",
  "post-tool-use",
  "session-start",
  "session-end",
] as const;
/** One of {@linkcode HOOK_EVENTS}. */
export type HookEvent = typeof HOOK_EVENTS[number];

/** The searches in a row allowed before one is denied, unless configured. */
export const DEFAULT_SEARCH_LIMIT = 3;
/** The environment variable that sets the limit (0 turns the reminder off). */
export const SEARCH_LIMIT_ENV = "SEXTANT_HOOK_SEARCH_LIMIT";
/** State files untouched this long belong to sessions that ended without telling us. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** The part of a hook payload Sextant reads (Claude Code and Codex share these fields). */
interface HookPayload {
  session_id?: unknown;
  cwd?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
}

/** What a session's hooks remember between calls. */
interface HookState {
  /** Searches and whole-file reads since the last Sextant tool. */
  count: number;
  /** Whether the session used Sextant's `repl` (code mode). */
  repl: boolean;
}

/** Options of {@linkcode runHook}; tests set them, the CLI takes the defaults. */
export interface HookOptions {
  /** The folder for state files (default: see {@linkcode hookStateDir}). */
  stateDir?: string | null;
  /** The limit (default: env, then config, then 3). */
  searchLimit?: number;
}

const isWindows = Deno.build.os === "windows";

/**
 * The per-user folder for hook state: `$XDG_RUNTIME_DIR/sextant/hooks`, else a folder in the
 * system's temporary folder that only this user may enter (mode 0700, owned by the owner of
 * the home folder). Null when there is no safe place: the hooks then keep no state.
 */
export function hookStateDir(): string | null {
  const runtime = Deno.env.get("XDG_RUNTIME_DIR");
  if (runtime) {
    const dir = `${runtime}/sextant/hooks`;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!home) return null;
  if (isWindows) {
    const dir = `${home}\\AppData\\Local\\Temp\\sextant\\hooks`;
    Deno.mkdirSync(dir, { recursive: true });
    return dir;
  }
  const uid = Deno.statSync(home).uid;
  const base = `/tmp/sextant-${uid}`;
  try {
    Deno.mkdirSync(base, { mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = Deno.lstatSync(base);
  if (!info.isDirectory || info.uid !== uid || ((info.mode ?? 0) & 0o077) !== 0) return null;
  Deno.mkdirSync(`${base}/hooks`, { recursive: true, mode: 0o700 });
  return `${base}/hooks`;
}

function stateFile(dir: string, sessionId: string): string {
  return `${dir}/${sessionId.replace(/[^\w-]/g, "_").slice(0, 120)}.json`;
}

function readState(file: string): HookState {
  try {
    const value = JSON.parse(Deno.readTextFileSync(file)) as Partial<HookState>;
    return { count: Number(value.count) || 0, repl: value.repl === true };
  } catch {
    return { count: 0, repl: false };
  }
}

function writeState(file: string, state: HookState): void {
  Deno.writeTextFileSync(file, JSON.stringify(state), { mode: 0o600 });
}

/** Remove state files of sessions that ended long ago without a session-end hook. */
function removeStale(dir: string): void {
  const now = Date.now();
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const path = `${dir}/${entry.name}`;
    const modified = Deno.statSync(path).mtime?.getTime() ?? now;
    if (now - modified > STALE_MS) Deno.removeSync(path);
  }
}

/** `hook_search_limit` of a JSONC config file, if it sets one. */
async function limitInFile(path: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
  if (!text.includes("hook_search_limit")) return undefined;
  // Loaded only when a config mentions the key; deps.ts would bring the whole server along.
  const jsonc = await import("npm:jsonc-parser@3.3.1");
  const value = (jsonc.parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>)
    ?.hook_search_limit;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** The limit: `SEXTANT_HOOK_SEARCH_LIMIT`, else the project's config, else the global one, else 3. */
export async function searchLimit(projectRoot: string | null): Promise<number> {
  const fromEnv = Deno.env.get("SEXTANT_HOOK_SEARCH_LIMIT");
  if (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim())) return Number(fromEnv);
  if (projectRoot) {
    const project = await limitInFile(`${projectRoot}/.sextant/project.jsonc`);
    if (project !== undefined) return project;
  }
  const xdg = Deno.env.get("XDG_CONFIG_HOME");
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  const globalDir = xdg ? `${xdg}/sextant` : home ? `${home}/.config/sextant` : null;
  const global = globalDir ? await limitInFile(`${globalDir}/config.jsonc`) : undefined;
  return global ?? DEFAULT_SEARCH_LIMIT;
}

/** Claude Code's (and Codex's) answer that denies a tool call, with the reason the model sees. */
function denyAnswer(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: `Sextant: ${reason}`,
    },
  });
}

/** Claude Code's (and Codex's) answer that adds context at session start. */
function contextAnswer(text: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text },
  });
}

/**
 * Answer one hook event: the text to print on stdout ("" to allow silently). Throws on bad
 * input; {@linkcode hook} turns every failure into a silent allow.
 */
export async function runHook(
  event: string,
  payloadText: string,
  options: HookOptions = {},
): Promise<string> {
  const payload = JSON.parse(payloadText) as HookPayload;
  if (!payload || typeof payload !== "object") return "";
  const sessionId = typeof payload.session_id === "string" ? payload.session_id : "";
  const cwd = typeof payload.cwd === "string" && payload.cwd !== "" ? payload.cwd : null;
  const dir = options.stateDir === undefined ? hookStateDir() : options.stateDir;
  const file = dir && sessionId ? stateFile(dir, sessionId) : null;

  if (event === "session-start") {
    if (dir) removeStale(dir);
    if (file) writeState(file, { count: 0, repl: false });
    const project = cwd ?? "the folder the client was started in";
    return contextAnswer(
      `Sextant (MCP server 'sextant') serves ${project} as the active project. For code, start ` +
        "with its symbolic tools: get_symbols_overview for a file, find_symbol for a name, " +
        "find_referencing_symbols for its users; read whole files and grep only when those " +
        "do not answer.",
    );
  }
  if (event === "session-end") {
    if (file) await Deno.remove(file).catch(() => {});
    return "";
  }
  if (!file || typeof payload.tool_name !== "string") return "";
  const use = classifyToolUse(payload.tool_name, payload.tool_input);
  if (event === "post-tool-use") {
    if (use.kind !== "sextant") return "";
    const state = readState(file);
    writeState(file, { count: 0, repl: state.repl || use.tool === "repl" });
    return "";
  }
  if (event !== "pre-tool-use" || (use.kind !== "search" && use.kind !== "read")) return "";
  const limit = options.searchLimit ?? await searchLimit(cwd);
  if (limit === 0) return "";
  const state = readState(file);
  if (state.count >= limit) {
    // Deny once, then start counting again: a reminder, not a wall.
    writeState(file, { ...state, count: 0 });
    return denyAnswer(denyReason(use, state.count + 1, state.repl));
  }
  writeState(file, { ...state, count: state.count + 1 });
  return "";
}

/** `sextant hook <event> --client <client>`: read stdin, answer, always exit 0. */
export async function hook(options: CliOptions): Promise<number> {
  try {
    const input = await new Response(Deno.stdin.readable).text();
    const answer = await runHook(options.event ?? "", input);
    if (answer) await Deno.stdout.write(new TextEncoder().encode(answer + "\n"));
  } catch {
    // A hook must never break the client: allow, silently.
  }
  return 0;
}
