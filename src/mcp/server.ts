/**
 * MCP wiring: exposes the session's active tools and runs each call through the shared tool-call
 * pipeline (tools/call.ts) with the request's cancellation and progress token.
 * @module
 */
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type McpTool,
  type RequestHandlerExtra,
  Server,
  type ServerNotification,
  type ServerRequest,
  z,
} from "../deps.ts";
import { log } from "../log.ts";
import type { Session } from "../session.ts";
import { type CallResult, callTool } from "../tools/call.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";
import { VERSION } from "../version.ts";
import { splitMultiTypes } from "./portable_schema.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const schemaCache = new WeakMap<Tool, McpTool["inputSchema"]>();
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Drop zod's implicit safe-integer bounds: they cost tokens in every tools/list and say nothing. */
function dropImplicitBounds(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropImplicitBounds);
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  for (const key of ["minimum", "maximum"]) {
    if (SAFE_INTEGER_BOUNDS.has(record[key] as number)) delete record[key];
  }
  Object.values(record).forEach(dropImplicitBounds);
}

function inputSchema(tool: Tool): McpTool["inputSchema"] {
  let schema = schemaCache.get(tool);
  if (!schema) {
    const json = z.toJSONSchema(z.strictObject(tool.params), { io: "input" }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    dropImplicitBounds(json);
    splitMultiTypes(json);
    schema = json as McpTool["inputSchema"];
    schemaCache.set(tool, schema);
  }
  return schema;
}

export function describeTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema(tool),
    annotations: {
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.readOnly ? false : tool.destructive,
      openWorldHint: false,
    },
  };
}

export interface CreateServerOptions {
  instructions: () => string;
}

export function createServer(session: Session, options: CreateServerOptions): Server {
  const server = new Server(
    { name: "sextant", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: options.instructions(),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: session.activeTools().map(describeTool),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = session.activeTools().find((t) => t.name === name);
    if (!tool) {
      const exists = session.allTools.some((t) => t.name === name);
      throw new McpError(
        ErrorCode.InvalidParams,
        exists
          ? `Tool '${name}' is not active in the current context and modes (see get_current_config).`
          : `Unknown tool '${name}'.`,
      );
    }
    const result = await callTool(session, tool, request.params.arguments ?? {}, {
      signal: extra.signal,
      progress: progressReporter(extra),
    });
    return toResult(result);
  });

  session.onToolsChanged = () => {
    server.sendToolListChanged().catch((error) => log.debug("tools/list_changed failed:", error));
  };
  return server;
}

function toResult(result: CallResult): CallToolResult {
  const content = [{ type: "text" as const, text: result.text }];
  return result.isError ? { content, isError: true } : { content };
}

/** Progress notifications for a call, when the client gave a progress token. */
function progressReporter(extra: Extra): ToolContext["progress"] {
  const progressToken = extra._meta?.progressToken;
  return async (progress, total, message) => {
    if (progressToken === undefined) return;
    await extra.sendNotification({
      method: "notifications/progress",
      params: {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    }).catch(() => {});
  };
}
