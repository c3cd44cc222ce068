/**
 * IDE navigation at a position (seed 003 without the `ada_` prefix): goto_definition,
 * type_definition, implementation, hover, find_references, signature_help and completions.
 * Each takes `relative_path` + 1-based `line`/`column`, or `relative_path` + `name_path`.
 * @module
 */
import { z } from "../deps.ts";
import { type NormalizedLocation, normalizeLocations } from "../lsp/symbols_queries.ts";
import { namePathOf } from "../lsp/symbols.ts";
import { maxAnswerChars } from "./file_tools.ts";
import {
  ask,
  describePosition,
  kindName,
  type LocationDict,
  locationDict,
  positionParams,
  type PositionTarget,
  resolvePosition,
  toJson,
} from "./ide_common.ts";
import { defineTool, type Tool } from "./tool.ts";

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

/** Locations without duplicates (same file and start). */
function unique(locations: NormalizedLocation[]): NormalizedLocation[] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = `${l.uri}:${l.range.start.line}:${l.range.start.character}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function textDocumentPosition(target: PositionTarget) {
  return { textDocument: { uri: target.uri }, position: target.position };
}

/** What the symbol at the target is called in answers. */
function symbolName(target: PositionTarget): string {
  return target.symbol ? namePathOf(target.symbol) : target.word;
}

function locationTool(spec: {
  name: string;
  method: string;
  capability: string;
  what: string;
  description: string;
  optional?: boolean;
}): Tool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    params: positionParams,
    markers: spec.optional ? ["symbolic-read", "optional"] : ["symbolic-read"],
    readOnly: true,
    async handler(args, ctx) {
      const target = await resolvePosition(ctx, args);
      const result = await ask<unknown>(
        target,
        spec.method,
        textDocumentPosition(target),
        spec.capability,
        spec.what,
      );
      const locations = unique(normalizeLocations(result));
      if (locations.length === 0) {
        return toJson({
          found: false,
          message: `No ${spec.what} found at ${describePosition(target)}.`,
        });
      }
      const dicts: LocationDict[] = [];
      for (const l of locations) dicts.push(await locationDict(target, l.uri, l.range));
      const answer: Record<string, unknown> = { found: true, ...dicts[0] };
      if (dicts.length > 1) answer.locations = dicts;
      return toJson(answer);
    },
  });
}

export const gotoDefinition = locationTool({
  name: "goto_definition",
  method: "textDocument/definition",
  capability: "definitionProvider",
  what: "definition",
  description: "Finds where the symbol at a position is defined (also across files and into " +
    "libraries). Position: relative_path + 1-based line/column, or relative_path + name_path. " +
    'Returns {"found", "file", "line", "column", "preview"}; "locations" lists all when several.',
});

export const typeDefinition = locationTool({
  name: "type_definition",
  method: "textDocument/typeDefinition",
  capability: "typeDefinitionProvider",
  what: "type definition",
  optional: true,
  description: "Finds the definition of the type of the symbol at a position (e.g. the class " +
    "of a variable). Position: relative_path + 1-based line/column, or name_path. Returns " +
    '{"found", "file", "line", "column", "preview"} ("locations" when several).',
});

export const implementation = locationTool({
  name: "implementation",
  method: "textDocument/implementation",
  capability: "implementationProvider",
  what: "implementation",
  optional: true,
  description: "Finds the implementations of the interface, abstract method or declaration at " +
    "a position. Position: relative_path + 1-based line/column, or name_path. Returns " +
    '{"found", "file", "line", "column", "preview"} ("locations" lists all when several).',
});

/** Markdown/plain hover contents → code (signatures) and prose (documentation). */
export function splitHover(contents: unknown): { code: string; prose: string } {
  const code: string[] = [];
  const prose: string[] = [];
  const addMarkdown = (text: string) => {
    const fence = /```[^\n]*\n([\s\S]*?)```/g;
    let last = 0;
    for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
      prose.push(text.slice(last, m.index));
      code.push(m[1]!.trimEnd());
      last = m.index + m[0].length;
    }
    prose.push(text.slice(last));
  };
  const visit = (item: unknown) => {
    if (typeof item === "string") addMarkdown(item);
    else if (Array.isArray(item)) item.forEach(visit);
    else if (item && typeof item === "object") {
      const o = item as { kind?: string; language?: string; value?: string };
      if (typeof o.value !== "string") return;
      if (o.language !== undefined) code.push(o.value.trimEnd());
      else if (o.kind === "plaintext") prose.push(o.value);
      else addMarkdown(o.value);
    }
  };
  visit(contents);
  const cleaned = prose.map((p) => p.replace(/^\s*-{3,}\s*$/gm, "").trim()).filter(Boolean);
  return { code: code.filter(Boolean).join("\n"), prose: cleaned.join("\n\n") };
}

const HOVER_KINDS = new Set([
  "function",
  "class",
  "interface",
  "type",
  "enum",
  "const",
  "let",
  "var",
  "module",
  "namespace",
  "def",
  "procedure",
  "package",
]);

/** The kind a hover names: `(method) ...` → method, `class X` → class. */
export function hoverKind(code: string): string | undefined {
  const first = code.split("\n")[0]?.trim() ?? "";
  const paren = /^\(([\w ]+)\)/.exec(first);
  if (paren) return paren[1];
  const word = /^(?:export\s+|declare\s+|async\s+)*(\w+)/.exec(first)?.[1];
  return word && HOVER_KINDS.has(word) ? (word === "def" ? "function" : word) : undefined;
}

export const hover = defineTool({
  name: "hover",
  description: "Shows type information and documentation of the symbol at a position, as the " +
    "IDE's hover does. Position: relative_path + 1-based line/column, or name_path. Returns " +
    '{"found", "contents" (signature/type), "documentation", "kind"}.',
  params: positionParams,
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const result = await ask<{ contents?: unknown } | null>(
      target,
      "textDocument/hover",
      textDocumentPosition(target),
      "hoverProvider",
      "hover",
    );
    const { code, prose } = splitHover(result?.contents);
    if (!code && !prose) {
      return toJson({ found: false, message: `No hover at ${describePosition(target)}.` });
    }
    const answer: Record<string, unknown> = { found: true, contents: code || prose };
    if (code && prose) answer.documentation = prose;
    const kind = hoverKind(code);
    if (kind) answer.kind = kind;
    return toJson(answer);
  },
});

export const findReferences = defineTool({
  name: "find_references",
  description: "Finds every reference to the symbol at a position across the project (as the " +
    "IDE's Find All References). Position: relative_path + 1-based line/column, or name_path. " +
    'Returns {"symbol", "references": [{"file", "line", "column", "is_definition", "preview"}], ' +
    '"totalCount"}.',
  params: {
    ...positionParams,
    include_declaration: z.boolean().default(true).describe(
      "Include the declaration itself.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  // Optional: find_referencing_symbols covers the default set; the ide and ada contexts add it.
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const result = await ask<unknown>(
      target,
      "textDocument/references",
      {
        ...textDocumentPosition(target),
        context: { includeDeclaration: args.include_declaration },
      },
      "referencesProvider",
      "finding references",
    );
    const locations = unique(normalizeLocations(result));
    // Declarations: where goto_definition leads (best effort; a failure only loses the flag).
    const definitions = new Set<string>();
    try {
      const defs = await target.server.request<unknown>(
        "textDocument/definition",
        textDocumentPosition(target),
        { ...target.options, sync: [target.relPath] },
      );
      for (const d of normalizeLocations(defs)) {
        definitions.add(`${d.uri}:${d.range.start.line}:${d.range.start.character}`);
      }
    } catch (error) {
      if (target.options.signal?.aborted) throw error;
    }
    const references: Array<LocationDict & { is_definition: boolean }> = [];
    for (const l of locations) {
      const key = `${l.uri}:${l.range.start.line}:${l.range.start.character}`;
      references.push({
        ...(await locationDict(target, l.uri, l.range)),
        is_definition: definitions.has(key),
      });
    }
    references.sort((a, b) =>
      a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.line - b.line || a.column - b.column
    );
    const symbol = symbolName(target);
    const full = { symbol, references, totalCount: references.length };
    return {
      text: toJson(full),
      shorter: [{
        note: "Too long with previews; references as file → [line:column]:",
        text: () => {
          const byFile: Record<string, string[]> = {};
          for (const r of references) (byFile[r.file] ??= []).push(`${r.line}:${r.column}`);
          return toJson({ symbol, references: byFile, totalCount: references.length });
        },
      }],
    };
  },
});

interface SignatureInformation {
  label: string;
  documentation?: unknown;
  parameters?: Array<{ label: string | [number, number]; documentation?: unknown }>;
  activeParameter?: number;
}

function docText(doc: unknown): string {
  if (typeof doc === "string") return doc.trim();
  if (doc && typeof doc === "object" && typeof (doc as { value?: unknown }).value === "string") {
    return (doc as { value: string }).value.trim();
  }
  return "";
}

export const signatureHelp = defineTool({
  name: "signature_help",
  description: "Shows the signature(s) of the function being called at a position: put the " +
    "position inside the call's parentheses (e.g. on an argument). With name_path, shows the " +
    'named function\'s signature. Returns {"signatures": [{"label", "parameters", ' +
    '"documentation"}], "activeSignature", "activeParameter"}.',
  params: positionParams,
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const result = await ask<
      | { signatures?: SignatureInformation[]; activeSignature?: number; activeParameter?: number }
      | null
    >(
      target,
      "textDocument/signatureHelp",
      { ...textDocumentPosition(target), context: { triggerKind: 1, isRetrigger: false } },
      "signatureHelpProvider",
      "signature help",
    );
    const signatures = (result?.signatures ?? []).map((s) => {
      const out: Record<string, unknown> = { label: s.label };
      const doc = docText(s.documentation);
      if (doc) out.documentation = doc;
      out.parameters = (s.parameters ?? []).map((p) => {
        const label = Array.isArray(p.label) ? s.label.slice(p.label[0], p.label[1]) : p.label;
        const pd = docText(p.documentation);
        return pd ? { label, documentation: pd } : { label };
      });
      if (s.activeParameter !== undefined) out.activeParameter = s.activeParameter;
      return out;
    });
    if (signatures.length > 0) {
      return toJson({
        found: true,
        signatures,
        activeSignature: result?.activeSignature ?? 0,
        activeParameter: result?.activeParameter ?? 0,
      });
    }
    if (target.symbol) {
      // At a declaration there is no call: its hover is the signature.
      const hovered = await ask<{ contents?: unknown } | null>(
        target,
        "textDocument/hover",
        textDocumentPosition(target),
        "hoverProvider",
        "hover",
      );
      const { code, prose } = splitHover(hovered?.contents);
      if (code) {
        const sig: Record<string, unknown> = { label: code };
        if (prose) sig.documentation = prose;
        return toJson({ found: true, signatures: [sig], source: "hover" });
      }
    }
    return toJson({
      found: false,
      message: `No call at ${describePosition(target)}: put line/column inside the parentheses ` +
        "of a call (e.g. on its first argument).",
    });
  },
});

interface CompletionItem {
  label: string;
  kind?: number;
  detail?: string;
  labelDetails?: { detail?: string; description?: string };
  documentation?: unknown;
  insertText?: string;
  filterText?: string;
  sortText?: string;
  textEdit?: { newText?: string };
}

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
      "textDocument/completion",
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

/** The tools of this module, in registry order. */
export const NAV_TOOLS: readonly Tool[] = [
  gotoDefinition,
  typeDefinition,
  implementation,
  hover,
  findReferences,
  signatureHelp,
  completions,
];
