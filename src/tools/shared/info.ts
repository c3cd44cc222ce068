/**
 * `include_info` of Serena's symbol tools: a symbol's hover text (signature, documentation) as
 * the language server gives it, markdown kept (a TypeScript class: "```typescript\nclass
 * Circle\n```").
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import { namePosition } from "../../symbols/queries.ts";
import type { SymbolLookup, SymbolMatch } from "../../symbols/lookup.ts";
import type { RequestOptions } from "../../lsp/language_server.ts";

/** Hover contents (MarkupContent, MarkedString or an array of them) as one markdown text. */
export function hoverText(contents: unknown): string {
  if (typeof contents === "string") return contents;
  if (Array.isArray(contents)) return contents.map(hoverText).filter(Boolean).join("\n\n");
  if (contents && typeof contents === "object") {
    const c = contents as { kind?: string; language?: string; value?: unknown };
    if (typeof c.value !== "string") return "";
    return c.language !== undefined ? "```" + c.language + "\n" + c.value + "\n```" : c.value;
  }
  return "";
}

/** The hover text of a symbol at its name; "" when the server has none. */
export async function symbolInfo(
  index: SymbolLookup,
  match: SymbolMatch,
  options: RequestOptions,
): Promise<string> {
  const relPath = match.node.relPath;
  try {
    const server = await index.pool.serverFor(relPath, options);
    const result = await server.request<{ contents?: unknown } | null>(
      LspMethod.hover,
      {
        textDocument: { uri: server.uriOf(relPath) },
        position: namePosition(match) ?? match.node.selectionRange.start,
      },
      { ...options, sync: [relPath] },
    );
    return hoverText(result?.contents).trim();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return "";
  }
}

/** Info of every match, fetched a few at a time; a map from match to its (non-empty) info. */
export async function infoOf(
  index: SymbolLookup,
  matches: readonly SymbolMatch[],
  options: RequestOptions,
): Promise<Map<SymbolMatch, string>> {
  const out = new Map<SymbolMatch, string>();
  const queue = [...matches];
  const worker = async () => {
    for (let m = queue.shift(); m !== undefined; m = queue.shift()) {
      const info = await symbolInfo(index, m, options);
      if (info) out.set(m, info);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  return out;
}
