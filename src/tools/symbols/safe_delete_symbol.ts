/**
 * safe_delete_symbol: deletes a symbol only when nothing references it.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { namePathOf, type SymbolNode } from "../../symbols/model.ts";
import { findReferencesChecked, namePosition } from "../../symbols/queries.ts";
import { notAnalysedText } from "../../symbols/completeness.ts";
import { describe } from "../shared/symbol_params.ts";
import { indexOf, requestOptions, withBuildHeld } from "../shared/locate_symbol.ts";
import { defineTool, SUCCESS_RESULT, type ToolAnswer, type ToolContext } from "../tool.ts";
import { editAt, locate } from "../shared/locate_symbol.ts";
import { attachedStart, lastLine } from "./replace_symbol_body.ts";
import { isBlank } from "./body_indent.ts";
import { walkSymbols } from "../../symbols/model.ts";
import { toJson } from "../shared/json.ts";

export const safeDeleteSymbol = defineTool({
  name: "safe_delete_symbol",
  description:
    "Deletes a symbol and the comments above it if nothing references it; else lists the " +
    "references.",
  params: {
    name_path_pattern: z.string().describe(describe.namePath),
    relative_path: z.string().describe(describe.relativePath),
  },
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  // A cold question's own work comes before the declaration index's build.
  handler: (args, ctx) => withBuildHeld(ctx, () => safeDelete(args, ctx)),
});

async function safeDelete(
  args: { name_path_pattern: string; relative_path: string },
  ctx: ToolContext,
): Promise<ToolAnswer> {
  const target = await locate(ctx, args.name_path_pattern, args.relative_path);
  const { node, file } = target;
  // No references found from a position that is not the symbol's name proves nothing.
  if (namePosition(target) === null) {
    throw new ToolError(
      `Cannot check the references of ${namePathOf(node)}: its name '${node.name}' does not ` +
        "appear in its code, so the language server cannot be asked about it. Nothing was " +
        "deleted; delete it with an edit tool if you are sure it is unused.",
    );
  }
  const { hits, notAnalysed } = await findReferencesChecked(
    indexOf(ctx),
    target,
    requestOptions(ctx),
  );
  const outside = hits.filter((h) => {
    if (h.relPath !== node.relPath) return true;
    let s: SymbolNode | null = h.symbol;
    while (s && s !== node) s = s.parent;
    return s !== node;
  });
  if (outside.length > 0) {
    const where: Record<string, number[]> = {};
    for (const h of outside) (where[h.relPath] ??= []).push(h.position.line);
    // A refusal for references is an answer, not a failure: the listing is what was asked.
    return `Cannot delete, the symbol ${namePathOf(node)} is referenced in: ${toJson(where)}`;
  }
  if (notAnalysed.length > 0) {
    // Unused cannot be proven while the server leaves occurrences of the name unexplained.
    return `Cannot delete ${namePathOf(node)}: nothing refers to it as far as the language ` +
      `server sees, but it does not see everything. ${notAnalysedText(node.name, notAnalysed)}`;
  }
  const first = attachedStart(node, file.roots, file.text);
  const last = lastLine(node);
  const sharing = [...walkSymbols(file.roots)].filter((s) => {
    if (s === node || s.relPath !== node.relPath) return false;
    let a: SymbolNode | null = s;
    while (a && a !== node) a = a.parent;
    if (a === node) return false; // a descendant goes with it
    let d: SymbolNode | null = node;
    while (d && d !== s) d = d.parent;
    if (d === s) return false; // an ancestor contains it
    return lastLine(s) >= first && s.range.start.line <= last;
  });
  if (sharing.length > 0) {
    throw new ToolError(
      `${namePathOf(node)} shares its lines with ${namePathOf(sharing[0]!)}; delete it with ` +
        "an edit tool instead.",
    );
  }
  await editAt(ctx, target, (text) => {
    const all = text.split("\n");
    let start = first;
    let end = last + 1;
    const blankBefore = start === 0 || isBlank(all[start - 1]);
    if (blankBefore) { while (end < all.length - 1 && isBlank(all[end])) end++; }
    // At the end of the file, the blank lines that separated it go too.
    if (end >= all.length - 1) { while (start > 0 && isBlank(all[start - 1])) start--; }
    return [...all.slice(0, start), ...all.slice(end)].join("\n");
  });
  return SUCCESS_RESULT;
}
