/**
 * `sextant setup <client> [--scope user|project] [--dry-run] [--force] [--hooks]`: register
 * Sextant with an MCP client in the client's own config file, started the way this Sextant is
 * installed, with the client's context and no pinned project (the server follows the client's
 * roots or working folder). Idempotent; keeps `<file>.bak` of a file it changes; never replaces
 * an entry named `sextant` that is not Sextant's without `--force`. JSON files are edited with
 * jsonc-parser (comments and formatting kept), TOML with the small table editor beside this.
 * @module
 */
import { delimiter, dirname, join } from "node:path";
import { jsonc, parseToml } from "../deps.ts";
import { unifiedDiff } from "../edit/diff.ts";
import { writeFileAtomic } from "../edit/text_file.ts";
import type { CliOptions } from "../config/cli_options.ts";
import { UsageError } from "./args.ts";
import { callerFolder, callerPath, currentPlace } from "../project/caller_folder.ts";
import {
  CLIENT_IDS,
  type ClientEnv,
  type ClientId,
  CLIENTS,
  hooksConfigPath,
  isClientId,
  looksLikeSextant,
  mcpConfigPath,
  processEnv,
  type Scope,
  serverEntry,
} from "./clients.ts";
import { commandLine, type Launch, sextantLaunch, shellQuote } from "./launch.ts";
import { hasPrefix, renderTable, replaceRanges, tomlTables } from "./toml_edit.ts";

/** The name Sextant is registered under in every client. */
export const SERVER_NAME = "sextant";

/** A refusal or a file Sextant cannot edit: the message says what to do. */
export class SetupError extends Error {
  override name = "SetupError";
}

/** Options of {@linkcode runSetup}. */
export interface SetupOptions {
  client: ClientId;
  /** `user` (default) or `project`. */
  scope?: Scope;
  /** The project folder for the project scope (default: the current directory). */
  project?: string;
  /** Print the change and write nothing. */
  dryRun?: boolean;
  /** Replace an entry named `sextant` that does not start Sextant. */
  force?: boolean;
  /** Also install the hooks, for clients that have them. */
  hooks?: boolean;
  /** Where the client configs are (default: this process's HOME and variables). */
  env?: ClientEnv;
  /** How to start Sextant (default: the way this process was started). */
  launch?: Launch;
  /** Use `claude mcp add` when `claude` is on PATH (default true). */
  useClaudeCli?: boolean;
  /** Receives each line of output (default: stdout). */
  write?: (line: string) => void;
}

/** One file's planned change. */
interface FileChange {
  path: string;
  before: string | null;
  after: string;
  what: string[];
}

/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
  );
}

async function readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** The indentation and line ending a JSON text already uses (2 spaces and `\n` for a new one). */
function jsonFormatting(text: string): jsonc.FormattingOptions {
  const indent = text.match(/^[ \t]+(?=\S)/m)?.[0] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

function parseJsonConfig(text: string, path: string): jsonc.Node | undefined {
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || (tree && tree.type !== "object")) {
    throw new SetupError(
      `Cannot edit ${path}: it is not valid JSON${
        errors[0] ? ` (at offset ${errors[0].offset})` : ""
      }. ` +
        "Fix it or move it away, then run setup again.",
    );
  }
  return tree;
}

function setJson(text: string, path: jsonc.JSONPath, value: unknown, insert = false): string {
  const edits = jsonc.modify(text, path, value, {
    formattingOptions: jsonFormatting(text),
    isArrayInsertion: insert,
  });
  return jsonc.applyEdits(text, edits);
}

function refuse(path: string, entry: unknown): never {
  const command = (entry as { command?: unknown } | null)?.command;
  throw new SetupError(
    `${path} already has an MCP server named '${SERVER_NAME}' that does not start Sextant` +
      (typeof command === "string" ? ` (command: ${command})` : "") +
      ". Run again with --force to replace it.",
  );
}

