/**
 * `SEXTANT_LSP_PATH`: the folders it names, searched first for language servers, and the PATH
 * the shared service runs with. A front computes that PATH to name the service's files
 * (service/endpoint.ts), so this module loads no `node:` module (see plain_path.ts).
 * @module
 */
import { absolutePath, DELIMITER, inFolder } from "./plain_path.ts";

/** Colon-separated folders searched first for server binaries (tests point it at .cache/lsp). */
export const LSP_PATH_ENV = "SEXTANT_LSP_PATH";

/** The folders of `SEXTANT_LSP_PATH` (or of `value`), each with its `node_modules/.bin` and `bin`. */
export function lspPathFolders(value = Deno.env.get(LSP_PATH_ENV)): string[] {
  const folders: string[] = [];
  for (const dir of (value ?? "").split(DELIMITER).filter(Boolean)) {
    const abs = absolutePath(dir);
    folders.push(abs, inFolder(abs, "node_modules", ".bin"), inFolder(abs, "bin"));
  }
  return folders;
}

/**
 * The PATH the shared service runs with: the folders of `SEXTANT_LSP_PATH` first, then PATH's,
 * each once. Deno resolves the permission set's run list on PATH when the service starts, so the
 * servers found in `SEXTANT_LSP_PATH` may run only so. Idempotent: the service computes the same
 * value from its own PATH as the front did (it names the service's files, see
 * service/endpoint.ts).
 */
export function servicePath(lspPath: string | undefined, path: string | undefined): string {
  const folders = [...lspPathFolders(lspPath), ...(path ?? "").split(DELIMITER).filter(Boolean)];
  return [...new Set(folders)].join(DELIMITER);
}
