/**
 * The one list of source-file extensions, per language. Everything that asks "is this a source
 * file, and of which language" derives its answer from it: the language-server registry
 * (lsp/registry.ts: which server a file goes to), the declaration index (symbols/index/grammars.ts:
 * which grammar parses it), `restrict_search_to_code_files` ({@linkcode isCodeFile}) and the
 * agent hooks' rules (cli/hook_rules.ts: reading a source file whole). A language with no
 * server here is still code to search.
 *
 * Extensions are lower case, with the dot. A new language server for a language not listed names
 * its extensions in its config (`language_servers.<id>.extensions`, docs/ARCHITECTURE.md §6).
 * @module
 */
import { extname } from "node:path";

/** One language: its extensions, and whether its files are programs rather than data or markup. */
export interface SourceLanguage {
  readonly extensions: readonly string[];
  /** A program's source (what symbolic tools read by symbol); false for data and markup. */
  readonly program: boolean;
}

const program = (...extensions: string[]): SourceLanguage => ({ extensions, program: true });
const data = (...extensions: string[]): SourceLanguage => ({ extensions, program: false });

/** Every language Sextant knows as code, by name. */
export const SOURCE_LANGUAGES = {
  typescript: program(".ts", ".tsx", ".mts", ".cts"),
  javascript: program(".js", ".jsx", ".mjs", ".cjs"),
  python: program(".py", ".pyi"),
  rust: program(".rs"),
  go: program(".go"),
  /** C; a header may be C or C++. */
  c: program(".c", ".h"),
  cpp: program(".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"),
  objectiveC: program(".m", ".mm"),
  ada: program(".ads", ".adb", ".ada"),
  gpr: program(".gpr"),
  java: program(".java"),
  kotlin: program(".kt", ".kts"),
  scala: program(".scala"),
  csharp: program(".cs"),
  fsharp: program(".fs"),
  swift: program(".swift"),
  ruby: program(".rb"),
  php: program(".php"),
  lua: program(".lua"),
  perl: program(".pl", ".pm"),
  r: program(".r"),
  dart: program(".dart"),
  elixir: program(".ex", ".exs"),
  erlang: program(".erl"),
  haskell: program(".hs"),
  ocaml: program(".ml", ".mli"),
  clojure: program(".clj"),
  zig: program(".zig"),
  nim: program(".nim"),
  julia: program(".jl"),
  vue: program(".vue"),
  svelte: program(".svelte"),
  bash: program(".sh", ".bash"),
  zsh: data(".zsh"),
  yaml: data(".yaml", ".yml"),
  json: data(".json", ".jsonc"),
  toml: data(".toml"),
  html: data(".html"),
  css: data(".css", ".scss", ".less"),
} as const satisfies Record<string, SourceLanguage>;

/** A language of {@linkcode SOURCE_LANGUAGES}. */
export type SourceLanguageName = keyof typeof SOURCE_LANGUAGES;

/** The extensions of the named languages, in order. */
export function extensionsOf(...languages: SourceLanguageName[]): string[] {
  return languages.flatMap((name) => [...SOURCE_LANGUAGES[name].extensions]);
}

const ALL: readonly SourceLanguage[] = Object.values(SOURCE_LANGUAGES);

/** Every extension of code, for `restrict_search_to_code_files`. */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set(ALL.flatMap((l) => l.extensions));

/** The extensions of programs' sources (no data or markup). */
export const PROGRAM_EXTENSIONS: ReadonlySet<string> = new Set(
  ALL.filter((l) => l.program).flatMap((l) => l.extensions),
);

export function isCodeFile(path: string): boolean {
  return CODE_EXTENSIONS.has(extname(path).toLowerCase());
}
