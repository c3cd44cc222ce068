/**
 * What every grammar's rules share: the declaration a rule finds ({@linkcode Found}), the rule's
 * type, the per-file state that marks a file not exact ({@linkcode unmodelled}), and the kind
 * numbers. The walk that applies the rules is `../extract.ts`.
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { SymbolKind } from "../../model.ts";

/** One declaration found by a rule. */
export interface Found {
  name: string;
  kind: number;
  /** The whole declaration (body range). */
  node: Node;
  /** The identifier (selection range). */
  nameNode: Node;
  /**
   * A member of the enclosing class declared from inside a method (Python's `self.x = ...`):
   * listed once among the class's children, as pyright does.
   */
  member?: boolean;
  /** Where the body range starts and ends, when not at the node's own ends. */
  from?: Node | undefined;
  to?: Node | undefined;
  /** The selection range starts where the body range starts (tsserver's callbacks). */
  selectAtStart?: boolean;
  /** Nothing nested in the node is listed (tsserver lists no members of a type alias). */
  leaf?: boolean;
  /** What is nested in the node belongs to the enclosing declaration, not to this one. */
  detached?: boolean;
  /**
   * A function or method that may be overloaded: tsserver gives one navigation item for all
   * declarations of the name, with the name's position of the first, so the later ones'
   * selection range is their whole range.
   */
  overload?: boolean;
  /** Not listed when nothing is nested in it (tsserver's anonymous `<function>`). */
  dropIfEmpty?: boolean;
  /** What overloads share, when not just the name (tsserver merges no static with instance). */
  overloadKey?: string;
  /**
   * pyright lists a scope's name once, at one of its declarations: the last one with a type (a
   * class, a function, an annotated variable or parameter), else the first (see extract.ts's
   * `oneDeclarationPerName`). Whether this one has a type.
   */
  typed?: boolean;
  /**
   * A declaration of its name that pyright never lists (an import, a variable or parameter named
   * `_`, `self` or `cls`): when it is the one chosen, the name is not listed at all.
   */
  hidden?: boolean;
  /**
   * pyright may bind it before a declaration written ahead of it (an assignment expression binds
   * before its statement's targets): its name declared again is not modelled.
   */
  boundEarly?: boolean;
  /**
   * A `global` or `nonlocal` statement of its scope makes it a declaration of the module's name
   * or of an enclosing function's (see `./python_symbols.ts`).
   */
  rebound?: "global" | "nonlocal";
  /** pyright's binder declares it after every statement of its scope (a class's `__slots__`). */
  late?: boolean;
}

/** A rule's answer for a node that declares nothing and holds nothing the server lists. */
export const SKIP: unique symbol = Symbol("skip");

/**
 * A rule sees a node of its type and the kind of the enclosing declaration (0: top level); it
 * returns what the node declares (its children are visited after), null (nothing; the children
 * are visited), or {@linkcode SKIP} (nothing, nor in the children).
 */
export type Rule = (node: Node, parentKind: number) => Found[] | Found | null | typeof SKIP;

/**
 * Whether the file being extracted holds only what the rules model exactly (see
 * {@linkcode extractFile}); a rule that meets a construct whose listing by the server it does
 * not reproduce calls {@linkcode unmodelled}. Extraction is synchronous, so one flag serves.
 */
let exact = true;

/** Where the reasons of the file being extracted go, when asked for (see {@linkcode extractFile}). */
let reasons: Set<string> | null = null;

/**
 * The texts of the file's unmodelled constructs, or null when one of them is not known: the
 * declarations a server lists there may be missing from the rules' (see
 * {@linkcode unmodelledTexts}).
 */
let missed: string[] | null = [];

/** The node whose rule runs now (see {@linkcode ruleOn}). */
let visiting: Node | null = null;

function miss(node: Node | null | undefined): void {
  if (missed === null) return;
  if (node) missed.push(node.text);
  else missed = null;
}

/**
 * The file holds a construct the rules do not model: the node `why` (a rule used as is), else
 * the node whose rule runs. `why` names it (a rule used as is names its node type); it is
 * recorded only when the caller asked for reasons.
 */
export function unmodelled(why?: string | Node): null {
  exact = false;
  if (reasons !== null) reasons.add(typeof why === "string" ? why : why?.type ?? "unnamed");
  miss(typeof why === "object" ? why : visiting);
  return null;
}

/** {@linkcode unmodelled}, for a construct that is only a part of the node whose rule runs. */
export function unmodelledPart(why: string, part: Node): null {
  exact = false;
  if (reasons !== null) reasons.add(why);
  miss(part);
  return null;
}

/** The walk runs the rule of `node` next. */
export function ruleOn(node: Node): void {
  visiting = node;
}

/**
 * The texts of the constructs the rules did not model in the file being (or last) extracted, or
 * null when one is not known: every name the server lists that the rules missed is written in
 * them.
 */
export function unmodelledTexts(): string[] | null {
  return missed;
}

/**
 * Starts a file: it is exact until a rule calls {@linkcode unmodelled}; `why`, when given,
 * collects the reasons.
 */
export function beginFile(why: Set<string> | null): void {
  exact = true;
  reasons = why;
  missed = [];
  visiting = null;
  facts.clear();
}

/** Ends a file: forgets its reasons sink, its per-parent member names and its facts. */
export function endFile(): void {
  reasons = null;
  visiting = null;
  memberNames.clear();
  facts.clear();
}

/** What a grammar's rules learnt once about the file being extracted (see {@linkcode fileFact}). */
const facts = new Map<string, unknown>();

/**
 * A fact about the whole file being extracted, computed by `make` on the first ask (a rule that
 * would otherwise search the whole tree for each node it sees); forgotten when the file ends.
 */
export function fileFact<T>(key: string, make: () => T): T {
  if (facts.has(key)) return facts.get(key) as T;
  const value = make();
  facts.set(key, value);
  return value;
}

/** Whether the file being (or last) extracted held only modelled constructs. */
export function fileExact(): boolean {
  return exact;
}

/** LSP SymbolKind numbers (the one table, `../../model.ts`). */
export const K = SymbolKind;

/**
 * The last token of a node that is not a comment. Servers build their ranges from tokens, with
 * comments as trivia, so a declaration ends at its last token; tree-sitter puts a comment that
 * follows the last statement of a block, or precedes an inserted `;` (`type A = B // note`),
 * inside the node.
 */
export function lastToken(node: Node): Node {
  let n = node;
  for (;;) {
    let last: Node | null = null;
    for (let i = n.childCount - 1; i >= 0 && last === null; i--) {
      const c = n.child(i);
      if (c && c.type !== "comment" && c.startIndex !== c.endIndex) last = c;
    }
    if (last === null) return n;
    n = last;
  }
}

export function named(node: Node, kind: number, field = "name"): Found | null {
  const nameNode = node.childForFieldName(field);
  return nameNode ? { name: nameNode.text, kind, node, nameNode } : null;
}

/**
 * Names of the members seen so far per parent node (by node id), for the file being extracted:
 * tsserver merges same-named properties of one object literal, class or interface, but not of
 * two, so a second one in the same parent is unmodelled.
 */
export const memberNames = new Map<number, Set<string>>();
