/**
 * `deno task compile`: build one executable per `deno compile` target into `dist/`, with the
 * `sextant` permission set (deno.json, via scripts/release/permissions.ts) baked in.
 *
 * ```sh
 * deno task compile                                   # every target
 * deno task compile --target x86_64-unknown-linux-gnu # one target (repeat for several)
 * DENORT_BIN=/path/to/denort deno task compile --target x86_64-unknown-linux-gnu
 * ```
 *
 * `deno compile` prepends a `denort` base binary of the target. It downloads it from Deno's
 * servers unless the `DENORT_BIN` variable names a local one (read by `deno compile` itself).
 * This script also takes `DENORT_DIR`, a folder of `denort-<target>[.exe]` files, to build
 * several targets offline, and `--offline` to never download. It detects which target a
 * `DENORT_BIN` file is for from its executable header and passes it to that target only.
 *
 * The executable carries the symbol index's tree-sitter files, which are not in the module
 * graph (src/symbols/index/grammar_files.ts): the parse worker's module and gzip copies of the runtime
 * and grammar WASM files, staged under `.cache/compile/index/` and passed with `--include`.
 *
 * Options: `--target T` (repeatable), `--out-dir DIR` (default `dist`), `--offline`,
 * `--no-bundle` (embed the npm tree instead of an esbuild bundle), `--extra-run LIST` (programs
 * added to `--allow-run`, like `SEXTANT_EXTRA_RUN`; `*` for any program).
 * @module
 */
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { GRAMMAR_IDS } from "../../src/symbols/index/grammars.ts";
import {
  COMPILED_ASSETS_DIR,
  grammarFileName,
  grammarPath,
  RUNTIME_FILE_NAME,
  runtimePath,
} from "../../src/symbols/index/grammar_files.ts";
import { VERSION } from "../../src/version.ts";
import { extraRunFromEnv, sextantFlags } from "./permissions.ts";

/** Every target `deno compile --target` accepts (Deno 2.9), in build order. */
export const COMPILE_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
] as const;

/** One of {@linkcode COMPILE_TARGETS}. */
export type CompileTarget = typeof COMPILE_TARGETS[number];

/** The repository root. */
export const REPO_ROOT: string = fileURLToPath(new URL("../../", import.meta.url));
/** The compiled program's entry point: main.ts, with the modules it loads lazily (src/cli/lazy.ts). */
export const MAIN = join(REPO_ROOT, "main_bundle.ts");
const CONFIG = join(REPO_ROOT, "deno.json");

/** Whether `value` is a target `deno compile` accepts. */
export function isCompileTarget(value: string): value is CompileTarget {
  return (COMPILE_TARGETS as readonly string[]).includes(value);
}

/** The file name of the executable for a target: `sextant-<target>`, `.exe` on Windows. */
export function outputName(target: CompileTarget): string {
  return target.includes("windows") ? `sextant-${target}.exe` : `sextant-${target}`;
}

/** The target of the machine running this script, if `deno compile` supports it. */
export function hostTarget(): CompileTarget | null {
  return isCompileTarget(Deno.build.target) ? Deno.build.target : null;
}

/**
 * The target an executable was built for, read from its header (ELF, Mach-O or PE); null for
 * anything else (a script, a zip, a universal Mach-O).
 *
 * @example
 * ```ts
 * import { binaryTarget } from "./compile.ts";
 * const elf = new Uint8Array(64);
 * elf.set([0x7f, 0x45, 0x4c, 0x46]);
 * elf[18] = 0x3e; // e_machine: x86-64
 * console.log(binaryTarget(elf)); // "x86_64-unknown-linux-gnu"
 * ```
 */
export function binaryTarget(header: Uint8Array): CompileTarget | null {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const at = (offset: number, size: 2 | 4) =>
    offset + size > header.byteLength
      ? -1
      : size === 2
      ? view.getUint16(offset, true)
      : view.getUint32(offset, true);
  if (header[0] === 0x7f && header[1] === 0x45 && header[2] === 0x4c && header[3] === 0x46) {
    const machine = at(18, 2);
    if (machine === 0x3e) return "x86_64-unknown-linux-gnu";
    if (machine === 0xb7) return "aarch64-unknown-linux-gnu";
    return null;
  }
  if (at(0, 4) === 0xfeedfacf) {
    const cpu = at(4, 4);
    if (cpu === 0x01000007) return "x86_64-apple-darwin";
    if (cpu === 0x0100000c) return "aarch64-apple-darwin";
    return null;
  }
  if (header[0] === 0x4d && header[1] === 0x5a) {
    const pe = at(0x3c, 4);
    if (pe < 0 || at(pe, 4) !== 0x00004550) return null;
    const machine = at(pe + 4, 2);
    if (machine === 0x8664) return "x86_64-pc-windows-msvc";
    if (machine === 0xaa64) return "aarch64-pc-windows-msvc";
  }
  return null;
}

