/**
 * Every third-party import, pinned, in one place. Full `npm:` specifiers (not import-map keys)
 * keep the module graph resolvable when Sextant is run straight from a URL without our
 * deno.json. The `@ts-types` hints restore the SDK's types, which Deno loses on deep imports.
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/index"
export { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/stdio"
export { ReadBuffer, serializeMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
export type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export type {
  CallToolResult,
  JSONRPCMessage,
  ServerNotification,
  ServerRequest,
  Tool as McpTool,
  ToolAnnotations,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/protocol"
export type { RequestHandlerExtra } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/protocol.js";

export { z } from "npm:zod@4.6.7";
export * as jsonc from "npm:jsonc-parser@3.3.1";
export { default as picomatch } from "npm:picomatch@4.0.7";
export { default as ignore } from "npm:ignore@7.0.16";
export type { Ignore } from "npm:ignore@7.0.16";
export { structuredPatch } from "npm:diff@9.0.0";

// JSON-RPC to language servers. Deno resolves the types of the `/node` entry from the package's
// exports map; the hint keeps that explicit (a `lib/node/main.d.ts` hint silently yields `any`).
// @ts-types="npm:vscode-jsonrpc@10.0.0/node"
export {
  CancellationTokenSource,
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "npm:vscode-jsonrpc@10.0.0/node";
// @ts-types="npm:vscode-jsonrpc@10.0.0/node"
export type { MessageConnection } from "npm:vscode-jsonrpc@10.0.0/node";

// TOML (Cargo.toml, pyproject.toml, alire.toml) for the toolchain tools.
export { parse as parseToml } from "npm:smol-toml@1.9.1";
