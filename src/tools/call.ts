/**
 * The tool-call pipeline every interface shares (the MCP tool list and code mode): validate the
 * arguments against the tool's zod shape, run the handler under the session's timeout and the
 * caller's cancellation, report progress, fit the answer into `max_answer_chars`, and shape any
 * failure as an agent-readable error text.
 * @module
 */
import { z } from "../deps.ts";
import { describeError, ToolError } from "../errors.ts";
import { log } from "../log.ts";
import { limitAnswer } from "./limit.ts";
import type { Session } from "../session/session.ts";
import { applyParamAliases, type Tool, type ToolContext } from "./tool.ts";
import {
  AUTO_UPDATE_TRIGGERS,
  autoUpdateCodeActions,
  type CodeActionUpdate,
} from "./code_action_refresh.ts";

/** What a finished call gives back: the answer text, or an error text. */
export interface CallResult {
  text: string;
  isError: boolean;
  /** Reports about earlier calls, delivered beside the answer (see `ToolAnswer`'s notes). */
  notes?: readonly string[];
}

export interface CallOptions {
  /** Aborted when the caller cancels (the MCP request, or a code-mode run). */
  signal?: AbortSignal;
  /** Progress reporting, when the caller asked for it. */
  progress?: ToolContext["progress"];
  /** Told when a call changed the code-action caches (the MCP server logs it to the client). */
  codeActionsChanged?: (updates: CodeActionUpdate[]) => Promise<void>;
}

/** Turn zod issues into one line the agent can act on. */
export function formatIssues(tool: Tool, error: z.ZodError): string {
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

const parsers = new WeakMap<Tool, z.ZodType>();

function parser(tool: Tool): z.ZodType {
  let schema = parsers.get(tool);
  if (!schema) {
    schema = z.strictObject(tool.params);
    parsers.set(tool, schema);
  }
  return schema;
}

/**
 * Run one tool call through the whole pipeline; never throws. While someone watches the
 * session's calls (the dashboard), the call is reported to them and they may cancel it.
 */
export async function callTool(
  session: Session<Tool>,
  entry: Tool,
  rawArgs: Record<string, unknown>,
  options: CallOptions = {},
): Promise<CallResult> {
  const observer = session.callObserver;
  if (observer === null || !observer.watching) {
    return await runCall(session, entry, rawArgs, options);
  }
  const observed = observer.callStarted(entry.name, rawArgs);
  const signal = options.signal
    ? AbortSignal.any([options.signal, observed.signal])
    : observed.signal;
  const result = await runCall(session, entry, rawArgs, { ...options, signal });
  observed.finished(result);
  return result;
}

async function runCall(
  session: Session<Tool>,
  entry: Tool,
  rawArgs: Record<string, unknown>,
  options: CallOptions,
): Promise<CallResult> {
  // Errors respect the answer limit too: one that echoes a huge argument must not flood.
  const given = rawArgs.max_answer_chars;
  const cap = typeof given === "number" && Number.isInteger(given) && given > 0
    ? given
    : session.project?.settings.default_max_tool_answer_chars ??
      session.settings.default_max_tool_answer_chars;
  const failure = (text: string) => limitedFailure(text, cap);
  let renamed: Record<string, unknown>;
  let tool: Tool;
  try {
    // A catalog entry (catalog.ts) stands for a tool whose module loads on its first call.
    tool = entry.load ? await entry.load() : entry;
    renamed = applyParamAliases(tool, rawArgs);
  } catch (error) {
    return failure(`Error: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parser(tool).safeParse(renamed);
  if (!parsed.success) return failure(formatIssues(tool, parsed.error));
  const args = parsed.data as Record<string, unknown>;

  // The project's config may set its own timeout (a big monorepo needs longer).
  const timeoutSeconds = session.project?.settings.tool_timeout ?? session.settings.tool_timeout;
  const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
  const cancel = options.signal ?? new AbortController().signal;
  const signal = AbortSignal.any([cancel, timeout]);
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal,
    progress: options.progress ?? (async () => {}),
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
    // The dev-tools workflow's triggers bring the code-action caches up to date after they ran.
    const trigger = AUTO_UPDATE_TRIGGERS.has(tool.name);
    const written = new Set<string>();
    const onWrite = (paths: readonly string[]) => paths.forEach((p) => written.add(p));
    if (trigger) session.writeListeners.add(onWrite);
    try {
      answer = await Promise.race([(async () => await tool.handler(args, ctx))(), aborted]);
      if (trigger) {
        session.writeListeners.delete(onWrite);
        const updates = await autoUpdateCodeActions(ctx, written);
        if (updates.length > 0) await options.codeActionsChanged?.(updates).catch(() => {});
      }
    } finally {
      session.writeListeners.delete(onWrite);
      signal.removeEventListener("abort", onAbort);
    }
    const max = typeof args.max_answer_chars === "number" ? args.max_answer_chars : -1;
    const limit = session.project?.settings.default_max_tool_answer_chars ??
      session.settings.default_max_tool_answer_chars;
    const text = limitAnswer(answer, max, limit);
    log.debug(`${tool.name} done in ${(performance.now() - started).toFixed(1)} ms`);
    const notes = typeof answer === "string" ? undefined : answer.notes;
    return notes && notes.length > 0 ? { text, isError: false, notes } : { text, isError: false };
  } catch (error) {
    if (timeout.aborted) {
      return failure(
        `Error: ${tool.name} timed out after ${timeoutSeconds} s (tool_timeout). ` +
          "Narrow the request or raise tool_timeout in the config.",
      );
    }
    if (cancel.aborted) return failure(`Error: ${tool.name} was cancelled.`);
    if (!(error instanceof ToolError)) log.error(`${tool.name} failed:`, error);
    if (error instanceof ToolError && error.bare) return failure(error.message);
    return failure(`Error: ${describeError(error)}`);
  }
}

/** An error answer, cut to `cap` characters with a note saying so. */
function limitedFailure(text: string, cap: number): CallResult {
  if (text.length <= cap) return { text, isError: true };
  const note = ` … (error cut: ${text.length} characters in all, over max_answer_chars)`;
  return { text: text.slice(0, Math.max(0, cap - note.length)) + note, isError: true };
}