/** Options of {@linkcode compileArgs}. */
export interface CompileArgsOptions {
  /** The output file. */
  output: string;
  /** Bundle with esbuild (default true): a smaller binary that starts faster. */
  bundle?: boolean;
  /** Programs added to `--allow-run` (see scripts/release/permissions.ts). */
  extraRun?: readonly string[];
  /** Files and folders embedded beside the program (`--include`), e.g. from stageIndexAssets. */
  include?: readonly string[];
}

/** The parse worker's module: started by path, so not in the entry point's module graph. */
export const PARSE_WORKER = join(REPO_ROOT, "src", "symbols", "index", "parse_worker.ts");

/**
 * Stage the symbol index's WASM files for embedding: gzip copies of tree-sitter's runtime and of
 * every grammar, in `COMPILED_ASSETS_DIR` under the repository (where the executable looks for
 * them beside its entry point). Returns what `--include` takes (the folder and the parse
 * worker's module) and the staged size in bytes.
 */
export async function stageIndexAssets(): Promise<{ include: string[]; bytes: number }> {
  const dir = join(REPO_ROOT, COMPILED_ASSETS_DIR);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const sources: Array<[string, string]> = [
    [RUNTIME_FILE_NAME, runtimePath()],
    ...GRAMMAR_IDS.map((id): [string, string] => [grammarFileName(id), grammarPath(id)]),
  ];
  let bytes = 0;
  for (const [name, source] of sources) {
    const input = await Deno.open(source, { read: true });
    const gz = input.readable.pipeThrough(new CompressionStream("gzip"));
    const data = new Uint8Array(await new Response(gz).arrayBuffer());
    await Deno.writeFile(join(dir, `${name}.gz`), data);
    bytes += data.length;
  }
  return { include: [dir, PARSE_WORKER], bytes };
}

/**
 * The `deno compile` arguments for one target: the `sextant` permission set as explicit flags
 * (`--no-prompt`, and `--quiet`, which also keeps Deno's notes off the binary's stderr), then
 * target, output and entry point. Type checking is done once, before, by the script.
 */
export function compileArgs(target: CompileTarget, options: CompileArgsOptions): string[] {
  const bundle = options.bundle ?? true;
  return [
    "compile",
    "--config",
    CONFIG,
    "--no-check",
    ...(bundle ? ["--bundle"] : ["--exclude-unused-npm"]),
    // With the V8 flags (RUNTIME_FLAGS): the compiled service is the executable again.
    ...sextantFlags({ extraRun: options.extraRun ?? [] }),
    ...(options.include ?? []).flatMap((path) => ["--include", path]),
    "--target",
    target,
    "--output",
    options.output,
    MAIN,
  ];
}

/** Where the base binary of one target comes from. */
export type BaseSource =
  | { kind: "file"; path: string; from: "DENORT_BIN" | "DENORT_DIR" }
  | { kind: "download" }
  | { kind: "none" };

/** What {@linkcode chooseBase} knows about the local base binaries. */
export interface BaseChoice {
  /** `DENORT_BIN`, with the target read from its header (null: unknown format). */
  denortBin?: { path: string; target: CompileTarget | null } | undefined;
  /** `DENORT_DIR`. */
  denortDir?: string | undefined;
  /** Never download. */
  offline: boolean;
  /** How many targets this run builds (an unrecognized DENORT_BIN is used when it is one). */
  targetCount: number;
}

