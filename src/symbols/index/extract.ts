/**
 * Declarations from a tree-sitter syntax tree: what a file declares (name, LSP SymbolKind, body
 * range, name range), nested as the language server nests them, in the compact form the symbol
 * cache uses ({@linkcode CompactSymbol}), so one decoder turns either into name-path trees.
 *
 * The rules are liberal on purpose: the index chooses which files the language server is asked
 * about, so a declaration the server would not list costs one request, while one missed would
 * lose an answer. Local declarations inside functions are kept (servers such as tsserver and
 * pyright list them too).
 *
 * Each language server lists declarations its own way (tsserver's navigation tree with its
 * merged overloads, pyright's variables of every scope, gopls's receiver-named methods, clangd's
 * declarators), and where the rules reproduce a server's listing exactly the index answers in
 * its place. So the rules are per grammar, one file each under `rules/`, each beside the quirks
 * of its server; this file holds the walk that applies them and decides whether a file is exact.
 * @module
 */
import type { Node, TreeCursor } from "npm:web-tree-sitter@0.25.10";
import type { CompactSymbol } from "../model.ts";
import type { GrammarId } from "./grammars.ts";
import { BASH_RULES } from "./rules/bash.ts";
import { C_EXACT_RULES, C_RULES } from "./rules/c.ts";
import {
  beginFile,
  endFile,
  fileExact,
  type Found,
  K,
  type Rule,
  ruleOn,
  SKIP,
  unmodelledTexts,
} from "./rules/core.ts";
import { GO_RULES } from "./rules/go.ts";
import { JAVA_RULES } from "./rules/java.ts";
import { JS_RULES } from "./rules/javascript.ts";
import { PYTHON_RULES } from "./rules/python.ts";
import { pyrightListing } from "./rules/python_symbols.ts";
import { RUST_RULES } from "./rules/rust.ts";
import { TS_RULES } from "./rules/typescript.ts";

const RULES: Readonly<Record<GrammarId, Readonly<Record<string, Rule>>>> = {
  typescript: TS_RULES,
  tsx: TS_RULES,
  javascript: JS_RULES,
  python: PYTHON_RULES,
  rust: RUST_RULES,
  go: GO_RULES,
  c: C_EXACT_RULES,
  cpp: C_RULES,
  bash: BASH_RULES,
  java: JAVA_RULES,
};

/** Per sibling list, the names of overloadable declarations seen so far. */
const OVERLOADS = new WeakMap<CompactSymbol[], Set<string>>();

function compact(found: Found, laterOverload = false): CompactSymbol {
  const from = found.from ?? found.node;
  const to = found.to ?? found.node;
  if (laterOverload) {
    const r = [from.startPosition, to.endPosition] as const;
    return [
      found.name,
      found.kind,
      r[0].row,
      r[0].column,
      r[1].row,
      r[1].column,
      r[0].row,
      r[0].column,
      r[1].row,
      r[1].column,
    ];
  }
  const s = found.selectAtStart ? from : found.nameNode;
  return [
    found.name,
    found.kind,
    from.startPosition.row,
    from.startPosition.column,
    to.endPosition.row,
    to.endPosition.column,
    s.startPosition.row,
    s.startPosition.column,
    (found.selectAtStart ? from : s).endPosition.row,
    (found.selectAtStart ? from : s).endPosition.column,
  ];
}

/** The declarations of a file, and whether they are exactly what its language server lists. */
export interface Extracted {
  symbols: CompactSymbol[];
  /**
   * True when the file's grammar is one whose rules were proven equal to its server's
   * documentSymbol ({@linkcode EXACT_GRAMMARS}), the file parsed without errors, and it holds
   * no construct the rules do not model: then the declarations (names, kinds, nesting, ranges)
   * are the server's answer, and tools may use them instead of asking it.
   */
  exact: boolean;
  /**
   * For a file that is not exact: the texts of the constructs the rules did not model, where a
   * name the server lists may be missing from `symbols`; null when that is not known (then the
   * whole file may hold one).
   */
  unmodelled?: string[] | null;
}

/**
 * The grammars whose rules reproduce their server's documentSymbol exactly, for files that hold
 * only modelled constructs (tests/symbols/index/agreement_test.ts proves it on the fixtures, server by
 * server). Others are used only to choose which files the server is asked about.
 */
export const EXACT_GRAMMARS: ReadonlySet<GrammarId> = new Set<GrammarId>([
  "typescript",
  "tsx",
  "javascript",
  "go",
  "c",
  "rust",
  "python",
  "bash",
]);

/**
 * The servers each proven grammar's rules were proven against (their commands' names): a file
 * whose project runs another server for it (basedpyright or pylsp for Python, `deno lsp` for a
 * Deno project, a configured command) is never answered from the index. TypeScript 7's own
 * server (`tsc --lsp`) lists tsserver's outline but for what its merge of same-named properties
 * leaves out (scripts/checks/index_agreement.ts proves exactly that): the index's answer, tsserver's
 * outline, is the one the tools give on either generation.
 */
export const PROVEN_SERVERS: Readonly<Partial<Record<GrammarId, readonly string[]>>> = {
  typescript: ["typescript-language-server", "tsc"],
  tsx: ["typescript-language-server", "tsc"],
  // TypeScript 7 lists CommonJS exports (`exports.a = 1`) and properties assigned to a class
  // (`C.x = 1`) otherwise than tsserver: JavaScript is proven against tsserver only.
  javascript: ["typescript-language-server"],
  python: ["pyright-langserver"],
  rust: ["rust-analyzer"],
  go: ["gopls"],
  c: ["clangd"],
  bash: ["bash-language-server"],
};

