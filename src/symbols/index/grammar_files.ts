/**
 * The tree-sitter WASM files (the runtime of `web-tree-sitter` and the grammars of
 * `tree-sitter-wasms`), read as files when a parse worker first needs each one. They are never
 * imported: the program's module graph stays small (the compiled payload, ARCHITECTURE.md §8)
 * and needs no unstable import kinds, so that it also runs straight from a URL without our
 * deno.json.
 *
 * Where they are:
 * - Run from source or from a URL: in the npm packages, which Deno fetches for the parse worker's
 *   graph (the JSON import below brings `tree-sitter-wasms` into it) and which `import.meta.resolve`
 *   finds in Deno's npm cache or a `node_modules` folder.
 * - In a compiled executable: gzip copies that scripts/release/compile.ts embeds (`--include`) under
 *   {@linkcode COMPILED_ASSETS_DIR}, beside the entry point.
 *
 * Only the grammars of files the project has are read. A file that cannot be read fails that
 * grammar's files, which the index leaves to the language server (declaration_index.ts).
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import "npm:tree-sitter-wasms@0.1.13/package.json" with { type: "json" };
import type { GrammarId } from "./grammars.ts";

/** The folder, relative to the entry point, of the assets a compiled executable carries. */
export const COMPILED_ASSETS_DIR = ".cache/compile/index";

/** The file name of a grammar in `tree-sitter-wasms/out/`. */
export function grammarFileName(id: GrammarId): string {
  return `tree-sitter-${id}.wasm`;
}

/** The file name of tree-sitter's runtime in `web-tree-sitter`. */
export const RUNTIME_FILE_NAME = "tree-sitter.wasm";

function compiledAsset(name: string): string {
  return fileURLToPath(new URL(`${COMPILED_ASSETS_DIR}/${name}.gz`, Deno.mainModule));
}

async function readGzip(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  const stream = file.readable.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The path of a file of an npm package Sextant's graph holds: Deno resolves the pinned specifier
 * to the file in its npm cache (from the checkout, the start bundle and a URL run alike). Not
 * node:module's `createRequire`, which would bring Deno's Node.js layer into the process.
 */
function packageFile(specifier: string): string {
  return fileURLToPath(import.meta.resolve(specifier));
}

/** The path of a grammar's WASM file in the `tree-sitter-wasms` package. */
export function grammarPath(id: GrammarId): string {
  const manifest = packageFile("npm:tree-sitter-wasms@0.1.13/package.json");
  return join(dirname(manifest), "out", grammarFileName(id));
}

/** The path of tree-sitter's runtime WASM file in the `web-tree-sitter` package. */
export function runtimePath(): string {
  return packageFile(`npm:web-tree-sitter@0.25.10/${RUNTIME_FILE_NAME}`);
}

/** The WASM bytes of a grammar. */
export async function grammarBytes(id: GrammarId): Promise<Uint8Array> {
  if (Deno.build.standalone) return await readGzip(compiledAsset(grammarFileName(id)));
  return await Deno.readFile(grammarPath(id));
}

/** The WASM bytes of tree-sitter's runtime. */
export async function runtimeBytes(): Promise<Uint8Array> {
  if (Deno.build.standalone) return await readGzip(compiledAsset(RUNTIME_FILE_NAME));
  return await Deno.readFile(runtimePath());
}
