/**
 * What a tool is: a name, a zod parameter shape, a short description, annotations, markers and
 * a handler. Each tool is defined once with {@linkcode defineTool}; `mod.ts` lists them all.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { McpTool, z } from "../deps_start.ts";
import type { Session } from "../session/session.ts";
import type { Marker } from "../config/schema.ts";
import type { Project } from "../project/project.ts";
import { deliveringNewDiagnostics, reportingNewDiagnostics } from "./new_errors.ts";
import type { ToolAnswer } from "./answer.ts";

// Tools import their answer type from here, beside defineTool.
export type { ToolAnswer };

/** Serena's success result for edits. */
export const SUCCESS_RESULT = "OK";

export interface ToolContext {
  session: Session<Tool>;
  /** The active project; throws a ToolError when none is active. */
  project(): Project;
  /** Aborted when the client cancels the call or the tool times out. */
  signal: AbortSignal;
  /** Report progress to the client, when it asked for it (no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface ToolSpec<Shape extends z.ZodRawShape> {
  name: string;
  /** Short, most important fact first, under 1 KB. */
  description: string;
  params: Shape;
  markers?: Marker[];
  /** Changes nothing (MCP `readOnlyHint`). */
  readOnly: boolean;
  /** May overwrite or delete content (MCP `destructiveHint`); only meaningful when not readOnly. */
  destructive?: boolean;
  /**
   * Old parameter names still accepted (`{ memory_file_name: "memory_name" }`, alias → name):
   * renamed before validation, never listed in the schema (see {@linkcode applyParamAliases}).
   */
  aliases?: Readonly<Record<string, string>>;
  handler(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** A tool with its types erased, as the registry and the server hold it. */
export interface Tool {
  name: string;
  description: string;
  params: z.ZodRawShape;
  markers: readonly Marker[];
  readOnly: boolean;
  destructive: boolean;
  /** Old parameter names still accepted, alias → name. */
  aliases?: Readonly<Record<string, string>>;
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolAnswer>;
  /**
   * A catalog entry (tools/catalog.ts) whose module is not loaded yet: its input schema as
   * tools/list shows it, per context ("" for the default listing); `params` is only available
   * after {@linkcode Tool.load}.
   */
  listing?: Readonly<Record<string, McpTool["inputSchema"]>>;
  /** A catalog entry: load the tool's module and give the tool itself. */
  load?(): Promise<Tool>;
}

export function defineTool<Shape extends z.ZodRawShape>(spec: ToolSpec<Shape>): Tool {
  const markers = spec.markers ?? [];
  // Editing tools report the errors their edit introduced; a report not ready within the edit's
  // bounded wait comes with the session's next answer (tools/new_errors.ts).
  const handler = markers.includes("can-edit")
    ? reportingNewDiagnostics(spec.handler as Tool["handler"])
    : deliveringNewDiagnostics(spec.handler as Tool["handler"]);
  return {
    name: spec.name,
    description: spec.description,
    params: spec.params,
    markers,
    readOnly: spec.readOnly,
    destructive: spec.destructive ?? !spec.readOnly,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    handler,
  };
}

/**
 * Arguments with old parameter names (a tool's `aliases`) renamed to the current ones, so a call
 * written for an older Serena works unchanged. Giving both names is an error.
 */
export function applyParamAliases(
  tool: Tool,
  args: Record<string, unknown>,
): Record<string, unknown> {
  if (!tool.aliases) return args;
  let out = args;
  for (const [alias, name] of Object.entries(tool.aliases)) {
    if (!(alias in args)) continue;
    if (name in args) {
      throw new ToolError(
        `Give either '${name}' or its older name '${alias}' to ${tool.name}, not both.`,
      );
    }
    if (out === args) out = { ...args };
    out[name] = out[alias];
    delete out[alias];
  }
  return out;
}
