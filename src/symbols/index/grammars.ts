/**
 * Which files the syntactic index parses, and with which tree-sitter grammar (the prebuilt WASM
 * files of `tree-sitter-wasms`; grammar_files.ts finds and reads them).
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
  | "bash"
  | "java";

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
  ".java": "java",
};

/** Every grammar the index uses. */
export const GRAMMAR_IDS: readonly GrammarId[] = [
  "typescript",
  "tsx",
  "javascript",
  "python",
  "rust",
  "go",
  "c",
  "cpp",
  "bash",
  "java",
];

/** The grammar for a path, or null when the index does not parse such files. */
export function grammarFor(relPath: string): GrammarId | null {
  return BY_EXTENSION[extname(relPath).toLowerCase()] ?? null;
}

/** Every extension the index parses, with the dot. */
export const INDEXED_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);
