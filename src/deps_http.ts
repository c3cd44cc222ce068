/**
 * The MCP SDK's Streamable HTTP transport, for `sextant serve --http` (service/http.ts) alone:
 * it loads the SDK's schemas of every MCP message, which serving over stdio and the service's
 * sockets does without (src/mcp/protocol.ts). Pinned like every dependency; see deps.ts.
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
