/**
 * pyright lists each name of a scope once: its symbol indexer walks the scope's symbol table, not
 * the declarations. What `./python.ts` declares, one entry per binding, is reduced here to that
 * listing, in the order pyright's binder meets the bindings.
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { CompactSymbol } from "../../model.ts";
import { type Found, K, unmodelledPart } from "./core.ts";

/** Where a `try` statement's part comes in pyright's binder: the body, `else`, `except`, `finally`. */
function tryPartRank(part: Node): number {
  switch (part.type) {
    case "else_clause":
      return 1;
    case "except_clause":
    case "except_group_clause":
      return 2;
    case "finally_clause":
      return 3;
    default:
      return 0;
  }
}

/**
 * The order in which pyright's binder meets two names of one scope: the order of the text, but
 * for a `try` statement, whose `else` it binds before its `except` clauses.
 */
function bindingOrder(a: Node, b: Node): number {
  const aboveA = new Map<number, Node>();
  let below: Node = a;
  for (let p = a.parent; p; below = p, p = p.parent) aboveA.set(p.id, below);
  let underB: Node = b;
  for (let p = b.parent; p; underB = p, p = p.parent) {
    const underA = aboveA.get(p.id);
    if (underA === undefined) continue;
    if (p.type === "try_statement") {
      const rank = tryPartRank(underA) - tryPartRank(underB);
      if (rank !== 0) return rank;
    }
    break;
  }
  return a.startIndex - b.startIndex;
}

/** How many functions' bodies enclose a node: pyright's binder meets a function's body later. */
function depth(node: Node): number {
  let n = 0;
  for (let p = node.parent; p; p = p.parent) if (p.type === "function_definition") n++;
  return n;
}

/**
 * The declarations of a parsed file as pyright lists them: those a `global` or `nonlocal`
 * statement rebinds moved to the scope they declare a name of, then one per name of each scope
 * ({@linkcode oneDeclarationPerName}).
 */
export function pyrightListing(
  top: CompactSymbol[],
  declared: ReadonlyMap<CompactSymbol, Found>,
): CompactSymbol[] {
  moveRebound(top, declared, [{ list: top, kind: 0 }]);
  return oneDeclarationPerName(top, declared);
}

/** A list of declarations, and the kind of the declaration it is the children of (0: the module). */
interface Scope {
  list: CompactSymbol[];
  kind: number;
}

/**
 * Moves each rebound declaration of the last of `scopes` (the lists enclosing it, from the
 * module's down) and below it: a `global` one to the module's list, a `nonlocal` one to the
 * nearest enclosing function's list that declares the name itself (none: not modelled).
 */
function moveRebound(
  list: CompactSymbol[],
  declared: ReadonlyMap<CompactSymbol, Found>,
  scopes: readonly Scope[],
): void {
  for (const s of [...list]) {
    if (s[10]) moveRebound(s[10], declared, [...scopes, { list: s[10], kind: s[1] }]);
    const found = declared.get(s);
    if (!found?.rebound) continue;
    const declares = (scope: Scope) =>
      (scope.kind === K.Function || scope.kind === K.Method) &&
      scope.list.some((o) => o[0] === s[0] && !declared.get(o)?.rebound);
    const target = found.rebound === "global"
      ? scopes[0]
      : scopes.slice(0, -1).reverse().find(declares);
    if (!target) {
      unmodelledPart("nonlocal name", found.node);
      continue;
    }
    list.splice(list.indexOf(s), 1);
    target.list.push(s);
  }
}

/**
 * pyright lists each name of a scope once (its symbol indexer walks the scope's symbol table): at
 * the last declaration with a type ({@linkcode Found.typed}), else at the first one its binder
 * met, and not at all when that one is never listed itself ({@linkcode Found.hidden}: an import,
 * `_`). The binder meets a function's body after the scope around it ({@linkcode depth}), so the
 * members a method assigns come after every declaration of the class body, and a name a function
 * declares `global` after the module's own; a class's `__slots__` after its body
 * ({@linkcode Found.late}); and a `try`'s `else` before its `except` clauses
 * ({@linkcode bindingOrder}). A name also bound by an
 * assignment expression, which the binder may meet before a declaration written ahead of it, is
 * not modelled (all its declarations are kept). Returns the list with one declaration per name,
 * in document order, each one's children reduced the same way.
 */
export function oneDeclarationPerName(
  list: readonly CompactSymbol[],
  declared: ReadonlyMap<CompactSymbol, Found>,
): CompactSymbol[] {
  if (new Set(list.map((s) => s[0])).size === list.length) {
    // Each name once (most lists): only the hidden ones go.
    const out = list.filter((s) => !declared.get(s)?.hidden);
    reduceChildren(out, declared);
    return out;
  }
  const byName = new Map<string, CompactSymbol[]>();
  for (const s of list) {
    const same = byName.get(s[0]);
    if (same) same.push(s);
    else byName.set(s[0], [s]);
  }
  const kept = new Set<CompactSymbol>();
  for (const same of byName.values()) {
    const at = (s: CompactSymbol) => declared.get(s)!.nameNode;
    const bodies = (s: CompactSymbol) => depth(declared.get(s)!.node);
    const late = (s: CompactSymbol) => declared.get(s)!.late ? 1 : 0;
    const order = same.length === 1
      ? same
      : [...same].sort((a, b) =>
        bodies(a) - bodies(b) || late(a) - late(b) || bindingOrder(at(a), at(b))
      );
    const early = order.find((s) => declared.get(s)?.boundEarly);
    if (order.length > 1 && early) {
      unmodelledPart("a name bound by := and declared again", declared.get(early)!.node);
      for (const s of order) if (!declared.get(s)?.hidden) kept.add(s);
      continue;
    }
    const typed = order.filter((s) => declared.get(s)?.typed);
    const chosen = typed.length > 0 ? typed[typed.length - 1]! : order[0]!;
    if (!declared.get(chosen)?.hidden) kept.add(chosen);
  }
  const out = list.filter((s) => kept.has(s));
  reduceChildren(out, declared);
  return out;
}

/** Reduces the children of each of `list`'s declarations (see {@linkcode oneDeclarationPerName}). */
function reduceChildren(list: CompactSymbol[], declared: ReadonlyMap<CompactSymbol, Found>): void {
  for (const s of list) {
    if (!s[10]) continue;
    const children = oneDeclarationPerName(s[10], declared);
    if (children.length > 0) s[10] = children;
    else s.length = 10;
  }
}
