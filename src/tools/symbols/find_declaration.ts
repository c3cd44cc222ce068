/**
 * find_declaration (Serena 1.7): the declaration of the symbol used at a place in a file, the
 * place given by a regular expression whose one group marks the usage (`obj\.(process)\(`),
 * searched in the whole file or in the body of a containing symbol. The match must be unique.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { compilePattern } from "../../edit/replace.ts";
import { referenceContainer } from "../../symbols/containing_symbol.ts";
import { type Position, symbolsAt } from "../../symbols/model.ts";
import { normalizeLocations, projectPathOf } from "../../symbols/queries.ts";
import type { SymbolMatch } from "../../symbols/lookup.ts";
import { defineTool } from "../tool.ts";
import { indexOf, locate, requestOptions, resolveSourceFile } from "../shared/locate_symbol.ts";
import { symbolDict } from "../shared/symbol_dict.ts";
import { symbolInfo } from "../shared/info.ts";
import { toJson } from "../shared/json.ts";
import { regexMatches } from "../shared/regex.ts";

/** Where the regex's one group starts in `text` (0-based line and column); Serena's errors. */
export async function usagePosition(
  text: string,
  regex: string,
  signal?: AbortSignal,
): Promise<Position> {
  // A user regex: it runs in a process a timeout can kill (shared/regex.ts).
  const matches = await regexMatches(compilePattern(regex, "gmsd"), text, signal);
  if (matches.length === 0) throw new ToolError(`No match found for regex: ${regex}`);
  if (matches.length > 1) {
    throw new ToolError(
      `Match must be unique; found ${matches.length} matches for regex: ${regex}`,
    );
  }
  const match = matches[0]!;
  const groups = match.length - 1;
  if (groups !== 1) {
    throw new ToolError(
      `Regex must contain exactly one group to capture the position, but found ${groups} groups.`,
    );
  }
  // The group's offset: with the `d` flag the engine reports it exactly.
  const offset = match.starts?.[1] ?? match.index;
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

export const findDeclaration = defineTool({
  name: "find_declaration",
  description: "Finds the declaration of the symbol used where the regex's one group matches " +
    "(a unique match); JSON.",
  params: {
    relative_path: z.string().describe("The file of the usage."),
    regex: z.string().min(1).describe("One group marks the usage, e.g. 'obj\\.(process)\\('."),
    containing_symbol_name_path: z.string().default("").describe("Only inside this symbol."),
    include_body: z.boolean().default(false).describe("Its source."),
    include_info: z.boolean().default(false).describe("Its hover info."),
  },
  // Optional in the default list (its budget); the coding-agent contexts list it.
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const relPath = resolveSourceFile(project, args.relative_path, "find_declaration");
    const index = indexOf(ctx);
    const options = requestOptions(ctx);
    const file = await index.fileSymbols(relPath, options);
    let at: Position;
    if (args.containing_symbol_name_path.trim() === "") {
      at = await usagePosition(file.text, args.regex, ctx.signal);
    } else {
      const owner = await locate(ctx, args.containing_symbol_name_path, relPath, options);
      const { start, end } = owner.node.range;
      const body = file.text.split("\n").slice(start.line, end.line + 1).join("\n");
      const inBody = await usagePosition(body, args.regex, ctx.signal);
      at = { line: inBody.line + start.line, character: inBody.character };
    }
    const server = await index.pool.serverFor(relPath, options);
    const result = await server.request<unknown>(
      LspMethod.definition,
      { textDocument: { uri: server.uriOf(relPath) }, position: at },
      { ...options, sync: [relPath] },
    );
    let found: SymbolMatch | null = null;
    for (const loc of normalizeLocations(result)) {
      const rel = projectPathOf(index, server, loc.uri);
      if (rel === null) continue;
      const target = rel === relPath ? file : await index.fileSymbols(rel, options);
      const chain = symbolsAt(target.roots, loc.range.start);
      const node = chain.find((n) =>
        n.selectionRange.start.line === loc.range.start.line &&
        n.selectionRange.start.character <= loc.range.start.character &&
        loc.range.start.character <= n.selectionRange.end.character
      ) ?? referenceContainer(target.roots, loc.range.start);
      if (node) {
        found = { node, file: target };
        break;
      }
    }
    if (!found) {
      throw new ToolError(
        "No symbol declaration found at the location of the regex match. " +
          `Location: ${relPath}:${at.line}:${at.character}.`,
      );
    }
    const dict = symbolDict(found.node, {
      depth: 0,
      relativePath: true,
      bodyText: args.include_body ? found.file.text : undefined,
    });
    if (args.include_info && !args.include_body) {
      const info = await symbolInfo(index, found, options);
      if (info) dict.info = info;
    }
    return toJson(dict);
  },
});
