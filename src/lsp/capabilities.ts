/**
 * What Sextant tells a language server it supports in `initialize`. Every claim here is honest:
 * the engine really handles what it announces (progress, configuration, dynamic registration,
 * versioned diagnostics, pull diagnostics, watched files for the files it knows).
 * @module
 */

const SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => i + 1);
const COMPLETION_KINDS = Array.from({ length: 25 }, (_, i) => i + 1);
const CODE_ACTION_KINDS = [
  "",
  "quickfix",
  "refactor",
  "refactor.extract",
  "refactor.inline",
  "refactor.rewrite",
  "source",
  "source.organizeImports",
  "source.fixAll",
];

/** The `ClientCapabilities` object of LSP 3.17 that Sextant sends. */
export function clientCapabilities(): Record<string, unknown> {
  return {
    general: {
      positionEncodings: ["utf-16"],
      staleRequestSupport: {
        cancel: true,
        retryOnContentModified: [
          "textDocument/semanticTokens/full",
          "textDocument/semanticTokens/range",
          "textDocument/semanticTokens/full/delta",
        ],
      },
    },
    window: {
      workDoneProgress: true,
      showMessage: { messageActionItem: { additionalPropertiesSupport: false } },
      showDocument: { support: false },
    },
    workspace: {
      applyEdit: true,
      workspaceEdit: {
        documentChanges: true,
        resourceOperations: ["create", "rename", "delete"],
        failureHandling: "abort",
        normalizesLineEndings: false,
        changeAnnotationSupport: { groupsOnLabel: false },
      },
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      symbol: {
        dynamicRegistration: true,
        symbolKind: { valueSet: SYMBOL_KINDS },
        resolveSupport: { properties: ["location.range"] },
      },
      executeCommand: { dynamicRegistration: true },
      workspaceFolders: true,
      configuration: true,
      // rename_file asks for the edits a move needs and reports the move afterwards.
      fileOperations: { dynamicRegistration: false, willRename: true, didRename: true },
      diagnostics: { refreshSupport: true },
      semanticTokens: { refreshSupport: false },
      codeLens: { refreshSupport: false },
      inlayHint: { refreshSupport: false },
    },
    textDocument: {
      synchronization: {
        dynamicRegistration: true,
        willSave: false,
        willSaveWaitUntil: false,
        didSave: true,
      },
      completion: {
        dynamicRegistration: true,
        completionItem: {
          snippetSupport: false,
          commitCharactersSupport: false,
          documentationFormat: ["markdown", "plaintext"],
          deprecatedSupport: true,
          preselectSupport: false,
          labelDetailsSupport: true,
          insertReplaceSupport: false,
          resolveSupport: { properties: ["documentation", "detail"] },
        },
        completionItemKind: { valueSet: COMPLETION_KINDS },
        contextSupport: true,
      },
      hover: { dynamicRegistration: true, contentFormat: ["markdown", "plaintext"] },
      signatureHelp: {
        dynamicRegistration: true,
        signatureInformation: {
          documentationFormat: ["markdown", "plaintext"],
          parameterInformation: { labelOffsetSupport: true },
          activeParameterSupport: true,
        },
        contextSupport: true,
      },
      declaration: { dynamicRegistration: true, linkSupport: true },
      definition: { dynamicRegistration: true, linkSupport: true },
      typeDefinition: { dynamicRegistration: true, linkSupport: true },
      implementation: { dynamicRegistration: true, linkSupport: true },
      references: { dynamicRegistration: true },
      documentHighlight: { dynamicRegistration: true },
      documentSymbol: {
        dynamicRegistration: true,
        symbolKind: { valueSet: SYMBOL_KINDS },
        hierarchicalDocumentSymbolSupport: true,
        labelSupport: false,
      },
      codeAction: {
        dynamicRegistration: true,
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ["edit"] },
        codeActionLiteralSupport: { codeActionKind: { valueSet: CODE_ACTION_KINDS } },
        honorsChangeAnnotations: false,
      },
      formatting: { dynamicRegistration: true },
      rangeFormatting: { dynamicRegistration: true },
      rename: {
        dynamicRegistration: true,
        prepareSupport: true,
        prepareSupportDefaultBehavior: 1,
        honorsChangeAnnotations: false,
      },
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: true,
        tagSupport: { valueSet: [1, 2] },
        codeDescriptionSupport: true,
        dataSupport: true,
      },
      diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
      callHierarchy: { dynamicRegistration: true },
      typeHierarchy: { dynamicRegistration: true },
      foldingRange: { dynamicRegistration: true },
      selectionRange: { dynamicRegistration: true },
    },
    experimental: {
      // rust-analyzer: report `experimental/serverStatus` so readiness can wait for quiescence.
      serverStatusNotification: true,
    },
  };
}
