/**
 * `repl`: code mode (Serena 2.1's REPL interface, in TypeScript). The agent's code runs in a
 * Deno worker with no permissions; its only power is the API `s`, one method per exposed tool,
 * each call going through the same tool pipeline as an MCP call. See src/repl/.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { apiFacades, apiOverview, hiddenApi, selectFacades } from "./facades.ts";
import { replWorker } from "./cell_runner.ts";
import { defineTool } from "../tool.ts";

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
      "Time limit in seconds (default repl_timeout, 120); the worker is stopped after it.",
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
    const worker = replWorker(session, args.session ?? session.id);
    const result = await worker.run(args.code, {
      session,
      facades,
      hidden: hiddenApi(session, facades),
      tools,
      timeoutSeconds: args.timeout_s ?? settings.repl_timeout,
      signal: ctx.signal,
    });
    if (result.isError) throw new ToolError(result.text, { bare: true });
    return result.text;
  },
});