/** Put `entry` under `<key>.sextant` of a JSON config. */
function editJsonServer(
  text: string | null,
  path: string,
  key: string,
  entry: Record<string, unknown>,
  force: boolean,
): { after: string; what: string | null } {
  const base = text ?? "{}\n";
  const tree = parseJsonConfig(base, path);
  const node = tree && jsonc.findNodeAtLocation(tree, [key, SERVER_NAME]);
  const existing = node ? jsonc.getNodeValue(node) : undefined;
  if (existing !== undefined && jsonEqual(existing, entry)) return { after: base, what: null };
  if (existing !== undefined && !force && !looksLikeSextant(existing)) refuse(path, existing);
  const after = setJson(base, [key, SERVER_NAME], entry);
  return { after, what: `${existing === undefined ? "add" : "update"} ${key}.${SERVER_NAME}` };
}

/** Put `[mcp_servers.sextant]` in a TOML config. */
function editTomlServer(
  text: string | null,
  path: string,
  key: string,
  entry: Record<string, unknown>,
  force: boolean,
): { after: string; what: string | null } {
  const base = text ?? "";
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(base) as Record<string, unknown>;
  } catch (error) {
    throw new SetupError(
      `Cannot edit ${path}: it is not valid TOML (${(error as Error).message.split("\n")[0]}). ` +
        "Fix it or move it away, then run setup again.",
    );
  }
  const existing = (doc[key] as Record<string, unknown> | undefined)?.[SERVER_NAME];
  if (existing !== undefined && jsonEqual(existing, entry)) return { after: base, what: null };
  if (existing !== undefined && !force && !looksLikeSextant(existing)) refuse(path, existing);
  const lines = base === "" ? [] : base.replace(/\r?\n$/, "").split(/\r?\n/);
  const ranges = tomlTables(lines).filter((t) => hasPrefix(t.path, [key, SERVER_NAME]));
  if (existing !== undefined && ranges.length === 0) {
    throw new SetupError(
      `${path} defines '${key}.${SERVER_NAME}' without a [${key}.${SERVER_NAME}] table; ` +
        "edit it by hand or remove it, then run setup again.",
    );
  }
  const after = replaceRanges(base, ranges, renderTable([key, SERVER_NAME], entry));
  return { after, what: `${existing === undefined ? "add" : "update"} [${key}.${SERVER_NAME}]` };
}

/** The hook events Sextant installs, per client: the client's event name, matcher, our name. */
const HOOK_EVENTS: ReadonlyArray<{ event: string; matcher?: string; ours: string }> = [
  { event: "PreToolUse", ours: "pre-tool-use" },
  { event: "PostToolUse", matcher: "mcp__sextant__.*", ours: "post-tool-use" },
  { event: "SessionStart", ours: "session-start" },
  { event: "SessionEnd", ours: "session-end" },
];

/** Whether a hook command is one `sextant setup` wrote. */
export function isSextantHookCommand(command: unknown): boolean {
  return typeof command === "string" &&
    /\shook (pre-tool-use|post-tool-use|session-start|session-end) --client \S+$/.test(command);
}

/** How long a client waits for one of our hooks, in seconds (they answer in milliseconds). */
const HOOK_TIMEOUT_S = 10;

function hookCommand(launch: Launch, client: ClientId, ours: string): string {
  return commandLine(launch, ["hook", ours, "--client", client]);
}

/** Claude Code's `hooks` in settings.json: one group per event, ours found by its command. */
function editJsonHooks(
  text: string | null,
  path: string,
  launch: Launch,
): { after: string; what: string | null } {
  let current = text ?? "{}\n";
  const changed: string[] = [];
  for (const { event, matcher, ours } of HOOK_EVENTS) {
    const tree = parseJsonConfig(current, path);
    const groupsNode = tree && jsonc.findNodeAtLocation(tree, ["hooks", event]);
    const groups = groupsNode ? jsonc.getNodeValue(groupsNode) : undefined;
    const desired = {
      ...(matcher ? { matcher } : {}),
      hooks: [{
        type: "command",
        command: hookCommand(launch, "claude-code", ours),
        timeout: HOOK_TIMEOUT_S,
      }],
    };
    if (groups !== undefined && !Array.isArray(groups)) {
      throw new SetupError(`Cannot add hooks to ${path}: 'hooks.${event}' is not a list.`);
    }
    const index = (groups ?? []).findIndex((g: { hooks?: Array<{ command?: unknown }> }) =>
      Array.isArray(g?.hooks) && g.hooks.some((h) => isSextantHookCommand(h?.command))
    );
    if (index >= 0 && jsonEqual(groups[index], desired)) continue;
    if (index >= 0) current = setJson(current, ["hooks", event, index], desired);
    else if (groups === undefined) current = setJson(current, ["hooks", event], [desired]);
    else current = setJson(current, ["hooks", event, groups.length], desired, true);
    changed.push(event);
  }
  return { after: current, what: changed.length ? `hooks ${changed.join(", ")}` : null };
}

