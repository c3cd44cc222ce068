/**
 * call_hierarchy: the callers or callees of a function.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { CallHierarchyItem, Range } from "../../deps.ts";
import { z } from "../../deps.ts";
import { SYMBOL_KIND_NAMES } from "../../symbols/model.ts";
import {
  ask,
  describePosition,
  displayPath,
  kindName,
  locationDict,
  resolvePosition,
} from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { positionParams } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";

export const callHierarchy = defineTool({
  name: "call_hierarchy",
  description: "Shows who calls the function at a position (incoming) and what it calls " +
    "(outgoing). Position: relative_path + 1-based line/column, or name_path. Returns " +
    '{"symbol", "kind", "file", "line", "incoming": [{"name", "file", "line", "call_lines"}], ' +
    '"outgoing": [...]}; call_lines are the lines of the calls.',
  params: {
    ...positionParams,
    direction: z.enum(["incoming", "outgoing", "both"]).default("both").describe(
      "incoming: callers; outgoing: callees; both.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const items = await ask<CallHierarchyItem[] | null>(
      target,
      LspMethod.prepareCallHierarchy,
      { textDocument: { uri: target.uri }, position: target.position },
      "callHierarchyProvider",
      "call hierarchy",
    );
    const item = items?.[0];
    if (!item) {
      return toJson({
        found: false,
        message: `No function or method at ${describePosition(target)}.`,
      });
    }
    const options = { ...target.options, sync: [target.relPath] };
    const where = await locationDict(target, item.uri, item.selectionRange);
    const answer: Record<string, unknown> = {
      symbol: item.name,
      kind: kindName(SYMBOL_KIND_NAMES, item.kind),
      file: where.file,
      line: where.line,
      column: where.column,
    };
    const describe = async (other: CallHierarchyItem, ranges: Range[], rangesUri: string) => {
      const at = await locationDict(target, other.uri, other.selectionRange);
      return {
        name: other.name,
        kind: kindName(SYMBOL_KIND_NAMES, other.kind),
        file: at.file,
        line: at.line,
        column: at.column,
        ...(other.detail ? { detail: other.detail } : {}),
        call_lines: [...new Set(ranges.map((r) => r.start.line + 1))].sort((a, b) => a - b),
        ...(rangesUri !== other.uri ? { calls_in: displayPath(target.server, rangesUri) } : {}),
      };
    };
    if (args.direction !== "outgoing") {
      const incoming = await target.server.request<
        Array<{ from: CallHierarchyItem; fromRanges: Range[] }> | null
      >(LspMethod.incomingCalls, { item }, options);
      answer.incoming = await Promise.all(
        (incoming ?? []).map((c) => describe(c.from, c.fromRanges, c.from.uri)),
      );
    }
    if (args.direction !== "incoming") {
      const outgoing = await target.server.request<
        Array<{ to: CallHierarchyItem; fromRanges: Range[] }> | null
      >(LspMethod.outgoingCalls, { item }, options);
      answer.outgoing = await Promise.all(
        (outgoing ?? []).map((c) => describe(c.to, c.fromRanges, item.uri)),
      );
    }
    return toJson(answer);
  },
});
