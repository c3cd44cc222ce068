/**
 * Which files the syntactic index parses, and with which tree-sitter grammar (the prebuilt WASM
 * files of `tree-sitter-wasms`; grammar_files.ts finds and reads them).
 * @module
 */
import { extname } from "node:path";
import { extensionsOf, type SourceLanguageName } from "../../project/source_languages.ts";

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

/** Which grammar reads each extension (project/source_languages.ts lists the extensions). */
const BY_EXTENSION: Readonly<Record<string, GrammarId>> = Object.fromEntries([
  ...extensionsOf("typescript").map((e) => [e, e === ".tsx" ? "tsx" : "typescript"] as const),
  ...grammar("javascript", "javascript"),
  ...grammar("python", "python"),
  ...grammar("rust", "rust"),
  ...grammar("go", "go"),
  // Headers may be C or C++; the C++ grammar reads both.
  ...extensionsOf("c").map((e) => [e, e === ".h" ? "cpp" : "c"] as const),
  ...grammar("cpp", "cpp"),
  ...grammar("bash", "bash"),
  ...grammar("java", "java"),
]);

function grammar(language: SourceLanguageName, id: GrammarId): Array<readonly [string, GrammarId]> {
  return extensionsOf(language).map((e) => [e, id] as const);
}

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
