/**
 * Sextant's Deno permissions as a value the program can use: the front starts the shared
 * service with exactly these. deno.json's `sextant` set (what `deno task start` and the
 * compile use) must equal it; tests/cli/permissions_test.ts checks that they do. (Importing
 * deno.json instead would make a run from a URL fetch the configuration file.)
 * @module
 */
import type { PermissionSet } from "./permission_flags.ts";

/** The `sextant` permission set. */
export const SEXTANT_PERMISSIONS: PermissionSet = {
  "read": true,
  "write": true,
  "run": [
    "typescript-language-server",
    "pyright-langserver",
    "basedpyright-langserver",
    "ty",
    "pyrefly",
    "pylsp",
    "rust-analyzer",
    "gopls",
    "clangd",
    "jdtls",
    "ada_language_server",
    "bash-language-server",
    "yaml-language-server",
    "vscode-json-language-server",
    "deno",
    "cargo",
    "go",
    "gprbuild",
    "ctest",
    "make",
    "ninja",
    "npm",
    "pip",
    "pipx",
    "rustup",
    "tsc",
    "pyright",
    "basedpyright",
    "python3",
    "python",
    "vitest",
    "jest",
    "sh",
    "kill",
    "cmd",
    "taskkill",
    "claude",
    "sextant",
  ],
  "env": {
    "allow": [
      "HOME",
      "USERPROFILE",
      "XDG_CONFIG_HOME",
      "XDG_RUNTIME_DIR",
      "PATH",
      "SEXTANT_LSP_PATH",
      "INIT_CWD",
      "SEXTANT_TOKEN",
      "CODEX_HOME",
      "CLAUDE_CONFIG_DIR",
      "APPDATA",
      "SEXTANT_HOOK_SEARCH_LIMIT",
    ],
    "ignore": true,
  },
  "net": [
    "127.0.0.1",
  ],
  "ffi": false,
  "sys": false,
};