/** The base binary for a target: DENORT_BIN if it is for this target, DENORT_DIR, a download. */
export function chooseBase(target: CompileTarget, choice: BaseChoice): BaseSource {
  const bin = choice.denortBin;
  if (bin && (bin.target === target || (bin.target === null && choice.targetCount === 1))) {
    return { kind: "file", path: bin.path, from: "DENORT_BIN" };
  }
  if (choice.denortDir) {
    for (const name of [`denort-${target}`, `denort-${target}.exe`]) {
      const path = join(choice.denortDir, name);
      if (isFile(path)) return { kind: "file", path, from: "DENORT_DIR" };
    }
  }
  return choice.offline ? { kind: "none" } : { kind: "download" };
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** How to get a base binary, for the message when there is none. */
export function noBaseMessage(targets: readonly string[], why: string): string {
  const version = Deno.version.deno;
  return [
    `compile: no denort base binary for ${targets.join(", ")}.`,
    `deno compile needs the denort runtime of each target (the same version as this deno, ` +
    `${version}); ${why}.`,
    "Provide one:",
    `  1. download denort-<target>.zip from https://github.com/denoland/deno/releases/tag/v${version}`,
    "  2. unzip it",
    "  3. DENORT_BIN=/path/to/denort deno task compile --target <target>",
    "     or, for several targets, put each as denort-<target> (denort-<target>.exe for Windows)",
    "     into one folder and run: DENORT_DIR=/that/folder deno task compile",
  ].join("\n");
}

/** A compile failure caused by the base binary (download or file), from deno's stderr. */
export function isBaseBinaryFailure(stderr: string): boolean {
  return /Setting up base binary|denort|dl\.deno\.land/i.test(stderr);
}

async function readHeader(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const buffer = new Uint8Array(4096);
    const n = await file.read(buffer);
    return buffer.subarray(0, n ?? 0);
  } finally {
    file.close();
  }
}

/** Run a program with a time limit; stdout and stderr as text. */
async function run(
  program: string,
  args: string[],
  options: { env?: Record<string, string>; clearEnv?: boolean; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.env ? { env: options.env } : {}),
    ...(options.clearEnv ? { clearEnv: true } : {}),
  }).spawn();
  const timer = options.timeoutMs
    ? setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, options.timeoutMs)
    : undefined;
  const out = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
    ms: performance.now() - started,
  };
}

/** Throws when a DENORT_BIN is the deno CLI, which compiles but yields a broken executable. */
async function rejectDenoCli(path: string): Promise<void> {
  const probe = await run(path, ["--version"], { timeoutMs: 10_000 }).catch(() => null);
  if (probe && /^deno \d+\.\d+/m.test(probe.stdout)) {
    throw new CompileError(
      `compile: DENORT_BIN=${path} is the deno CLI, not the denort base binary. deno compile ` +
        "accepts it, but the result runs as the deno CLI and ignores Sextant.\n" +
        noBaseMessage([hostTarget() ?? Deno.build.target], "DENORT_BIN names the wrong file"),
    );
  }
}

/** A failure with a message for the user (no stack trace). */
export class CompileError extends Error {
  override name = "CompileError";
}

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What one target's build produced. */
export interface BuiltBinary {
  target: CompileTarget;
  path: string;
  bytes: number;
  sha256: string;
  /** Milliseconds for `--version`, when the binary runs on this machine. */
  startupMs?: number;
}

/** Parsed command line of the script. */
export interface CompileOptions {
  targets: CompileTarget[];
  outDir: string;
  offline: boolean;
  bundle: boolean;
  extraRun: string[];
}

