/**
 * Real code with dependencies for the language tests and benchmarks: one pinned project per
 * language, fetched from its registry once into `.cache/real/` (gitignored) and copied to a temp
 * folder for each use; an MCP session on such a copy; and a second language server of the same
 * kind on a bare vscode-jsonrpc connection (the RAW server), whose own answers the tests and
 * scripts/bench/languages.ts compare Sextant's with.
 *
 * - Rust: the `csv` crate from crates.io with its own Cargo.lock, every locked package
 *   vendored (`cargo vendor`) and a `.cargo/config.toml` pointing at them, so cargo and
 *   rust-analyzer work offline. Its benchmarks are dropped: they need a nightly compiler.
 * - Go: `github.com/spf13/cobra` from the module proxy, its dependencies in a module cache of
 *   its own (`GOMODCACHE`), used with `GOPROXY=off`.
 * - C: zlib's sources as bundled in the `libz-sys` crate, with a `compile_commands.json` written
 *   for the copy with the flags of libz-sys's build script.
 *
 * A failed download throws an error with the reason; the tests skip with it printed.
 * @module
 */
import { Readable, Writable } from "node:stream";
import { basename, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Location, LocationLink, Position } from "../../src/deps.ts";
// The package's Node.js entry (its stream reader and writer): a bare client, as a user's tool has it.
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "npm:vscode-jsonrpc@10.0.0/node";
import { clientCapabilities } from "../../src/lsp/capabilities.ts";
import { findServerBinary, serverSpecs } from "../../src/lsp/registry.ts";
import { assert, assertEquals } from "./assert.ts";
import { serverGroupsOf } from "./lang.ts";
import { liveInGroup, LSP_CACHE, REPO_ROOT } from "./lsp.ts";
import { connect, type Connected } from "./mcp.ts";

/** Where the real projects are fetched to. */
export const REAL_CACHE = join(REPO_ROOT, ".cache", "real");

/** The pinned real projects. */
export const PINS = {
  rust: { crate: "csv", version: "1.4.0" },
  go: { module: "github.com/spf13/cobra", version: "v1.8.1" },
  c: { crate: "libz-sys", version: "1.1.22", zlib: "1.3.1" },
} as const;

export type RealId = keyof typeof PINS;

/** A prepared real project: a template folder to copy, and the environment its tools need. */
export interface RealProject {
  id: RealId;
  /** e.g. "csv 1.4.0 (crates.io)". */
  label: string;
  /** The copy's folder name. */
  name: string;
  /** The language-server registry id. */
  server: "rust" | "go" | "cpp";
  template: string;
  /** Environment for Sextant, the raw server and the toolchain. */
  env: Record<string, string>;
  /** Runs on each copy (e.g. writes compile_commands.json for its path). */
  finish?: (root: string) => Promise<void>;
}

async function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(cmd, {
      args,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: options.env ?? {},
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
  } catch (error) {
    throw new Error(`cannot run ${cmd}: ${error instanceof Error ? error.message : error}`);
  }
  if (!output.success) {
    const err = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-8).join("\n");
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${output.code}): ${err}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/** Copy a tree; files come out writable whatever their mode was (module caches are read-only). */
export async function copyTree(
  from: string,
  to: string,
  skip: (rel: string) => boolean = () => false,
  rel = "",
): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (skip(childRel)) continue;
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory) await copyTree(src, dst, skip, childRel);
    else if (entry.isFile) {
      await Deno.copyFile(src, dst);
      await Deno.chmod(dst, 0o644);
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Build `dir` once: when its stamp names `pin`, it is ready; else `build` fills a fresh sibling
 * folder that then replaces it (a failed or interrupted build leaves nothing half-made).
 */
export async function once(dir: string, pin: string, build: (tmp: string) => Promise<void>) {
  const stamp = join(dir, ".pin");
  if ((await Deno.readTextFile(stamp).catch(() => "")) === pin) return;
  await Deno.mkdir(REAL_CACHE, { recursive: true });
  const tmp = `${dir}.tmp-${Deno.pid}`;
  await removeTree(tmp);
  try {
    await Deno.mkdir(tmp, { recursive: true });
    await build(tmp);
    await Deno.writeTextFile(join(tmp, ".pin"), pin);
    await removeTree(dir);
    await Deno.rename(tmp, dir);
  } catch (error) {
    await removeTree(tmp);
    // Another process (a test beside the setup) may have built it meanwhile.
    if ((await Deno.readTextFile(stamp).catch(() => "")) === pin) return;
    throw error;
  }
}

/** Remove a tree, read-only folders included (Go's module cache). */
async function removeTree(path: string): Promise<void> {
  if (!(await exists(path))) return;
  await run("chmod", ["-R", "u+w", path], { env: baseEnv() }).catch(() => {});
  await Deno.remove(path, { recursive: true }).catch(() => {});
}

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...Deno.env.toObject(), ...extra };
}

