/**
 * completions: what the language server offers to complete at a position.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { CompletionItem } from "../../deps.ts";
import { z } from "../../deps.ts";
import { ask, kindName, positionParams, resolvePosition } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { textDocumentPosition } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";
import { docText } from "../shared/hover_markup.ts";

/** Rank of a completion for a typed prefix: lower is better; null when it does not match. */
function completionRank(item: CompletionItem, prefix: string): number | null {
  if (prefix === "") return 0;
  const name = item.filterText ?? item.label;
  if (name === prefix) return 0;
  if (name.startsWith(prefix)) return 1;
  const lower = name.toLowerCase();
  const p = prefix.toLowerCase();
  if (lower.startsWith(p)) return 2;
  if (lower.includes(p)) return 3;
  return null;
}

export const completions = defineTool({
  name: "completions",
  description: "Lists what the IDE would offer to complete at a position (members after '.', " +
    "names in scope), filtered by the identifier already typed before the cursor. The column " +
    'is where the cursor is (e.g. just after the \'.\'). Returns {"completions": [{"label", ' +
    '"kind", "detail"}], "isIncomplete", "totalCount"}.',
  params: {
    ...positionParams,
    trigger: z.string().max(1).optional().describe(
      "The character that triggered completion, e.g. '.' (optional).",
    ),
    max_results: z.number().int().min(1).max(500).default(50).describe(
      "Return at most this many.",
    ),
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const context = args.trigger
      ? { triggerKind: 2, triggerCharacter: args.trigger }
      : { triggerKind: 1 };
    const result = await ask<
      CompletionItem[] | { isIncomplete?: boolean; items?: CompletionItem[] } | null
    >(
      target,
      LspMethod.completion,
      { ...textDocumentPosition(target), context },
      "completionProvider",
      "completions",
    );
    const items = Array.isArray(result) ? result : result?.items ?? [];
    const line = target.lines[target.position.line] ?? "";
    const prefix = /[\p{L}\p{N}_$]*$/u.exec(line.slice(0, target.position.character))?.[0] ?? "";
    const ranked = items
      .map((item) => ({ item, rank: completionRank(item, prefix) }))
      .filter((r): r is { item: CompletionItem; rank: number } => r.rank !== null)
      .sort((a, b) =>
        a.rank - b.rank || (a.item.sortText ?? a.item.label).localeCompare(
          b.item.sortText ?? b.item.label,
        ) || a.item.label.localeCompare(b.item.label)
      );
    const shown = ranked.slice(0, args.max_results).map(({ item }) => {
      const out: Record<string, unknown> = { label: item.label };
      const kind = kindName(COMPLETION_KINDS, item.kind);
      if (kind) out.kind = kind;
      const detail = item.detail ?? item.labelDetails?.detail ?? item.labelDetails?.description;
      if (detail) out.detail = detail.trim();
      const doc = docText(item.documentation);
      if (doc) out.documentation = doc.split("\n")[0];
      const insert = item.textEdit?.newText ?? item.insertText;
      if (insert && insert.replace(/^[^\p{L}\p{N}_$]+/u, "") !== item.label) {
        out.insertText = insert;
      }
      return out;
    });
    return toJson({
      completions: shown,
      isIncomplete: (!Array.isArray(result) && result?.isIncomplete === true) ||
        ranked.length > shown.length,
      totalCount: ranked.length,
      ...(prefix ? { prefix } : {}),
    });
  },
});

/** LSP CompletionItemKind names (1-based). */
const COMPLETION_KINDS = [
  "",
  "Text",
  "Method",
  "Function",
  "Constructor",
  "Field",
  "Variable",
  "Class",
  "Interface",
  "Module",
  "Property",
  "Unit",
  "Value",
  "Enum",
  "Keyword",
  "Snippet",
  "Color",
  "File",
  "Reference",
  "Folder",
  "EnumMember",
  "Constant",
  "Struct",
  "Event",
  "Operator",
  "TypeParameter",
];
