/**
 * workspace_symbols: symbols by name across the project's languages, ranked exact → prefix →
 * substring.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { WorkspaceSymbol } from "../../deps.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { LineReader, preview, toAgentPosition } from "../../lsp/positions.ts";
import { type ServerSpec, specForFile } from "../../lsp/registry.ts";
import { SYMBOL_KIND_NAMES } from "../../symbols/model.ts";
import type { LanguageServer, LanguageServerPool } from "../../lsp/language_server.ts";
import { displayPath, kindName } from "../shared/targets.ts";
import { requestOptions } from "../shared/locate_symbol.ts";
import { defineTool, type ToolContext } from "../tool.ts";
import { toJson } from "../shared/json.ts";

/** The Ada MCP setup's kind groups → LSP SymbolKinds. */
const KIND_GROUPS: Readonly<Record<string, readonly number[]>> = {
  package: [2, 3, 4],
  procedure: [6, 9, 12],
  function: [6, 9, 12],
  type: [5, 10, 11, 23, 26],
  variable: [7, 8, 13, 14],
};

/** The SymbolKinds a `kind` argument selects (null: all). */
export function kindsOf(kind: string): Set<number> | null {
  const wanted = kind.split(",").map((k) => k.trim().toLowerCase()).filter(Boolean);
  if (wanted.length === 0 || wanted.includes("all")) return null;
  const kinds = new Set<number>();
  for (const k of wanted) {
    const group = KIND_GROUPS[k];
    const index = SYMBOL_KIND_NAMES.findIndex((n) => n.toLowerCase() === k);
    if (group) group.forEach((g) => kinds.add(g));
    else if (index > 0) kinds.add(index);
    else {
      throw new ToolError(
        `Unknown kind '${k}'. Use all, package, procedure, function, type, variable, or an LSP ` +
          `symbol kind: ${SYMBOL_KIND_NAMES.slice(1).join(", ").toLowerCase()}.`,
      );
    }
  }
  return kinds;
}

/** Rank of a symbol name for a query: 0 exact, 1 exact ignoring case, 2 prefix, 3 prefix
 * ignoring case, 4 substring (ignoring case), 5 other (the server's fuzzy match). */
export function nameRank(name: string, query: string): number {
  if (name === query) return 0;
  const n = name.toLowerCase();
  const q = query.toLowerCase();
  if (n === q) return 1;
  if (name.startsWith(query)) return 2;
  if (n.startsWith(q)) return 3;
  if (n.includes(q)) return 4;
  return 5;
}

/** A file the server of `spec` handles, to give servers like tsserver a project to search. */
async function anchorFile(
  ctx: ToolContext,
  pool: LanguageServerPool,
  serverId: string,
): Promise<string | null> {
  const specs = (pool as LanguageServerPool & { specs?: readonly ServerSpec[] }).specs;
  if (!Array.isArray(specs)) return null;
  let seen = 0;
  for await (const entry of ctx.project().walk(".", { signal: ctx.signal })) {
    if (++seen > 5000) break;
    if (!entry.isDirectory && specForFile(specs, entry.path)?.id === serverId) return entry.path;
  }
  return null;
}

export const workspaceSymbols = defineTool({
  name: "workspace_symbols",
  description: "Searches symbols by name across the project (all its languages), as the IDE's " +
    "Go to Symbol in Workspace; partial names match. Ranked: exact name, prefix, substring, " +
    'then the server\'s fuzzy matches; project files first. Returns {"query", "symbols": ' +
    '[{"name", "kind", "container", "file", "line", "column"}], "totalCount"}.',
  params: {
    query: z.string().min(1).describe("The name or part of it."),
    kind: z.string().default("all").describe(
      "all, package, procedure, function, type, variable, or LSP kinds (class, method, ...); " +
        "comma-separated.",
    ),
    max_results: z.number().int().min(1).max(1000).default(50).describe(
      "Return at most this many.",
    ),
  },
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const kinds = kindsOf(args.kind);
    const project = ctx.project();
    const pool = ctx.session.services(project).pool;
    const options = requestOptions(ctx);
    const servers = await pool.serversForProject(options);
    const reader = new LineReader(project.settings.encoding);
    const found: Array<{ s: WorkspaceSymbol; server: LanguageServer }> = [];
    const failures: string[] = [];
    for (const server of servers) {
      try {
        const anchor = await anchorFile(ctx, pool, server.id);
        const result = await server.request<WorkspaceSymbol[] | null>(
          LspMethod.workspaceSymbol,
          { query: args.query },
          { ...options, sync: anchor ? [anchor] : [] },
        );
        for (const s of result ?? []) {
          if (!kinds || kinds.has(s.kind)) found.push({ s, server });
        }
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (found.length === 0 && failures.length > 0) throw new ToolError(failures.join("\n"));
    const rows = await Promise.all(found.map(async ({ s, server }) => {
      const uri = s.location.uri;
      const inProject = server.relPathOf(uri) !== null;
      const row: Record<string, unknown> = {
        name: s.name,
        kind: kindName(SYMBOL_KIND_NAMES, s.kind),
      };
      if (s.containerName) row.container = s.containerName;
      row.file = displayPath(server, uri);
      // A WorkspaceSymbol may come without a range (resolved lazily); SymbolInformation has one.
      const range = "range" in s.location ? s.location.range : undefined;
      if (range) {
        const lines = await reader.lines(uri);
        const start = range.start;
        // Servers give the whole declaration (`export class X`): point at the name in it.
        const lineText = lines?.[start.line] ?? "";
        const named = lineText.indexOf(s.name, start.character);
        const at = toAgentPosition(
          lines ?? [],
          named >= 0 ? { line: start.line, character: named } : start,
        );
        row.line = at.line;
        row.column = at.column;
        if (lines) row.preview = preview(lines[range.start.line] ?? "");
      }
      return { row, rank: nameRank(s.name, args.query), inProject };
    }));
    rows.sort((a, b) =>
      a.rank - b.rank || Number(b.inProject) - Number(a.inProject) ||
      String(a.row.file).localeCompare(String(b.row.file)) ||
      Number(a.row.line ?? 0) - Number(b.row.line ?? 0)
    );
    const symbols = rows.slice(0, args.max_results).map((r) => r.row);
    return toJson({ query: args.query, symbols, totalCount: rows.length });
  },
});
