/**
 * MCP wiring: exposes the session's active tools, validates arguments, runs handlers with a
 * timeout, cancellation and progress, limits answer length, and turns failures into tool errors.
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
import { describeError, ToolError } from "../errors.ts";
import { log } from "../log.ts";
import type { Session } from "../session.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";
import { limitAnswer } from "./limit.ts";
import { VERSION } from "../version.ts";

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

/** Turn zod issues into one line the agent can act on. */
function formatIssues(tool: Tool, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return `unknown parameter(s) ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
    }
    const field = issue.path.join(".");
    return field ? `'${field}': ${issue.message}` : issue.message;
  });
  const names = Object.keys(tool.params).join(", ");
  return `Error: invalid arguments for ${tool.name}: ${parts.join("; ")}. ` +
    `Parameters: ${names || "(none)"}.`;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
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
    return await callTool(session, tool, request.params.arguments ?? {}, extra);
  });

  session.onToolsChanged = () => {
    server.sendToolListChanged().catch((error) => log.debug("tools/list_changed failed:", error));
  };
  return server;
}

async function callTool(
  session: Session,
  tool: Tool,
  rawArgs: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const parsed = z.strictObject(tool.params).safeParse(rawArgs);
  if (!parsed.success) return errorResult(formatIssues(tool, parsed.error));
  const args = parsed.data as Record<string, unknown>;

  // The project's config may set its own timeout (a big monorepo needs longer).
  const timeoutSeconds = session.project?.settings.tool_timeout ?? session.settings.tool_timeout;
  const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
  const signal = AbortSignal.any([extra.signal, timeout]);
  const progressToken = extra._meta?.progressToken;
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal,
    progress: async (progress, total, message) => {
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
    },
  };

  const started = performance.now();
  try {
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
    });
    // A handler that throws synchronously, or a signal aborted after the answer (on shutdown),
    // must not leave this promise rejected with nobody listening: that would crash the server.
    aborted.catch(() => {});
    let answer;
    try {
      answer = await Promise.race([(async () => await tool.handler(args, ctx))(), aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    const max = typeof args.max_answer_chars === "number" ? args.max_answer_chars : -1;
    const limit = session.project?.settings.default_max_tool_answer_chars ??
      session.settings.default_max_tool_answer_chars;
    const text = limitAnswer(answer, max, limit);
    log.debug(`${tool.name} done in ${(performance.now() - started).toFixed(1)} ms`);
    return { content: [{ type: "text", text }] };
  } catch (error) {
    if (timeout.aborted) {
      return errorResult(
        `Error: ${tool.name} timed out after ${timeoutSeconds} s (tool_timeout). ` +
          "Narrow the request or raise tool_timeout in the config.",
      );
    }
    if (extra.signal.aborted) return errorResult(`Error: ${tool.name} was cancelled.`);
    if (!(error instanceof ToolError)) log.error(`${tool.name} failed:`, error);
    if (error instanceof ToolError && error.bare) return errorResult(error.message);
    return errorResult(`Error: ${describeError(error)}`);
  }
}