/** Parse the script's arguments. */
export function parseCompileArgs(argv: string[]): CompileOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      target: { type: "string", multiple: true },
      "out-dir": { type: "string" },
      offline: { type: "boolean", default: false },
      "no-bundle": { type: "boolean", default: false },
      "extra-run": { type: "string" },
    },
  });
  const targets = values.target ?? [...COMPILE_TARGETS];
  for (const target of targets) {
    if (!isCompileTarget(target)) {
      throw new CompileError(
        `compile: unknown target '${target}'. Targets: ${COMPILE_TARGETS.join(", ")}.`,
      );
    }
  }
  const extra = (values["extra-run"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return {
    targets: [...new Set(targets as CompileTarget[])],
    outDir: resolve(values["out-dir"] ?? join(REPO_ROOT, "dist")),
    offline: values.offline,
    bundle: !values["no-bundle"],
    extraRun: [...extraRunFromEnv(), ...extra],
  };
}

/** Build the executables; throws {@linkcode CompileError} with a message for the user. */
export async function compile(options: CompileOptions): Promise<BuiltBinary[]> {
  const denortBinPath = Deno.env.get("DENORT_BIN");
  let denortBin: BaseChoice["denortBin"];
  if (denortBinPath) {
    if (!isFile(denortBinPath)) {
      throw new CompileError(
        noBaseMessage(options.targets, `DENORT_BIN=${denortBinPath} is not a file`),
      );
    }
    const target = binaryTarget(await readHeader(denortBinPath));
    if (target !== null && target === hostTarget()) await rejectDenoCli(denortBinPath);
    denortBin = { path: denortBinPath, target };
    if (target !== null && !options.targets.includes(target)) {
      console.error(`compile: DENORT_BIN is a denort for ${target}, which this run does not build`);
    }
  }
  const choice: BaseChoice = {
    denortBin,
    denortDir: Deno.env.get("DENORT_DIR"),
    offline: options.offline,
    targetCount: options.targets.length,
  };
  const plan = options.targets.map((target) => ({ target, base: chooseBase(target, choice) }));
  const missing = plan.filter((p) => p.base.kind === "none").map((p) => p.target);
  if (missing.length > 0) {
    throw new CompileError(noBaseMessage(missing, "--offline forbids downloading it"));
  }

  const check = await run(Deno.execPath(), ["check", "--config", CONFIG, MAIN]);
  if (check.code !== 0) throw new CompileError(`compile: type check failed\n${check.stderr}`);

  await Deno.mkdir(options.outDir, { recursive: true });
  const assets = await stageIndexAssets();
  console.error(
    `compile: symbol index grammars ${(assets.bytes / 1024 / 1024).toFixed(1)} MiB (gzip)`,
  );
  const built: BuiltBinary[] = [];
  const failed: string[] = [];
  const noBase: string[] = [];
  for (const { target, base } of plan) {
    const output = join(options.outDir, outputName(target));
    const env: Record<string, string> = { ...Deno.env.toObject() };
    delete env.DENORT_BIN;
    if (base.kind === "file") env.DENORT_BIN = base.path;
    const args = compileArgs(target, {
      output,
      bundle: options.bundle,
      extraRun: options.extraRun,
      include: assets.include,
    });
    const source = base.kind === "file" ? `${base.from}=${base.path}` : "downloaded base";
    console.error(`compile: ${target} (${source})`);
    const result = await run(Deno.execPath(), args, { env, clearEnv: true });
    if (result.code !== 0) {
      if (isBaseBinaryFailure(result.stderr)) {
        noBase.push(target);
        console.error(result.stderr.trim());
      } else {
        failed.push(`${target}:\n${result.stderr.trim()}`);
      }
      continue;
    }
    const bytes = (await Deno.stat(output)).size;
    const binary: BuiltBinary = { target, path: output, bytes, sha256: await sha256(output) };
    if (target === hostTarget()) {
      const probe = await run(output, ["--version"], { timeoutMs: 30_000 });
      if (probe.code !== 0 || probe.stdout.trim() !== `sextant ${VERSION}`) {
        failed.push(
          `${target}: the built binary does not run as Sextant (is the base binary denort ` +
            `${Deno.version.deno}?): ${(probe.stdout + probe.stderr).trim().slice(0, 500)}`,
        );
        continue;
      }
      binary.startupMs = probe.ms;
    }
    built.push(binary);
    console.error(
      `compile: ${basename(output)} ${(bytes / 1024 / 1024).toFixed(1)} MiB` +
        (binary.startupMs !== undefined ? `, --version in ${binary.startupMs.toFixed(0)} ms` : ""),
    );
  }
  if (built.length > 0) {
    const sums = built.map((b) => `${b.sha256}  ${basename(b.path)}\n`).join("");
    await Deno.writeTextFile(join(options.outDir, "SHA256SUMS"), sums);
  }
  const problems: string[] = [];
  if (noBase.length > 0) {
    problems.push(noBaseMessage(noBase, "it could not be downloaded (see the error above)"));
  }
  if (failed.length > 0) problems.push(`compile: failed for ${failed.join("\n")}`);
  if (problems.length > 0) throw new CompileError(problems.join("\n"));
  return built;
}

if (import.meta.main) {
  try {
    const built = await compile(parseCompileArgs(Deno.args));
    for (const b of built) console.log(`${b.path}\t${b.bytes}\t${b.sha256}`);
  } catch (error) {
    console.error(error instanceof CompileError ? error.message : `compile: ${String(error)}`);
    Deno.exit(1);
  }
}
