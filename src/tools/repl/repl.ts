/**
 * `repl`: code mode (Serena 2.1's REPL interface, in TypeScript). The agent's code runs in a
 * child process of its own per session, with no permissions and capped memory and time; its
 * only power is the API `s`, one method per exposed tool, each call going through the same tool
 * pipeline as an MCP call. See src/repl/host.ts.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { tooLongMessage } from "../limit.ts";
import { replPool, STATE_TOOLS } from "../../repl/pool.ts";
import { callTool } from "../call.ts";
import { defineTool } from "../tool.ts";
import { apiFacades, apiOverview, describeApi, hiddenApi, selectFacades } from "./api.ts";

const DESCRIPTION = [
  "Runs TypeScript (top-level await) against Sextant's API `s` and answers the value of the " +
  "last expression; console.log output comes first. Declarations persist per session.",
  "Each method takes one object of the tool's own parameters and resolves to a ToolResult " +
  "(.text, .data); as the final value it renders exactly as the tool's text. A failed call " +
  "throws. No file, network, env or process access except through s.",
  apiOverview(),
  's.info() lists this session\'s methods (excluded tools are absent); s.info("lsp") or ' +
  's.info("find_symbol") gives TypeScript declarations. s.reset() clears variables.',
  'Example: const r = await s.lsp.find_referencing_symbols({name_path: "Foo", relative_path: ' +
  '"src/foo.ts"}); Object.keys(r.data)',
].join("\n");

export const repl = defineTool({
  name: "repl",
  description: DESCRIPTION,
  params: {
    code: z.string().describe("TypeScript; the last expression statement is the answer."),
    session: z.string().min(1).optional().describe(
      "Variables live per session id (default: the id initial_instructions states).",
    ),
    timeout_s: z.number().positive().optional().describe(
      "Time limit in seconds (default repl_timeout, 120); the code's process is killed after it.",
    ),
    max_answer_chars: z.number().int().default(-1).describe(
      "Longest answer in characters; -1 for the configured default.",
    ),
  },
  readOnly: false,
  destructive: true,
  async handler(args, ctx) {
    const session = ctx.session;
    const settings = session.project?.settings ?? session.settings;
    const tools = session.exposedTools().filter((t) => t.name !== "repl");
    const facades = selectFacades(
      apiFacades(tools),
      settings.included_apis,
      settings.excluded_apis,
    );
    const max = args.max_answer_chars === -1
      ? settings.default_max_tool_answer_chars
      : args.max_answer_chars;
    const result = await replPool.process(session, args.session ?? session.id).run(args.code, {
      facades,
      hidden: hiddenApi(session, facades),
      call: async (name, callArgs, signal) => {
        const tool = tools.find((t) => t.name === name);
        if (!tool) {
          return { text: `Error: ${name} is not available in this session.`, isError: true };
        }
        const answer = await callTool(session, tool, callArgs, { signal });
        // The front repeats such calls to a restarted service, as it does direct ones.
        if (!answer.isError && STATE_TOOLS.has(name)) replPool.stateCall(session, name, callArgs);
        return answer;
      },
      info: (topic) => describeApi(facades, tools, topic),
      timeoutSeconds: args.timeout_s ?? settings.repl_timeout,
      maxChars: max > 0 ? max : settings.default_max_tool_answer_chars,
      signal: ctx.signal,
    });
    const reset = result.reset ? `Note: ${result.reset}.` : null;
    if (result.isError) {
      const text = reset ? `${reset}\n${result.text}` : result.text;
      throw new ToolError(cutError(text, max), { bare: true });
    }
    // A value cut in the child: answer as the pipeline does for any answer over the limit.
    const text = result.length > result.text.length && max > 0
      ? tooLongMessage(result.length)
      : result.text;
    return reset ? { text, notes: [reset] } : text;
  },
});

/** An error text fitted into `max` characters, saying that it was cut. */
export function cutError(text: string, max: number): string {
  if (!(max > 0) || text.length <= max) return text;
  const note =
    `\n[the error was cut: it had ${text.length} characters, max_answer_chars is ${max}]`;
  if (note.length >= max) return text.slice(0, max);
  return text.slice(0, max - note.length) + note;
}
