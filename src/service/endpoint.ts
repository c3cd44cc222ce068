/**
 * Where the per-user service is found: its files live in a folder only the user can enter
 * (`$XDG_RUNTIME_DIR/sextant/`, else `<temp dir>/sextant-<uid>/`). The service listens on a
 * random loopback port and writes the port and a random token to its endpoint file (mode 0600);
 * a front must show the token, so only a process that can read the file (the same user) can
 * connect. (Deno grants Unix-domain sockets only by exact path, `--allow-net=unix:<path>`, which
 * a fixed permission set cannot name for a per-user folder; loopback with a token can be.)
 *
 * The files' names carry Sextant's version and a digest of the environment the service gives its
 * language servers, so a front never reaches a service of another version, nor one that would
 * run its servers with another `PATH` or configuration.
 * @module
 */
import { inFolder } from "../plain_path.ts";
import { privateRuntimeFolder } from "../runtime_folder.ts";
import { servicePath } from "../lsp_path.ts";
import { VERSION } from "../version.ts";

export { ensurePrivateFolder, UnsafeFolderError } from "../runtime_folder.ts";

/** The environment variables that shape what a service does; fronts differing in them do not share. */
export const SERVICE_ENV_KEYS = ["HOME", "XDG_CONFIG_HOME", "SEXTANT_LSP_PATH", "PATH"] as const;

export interface ServicePaths {
  /** The private folder (mode 0700). */
  dir: string;
  /** The endpoint file: the service's port, token, pid and version (mode 0600). */
  endpoint: string;
  /** Held (flock) by the running service: two services never serve one socket. */
  lock: string;
  /** The service's log (its stderr). */
  log: string;
}

/**
 * A short digest of the variables in {@linkcode SERVICE_ENV_KEYS} (FNV-1a, 64 bits: a name, not
 * a secret; the front stays free of Node's crypto module, which costs it memory). The 64 bits are
 * two 32-bit halves in plain numbers: the same hash with BigInt took the front 5–40 ms on its
 * first run, where this takes a fraction of one.
 */
export function environmentDigest(env: (key: string) => string | undefined): string {
  // PATH as the service runs with it (SEXTANT_LSP_PATH's folders first), so that the front and
  // the service it started name the same files.
  const value = (key: string) =>
    key === "PATH" && env("SEXTANT_LSP_PATH")
      ? servicePath(env("SEXTANT_LSP_PATH"), env("PATH"))
      : env(key) ?? "";
  const bytes = new TextEncoder().encode(
    SERVICE_ENV_KEYS.map((key) => `${key}=${value(key)}`).join("\0"),
  );
  // The offset basis 0xcbf29ce484222325; the prime is 2^40 + 0x1b3, so hash * prime is
  // hash * 0x1b3 plus the low half shifted into the high one by 8 (the rest passes 64 bits).
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (const byte of bytes) {
    low ^= byte;
    const lowProduct = (low >>> 0) * 0x1b3;
    high = (Math.imul(high, 0x1b3) + Math.floor(lowProduct / 0x1_0000_0000) + (low << 8)) >>> 0;
    low = lowProduct >>> 0;
  }
  return (high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0")).slice(0, 12);
}

/**
 * The service's paths for this user, version and environment; the folder is created (0700) or
 * checked. `env` defaults to the process environment.
 */
export function servicePaths(
  env: (key: string) => string | undefined = (key) => Deno.env.get(key),
): ServicePaths {
  const dir = privateRuntimeFolder(env);
  const name = `sextant-${VERSION}-${environmentDigest(env)}`;
  return {
    dir,
    endpoint: inFolder(dir, `${name}.json`),
    lock: inFolder(dir, `${name}.lock`),
    log: inFolder(dir, `${name}.log`),
  };
}

/** What the endpoint file holds. */
export interface Endpoint {
  version: string;
  pid: number;
  port: number;
  token: string;
}

/** The endpoint the service wrote, or null when there is none (or it cannot be read). */
export function readEndpoint(paths: ServicePaths): Endpoint | null {
  try {
    const value = JSON.parse(Deno.readTextFileSync(paths.endpoint)) as Partial<Endpoint>;
    if (typeof value.port !== "number" || typeof value.token !== "string") return null;
    return value as Endpoint;
  } catch {
    return null;
  }
}

/** Write the endpoint file atomically, readable by its owner only. */
export function writeEndpoint(paths: ServicePaths, endpoint: Endpoint): void {
  const temporary = `${paths.endpoint}.${endpoint.pid}.tmp`;
  Deno.writeTextFileSync(temporary, JSON.stringify(endpoint), { mode: 0o600 });
  Deno.chmodSync(temporary, 0o600);
  Deno.renameSync(temporary, paths.endpoint);
}

/** A random token for the endpoint. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compare tokens in time that does not depend on where they differ. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The endpoint files of every service of this version in the user's folder (services started
 * from different environments run side by side), for `sextant service status|stop`.
 */
export function allServicePaths(
  env: (key: string) => string | undefined = (key) => Deno.env.get(key),
): ServicePaths[] {
  const own = servicePaths(env);
  const prefix = `sextant-${VERSION}-`;
  const found: ServicePaths[] = [];
  for (const entry of Deno.readDirSync(own.dir)) {
    if (!entry.name.startsWith(prefix) || !entry.name.endsWith(".json")) continue;
    const name = entry.name.slice(0, -".json".length);
    found.push({
      dir: own.dir,
      endpoint: inFolder(own.dir, entry.name),
      lock: inFolder(own.dir, `${name}.lock`),
      log: inFolder(own.dir, `${name}.log`),
    });
  }
  return found;
}
