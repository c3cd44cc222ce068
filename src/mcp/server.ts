/**
 * MCP wiring: exposes the session's active tools and runs each call through the shared tool-call
 * pipeline (tools/call.ts) with the request's cancellation and progress token.
 * @module
 */
import type { CallToolResult } from "../deps_start.ts";
import { log } from "../log.ts";
import type { Session } from "../session/session.ts";
import type { CallResult } from "../tools/call.ts";
import type { CodeActionUpdate } from "../tools/code_action_refresh.ts";
import type { ToolContext } from "../tools/tool.ts";
import { VERSION } from "../version.ts";
import { describeTool, describeToolIn } from "../tools/listing.ts";
import type { Tool } from "../tools/tool.ts";
import { PROMPT_RESOURCE_CAPABILITIES, servePromptsAndResources } from "./prompts_resources.ts";
import { ErrorCode, invalidParams, isObject, McpError } from "./jsonrpc.ts";
import { McpServer, type Notification, type RequestExtra } from "./protocol.ts";

export { describeTool };

export interface CreateServerOptions {
  instructions: () => string;
}

export function createServer(session: Session<Tool>, options: CreateServerOptions): McpServer {
  const server = new McpServer(
    { name: "sextant", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {}, ...PROMPT_RESOURCE_CAPABILITIES },
      instructions: options.instructions(),
    },
  );

  // Prompts, memories as resources, completion; subscribed memories are checked after each call.
  const announceResourceChanges = servePromptsAndResources(server, session);

  server.setRequestHandler("tools/list", () => ({
    tools: session.activeTools().map((tool) => describeToolIn(tool, session.context)),
  }));

  /** The call pipeline, loaded with the tools on the first call (tools/catalog.ts). */
  let pipeline: Promise<typeof import("../tools/call.ts")> | null = null;
  server.setRequestHandler("tools/call", async (params, extra) => {
    // The tool's own schema checks the arguments (tools/call.ts); here, only that they are an object.
    const { name, arguments: args = {} } = params;
    if (typeof name !== "string") throw invalidParams("tools/call", "'name' must be a string.");
    if (!isObject(args)) {
      throw invalidParams("tools/call", "'arguments' must be an object of the tool's parameters.");
    }
    await session.settled();
    const tool = session.activeTools().find((t) => t.name === name) ??
      await restorable(session, extra.meta, name);
    if (!tool) {
      const exists = session.allTools.some((t) => t.name === name);
      throw new McpError(
        ErrorCode.InvalidParams,
        exists
          ? `Tool '${name}' is not active in the current context and modes (see get_current_config).`
          : `Unknown tool '${name}'.`,
      );
    }
    // Imported once: a dynamic import of a loaded module still resolves it again at each call.
    pipeline ??= import("../tools/call.ts").catch((error) => {
      pipeline = null;
      throw error;
    });
    const { callTool } = await pipeline;
    const result = await callTool(session, tool, args, {
      signal: extra.signal,
      progress: progressReporter(extra),
      codeActionsChanged: (updates) => codeActionsLog(server, updates),
    });
    await announceResourceChanges();
    return toResult(result);
  });

  server.fallbackNotificationHandler = async (notification: Notification) => {
    if (notification.method === FRONT_NOTIFICATION) await linkFront(server, session, notification);
  };

  session.onToolsChanged = () => {
    server.sendToolListChanged().catch((error) => log.debug("tools/list_changed failed:", error));
  };
  return server;
}

/**
 * What a front (src/cli/relay.ts) sends the service after `initialized`: it relays a session
 * and repeats its state calls to a restarted service. `params.restarted` says that this service
 * replaces one that went away under the session.
 */
export const FRONT_NOTIFICATION = "notifications/sextant/front";
/**
 * What the service tells a front of a call inside code mode that changed the session (the
 * front sees only the `repl` call around it): `params` `{name, arguments}` as in `tools/call`.
 */
export const STATE_CALL_NOTIFICATION = "notifications/sextant/state_call";

/**
 * What a front marks the state calls it repeats to a restarted service with (`_meta`): a call
 * made inside code mode, whose tool the session does not list over MCP, is repeated too.
 */
export const RESTORE_META = "sextant/restore";

/** A state tool (src/repl/pool.ts `STATE_TOOLS`) a front repeats after a restart, if this is one. */
async function restorable(
  session: Session<Tool>,
  meta: Record<string, unknown> | undefined,
  name: string,
): Promise<Tool | undefined> {
  if (meta?.[RESTORE_META] !== true) return undefined;
  const { STATE_TOOLS } = await import("../repl/pool.ts");
  if (!STATE_TOOLS.has(name)) return undefined;
  // Offered to code mode (the session's tools before the interface picks what MCP lists).
  return session.exposedTools().find((t) => t.name === name);
}

/** A front relays this session: tell it of state calls made in code mode; note a restart. */
async function linkFront(
  server: McpServer,
  session: Session<Tool>,
  notification: Notification,
): Promise<void> {
  // Code mode loads with the tools, not at start (tools/catalog.ts).
  const { replPool } = await import("../repl/pool.ts");
  if (notification.params?.restarted === true) replPool.markRestarted(session);
  replPool.onStateCall(session, (name, args) => {
    server.notification({
      method: STATE_CALL_NOTIFICATION,
      params: { name, arguments: args },
    }).catch((error) => log.debug("telling the front of a state call failed:", error));
  });
}

/**
 * An answer as MCP carries it: the text, and on success Serena's structured output
 * `{"result": <text>}` (the tools' `outputSchema`, tools/listing.ts). A report about an earlier
 * edit (`notes`) follows in a content block of its own, so the answer keeps its shape.
 */
function toResult(result: CallResult): CallToolResult {
  const content = [
    { type: "text" as const, text: result.text },
    ...(result.notes ?? []).map((text) => ({ type: "text" as const, text })),
  ];
  return result.isError
    ? { content, isError: true }
    : { content, structuredContent: { result: result.text } };
}

/**
 * The code-action caches changed (auto-update after a dev-tools trigger): a logging notification,
 * since the tool list is the same (tools/list_changed would be wrong) and code actions are no
 * resource. Clients that show server logs show it; an agent sees the ids with list_code_actions.
 */
async function codeActionsLog(server: McpServer, updates: CodeActionUpdate[]): Promise<void> {
  // sendLoggingMessage honours the level the client set with logging/setLevel.
  await server.sendLoggingMessage({
    level: "info",
    logger: "sextant.code_actions",
    data: {
      message: "Code actions updated; list_code_actions shows the current ones.",
      projects: updates,
    },
  }).catch(() => {});
}

/** Progress notifications for a call, when the client gave a progress token. */
function progressReporter(extra: RequestExtra): ToolContext["progress"] {
  const progressToken = extra.meta?.progressToken;
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
