/**
 * The LSP request methods Sextant's tools and symbol queries send, named once. Each name is
 * checked against the protocol package's own constant (`vscode-languageserver-protocol`, imported
 * for its types only): a typo fails `deno check`, and nothing of the package loads at run time
 * (its runtime costs ~20 MB and a few hundred milliseconds, for strings).
 * @module
 */
import type { LspProtocol as P } from "../deps.ts";

export const LspMethod = {
  definition: "textDocument/definition" satisfies typeof P.DefinitionRequest.method,
  typeDefinition: "textDocument/typeDefinition" satisfies typeof P.TypeDefinitionRequest.method,
  implementation: "textDocument/implementation" satisfies typeof P.ImplementationRequest.method,
  references: "textDocument/references" satisfies typeof P.ReferencesRequest.method,
  hover: "textDocument/hover" satisfies typeof P.HoverRequest.method,
  documentSymbol: "textDocument/documentSymbol" satisfies typeof P.DocumentSymbolRequest.method,
  completion: "textDocument/completion" satisfies typeof P.CompletionRequest.method,
  signatureHelp: "textDocument/signatureHelp" satisfies typeof P.SignatureHelpRequest.method,
  formatting: "textDocument/formatting" satisfies typeof P.DocumentFormattingRequest.method,
  rename: "textDocument/rename" satisfies typeof P.RenameRequest.method,
  codeAction: "textDocument/codeAction" satisfies typeof P.CodeActionRequest.method,
  codeActionResolve: "codeAction/resolve" satisfies typeof P.CodeActionResolveRequest.method,
  prepareCallHierarchy:
    "textDocument/prepareCallHierarchy" satisfies typeof P.CallHierarchyPrepareRequest.method,
  incomingCalls:
    "callHierarchy/incomingCalls" satisfies typeof P.CallHierarchyIncomingCallsRequest.method,
  outgoingCalls:
    "callHierarchy/outgoingCalls" satisfies typeof P.CallHierarchyOutgoingCallsRequest.method,
  prepareTypeHierarchy:
    "textDocument/prepareTypeHierarchy" satisfies typeof P.TypeHierarchyPrepareRequest.method,
  supertypes: "typeHierarchy/supertypes" satisfies typeof P.TypeHierarchySupertypesRequest.method,
  subtypes: "typeHierarchy/subtypes" satisfies typeof P.TypeHierarchySubtypesRequest.method,
  workspaceSymbol: "workspace/symbol" satisfies typeof P.WorkspaceSymbolRequest.method,
  executeCommand: "workspace/executeCommand" satisfies typeof P.ExecuteCommandRequest.method,
  willRenameFiles: "workspace/willRenameFiles" satisfies typeof P.WillRenameFilesRequest.method,
} as const;
