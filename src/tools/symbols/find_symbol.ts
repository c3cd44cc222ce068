/**
 * find_symbol: symbols by name path, in a file, a folder or the whole project.
 * @module
 */
import { z } from "../../deps.ts";
import { parseNamePath, suggestNamePaths } from "../../symbols/name_path.ts";
import { namePathOf } from "../../symbols/model.ts";
import { checkKinds, describe, kindList } from "../shared/symbol_params.ts";
import { indexOf, requestOptions } from "../shared/locate_symbol.ts";
import { type SymbolDict, symbolDict } from "../shared/symbol_dict.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { resolveScope } from "../shared/locate_symbol.ts";
import { toJson } from "../shared/json.ts";
import { infoOf } from "../shared/info.ts";
import { ToolError } from "../../errors.ts";
import type { SymbolMatch } from "../../symbols/lookup.ts";
import { closeDeclarations, noMatchNote } from "../../symbols/close_names.ts";
import { symbolsFromIndex } from "../shared/scip_symbols.ts";

/** What the answer needs of one match (see {@linkcode findSymbol}). */
interface Kept {
  relPath: string;
  namePath: string;
  /** The match as the answer shows it. */
  full: SymbolDict;
  /** Without body or children (the shorter forms); `full` itself when it has neither. */
  plain: SymbolDict;
}

export const findSymbol = defineTool({
  name: "find_symbol",
  aliases: { name_path: "name_path_pattern" },
  description:
    "Finds symbols by name path: 'name', 'Outer/name' (suffix), '/Outer/name' (absolute), " +
    "'name[1]' (overload). JSON, 0-based lines.",
  params: {
    name_path_pattern: z.string().describe(
      "e.g. 'method', 'Class/method'.",
    ),
    depth: z.number().int().min(0).default(0).describe(
      "Child levels.",
    ),
    relative_path: z.string().default("").describe(
      "Only this file or folder; '': all.",
    ),
    include_body: z.boolean().default(false).describe("Source code."),
    include_info: z.boolean().default(false).describe("Hover info (signature, docs)."),
    include_kinds: kindList.describe(describe.includeKinds),
    exclude_kinds: kindList.describe(describe.excludeKinds),
    substring_matching: z.boolean().default(false).describe("Last segment as substring."),
    max_matches: z.number().int().default(-1).describe("More is an error; -1: no limit."),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    if (args.max_matches === 0 || args.max_matches < -1) {
      throw new ToolError("max_matches must be > 0 or equal to -1.");
    }
    const project = ctx.project();
    const pattern = parseNamePath(args.name_path_pattern);
    const includeKinds = checkKinds(args.include_kinds, "include_kinds");
    const excludeKinds = checkKinds(args.exclude_kinds, "exclude_kinds");
    const scope = resolveScope(project, args.relative_path);
    // Serena ignores depth when bodies are asked for: a body holds its children already.
    const depth = args.include_body ? 0 : args.depth;
    /** What the answer needs of a match: no file's text or symbol tree stays held. */
    const keepOf = (m: SymbolMatch, info?: string): Kept => {
      const full = symbolDict(m.node, {
        depth,
        relativePath: true,
        bodyText: args.include_body ? m.file.text : undefined,
      });
      if (info) full.info = info;
      let plain = full;
      if (args.include_body || depth > 0) {
        plain = symbolDict(m.node, { depth: 0, relativePath: true });
        if (info) plain.info = info;
      }
      return { relPath: m.node.relPath, namePath: namePathOf(m.node), full, plain };
    };
    const findOptions = { substring: args.substring_matching, includeKinds, excludeKinds };
    let matches: Kept[];
    // A SCIP index built in CI answers for the files unchanged since (tools/shared/scip_symbols.ts).
    const indexed = await symbolsFromIndex(ctx, {
      pattern,
      findOptions,
      scope,
      depth,
      includeInfo: args.include_info && !args.include_body,
    });
    const sourceNotes = indexed?.notes ?? [];
    if (indexed !== null) {
      matches = indexed.matches.map((m) => keepOf(m));
    } else if (args.include_info && !args.include_body) {
      // The hovers are asked for all the matches at once.
      const found = await indexOf(ctx).find(pattern, findOptions, scope, requestOptions(ctx));
      const info = await infoOf(indexOf(ctx), found, requestOptions(ctx));
      matches = found.map((m) => keepOf(m, info.get(m)));
    } else {
      matches = await indexOf(ctx).findEach(
        pattern,
        findOptions,
        scope,
        (m) => keepOf(m),
        requestOptions(ctx),
      );
    }
    const byFile = (sorted = false) => {
      const out: Record<string, string[]> = {};
      for (const m of matches) (out[m.relPath] ??= []).push(m.namePath);
      if (sorted) { for (const paths of Object.values(out)) paths.sort(); }
      return toJson(out);
    };
    if (args.max_matches > 0 && matches.length > args.max_matches) {
      throw new ToolError(
        `Matched ${matches.length}>max_matches=${args.max_matches} symbols.\n${byFile(true)}`,
      );
    }
    const shorter = [];
    if (args.include_body) {
      shorter.push({
        note: "Without bodies (read them with find_symbol on one symbol, include_body=true):",
        text: () => toJson(matches.map((m) => m.plain)),
      });
    }
    if (depth > 0) {
      shorter.push({ note: "Without children:", text: () => toJson(matches.map((m) => m.plain)) });
    }
    // Serena's own (and last) form.
    shorter.push({ note: "Shortened result:", text: () => byFile() });
    const answer = {
      text: toJson(matches.map((m) => m.full)),
      shorter,
      ...(sourceNotes.length > 0 ? { notes: sourceNotes } : {}),
    };
    if (matches.length > 0) return answer;
    // Serena's `[]` stays the answer; the close names come beside it, as the edit tools give them.
    const index = indexOf(ctx).declarations;
    // A search that came before the index was whole answered from part of it; the hint needs
    // all of it (an empty answer is the rare case that pays for the rest of the build).
    const whole = index !== null &&
      await index.ready(requestOptions(ctx)).then(() => true, () => false);
    const close = scope.isDirectory
      ? (whole ? closeDeclarations(index!, pattern, scope.relPath) : [])
      : suggestNamePaths(
        (await indexOf(ctx).fileSymbols(scope.relPath, requestOptions(ctx))).roots,
        pattern,
      ).map((path) => `${path} in ${scope.relPath}`);
    const note = noMatchNote(pattern, close);
    return note ? { ...answer, notes: [...sourceNotes, note] } : answer;
  },
});
