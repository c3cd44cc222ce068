/**
 * Serena's name-path patterns, matched against {@linkcode SymbolNode}s:
 *
 * - a simple name (`method`) matches every symbol with that name;
 * - a relative path (`Class/method`) matches symbols whose name path ends with it;
 * - an absolute path (`/Class/method`) matches the whole name path from the file's top level;
 * - an index (`method[1]`) selects one overload; without it every overload matches;
 * - substring matching applies to the last segment only.
 *
 * Names read the same in every language: a Go method, which gopls names `(*T).M` or `(T).M` at
 * the top level, also matches `T/M`; a Rust method inside `impl T`, `impl Trait for T` or
 * `impl<..> T<..>` also matches `T/M` (the impl block stands for its type when it contains the
 * match). The servers' own names keep matching as before.
 * @module
 */
import { ToolError } from "../errors.ts";
import { namePathOf, symbolKindName, type SymbolNode } from "./model.ts";

/** One pattern segment. */
export interface PatternSegment {
  name: string;
  /** Required overload index, or null for "any". */
  overloadIndex: number | null;
}

/** A parsed name-path pattern. */
export interface NamePathPattern {
  /** The text as given. */
  text: string;
  absolute: boolean;
  segments: PatternSegment[];
}

function parseSegment(text: string): PatternSegment {
  const match = /^(.*)\[(\d+)\]$/s.exec(text);
  if (match && match[1] !== "") {
    return { name: match[1]!, overloadIndex: Number(match[2]) };
  }
  return { name: text, overloadIndex: null };
}

/** Parse a pattern; throws a ToolError for an empty one. */
export function parseNamePath(text: string): NamePathPattern {
  const trimmed = text.trim();
  const absolute = trimmed.startsWith("/");
  const inner = trimmed.replace(/^\/+/, "").replace(/\/+$/, "");
  if (inner === "") {
    throw new ToolError(
      "The name path is empty. Give a symbol name ('method'), a relative path " +
        "('Class/method') or an absolute path ('/Class/method').",
    );
  }
  return { text: trimmed, absolute, segments: inner.split("/").map(parseSegment) };
}

export interface MatchOptions {
  /** Match the last segment as a substring of the symbol's name. */
  substring?: boolean;
}

/** Whether a symbol's name path matches the pattern (its own names, or the aliases above). */
export function matchesNamePath(
  node: SymbolNode,
  pattern: NamePathPattern,
  options: MatchOptions = {},
): boolean {
  return matchesServerNames(node, pattern, options) || matchesAliases(node, pattern, options);
}

/** `(*T).M` / `(T).M` (gopls' method names): the receiver type and the method. */
const GO_METHOD = /^\(\*?([\p{L}_][\p{L}\p{N}_]*)(?:\[[^\]]*\])?\)\.(.+)$/u;

/**
 * The type a Rust impl block's name implements for: `impl T`, `impl<A> T<A>`,
 * `impl Trait for T`, `impl<A> Trait<A> for path::T<A>` → `T`; null for other names.
 */
export function implTypeName(name: string): string | null {
  if (!name.startsWith("impl")) return null;
  let rest = name.slice(4);
  if (rest.startsWith("<")) {
    let depth = 0;
    let i = 0;
    for (; i < rest.length; i++) {
      if (rest[i] === "<") depth++;
      else if (rest[i] === ">" && --depth === 0) break;
    }
    rest = rest.slice(i + 1);
  } else if (!/^\s/.test(rest)) return null;
  // The self type follows the last top-level " for " (a trait impl), else it is all of it.
  let depth = 0;
  let forAt = -1;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === "<" || c === "(" || c === "[") depth++;
    else if (c === ">" || c === ")" || c === "]") depth--;
    else if (depth === 0 && rest.startsWith(" for ", i)) forAt = i + 5;
  }
  const selfType = (forAt >= 0 ? rest.slice(forAt) : rest).trim().replace(/^&(mut\s+)?/, "");
  const path = selfType.replace(/<.*$/s, "").trim();
  const last = path.slice(path.lastIndexOf("::") + 1).replace(/^:/, "");
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(last) ? last : null;
}

/** One step of a node's chain of names under the aliases. */
interface AliasStep {
  name: string;
  overloadIndex: number | null;
}

function matchesAliases(
  node: SymbolNode,
  pattern: NamePathPattern,
  options: MatchOptions,
): boolean {
  const goMethod = GO_METHOD.exec(node.name);
  const lastName = goMethod ? goMethod[2]! : node.name;
  const lastSeg = pattern.segments[pattern.segments.length - 1]!;
  if (!(options.substring ? lastName.includes(lastSeg.name) : lastName === lastSeg.name)) {
    return false;
  }
  // The chain from the node up: the method (and its Go receiver type), then its containers.
  const chain: AliasStep[] = [{ name: lastName, overloadIndex: node.overloadIndex }];
  if (goMethod) chain.push({ name: goMethod[1]!, overloadIndex: null });
  let aliased = goMethod !== null;
  for (let p = node.parent; p !== null; p = p.parent) {
    const implType = implTypeName(p.name);
    if (implType !== null) aliased = true;
    chain.push({ name: implType ?? p.name, overloadIndex: implType ? null : p.overloadIndex });
  }
  if (!aliased) return false;
  const segments = pattern.segments;
  if (segments.length > chain.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[segments.length - 1 - i]!;
    const step = chain[i]!;
    const nameOk = i === 0 && options.substring
      ? step.name.includes(seg.name)
      : step.name === seg.name;
    if (!nameOk) return false;
    if (seg.overloadIndex !== null && seg.overloadIndex !== step.overloadIndex) return false;
  }
  return !pattern.absolute || segments.length === chain.length;
}

