/**
 * A symbol as Serena's symbol tools print it: the sanitized dictionary (`name_path`, `kind`,
 * `relative_path`, `body_location`, `body`, `children`) and children grouped by kind.
 * @module
 */
import { bodyOf, namePathOf, symbolKindName, type SymbolNode } from "../../symbols/model.ts";

export interface DictOptions {
  /** Levels of children to include (0: none). */
  depth: number;
  /** Include `relative_path` (top level only; children share their parent's file). */
  relativePath: boolean;
  /** File text, to include the symbol's `body` (top level only). */
  bodyText?: string | undefined;
}

/** A symbol as Serena prints it (sanitized: no `name`, no `location`). */
export type SymbolDict = Record<string, unknown>;

/** The sanitized dictionary of a symbol. */
export function symbolDict(node: SymbolNode, options: DictOptions): SymbolDict {
  const d: SymbolDict = { name_path: namePathOf(node), kind: symbolKindName(node.kind) };
  if (options.relativePath) d.relative_path = node.relPath;
  d.body_location = { start_line: node.range.start.line, end_line: node.range.end.line };
  if (options.bodyText !== undefined) d.body = bodyOf(node, options.bodyText);
  if (options.depth > 0 && node.children.length > 0) {
    d.children = childrenByKind(node.children, options.depth - 1);
  }
  return d;
}

/**
 * Children as Serena 2.1's find_symbol gives them: grouped by kind name (kinds in order of first
 * appearance), each child by its bare `name` (the parent's name path makes it unambiguous) with
 * its `body_location` and, `depth` levels down, its own children grouped the same way:
 * `{"Method": [{"name": "area", "body_location": {...}}]}`.
 */
export function childrenByKind(
  children: readonly SymbolNode[],
  depth: number,
): Record<string, SymbolDict[]> {
  const grouped: Record<string, SymbolDict[]> = {};
  for (const child of children) {
    const d: SymbolDict = {
      name: child.name,
      body_location: { start_line: child.range.start.line, end_line: child.range.end.line },
    };
    if (depth > 0 && child.children.length > 0) {
      d.children = childrenByKind(child.children, depth - 1);
    }
    (grouped[symbolKindName(child.kind)] ??= []).push(d);
  }
  return grouped;
}