/** `cargo vendor` of a throwaway manifest depending on `deps` (exact pins) into `vendor`. */
async function cargoVendor(tmp: string, deps: string, vendor: string): Promise<void> {
  const fetch = join(tmp, "fetch");
  await Deno.mkdir(join(fetch, "src"), { recursive: true });
  await Deno.writeTextFile(join(fetch, "src", "lib.rs"), "");
  await Deno.writeTextFile(
    join(fetch, "Cargo.toml"),
    `[package]\nname = "sextant-real-fetch"\nversion = "0.0.0"\nedition = "2021"\n\n` +
      `[dependencies]\n${deps}\n\n[workspace]\n`,
  );
  await run("cargo", [
    "vendor",
    "--versioned-dirs",
    "--manifest-path",
    join(fetch, "Cargo.toml"),
    vendor,
  ], { env: baseEnv() });
}

/** The crate's packaged manifest without its benchmarks (they need a nightly compiler). */
export function withoutBenches(text: string): string {
  const out: string[] = [];
  let skip = false;
  for (const line of text.split("\n")) {
    if (/^\s*\[/.test(line)) skip = /^\s*\[\[bench\]\]/.test(line);
    if (!skip) out.push(line);
  }
  return out.join("\n");
}

/**
 * csv from crates.io with its own Cargo.lock, every package of which (dev-dependencies too) is
 * vendored next to it, so cargo and rust-analyzer work offline.
 */
export async function prepareRust(): Promise<RealProject> {
  const { crate, version } = PINS.rust;
  // The real path: the vendor folder's path is written into the project's cargo config, and a
  // path through a symlinked cache (a git worktree's) would break when the link goes.
  await Deno.mkdir(REAL_CACHE, { recursive: true });
  const dir = join(await Deno.realPath(REAL_CACHE), `rust-${crate}-${version}`);
  await once(dir, `${crate}@${version} locked`, async (tmp) => {
    const fetched = join(tmp, "fetched");
    await cargoVendor(tmp, `${crate} = "=${version}"`, fetched);
    const project = join(tmp, "project");
    const source = join(fetched, `${crate}-${version}`);
    await copyTree(
      source,
      project,
      (rel) => ["benches", ".cargo-checksum.json", "Cargo.toml.orig"].includes(rel),
    );
    await Deno.writeTextFile(
      join(project, "Cargo.toml"),
      withoutBenches(await Deno.readTextFile(join(source, "Cargo.toml"))),
    );
    await Deno.remove(join(tmp, "fetch"), { recursive: true });
    await Deno.remove(fetched, { recursive: true });
    // The crate's own lock file decides the versions.
    const vendor = join(tmp, "vendor");
    await run("cargo", ["vendor", "--locked", "--versioned-dirs", vendor], {
      cwd: project,
      env: baseEnv(),
    });
    const config = (vendorDir: string) =>
      Deno.writeTextFile(
        join(project, ".cargo", "config.toml"),
        `[source.crates-io]\nreplace-with = "vendored-sources"\n\n` +
          `[source.vendored-sources]\ndirectory = ${JSON.stringify(vendorDir)}\n`,
      );
    await Deno.mkdir(join(project, ".cargo"));
    await config(vendor);
    await run("cargo", ["metadata", "--offline", "--locked", "--format-version", "1"], {
      cwd: project,
      env: baseEnv(),
    });
    // The vendor folder's final place, once `tmp` becomes `dir`.
    await config(join(dir, "vendor"));
  });
  return {
    id: "rust",
    label: `${crate} ${version} (crates.io)`,
    name: crate,
    template: join(dir, "project"),
    server: "rust",
    // One target folder for every copy: the dependencies (serde's derive macros among them) are
    // built once, not on each copy's first load.
    env: { CARGO_NET_OFFLINE: "true", CARGO_TARGET_DIR: join(dir, "target") },
  };
}

/** cobra from the Go module proxy, with its dependencies in a module cache of its own. */
export async function prepareGo(): Promise<RealProject> {
  const { module, version } = PINS.go;
  const dir = join(REAL_CACHE, `go-${basename(module)}-${version}`);
  const modcache = join(dir, "mod");
  const env = (cache: string, offline: boolean): Record<string, string> => ({
    GOMODCACHE: cache,
    GOFLAGS: "-mod=mod -modcacherw",
    GOTOOLCHAIN: "local",
    GOWORK: "off",
    ...(offline ? { GOPROXY: "off" } : {}),
  });
  await once(dir, `${module}@${version}`, async (tmp) => {
    const cache = join(tmp, "mod");
    const info = JSON.parse(
      await run("go", ["mod", "download", "-json", `${module}@${version}`], {
        cwd: tmp,
        env: baseEnv(env(cache, false)),
      }),
    ) as { Dir?: string; Error?: string };
    if (!info.Dir) throw new Error(`go mod download: ${info.Error ?? "no folder"}`);
    const project = join(tmp, "project");
    await copyTree(info.Dir, project);
    await run("go", ["mod", "download"], { cwd: project, env: baseEnv(env(cache, false)) });
    await run("go", ["list", "./..."], { cwd: project, env: baseEnv(env(cache, true)) });
  });
  return {
    id: "go",
    label: `${module} ${version} (Go module proxy)`,
    name: basename(module),
    server: "go",
    template: join(dir, "project"),
    env: env(modcache, true),
  };
}

/** zlib's C files as libz-sys builds them (its build.rs), without gz* when Z_SOLO is off. */
const ZLIB_FILES = [
  "adler32.c",
  "compress.c",
  "crc32.c",
  "deflate.c",
  "infback.c",
  "inffast.c",
  "inflate.c",
  "inftrees.c",
  "trees.c",
  "uncompr.c",
  "zutil.c",
  "gzclose.c",
  "gzlib.c",
  "gzread.c",
  "gzwrite.c",
];

/** A compile database for zlib at `root`, with libz-sys's flags. */
export async function writeZlibCompileCommands(root: string): Promise<void> {
  const entries = ZLIB_FILES.map((file) => ({
    directory: root,
    file: join(root, file),
    arguments: [
      "cc",
      "-c",
      "-O2",
      "-fvisibility=hidden",
      "-I",
      root,
      "-DSTDC",
      "-D_LARGEFILE64_SOURCE",
      "-D_POSIX_SOURCE",
      "-o",
      file.replace(/\.c$/, ".o"),
      join(root, file),
    ],
  }));
  await Deno.writeTextFile(
    join(root, "compile_commands.json"),
    JSON.stringify(entries, null, 2) + "\n",
  );
}

/** zlib's sources from the libz-sys crate, with a compile database written per copy. */
export async function prepareC(): Promise<RealProject> {
  const { crate, version, zlib } = PINS.c;
  const dir = join(REAL_CACHE, `c-zlib-${zlib}-${crate}-${version}`);
  await once(dir, `${crate}@${version}`, async (tmp) => {
    const vendor = join(tmp, "vendor");
    await cargoVendor(
      tmp,
      `${crate} = { version = "=${version}", default-features = false }`,
      vendor,
    );
    const source = join(vendor, `${crate}-${version}`, "src", "zlib");
    const header = await Deno.readTextFile(join(source, "zlib.h"));
    if (!header.includes(`#define ZLIB_VERSION "${zlib}"`)) {
      throw new Error(`${crate} ${version} does not bundle zlib ${zlib}`);
    }
    await copyTree(source, join(tmp, "project"), (rel) => rel === "contrib");
    await Deno.remove(join(tmp, "fetch"), { recursive: true });
    await Deno.remove(vendor, { recursive: true });
  });
  return {
    id: "c",
    label: `zlib ${zlib} (from the ${crate} ${version} crate)`,
    name: "zlib",
    server: "cpp",
    template: join(dir, "project"),
    env: {},
    finish: writeZlibCompileCommands,
  };
}

/** Prepare one real project by id. */
export function prepareReal(id: RealId): Promise<RealProject> {
  return id === "rust" ? prepareRust() : id === "go" ? prepareGo() : prepareC();
}

/** What a test needs: the project, or the reason it cannot be had (printed by the skip). */
export async function realOrReason(id: RealId): Promise<RealProject | string> {
  try {
    return await prepareReal(id);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A fresh temp copy of a real project (removed by dispose). */
export async function realCopy(
  real: RealProject,
): Promise<{ root: string; parent: string; [Symbol.asyncDispose](): Promise<void> }> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-real-" }));
  const root = join(parent, real.name);
  await copyTree(real.template, root, (rel) => rel === ".pin");
  await real.finish?.(root);
  return {
    root,
    parent,
    async [Symbol.asyncDispose]() {
      await Deno.remove(parent, { recursive: true }).catch(() => {});
    },
  };
}

/** Long enough for a cold load of real code on a busy 2-core machine (the SDK's default: 60 s). */
const TOOL_TIMEOUT_MS = 600_000;

/** Call a tool over MCP with {@linkcode TOOL_TIMEOUT_MS}. */
export async function callLong(
  connected: Connected,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean; notes?: string[] }> {
  const result = await connected.client.callTool({ name, arguments: args }, undefined, {
    timeout: TOOL_TIMEOUT_MS,
  });
  const content = result.content as Array<{ type: string; text?: string }>;
  // The answer is the first block; reports beside it come as blocks of their own.
  const [answer, ...notes] = content.map((c) => c.text ?? "");
  return {
    text: answer ?? "",
    isError: result.isError === true,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** An MCP session of Sextant on a copy of a real project. */
export interface RealSession {
  root: string;
  connected: Connected;
  ok(name: string, args?: Record<string, unknown>): Promise<string>;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serve a fresh copy of `real` over MCP; on dispose every server it started must be gone. */
export async function realSession(
  real: RealProject,
  config: Record<string, unknown> = {},
  args: string[] = [],
): Promise<RealSession> {
  const copy = await realCopy(real);
  const { root, parent } = copy;
  await Deno.mkdir(join(root, ".sextant"), { recursive: true });
  await Deno.writeTextFile(join(root, ".sextant", "project.jsonc"), JSON.stringify(config));
  let connected: Connected;
  try {
    connected = await connect(root, args, {
      ...real.env,
      SEXTANT_LSP_PATH: LSP_CACHE,
      XDG_CONFIG_HOME: join(parent, "xdg"),
    });
  } catch (error) {
    await copy[Symbol.asyncDispose]();
    throw error;
  }
  const seen = new Set<number>();
  const groups = () => {
    for (const g of connected.pid ? serverGroupsOf(connected.pid) : []) seen.add(g);
  };
  return {
    root,
    connected,
    call: async (name, args = {}) => {
      const result = await callLong(connected, name, args);
      groups();
      return result;
    },
    ok: async (name, args = {}) => {
      const result = await callLong(connected, name, args);
      groups();
      assert(!result.isError, `${name} failed: ${result.text}`);
      return result.text;
    },
    async [Symbol.asyncDispose]() {
      try {
        groups();
        await connected.close();
        for (const pgid of seen) {
          assertEquals(liveInGroup(pgid), 0, `server group ${pgid} survived`);
        }
      } finally {
        await copy[Symbol.asyncDispose]();
      }
    },
  };
}

// --- the raw server --------------------------------------------------------------------------

/** 0-based position of the `occurrence`-th `needle` in `text`, at `needle`'s `offset`. */
export function positionOf(text: string, needle: string, offset = 0): Position {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`'${needle}' not found`);
  const before = text.slice(0, at + offset);
  const line = before.split("\n").length - 1;
  return { line, character: before.length - before.lastIndexOf("\n") - 1 };
}

/**
 * The same language server Sextant would start, on a bare vscode-jsonrpc connection with the
 * same `initialize` parameters: the baseline of the tests and the benchmark. Ready means: for
 * rust-analyzer its first quiescent `experimental/serverStatus`; for every server no work-done
 * progress open, and for clangd its background index of the project finished.
 */
export class RawServer {
  readonly connection: MessageConnection;
  readonly root: string;
  readonly #child: Deno.ChildProcess;
  readonly #open = new Set<string>();
  readonly #tokens = new Set<string>();
  readonly #id: RealProject["server"];
  #quiescent = false;
  #indexed = false;
  #changed: () => void = () => {};
  #version = 0;

  private constructor(real: RealProject, root: string) {
    this.root = root;
    this.#id = real.server;
    const spec = serverSpecs(root).find((s) => s.id === real.server)!;
    const command = spec.commands[0]!;
    const path = findServerBinary(command.command, REPO_ROOT);
    if (!path) throw new Error(`${command.command} is not installed`);
    this.#child = new Deno.Command(path, {
      args: command.args,
      cwd: root,
      env: baseEnv(real.env),
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      detached: true,
    }).spawn();
    this.connection = createMessageConnection(
      new StreamMessageReader(Readable.fromWeb(this.#child.stdout as never)),
      new StreamMessageWriter(Writable.fromWeb(this.#child.stdin as never)),
    );
    const c = this.connection;
    c.onRequest(
      "workspace/configuration",
      (p: { items?: unknown[] }) => (p.items ?? []).map(() => null),
    );
    c.onRequest("window/workDoneProgress/create", (p: { token: string | number }) => {
      this.#tokens.add(String(p.token));
      this.#changed();
      return null;
    });
    c.onRequest("client/registerCapability", () => null);
    c.onRequest("workspace/applyEdit", () => ({ applied: false }));
    c.onNotification("$/progress", (p: { token: string | number; value?: { kind?: string } }) => {
      const token = String(p.token);
      if (p.value?.kind === "begin") this.#tokens.add(token);
      if (p.value?.kind === "end") {
        this.#tokens.delete(token);
        if (token.includes("backgroundIndex")) this.#indexed = true;
      }
      this.#changed();
    });
    c.onNotification("experimental/serverStatus", (p: { quiescent?: boolean }) => {
      this.#quiescent = p?.quiescent !== false;
      this.#changed();
    });
    c.onNotification(() => {});
    c.listen();
  }

  /** Spawn and initialize, with the initialize parameters Sextant sends. */
  static async start(real: RealProject, root: string): Promise<RawServer> {
    const raw = new RawServer(real, root);
    const rootUri = pathToFileURL(root).href;
    const spec = serverSpecs(root).find((s) => s.id === real.server)!;
    const options = spec.commands[0]!.initializationOptions;
    await raw.connection.sendRequest("initialize", {
      processId: Deno.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: basename(root) }],
      capabilities: clientCapabilities(),
      ...(options !== undefined ? { initializationOptions: options } : {}),
    });
    await raw.connection.sendNotification("initialized", {});
    return raw;
  }

  #ready(): boolean {
    if (this.#tokens.size > 0) return false;
    if (this.#id === "rust") return this.#quiescent;
    if (this.#id === "cpp") return this.#indexed;
    return true;
  }

  /** Wait until the server has loaded the project (see the class). At most `limitMs`. */
  async waitReady(limitMs = 240_000): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (!this.#ready()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`raw ${this.#id} server not ready after ${limitMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.#changed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  uri(rel: string): string {
    return pathToFileURL(join(this.root, rel)).href;
  }

  /** Project-relative path of a URI inside the root, else its absolute path. */
  rel(uri: string): string {
    const path = fileURLToPath(uri);
    const r = relative(this.root, path);
    return r.startsWith("..") ? path : r;
  }

  async open(rel: string): Promise<void> {
    if (this.#open.has(rel)) return;
    this.#open.add(rel);
    const spec = serverSpecs(this.root).find((s) => s.id === this.#id)!;
    const ext = rel.slice(rel.lastIndexOf("."));
    await this.connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri: this.uri(rel),
        languageId: spec.languageIds[ext] ?? spec.languageId,
        version: ++this.#version,
        text: await Deno.readTextFile(join(this.root, rel)),
      },
    });
  }

  async references(
    rel: string,
    position: Position,
    includeDeclaration = true,
  ): Promise<Location[]> {
    await this.open(rel);
    const result = await this.connection.sendRequest("textDocument/references", {
      textDocument: { uri: this.uri(rel) },
      position,
      context: { includeDeclaration },
    });
    return (result ?? []) as Location[];
  }

  async definition(rel: string, position: Position): Promise<Location[]> {
    await this.open(rel);
    const result = await this.connection.sendRequest("textDocument/definition", {
      textDocument: { uri: this.uri(rel) },
      position,
    }) as Location | Array<Location | LocationLink> | null;
    if (!result) return [];
    const list = Array.isArray(result) ? result : [result];
    return list.map((l) =>
      "targetUri" in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l
    );
  }

  /** `file:line:column` (1-based, as Sextant's tools print them) of each location, sorted. */
  keys(locations: Location[]): string[] {
    return locations.map((l) =>
      `${this.rel(l.uri)}:${l.range.start.line + 1}:${l.range.start.character + 1}`
    ).sort();
  }

  async stop(): Promise<void> {
    const timeout = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      await Promise.race([this.connection.sendRequest("shutdown"), timeout(3_000)]);
      await this.connection.sendNotification("exit");
    } catch { /* it is going anyway */ }
    await Promise.race([this.#child.status, timeout(3_000)]);
    try {
      Deno.kill(-this.#child.pid, "SIGKILL");
    } catch { /* already gone */ }
    await this.#child.status;
    this.connection.dispose();
  }
}

/** Sextant's find_references answer as sorted `file:line:column` keys. */
export function sextantKeys(text: string): string[] {
  const answer = JSON.parse(text) as {
    references: Array<{ file: string; line: number; column: number }> | Record<string, string[]>;
  };
  if (Array.isArray(answer.references)) {
    return answer.references.map((r) => `${r.file}:${r.line}:${r.column}`).sort();
  }
  // A large answer: `{file: ["line:column preview", ...]}` (src/tools/ide/find_references.ts).
  return Object.entries(answer.references).flatMap(([file, list]) =>
    list.map((entry) => `${file}:${entry.split(" ")[0]}`)
  ).sort();
}

/** A place in a file of the project, by the text there (0-based position at `offset` into it). */
export interface Spot {
  file: string;
  needle: string;
  offset: number;
}

/** The raw server's answers on a fresh copy: references of `refs`, definitions of `defs`. */
export async function rawAnswers(
  real: RealProject,
  refs: Spot,
  defs: Spot[] = [],
): Promise<{ references: string[]; definitions: string[][] }> {
  await using copy = await realCopy(real);
  const raw = await RawServer.start(real, copy.root);
  try {
    const at = async (spot: Spot) =>
      positionOf(await Deno.readTextFile(join(copy.root, spot.file)), spot.needle, spot.offset);
    await raw.open(refs.file);
    await raw.waitReady();
    const references = raw.keys(await raw.references(refs.file, await at(refs)));
    const definitions: string[][] = [];
    for (const spot of defs) {
      definitions.push(raw.keys(await raw.definition(spot.file, await at(spot))));
    }
    return { references, definitions };
  } finally {
    await raw.stop();
  }
}