/** Codex's `[[hooks.<Event>]]` tables in config.toml, ours found by their command. */
function editTomlHooks(
  text: string | null,
  launch: Launch,
): { after: string; what: string | null } {
  const base = text ?? "";
  const lines = base === "" ? [] : base.replace(/\r?\n$/, "").split(/\r?\n/);
  const tables = tomlTables(lines);
  const ranges: Array<{ start: number; end: number }> = [];
  tables.forEach((table, i) => {
    if (!table.array || table.path.length !== 2 || table.path[0] !== "hooks") return;
    const handlers: typeof tables = [];
    for (let j = i + 1; j < tables.length; j++) {
      const next = tables[j]!;
      if (next.path.length === 3 && hasPrefix(next.path, [...table.path, "hooks"])) {
        handlers.push(next);
      } else break;
    }
    const ours = handlers.some((h) =>
      lines.slice(h.start, h.end).some((line) => {
        const value = line.match(/^\s*command\s*=\s*("(?:[^"\\]|\\.)*")/)?.[1];
        return value !== undefined && isSextantHookCommand(JSON.parse(value));
      })
    );
    if (ours) ranges.push({ start: table.start, end: (handlers.at(-1) ?? table).end });
  });
  const block = HOOK_EVENTS.map(({ event, matcher, ours }) =>
    renderTable(["hooks", event], matcher ? { matcher } : {}, true) +
    renderTable(["hooks", event, "hooks"], {
      type: "command",
      command: hookCommand(launch, "codex", ours),
      timeout: HOOK_TIMEOUT_S,
    }, true)
  ).join("\n");
  const existing = ranges.map((r) => lines.slice(r.start, r.end).join("\n").trim()).join("\n\n");
  if (existing === block.trim()) return { after: base, what: null };
  return { after: replaceRanges(base, ranges, block), what: "hooks" };
}

/** Where `claude` is on PATH, or null. */
function findOnPath(program: string): string | null {
  const dirs = (Deno.env.get("PATH") ?? "").split(delimiter).filter(Boolean);
  const names = Deno.build.os === "windows" ? [`${program}.exe`, `${program}.cmd`] : [program];
  for (const dir of dirs) {
    for (const name of names) {
      try {
        if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
      } catch { /* not here */ }
    }
  }
  return null;
}

async function runClaude(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("claude", {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr).trim() ||
      new TextDecoder().decode(out.stdout).trim();
    throw new SetupError(`'claude ${args.slice(0, 2).join(" ")}' failed: ${text}`);
  }
}

async function writeChange(change: FileChange): Promise<void> {
  await Deno.mkdir(dirname(change.path), { recursive: true });
  let mode: number | null = null;
  if (change.before !== null) {
    mode = (await Deno.stat(change.path)).mode;
    await Deno.writeTextFile(`${change.path}.bak`, change.before, { mode: mode ?? 0o600 });
  }
  await writeFileAtomic(change.path, new TextEncoder().encode(change.after), mode);
}

/**
 * Set Sextant up for one client; resolves to the exit code (0: done or nothing to do).
 * Throws a {@linkcode SetupError} when it refuses.
 *
 * @example
 * ```ts ignore
 * await runSetup({ client: "cursor", scope: "project", project: "/src/app", dryRun: true });
 * ```
 */