function matchesServerNames(
  node: SymbolNode,
  pattern: NamePathPattern,
  options: MatchOptions,
): boolean {
  let current: SymbolNode | null = node;
  const segments = pattern.segments;
  for (let i = segments.length - 1; i >= 0; i--) {
    if (current === null) return false;
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    const nameOk = last && options.substring
      ? current.name.includes(seg.name)
      : current.name === seg.name;
    if (!nameOk) return false;
    if (seg.overloadIndex !== null && seg.overloadIndex !== current.overloadIndex) return false;
    current = current.parent;
  }
  return !pattern.absolute || current === null;
}

export interface FindOptions extends MatchOptions {
  /** Only these LSP kinds (empty or absent: all). */
  includeKinds?: readonly number[];
  /** Never these kinds; wins over includeKinds. */
  excludeKinds?: readonly number[];
}

/** Every symbol of a forest (document order) matching the pattern and the kind filters. */
export function findInTree(
  roots: readonly SymbolNode[],
  pattern: NamePathPattern,
  options: FindOptions = {},
): SymbolNode[] {
  const include = options.includeKinds?.length ? new Set(options.includeKinds) : null;
  const exclude = options.excludeKinds?.length ? new Set(options.excludeKinds) : null;
  const out: SymbolNode[] = [];
  const visit = (nodes: readonly SymbolNode[]) => {
    for (const n of nodes) {
      const kindOk = (!include || include.has(n.kind)) && !exclude?.has(n.kind);
      if (kindOk && matchesNamePath(n, pattern, options)) out.push(n);
      visit(n.children);
    }
  };
  visit(roots);
  return out;
}

/** A short line naming a candidate: `Outer/f[1] (Method, lines 3-9)`, 0-based lines. */
export function describeCandidate(node: SymbolNode, withPath = false): string {
  const where = withPath ? ` in ${node.relPath}` : "";
  return `${namePathOf(node)} (${symbolKindName(node.kind)}, lines ` +
    `${node.range.start.line}-${node.range.end.line}${where})`;
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * How close a name is to a wanted one, ignoring case (`wanted` in lower case): 0 equal, 1
 * containing or contained in it, 2-3 within that many edits; -1 not close.
 */
export function nameCloseness(name: string, wanted: string): number {
  const lower = name.toLowerCase();
  if (lower === wanted) return 0;
  if (lower.includes(wanted) || (lower.length >= 3 && wanted.includes(lower))) return 1;
  const d = editDistance(lower, wanted, 2);
  return d <= 2 ? 1 + d : -1;
}

/**
 * Name paths in a forest close to a pattern that matched nothing: last segments containing (or
 * contained in) the pattern's last segment, ignoring case, or within a small edit distance.
 */
export function suggestNamePaths(
  roots: readonly SymbolNode[],
  pattern: NamePathPattern,
  limit = 10,
): string[] {
  const wanted = pattern.segments[pattern.segments.length - 1]!.name.toLowerCase();
  const scored: Array<{ path: string; score: number }> = [];
  const visit = (nodes: readonly SymbolNode[]) => {
    for (const n of nodes) {
      const score = nameCloseness(n.name, wanted);
      if (score >= 0) scored.push({ path: namePathOf(n), score });
      visit(n.children);
    }
  };
  visit(roots);
  scored.sort((a, b) => a.score - b.score || a.path.localeCompare(b.path));
  return [...new Set(scored.map((s) => s.path))].slice(0, limit);
}

/**
 * The one symbol a pattern denotes for an edit or a reference query. Several candidates: the
 * one whose name path equals the pattern exactly wins (as in Serena); otherwise a ToolError
 * listing the candidates. None: a ToolError suggesting close names from `roots`.
 */
export function pickUnique(
  candidates: readonly SymbolNode[],
  pattern: NamePathPattern,
  context: { relPath: string; roots: readonly SymbolNode[] },
): SymbolNode {
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    const close = suggestNamePaths(context.roots, pattern);
    const hint = close.length > 0
      ? ` Close names there: ${close.join(", ")}.`
      : " Use get_symbols_overview to see the symbols of the file.";
    throw new ToolError(`No symbol matching '${pattern.text}' in '${context.relPath}'.${hint}`);
  }
  const bare = pattern.text.replace(/^\//, "");
  const exact = candidates.filter((c) => namePathOf(c) === bare);
  if (exact.length === 1) return exact[0]!;
  throw new ToolError(
    `'${pattern.text}' matches ${candidates.length} symbols in '${context.relPath}': ` +
      candidates.map((c) => describeCandidate(c)).join("; ") +
      ". Give a longer name path, an absolute one ('/Outer/name') or an overload index " +
      "('name[1]').",
  );
}
