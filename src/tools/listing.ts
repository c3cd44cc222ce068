/**
 * How a tool is listed to the client (its MCP description, with the JSON schema of its zod
 * parameters, or for a catalog entry the schema catalog.json holds) and what the list costs: the size of `tools/list` in characters per context, which
 * get_current_config reports and a test holds under the default's budget.
 * @module
 */
import { type McpTool, z } from "../deps_start.ts";
import { knownContexts } from "../config/toolsets.ts";
import type { Settings } from "../config/schema.ts";
import { splitMultiTypes } from "./portable_schema.ts";
import { selectTools } from "../config/tool_selection.ts";
import type { Tool } from "./tool.ts";
import { listedShape } from "./shared/alias.ts";

/** The most the default context's tools/list may cost, in characters of JSON. */
export const DEFAULT_LIST_BUDGET = 25_000;

/** Per tool: its schema per context (key "" for the default listing). */
const schemaCache = new WeakMap<Tool, Map<string, McpTool["inputSchema"]>>();
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

function inputSchema(tool: Tool, context: string | undefined): McpTool["inputSchema"] {
  // A catalog entry (catalog.ts) carries its listing; its module need not be loaded.
  if (tool.listing) return tool.listing[context ?? ""] ?? tool.listing[""]!;
  let byContext = schemaCache.get(tool);
  if (!byContext) schemaCache.set(tool, byContext = new Map());
  const shape = listedShape(tool.params, context);
  // Tools without parameters of their own per context share the default listing.
  const key = shape === tool.params ? "" : context ?? "";
  let schema = byContext.get(key);
  if (!schema) {
    const json = z.toJSONSchema(z.strictObject(shape), { io: "input" }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    dropImplicitBounds(json);
    splitMultiTypes(json);
    schema = json as McpTool["inputSchema"];
    byContext.set(key, schema);
  }
  return schema;
}

/** A tool as tools/list shows it by default (no context's own parameters). */
export function describeTool(tool: Tool): McpTool {
  return describeToolIn(tool, undefined);
}

/**
 * A tool as tools/list shows it in `context`: parameters a context lists of its own
 * (shared/alias.ts `listedIn`) appear only there.
 */
export function describeToolIn(tool: Tool, context: string | undefined): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema(tool, context),
    outputSchema: RESULT_SCHEMA,
    annotations: {
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.readOnly ? false : tool.destructive,
      openWorldHint: false,
    },
  };
}

/**
 * Every tool's structured output, as Serena 2.1 declares it: `{"result": <the answer text>}`
 * (mcp/server.ts sends it as `structuredContent` beside the unchanged text content).
 */
export const RESULT_SCHEMA = {
  type: "object" as const,
  properties: { result: { type: "string" } },
  required: ["result"],
};

/** Characters of JSON the client receives for `tools` (the `tools` array of tools/list). */
export function listSize(tools: readonly Tool[], context?: string): number {
  return JSON.stringify(tools.map((t) => describeToolIn(t, context))).length;
}

/**
 * The size of every context's list (tool count and characters) under `settings` and `modes`, as
 * the tools interface lists them (code mode's `repl` is not among them).
 */
export function contextListSizes(
  all: readonly Tool[],
  settings: Settings,
  modes: readonly string[],
): Array<{ context: string; tools: number; chars: number }> {
  return knownContexts(settings).map((context) => {
    const tools = selectTools(all, { settings, context, modes }).filter((t) => t.name !== "repl");
    return { context, tools: tools.length, chars: listSize(tools, context) };
  });
}
