/**
 * type_hierarchy: the supertypes and subtypes of a class or interface, from servers that offer
 * `textDocument/prepareTypeHierarchy` (gopls, clangd 15 and later; typescript-language-server
 * and rust-analyzer do not).
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { TypeHierarchyItem } from "../../deps.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { SYMBOL_KIND_NAMES } from "../../symbols/model.ts";
import { describePosition, kindName, locationDict, resolvePosition } from "../shared/targets.ts";
import { positionParams, type PositionTarget } from "../shared/targets.ts";
import { maxAnswerChars } from "../shared/params.ts";
import { toJson } from "../shared/json.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { typeHierarchyFromIndex } from "../shared/scip_relationships.ts";

/** Types listed at most in one answer. */
const MAX_NODES = 200;

export const typeHierarchy = defineTool({
  name: "type_hierarchy",
  description: "Shows the supertypes and/or subtypes of the class or interface at a position, " +
    "as a tree to the given depth. Position: relative_path + 1-based line/column, or name_path. " +
    'Returns {"symbol", "kind", "file", "line", "supertypes": [{"name", "kind", "file", ' +
    '"line", "supertypes": [...]}], "subtypes": [...]}.',
  params: {
    ...positionParams,
    direction: z.enum(["super", "sub", "both"]).default("both").describe(
      "super: base types; sub: derived types; both.",
    ),
    depth: z.number().int().min(1).max(10).default(3).describe("Levels to follow (1-10)."),
    max_answer_chars: maxAnswerChars,
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    // A SCIP index built in CI answers from its relationships (tools/shared/scip_relationships.ts).
    const indexed = await typeHierarchyFromIndex(ctx, args);
    if (indexed !== null) return { text: toJson(indexed.answer), notes: [indexed.note] };
    try {
      return await fromServer(ctx, args);
    } catch (error) {
      // No server could answer (none runs, or it offers no type hierarchy): the index answers for
      // the unchanged files and names the changed ones.
      if (ctx.signal.aborted) throw error;
      const named = await typeHierarchyFromIndex(ctx, args, "name");
      if (named !== null) return { text: toJson(named.answer), notes: [named.note] };
      throw error;
    }
  },
});

/** The live server's type hierarchy. */
async function fromServer(
  ctx: ToolContext,
  args: Parameters<typeof resolvePosition>[1] & {
    direction: "super" | "sub" | "both";
    depth: number;
  },
): Promise<string> {
  const target = await resolvePosition(ctx, args);
  const { server } = target;
  const unsupported = new ToolError(
    `Type hierarchy is not supported by the ${server.id} language server ` +
      `(${server.command}): it offers no textDocument/prepareTypeHierarchy. Use ` +
      "find_implementations or find_references instead.",
  );
  if (!server.capabilities.typeHierarchyProvider) throw unsupported;
  const options = { ...target.options, sync: [target.relPath] };
  let items: TypeHierarchyItem[] | null;
  try {
    items = await server.request<TypeHierarchyItem[] | null>(
      LspMethod.prepareTypeHierarchy,
      { textDocument: { uri: target.uri }, position: target.position },
      options,
    );
  } catch (error) {
    // Older servers (clangd before 15) announce their own, non-standard type hierarchy.
    if (!ctx.signal.aborted && /method not found|unhandled method/i.test(String(error))) {
      throw unsupported;
    }
    throw error;
  }
  const item = items?.[0];
  if (!item) {
    return toJson({ found: false, message: `No type at ${describePosition(target)}.` });
  }
  let nodes = 0;
  const walk = async (
    of: TypeHierarchyItem,
    method: typeof LspMethod.supertypes | typeof LspMethod.subtypes,
    key: "supertypes" | "subtypes",
    depth: number,
    path: ReadonlySet<string>,
  ): Promise<Array<Record<string, unknown>>> => {
    const found = await server.request<TypeHierarchyItem[] | null>(method, { item: of }, options);
    const out: Array<Record<string, unknown>> = [];
    for (const next of found ?? []) {
      if (nodes >= MAX_NODES) break;
      nodes++;
      const node = await describe(target, next);
      const id = `${next.uri}#${next.selectionRange.start.line}:${next.name}`;
      if (depth > 1 && !path.has(id)) {
        const below = await walk(next, method, key, depth - 1, new Set([...path, id]));
        if (below.length > 0) node[key] = below;
      }
      out.push(node);
    }
    return out;
  };
  const { name, ...where } = await describe(target, item);
  const answer: Record<string, unknown> = { symbol: name, ...where };
  const start = new Set([`${item.uri}#${item.selectionRange.start.line}:${item.name}`]);
  if (args.direction !== "sub") {
    answer.supertypes = await walk(
      item,
      LspMethod.supertypes,
      "supertypes",
      args.depth,
      start,
    );
  }
  if (args.direction !== "super") {
    answer.subtypes = await walk(item, LspMethod.subtypes, "subtypes", args.depth, start);
  }
  if (nodes >= MAX_NODES) answer.truncated = `only the first ${MAX_NODES} types are listed`;
  return toJson(answer);
}

async function describe(
  target: PositionTarget,
  item: TypeHierarchyItem,
): Promise<Record<string, unknown>> {
  const at = await locationDict(target, item.uri, item.selectionRange);
  return {
    name: item.name,
    kind: kindName(SYMBOL_KIND_NAMES, item.kind),
    file: at.file,
    line: at.line,
    ...(item.detail ? { detail: item.detail } : {}),
  };
}
