/**
 * find_symbol: symbols by name path, in a file, a folder or the whole project.
 * @module
 */
import { z } from "../../deps.ts";
import { parseNamePath } from "../../lsp/name_path.ts";
import { namePathOf } from "../../lsp/symbols.ts";
import {
  checkKinds,
  describe,
  indexOf,
  kindList,
  requestOptions,
  symbolDict,
} from "../shared/symbols.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { resolveScope } from "../shared/symbols.ts";
import { toJson } from "../shared/json.ts";

export const findSymbol = defineTool({
  name: "find_symbol",
  description:
    "Finds symbols by name path in the project, a folder or a file: 'name', 'Outer/name' " +
    "(suffix), '/Outer/name' (absolute), 'name[1]' (overload). JSON with 0-based lines; " +
    "body and children on request.",
  params: {
    name_path_pattern: z.string().describe(
      "Name or name path ('Class/method', '/Class/method').",
    ),
    depth: z.number().int().min(0).default(0).describe(
      "Levels of children to include (1: e.g. methods).",
    ),
    relative_path: z.string().default("").describe(
      "Search only this file or folder; '': the project.",
    ),
    include_body: z.boolean().default(false).describe("Include the symbols' source code."),
    include_kinds: kindList.describe(describe.includeKinds),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    substring_matching: z.boolean().default(false).describe(
      "Last segment as substring: 'Foo/get' finds 'Foo/getValue'.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const pattern = parseNamePath(args.name_path_pattern);
    const includeKinds = checkKinds(args.include_kinds, "include_kinds");
    const excludeKinds = checkKinds(args.exclude_kinds, "exclude_kinds");
    const scope = resolveScope(project, args.relative_path);
    const matches = await indexOf(ctx).find(
      pattern,
      { substring: args.substring_matching, includeKinds, excludeKinds },
      scope,
      requestOptions(ctx),
    );
    const dicts = (depth: number, body: boolean) =>
      matches.map((m) =>
        symbolDict(m.node, {
          depth,
          relativePath: true,
          bodyText: body ? m.file.text : undefined,
        })
      );
    const byFile = () => {
      const out: Record<string, string[]> = {};
      for (const m of matches) (out[m.node.relPath] ??= []).push(namePathOf(m.node));
      return toJson(out);
    };
    const shorter = [];
    if (args.include_body) {
      shorter.push({
        note: "Without bodies (read them with find_symbol on one symbol, include_body=true):",
        text: () => toJson(dicts(args.depth, false)),
      });
    }
    if (args.depth > 0) {
      shorter.push({ note: "Without children:", text: () => toJson(dicts(0, false)) });
    }
    shorter.push({ note: `${matches.length} matches; name paths per file:`, text: byFile });
    return { text: toJson(dicts(args.depth, args.include_body)), shorter };
  },
});