/** Same-named siblings the rules reproduce (tsserver lists overloads and accessors apart). */
const SEPARATE_DUPLICATES: ReadonlySet<number> = new Set([K.Function, K.Method, K.Constructor]);

const TS_FAMILY: ReadonlySet<GrammarId> = new Set<GrammarId>(["typescript", "tsx", "javascript"]);

/**
 * tsserver merges same-named declarations only of one kind and one parent node: variables of
 * separate statements (`const x` in two blocks, two `catch (e)`) and properties of separate
 * object literals stay apart, also beside each other (a name declared twice in one statement or
 * body is unmodelled: see {@linkcode variableDeclarator} and `once`).
 */
const TS_SEPARATE_DUPLICATES: ReadonlySet<number> = new Set([
  ...SEPARATE_DUPLICATES,
  K.Variable,
  K.Constant,
  K.Property,
]);

function duplicatesModelled(symbols: readonly CompactSymbol[], grammar: GrammarId): boolean {
  const separate = TS_FAMILY.has(grammar) ? TS_SEPARATE_DUPLICATES : SEPARATE_DUPLICATES;
  const seen = new Map<string, number>();
  for (const s of symbols) {
    const before = seen.get(s[0]);
    if (before !== undefined && !(separate.has(before) && separate.has(s[1]))) {
      return false;
    }
    seen.set(s[0], s[1]);
    if (s[10] && !duplicatesModelled(s[10], grammar)) return false;
  }
  return true;
}

/**
 * The declarations of a parsed file, as a forest in document order. Syntax errors do not stop
 * it: tree-sitter recovers, and whatever parsed is listed.
 */
export function extractDeclarations(root: Node, grammar: GrammarId): CompactSymbol[] {
  return extractFile(root, grammar).symbols;
}

/**
 * {@linkcode extractDeclarations}, with whether they are exact (see {@linkcode Extracted}).
 * With `why`, the reasons a file is not exact are added to it (the constructs not modelled,
 * "syntax error", "duplicate names", "grammar not proven"): scripts/checks/index_agreement.ts's
 * histogram.
 */
export function extractFile(root: Node, grammar: GrammarId, why?: Set<string>): Extracted {
  const rules = RULES[grammar];
  let top: CompactSymbol[] = [];
  const cursor = root.walk();
  const declared = grammar === "python" ? new Map<CompactSymbol, Found>() : null;
  beginFile(why ?? null);
  try {
    visitChildren(cursor, rules, top, 0, null, declared);
    if (declared) top = pyrightListing(top, declared);
  } finally {
    cursor.delete();
    endFile();
  }
  const proven = EXACT_GRAMMARS.has(grammar);
  const syntaxError = root.hasError;
  const duplicates = !duplicatesModelled(top, grammar);
  if (why) {
    if (!proven) why.add("grammar not proven");
    if (syntaxError) why.add("syntax error");
    if (duplicates) why.add("duplicate names");
  }
  const exact = fileExact() && proven && !syntaxError && !duplicates;
  return exact ? { symbols: top, exact } : { symbols: top, exact, unmodelled: unmodelledTexts() };
}

function visitChildren(
  cursor: TreeCursor,
  rules: Readonly<Record<string, Rule>>,
  siblings: CompactSymbol[],
  parentKind: number,
  members: CompactSymbol[] | null,
  declared: Map<CompactSymbol, Found> | null,
): void {
  if (!cursor.gotoFirstChild()) return;
  do {
    const rule = cursor.nodeIsNamed ? rules[cursor.nodeType] : undefined;
    let owner: CompactSymbol | null = null;
    let kind = parentKind;
    let leaf = false;
    let dropIfEmpty = false;
    if (rule) {
      const node = cursor.currentNode;
      ruleOn(node);
      const result = rule(node, parentKind);
      if (result === SKIP) continue;
      const found = result === null ? [] : Array.isArray(result) ? result : [result];
      for (const f of found) {
        let overloadNames = OVERLOADS.get(siblings);
        if (f.overload && !overloadNames) OVERLOADS.set(siblings, overloadNames = new Set());
        const key = f.overloadKey ?? f.name;
        const later = f.overload && overloadNames!.has(key);
        if (f.overload) overloadNames!.add(key);
        const c = compact(f, later);
        declared?.set(c, f);
        if (f.member) {
          // Every member, when their names are reduced later (Python's).
          if (members !== null && (declared || !members.some((m) => m[0] === f.name))) {
            members.push(c);
          }
          continue;
        }
        siblings.push(c);
        if (f.leaf) leaf = true;
        // The first declaration owns what is nested in the node (a constructor's body, not
        // the parameter properties listed beside it).
        if (owner === null && !f.detached) {
          owner = c;
          kind = f.kind;
          dropIfEmpty = f.dropIfEmpty === true;
        }
      }
    }
    if (leaf) continue;
    const children: CompactSymbol[] = owner === null ? siblings : [];
    const ownerIsType = owner !== null && (kind === K.Class || kind === K.Struct);
    visitChildren(cursor, rules, children, kind, ownerIsType ? children : members, declared);
    if (owner !== null && children.length > 0) owner.push(children);
    else if (owner !== null && dropIfEmpty) siblings.splice(siblings.indexOf(owner), 1);
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
}
