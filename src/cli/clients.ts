/**
 * The MCP clients `sextant setup` and `sextant doctor` know: where each keeps its MCP servers
 * (per user and per project, as the client documents it), in which format, under which key, and
 * the Sextant context meant for it.
 * @module
 */
import { join } from "node:path";
import { isDenoCli } from "../executables.ts";

/** The clients, by the names `sextant setup <client>` takes. */
export const CLIENT_IDS = [
  "claude-code",
  "codex",
  "cursor",
  "vscode",
  "claude-desktop",
  "gemini-cli",
] as const;

/** One of {@linkcode CLIENT_IDS}. */
export type ClientId = typeof CLIENT_IDS[number];

/** Where a config lives: the user's own, or the project's (checked in, shared with the team). */
export type Scope = "user" | "project";

/** What Sextant knows of one client. */
export interface ClientInfo {
  id: ClientId;
  label: string;
  /** The Sextant context for it (`--context`). */
  context: string;
  /** The scopes it has a config file for. */
  scopes: readonly Scope[];
  format: "json" | "toml";
  /** The key (JSON) or table (TOML) holding its MCP servers. */
  key: string;
  /** Whether `--hooks` can install hooks for it. */
  hooks: boolean;
}

/** Every client, by id. */
export const CLIENTS: Readonly<Record<ClientId, ClientInfo>> = {
  "claude-code": {
    id: "claude-code",
    label: "Claude Code",
    context: "claude-code",
    scopes: ["user", "project"],
    format: "json",
    key: "mcpServers",
    hooks: true,
  },
  codex: {
    id: "codex",
    label: "Codex",
    context: "codex",
    scopes: ["user", "project"],
    format: "toml",
    key: "mcp_servers",
    hooks: true,
  },
  cursor: {
    id: "cursor",
    label: "Cursor",
    context: "ide",
    scopes: ["user", "project"],
    format: "json",
    key: "mcpServers",
    hooks: false,
  },
  vscode: {
    id: "vscode",
    label: "VS Code",
    context: "ide",
    scopes: ["user", "project"],
    format: "json",
    key: "servers",
    hooks: false,
  },
  "claude-desktop": {
    id: "claude-desktop",
    label: "Claude Desktop",
    context: "desktop-app",
    scopes: ["user"],
    format: "json",
    key: "mcpServers",
    hooks: false,
  },
  "gemini-cli": {
    id: "gemini-cli",
    label: "Gemini CLI",
    context: "agent",
    scopes: ["user", "project"],
    format: "json",
    key: "mcpServers",
    hooks: false,
  },
};

/** Whether `name` is a known client id. */
export function isClientId(name: string): name is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(name);
}

/** The environment the config locations depend on; tests pass their own. */
export interface ClientEnv {
  /** The user's home folder. */
  home: string;
  os: typeof Deno.build.os;
  /** An environment variable (`CODEX_HOME`, `CLAUDE_CONFIG_DIR`, `APPDATA`, `XDG_CONFIG_HOME`). */
  get(name: string): string | undefined;
}

/** The environment of this process. */
export function processEnv(): ClientEnv {
  const values: Record<string, string | undefined> = {
    CODEX_HOME: Deno.env.get("CODEX_HOME"),
    CLAUDE_CONFIG_DIR: Deno.env.get("CLAUDE_CONFIG_DIR"),
    APPDATA: Deno.env.get("APPDATA"),
    XDG_CONFIG_HOME: Deno.env.get("XDG_CONFIG_HOME"),
  };
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!home) {
    throw new TypeError("Cannot find your home folder: set HOME (USERPROFILE on Windows).");
  }
  return { home, os: Deno.build.os, get: (name) => values[name] || undefined };
}

/** The per-user application-data folder (`~/.config`, `~/Library/Application Support`, `%APPDATA%`). */
function appData(env: ClientEnv): string {
  if (env.os === "darwin") return join(env.home, "Library", "Application Support");
  if (env.os === "windows") return env.get("APPDATA") ?? join(env.home, "AppData", "Roaming");
  return env.get("XDG_CONFIG_HOME") ?? join(env.home, ".config");
}

/** Claude Code's folder of user settings (`~/.claude`, or `$CLAUDE_CONFIG_DIR`). */
function claudeDir(env: ClientEnv): string {
  return env.get("CLAUDE_CONFIG_DIR") ?? join(env.home, ".claude");
}

/**
 * The file holding a client's MCP servers for `scope`; `project` is the project folder (for the
 * project scope). Throws a TypeError when the client has no config of that scope.
 */
export function mcpConfigPath(
  client: ClientId,
  scope: Scope,
  env: ClientEnv,
  project: string,
): string {
  if (!CLIENTS[client].scopes.includes(scope)) {
    throw new TypeError(
      `${CLIENTS[client].label} has no ${scope} config; use --scope ${CLIENTS[client].scopes[0]}.`,
    );
  }
  const user = scope === "user";
  switch (client) {
    case "claude-code":
      if (!user) return join(project, ".mcp.json");
      return join(env.get("CLAUDE_CONFIG_DIR") ?? env.home, ".claude.json");
    case "codex":
      return user
        ? join(env.get("CODEX_HOME") ?? join(env.home, ".codex"), "config.toml")
        : join(project, ".codex", "config.toml");
    case "cursor":
      return join(user ? env.home : project, ".cursor", "mcp.json");
    case "vscode":
      return user
        ? join(appData(env), "Code", "User", "mcp.json")
        : join(project, ".vscode", "mcp.json");
    case "claude-desktop":
      return join(appData(env), "Claude", "claude_desktop_config.json");
    case "gemini-cli":
      return join(user ? env.home : project, ".gemini", "settings.json");
  }
}

/** The file holding a client's hooks for `scope`, or null when Sextant installs none for it. */
export function hooksConfigPath(
  client: ClientId,
  scope: Scope,
  env: ClientEnv,
  project: string,
): string | null {
  if (client === "claude-code") {
    return scope === "user"
      ? join(claudeDir(env), "settings.json")
      : join(project, ".claude", "settings.json");
  }
  if (client === "codex") return mcpConfigPath(client, scope, env, project);
  return null;
}

/** The MCP server entry a client gets: its own shape around command and arguments. */
export function serverEntry(
  client: ClientId,
  command: string,
  args: readonly string[],
): Record<string, unknown> {
  // `claude mcp add` writes exactly this; VS Code wants the transport type.
  if (client === "claude-code") return { type: "stdio", command, args: [...args], env: {} };
  if (client === "vscode") return { type: "stdio", command, args: [...args] };
  return { command, args: [...args] };
}

/**
 * Whether an existing entry starts some Sextant (an earlier setup, another install, a
 * hand-written one): `setup` replaces those, and refuses to replace anything else without
 * `--force`.
 */
export function looksLikeSextant(entry: unknown): boolean {
  if (!entry || typeof entry !== "object") return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return false;
  const program = command.split(/[\\/]/).pop() ?? "";
  if (/^sextant([-.].*)?$/i.test(program)) return true;
  const words = Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : [];
  return isDenoCli(program) && words.some((a) => /(^|[\\/])main\.ts$/.test(a)) &&
    words.includes("--context");
}
