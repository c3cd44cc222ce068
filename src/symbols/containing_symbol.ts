/**
 * The symbol a reference belongs to, by Serena's rule, so that `find_referencing_symbols` names
 * the same symbols Serena names:
 * - candidates are definitions spanning several lines (module, namespace, package, class, method,
 *   constructor, enum, interface, function, object, struct) and variables and constants of any
 *   size; a one-line definition is not a candidate (an overload signature, for instance);
 * - a candidate holds a position when the position's line is within its lines and, on its first
 *   line, not before its start (line-based: pyright gives a variable only its name's range, and
 *   the initializer after the name still belongs to it);
 * - the innermost candidate is the one starting on the latest line (on a tie, the outer one).
 *
 * So a reference in a module-level variable's initializer belongs to that variable, one in a
 * local constant inside a method to that constant (`Cls/method/found`), and one outside every
 * candidate (an import or re-export line) to no symbol: the caller reports the file.
 * @module
 */
import {
  type Position,
  STRUCTURAL_KINDS,
  SymbolKind,
  type SymbolNode,
  walkSymbols,
} from "./model.ts";

function isCandidate(node: SymbolNode): boolean {
  if (node.kind === SymbolKind.Variable || node.kind === SymbolKind.Constant) return true;
  // Kinds that hold code, when they span several lines.
  return STRUCTURAL_KINDS.has(node.kind) && node.range.start.line !== node.range.end.line;
}

function holds(node: SymbolNode, pos: Position): boolean {
  const { start, end } = node.range;
  if (pos.line < start.line || pos.line > end.line) return false;
  return pos.line !== start.line || pos.character >= start.character;
}

/** The symbol a reference at `pos` belongs to, or null at file level. */
export function referenceContainer(
  roots: readonly SymbolNode[],
  pos: Position,
): SymbolNode | null {
  return containerFinder(roots)(pos);
}

const finders = new WeakMap<readonly SymbolNode[], (pos: Position) => SymbolNode | null>();

/**
 * {@linkcode referenceContainer} for many positions of one file: the candidates are listed once,
 * latest start line first (on a tie in tree order, outer first), so a position's container is
 * the first candidate at or before its line that holds it, found by binary search and a short
 * scan. Kept per tree (trees are immutable and shared by the symbol index's memo).
 */
export function containerFinder(
  roots: readonly SymbolNode[],
): (pos: Position) => SymbolNode | null {
  let finder = finders.get(roots);
  if (finder) return finder;
  const candidates: SymbolNode[] = [];
  for (const node of walkSymbols(roots)) if (isCandidate(node)) candidates.push(node);
  // Stable: nodes starting on the same line keep tree order (an outer one before its children).
  candidates.sort((a, b) => b.range.start.line - a.range.start.line);
  finder = (pos) => {
    let lo = 0;
    let hi = candidates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[mid]!.range.start.line > pos.line) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < candidates.length; i++) {
      if (holds(candidates[i]!, pos)) return candidates[i]!;
    }
    return null;
  };
  finders.set(roots, finder);
  return finder;
}