export async function runSetup(options: SetupOptions): Promise<number> {
  const write = options.write ?? ((line: string) => console.log(line));
  const client = CLIENTS[options.client];
  const scope = options.scope ?? "user";
  const project = options.project ?? callerFolder(currentPlace());
  const env = options.env ?? processEnv();
  const launch = options.launch ?? sextantLaunch();
  const force = options.force ?? false;
  let mcpPath: string;
  try {
    mcpPath = mcpConfigPath(client.id, scope, env, project);
  } catch (error) {
    throw new SetupError((error as Error).message);
  }
  const args = [...launch.args, "--context", client.context];
  const entry = serverEntry(client.id, launch.command, args);

  const changes = new Map<string, FileChange>();
  const change = async (path: string) => {
    let found = changes.get(path);
    if (!found) {
      const before = await readText(path);
      found = { path, before, after: before ?? "", what: [] };
      changes.set(path, found);
    }
    return found;
  };
  const server = await change(mcpPath);
  const edit = client.format === "toml"
    ? editTomlServer(server.before, mcpPath, client.key, entry, force)
    : editJsonServer(server.before, mcpPath, client.key, entry, force);
  if (edit.what) {
    server.after = edit.after;
    server.what.push(edit.what);
  }
  if (options.hooks) {
    const hooksPath = hooksConfigPath(client.id, scope, env, project);
    if (!hooksPath) {
      write(`${client.label} has no hooks Sextant can install; registering the server only.`);
    } else {
      const hooks = await change(hooksPath);
      const base = hooks.what.length > 0 ? hooks.after : hooks.before;
      const result = client.format === "toml"
        ? editTomlHooks(base, launch)
        : editJsonHooks(base, hooksPath, launch);
      if (result.what) {
        hooks.after = result.after;
        hooks.what.push(result.what);
      }
    }
  }

  const pending = [...changes.values()].filter((c) => c.what.length > 0);
  if (pending.length === 0) {
    write(
      `${client.label}: already set up in ${[...changes.keys()].join(" and ")}; nothing to change.`,
    );
    return 0;
  }
  // Claude Code registers servers itself when its CLI is there; we edit only what it does not.
  const claude = client.id === "claude-code" && (options.useClaudeCli ?? true) &&
      server.what.length > 0 && findOnPath("claude")
    ? ["mcp", "add", "--scope", scope, SERVER_NAME, "--", launch.command, ...args]
    : null;
  for (const c of pending) {
    if (options.dryRun) {
      write(`Would ${c.what.join(" and ")} in ${c.path}:`);
      if (c === server && claude) {
        write(`  (by running: claude ${claude.map((w) => shellQuote(w)).join(" ")})`);
      }
      write(unifiedDiff(c.path, c.before ?? "", c.after));
      continue;
    }
    if (c === server && claude) {
      if (c.before !== null) await Deno.writeTextFile(`${c.path}.bak`, c.before);
      const existed = edit.what?.startsWith("update");
      if (existed) await runClaude(["mcp", "remove", "--scope", scope, SERVER_NAME], project);
      await runClaude(claude, project);
      write(
        `${client.label}: ${c.what.join(" and ")} in ${c.path} (with 'claude mcp add')` +
          (c.before !== null ? `; backup in ${c.path}.bak` : ""),
      );
      continue;
    }
    await writeChange(c);
    write(
      `${client.label}: ${c.what.join(" and ")} in ${c.path}` +
        (c.before !== null ? `; backup in ${c.path}.bak` : ""),
    );
  }
  if (options.dryRun) write("Dry run: nothing was written.");
  return 0;
}

/** `sextant setup <client>` from the command line; resolves to the exit code. */
export async function setup(options: CliOptions): Promise<number> {
  const client = options.client ?? "";
  if (!isClientId(client)) {
    throw new UsageError(`Unknown client '${client}'; setup knows ${CLIENT_IDS.join(", ")}.`);
  }
  try {
    return await runSetup({
      client,
      scope: options.scope ?? "user",
      ...(options.project !== undefined
        ? { project: callerPath(currentPlace(), options.project) }
        : {}),
      dryRun: options.dryRun,
      force: options.force,
      hooks: options.hooks,
    });
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    console.error(`sextant setup: ${error.message}`);
    return 1;
  }
}
