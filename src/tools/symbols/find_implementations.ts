/**
 * find_implementations: the implementations of an interface, abstract class or method, as
 * symbols (the target is resolved as find_referencing_symbols resolves it).
 * @module
 */
import { z } from "../../deps.ts";
import { findImplementations as implementationsOf } from "../../symbols/queries.ts";
import { describe, kindList } from "../shared/symbol_params.ts";
import { symbolDict } from "../shared/symbol_dict.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";
import { infoOf } from "../shared/info.ts";
import { resolveQueryTarget } from "./find_referencing_symbols.ts";
import { kindFilter } from "../shared/symbol_params.ts";
import { type Changed, implementationsFromIndex } from "../shared/scip_relationships.ts";

export const findImplementations = defineTool({
  name: "find_implementations",
  description: "Finds implementations of an interface, abstract class or method (JSON symbols).",
  params: {
    name_path: z.string().describe(describe.namePath),
    relative_path: z.string().describe(describe.relativePath),
    include_info: z.boolean().default(false).describe(
      "Hover info.",
    ),
    include_kinds: kindList.describe(describe.includeKinds),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    // A SCIP index built in CI answers for unchanged files (tools/shared/scip_relationships.ts).
    const fromIndex = async (changed: Changed) => {
      const indexed = args.include_info ? null : await implementationsFromIndex(ctx, args, changed);
      if (indexed === null) return null;
      const wanted = kindFilter(args.include_kinds, args.exclude_kinds);
      return {
        text: toJson(
          indexed.matches.filter((m) => wanted(m.node.kind)).map((m) =>
            symbolDict(m.node, { depth: 0, relativePath: true })
          ),
        ),
        notes: [indexed.note],
      };
    };
    const indexed = await fromIndex("live");
    if (indexed !== null) return indexed;
    try {
      const { index, options, target, wanted } = await resolveQueryTarget(
        ctx,
        args,
        "find_implementations",
      );
      const found = (await implementationsOf(index, target, options)).filter((m) =>
        wanted(m.node.kind)
      );
      const info = args.include_info ? await infoOf(index, found, options) : new Map();
      return toJson(found.map((m) => {
        const d = symbolDict(m.node, { depth: 0, relativePath: true });
        const text = info.get(m);
        if (text) d.info = text;
        return d;
      }));
    } catch (error) {
      // No server could answer (none runs, or it offers no implementations): the index answers
      // for the unchanged files and names the changed ones.
      if (ctx.signal.aborted) throw error;
      const named = await fromIndex("name");
      if (named !== null) return named;
      throw error;
    }
  },
});
