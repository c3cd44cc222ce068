/**
 * The third-party imports a session needs before it answers `initialize`: MCP's message types
 * (types only: src/mcp/ speaks MCP itself, and no code of the SDK loads), zod (the config
 * schema), jsonc-parser (config files) and ignore (a project's ignore rules). `deps.ts`
 * re-exports all of it beside the rest; the start path (service/sessions.ts, mcp/, config/,
 * project/ignore.ts, the tool listing) imports this module alone, so that answering `initialize`
 * does not load the language-server client (vscode-jsonrpc), the HTTP transport, TOML, diff or
 * glob code (tools load on their first call: tools/catalog.ts).
 * Pinned like every dependency, as full `npm:` specifiers; see deps.ts.
 * @module
 */

// MCP's message types only (type-only: nothing of the SDK loads; src/mcp/ speaks the protocol).
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
export type {
  Transport,
  TransportSendOptions,
} from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export type {
  CallToolResult,
  ClientCapabilities,
  Implementation,
  InitializeResult,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  LoggingLevel,
  MessageExtraInfo,
  RequestId,
  ServerCapabilities,
  Tool as McpTool,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

export { z } from "npm:zod@4.6.7";
export * as jsonc from "npm:jsonc-parser@3.3.1";
export { default as ignore } from "npm:ignore@7.0.16";
export type { Ignore } from "npm:ignore@7.0.16";
