/**
 * Prepares what the test suite needs before `deno test` runs: the language servers of the
 * integration tests, installed from npm into `.cache/lsp/` inside the repository (never
 * globally). A second run finds them in place and does nothing. The tests point the registry at
 * that folder with `SEXTANT_LSP_PATH` (see tests/helpers/lsp.ts).
 * @module
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Pinned versions. typescript-language-server drives tsserver, which TypeScript 7 (the Go-native
 * compiler) no longer ships: it gets 5.9, and TypeScript 7 is installed apart (TS7_PACKAGES).
 * yaml-language-server 2 needs Node 22.13; 1.19 runs on the Node 20 these machines have.
 */
export const LSP_PACKAGES: Readonly<Record<string, string>> = {
  "typescript-language-server": "6.0.2",
  "typescript": "5.9.3",
  "pyright": "1.1.414",
  "bash-language-server": "5.8.1",
  "yaml-language-server": "1.19.2",
  "vscode-langservers-extracted": "4.10.0",
};

/**
 * typescript-language-server 4, in a folder of its own: when tsserver dies under it, it lives on
 * and answers every request with nothing, the case the engine must notice (version 6 exits).
 */
export const LEGACY_TS_WRAPPER: Readonly<Record<string, string>> = {
  "typescript-language-server": "4.3.3",
  "typescript": "5.9.3",
};

/** The cache folder the test servers are installed into. */
export const LSP_CACHE_DIR = join(
  dirname(dirname(dirname(fileURLToPath(import.meta.url)))),
  ".cache",
  "lsp",
);

/**
 * TypeScript 7, whose `tsc --lsp --stdio` is its own language server, in a prefix of its own
 * (`.cache/lsp/ts7`): its `tsc` would replace 5.9's in one `node_modules/.bin`. The tests give a
 * fixture its `node_modules/typescript` from there to run it on the new generation.
 */
export const TS7_PACKAGES: Readonly<Record<string, string>> = { "typescript": "7.0.2" };

/** The prefix TypeScript 7 is installed into. */
export const TS7_CACHE_DIR = join(LSP_CACHE_DIR, "ts7");

async function installedVersion(prefix: string, name: string): Promise<string | null> {
  try {
    const text = await Deno.readTextFile(join(prefix, "node_modules", name, "package.json"));
    return (JSON.parse(text) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** The folder of {@linkcode LEGACY_TS_WRAPPER}. */
export const LEGACY_TS_WRAPPER_DIR = join(LSP_CACHE_DIR, "legacy-ts-wrapper");

/** Install the pinned `packages` into `prefix` unless they are already there. */
export async function installLanguageServers(
  prefix = LSP_CACHE_DIR,
  packages: Readonly<Record<string, string>> = LSP_PACKAGES,
): Promise<void> {
  const missing: string[] = [];
  for (const [name, version] of Object.entries(packages)) {
    if (await installedVersion(prefix, name) !== version) missing.push(`${name}@${version}`);
  }
  if (missing.length === 0) {
    console.error(`test setup: language servers present in ${prefix}`);
    return;
  }
  await Deno.mkdir(prefix, { recursive: true });
  // Our own package.json keeps npm from walking up to a parent project.
  const manifest = join(prefix, "package.json");
  try {
    await Deno.stat(manifest);
  } catch {
    await Deno.writeTextFile(
      manifest,
      `{ "name": "sextant-test-${basename(prefix)}", "private": true }\n`,
    );
  }
  console.error(`test setup: installing ${missing.join(" ")} into ${prefix}`);
  const npm = Deno.build.os === "windows" ? "npm.cmd" : "npm";
  const { success, code } = await new Deno.Command(npm, {
    args: [
      "install",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      "--save-exact",
      "--loglevel=error",
      "--engine-strict=false",
      ...missing,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!success) throw new Error(`npm install failed with exit code ${code}`);
}

/** Fetch the pinned real projects of tests/languages/real_*_test.ts into `.cache/real/`. */
async function fetchRealCode(): Promise<void> {
  const { prepareReal } = await import("../../tests/helpers/real_code.ts");
  for (const id of ["rust", "go", "c"] as const) {
    try {
      const real = await prepareReal(id);
      console.error(`test setup: real code ${real.label} in ${real.template}`);
    } catch (error) {
      // Its test skips with the reason printed.
      console.error(
        `test setup: real ${id} code: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
}

if (import.meta.main) {
  try {
    await installLanguageServers();
    await installLanguageServers(LEGACY_TS_WRAPPER_DIR, LEGACY_TS_WRAPPER);
    await installLanguageServers(TS7_CACHE_DIR, TS7_PACKAGES);
  } catch (error) {
    // Tests of servers that are missing skip with a reason; the other tests still run.
    console.error(`test setup: ${error instanceof Error ? error.message : String(error)}`);
  }
  await fetchRealCode();
}
