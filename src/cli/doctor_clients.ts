/**
 * The MCP clients part of `sextant doctor`: which clients have a config file here (per user,
 * and in the project), whether each has a `sextant` entry, and whether that entry's command can
 * be found (an absolute path that exists, or a name on PATH).
 * @module
 */
import { delimiter, isAbsolute, join } from "node:path";
import { jsonc, parseToml } from "../deps.ts";
import { CLIENT_IDS, type ClientEnv, CLIENTS, mcpConfigPath, type Scope } from "./clients.ts";
import { SERVER_NAME } from "./setup.ts";

/** One client config found on this machine. */
export interface ClientFinding {
  label: string;
  scope: Scope;
  path: string;
  /** The `sextant` entry's command, null when there is no entry, undefined when unreadable. */
  command: string | null | undefined;
  /** Where the command was found, or null. */
  found: string | null;
}

/** The command's file: itself when absolute, else the first match on `path` (a PATH value). */
export function findCommand(
  command: string,
  path: string,
  windows = Deno.build.os === "windows",
): string | null {
  const exists = (file: string) => {
    try {
      return Deno.statSync(file).isFile;
    } catch {
      return false;
    }
  };
  if (isAbsolute(command)) return exists(command) ? command : null;
  const names = windows ? [command, `${command}.exe`, `${command}.cmd`] : [command];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const name of names) if (exists(join(dir, name))) return join(dir, name);
  }
  return null;
}

function entryOf(text: string, format: "json" | "toml", key: string): unknown {
  const errors: jsonc.ParseError[] = [];
  const doc = format === "toml"
    ? parseToml(text) as Record<string, unknown>
    : jsonc.parse(text, errors, { allowTrailingComma: true }) as Record<string, unknown>;
  if (errors.length > 0) throw new SyntaxError("Not valid JSON.");
  const servers = doc?.[key];
  return servers && typeof servers === "object"
    ? (servers as Record<string, unknown>)[SERVER_NAME] ?? null
    : null;
}

/** Every client config present for the user and in `project`, with its Sextant entry. */
export function findClients(env: ClientEnv, project: string, path: string): ClientFinding[] {
  const findings: ClientFinding[] = [];
  for (const id of CLIENT_IDS) {
    const client = CLIENTS[id];
    for (const scope of client.scopes) {
      const file = mcpConfigPath(id, scope, env, project);
      let text: string;
      try {
        text = Deno.readTextFileSync(file);
      } catch {
        continue;
      }
      let command: string | null | undefined;
      try {
        const entry = entryOf(text, client.format, client.key) as { command?: unknown } | null;
        command = entry === null
          ? null
          : typeof entry.command === "string"
          ? entry.command
          : undefined;
      } catch {
        command = undefined;
      }
      const found = typeof command === "string" ? findCommand(command, path) : null;
      findings.push({ label: client.label, scope, path: file, command, found });
    }
  }
  return findings;
}

/** The doctor's lines about clients. */
export function clientLines(env: ClientEnv, project: string, path: string): string[] {
  const findings = findClients(env, project, path);
  if (findings.length === 0) {
    return ["clients: no MCP client config found (set one up with: sextant setup <client>)"];
  }
  return findings.map((f) => {
    const where = `client ${f.label} (${f.scope}): ${f.path}`;
    if (f.command === undefined) return `${where}: cannot read its sextant entry`;
    if (f.command === null) return `${where}: no sextant entry (sextant setup)`;
    return f.found
      ? `${where}: sextant entry ok, starts ${f.found}`
      : `${where}: sextant entry starts '${f.command}', which is not found (run sextant setup again)`;
  });
}
