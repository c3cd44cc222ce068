/**
 * Which files the syntactic index parses, with which tree-sitter grammar, and how the grammars
 * are loaded. Grammars are the prebuilt WASM files of `tree-sitter-wasms`, imported as bytes so
 * that `deno compile` embeds them with the module graph (no file lookup at run time). Loading
 * needs Deno's raw imports (`"unstable": ["raw-imports"]` in deno.json); without them a grammar
 * does not load and the index leaves that language to the language server.
 * @module
 */
import { extname } from "node:path";

/** A grammar of `tree-sitter-wasms` the index uses. */
export type GrammarId =
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "rust"
  | "go"
  | "c"
  | "cpp"
  | "bash";

const BY_EXTENSION: Readonly<Record<string, GrammarId>> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".rs": "rust",
  ".go": "go",
  ".c": "c",
  // Headers may be C or C++; the C++ grammar reads both.
  ".h": "cpp",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".sh": "bash",
  ".bash": "bash",
};

/** The grammar for a path, or null when the index does not parse such files. */
export function grammarFor(relPath: string): GrammarId | null {
  return BY_EXTENSION[extname(relPath).toLowerCase()] ?? null;
}

/** Every extension the index parses, with the dot. */
export const INDEXED_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

// Literal specifiers, one per grammar, so that the compiler sees (and embeds) each of them.
const LOADERS: Readonly<Record<GrammarId, () => Promise<{ default: Uint8Array }>>> = {
  typescript: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-typescript.wasm", {
      with: { type: "bytes" },
    }),
  tsx: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-tsx.wasm", { with: { type: "bytes" } }),
  javascript: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-javascript.wasm", {
      with: { type: "bytes" },
    }),
  python: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-python.wasm", {
      with: { type: "bytes" },
    }),
  rust: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-rust.wasm", { with: { type: "bytes" } }),
  go: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-go.wasm", { with: { type: "bytes" } }),
  c: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-c.wasm", { with: { type: "bytes" } }),
  cpp: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-cpp.wasm", { with: { type: "bytes" } }),
  bash: () =>
    import("npm:tree-sitter-wasms@0.1.13/out/tree-sitter-bash.wasm", { with: { type: "bytes" } }),
};

/** The WASM bytes of a grammar. */
export async function grammarBytes(id: GrammarId): Promise<Uint8Array> {
  return (await LOADERS[id]()).default;
}

/** The WASM bytes of tree-sitter's runtime (web-tree-sitter's own module). */
export async function runtimeBytes(): Promise<Uint8Array> {
  return (await import("npm:web-tree-sitter@0.25.10/tree-sitter.wasm", {
    with: { type: "bytes" },
  })).default;
}
