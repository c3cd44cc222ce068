/**
 * The parameters Serena's symbol tools share: their descriptions, the name path and file of a
 * symbol edit, and the `include_kinds`/`exclude_kinds` filters (validated).
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { isSymbolKind, SYMBOL_KIND_NAMES } from "../../symbols/model.ts";

export const kindList = z.array(z.number().int()).default([]);

/** Parameter descriptions shared by several tools. */
export const describe = {
  namePath: "Name path, e.g. 'Outer/name'.",
  relativePath: "The symbol's file.",
  includeKinds: "LSP kinds (5 class, 6 method, 12 function); []: all.",
  excludeKinds: "Kinds to drop (wins).",
};

/** Validate kind filters: every number must be an LSP SymbolKind (1..26). */
export function checkKinds(kinds: readonly number[], param: string): number[] {
  const bad = kinds.filter((k) => !isSymbolKind(k));
  if (bad.length > 0) {
    const legend = SYMBOL_KIND_NAMES.slice(1).map((n, i) => `${i + 1}=${n}`).join(", ");
    throw new ToolError(`${param} has unknown symbol kind(s) ${bad.join(", ")}; use ${legend}.`);
  }
  return [...kinds];
}

/** A predicate for `include_kinds`/`exclude_kinds` (validated; exclusion wins, empty = all). */
export function kindFilter(
  includeKinds: readonly number[],
  excludeKinds: readonly number[],
): (kind: number) => boolean {
  const include = new Set(checkKinds(includeKinds, "include_kinds"));
  const exclude = new Set(checkKinds(excludeKinds, "exclude_kinds"));
  return (kind) => (include.size === 0 || include.has(kind)) && !exclude.has(kind);
}

export const symbolEditParams = {
  name_path: z.string().describe(describe.namePath),
  relative_path: z.string().describe(describe.relativePath),
};
