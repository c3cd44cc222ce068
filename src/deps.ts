/**
 * Every third-party import, pinned, in one place. Full `npm:` specifiers (not import-map keys)
 * keep the module graph resolvable when Sextant is run straight from a URL without our
 * deno.json. The `@ts-types` hints restore the SDK's types, which Deno loses on deep imports.
 * @module
 */

// What a session needs to answer `initialize` is pinned in deps_start.ts; the start path imports
// that module alone (it loads no language-server client, HTTP or TOML code). The SDK's HTTP
// transport, with its message schemas, is in deps_http.ts: only `--http` loads it.
export * from "./deps_start.ts";

export { default as picomatch } from "npm:picomatch@4.0.7";
export { structuredPatch } from "npm:diff@9.0.0";

// JSON-RPC to language servers (deps_lsp.ts: the server started ahead loads it alone).
export * from "./deps_lsp.ts";

// TOML (Cargo.toml, pyproject.toml, alire.toml) for the toolchain tools.
export { parse as parseToml } from "npm:smol-toml@1.9.1";

// Protobuf's wire format, for SCIP code indexes built in CI (src/symbols/scip/).
export { BinaryReader, BinaryWriter, WireType } from "npm:@bufbuild/protobuf@2.17.0/wire";

// The Language Server Protocol's own types (type-only: nothing of the package loads at run time).
export type {
  CallHierarchyItem,
  CodeAction,
  Command,
  CompletionItem,
  DeleteFile,
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticTag,
  DocumentSymbol,
  Location,
  LocationLink,
  Position,
  Range,
  SignatureInformation,
  SymbolInformation,
  TextEdit,
  TypeHierarchyItem,
  WorkspaceEdit,
  WorkspaceSymbol,
} from "npm:vscode-languageserver-types@3.17.5";

// The protocol's method names, for their types only: lsp/methods.ts checks its names against them.
export type * as LspProtocol from "npm:vscode-languageserver-protocol@3.17.5";
