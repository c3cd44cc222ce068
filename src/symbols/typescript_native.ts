/**
 * TypeScript 7's outline in tsserver's shape. TypeScript 7's own server (`tsc --lsp`,
 * "typescript-go") answers documentSymbol with nearly the same tree as tsserver under
 * typescript-language-server, but lists imports and re-exports as variables, `const`s as
 * variables, and gives some kinds, names, ranges and selection ranges of its own. The tools
 * answer the same whichever generation runs, so this rewrites TypeScript 7's tree into
 * tsserver's:
 *
 * - import and re-export specifiers (`import { a }`, `import * as ns`, `import x = require()`,
 *   `export { a } from`) are dropped: tsserver lists none;
 * - a variable declared by `const` is a Constant; an enum member is a Constant; a namespace or
 *   ambient module is a Module; a type alias is a Variable;
 * - accessors, and object-literal properties whose value is a function, are Methods; call,
 *   construct and index signatures are Variables;
 * - a quoted or computed property keeps its name as written (`'quoted'`, `["computed"]`);
 * - `export default <expression>` is the Constant `default` over the statement, holding what an
 *   object literal or a call declares (TypeScript 7 lists that at the top level); an exported
 *   arrow or function expression is the statement too; `export =` is a Constant;
 * - what a class's or interface's type parameters, heritage clauses and decorators hold is
 *   dropped: tsserver lists only the members;
 * - an empty selection range (constructors, callbacks, signatures) is the whole range, and so is
 *   the selection of a function's, or a class's or interface's method's, second and later
 *   overloads;
 * - an anonymous function with nothing declared in it is dropped (tsserver lists `<function>`
 *   only as the parent of something);
 * - a spread of anything but a name (`...a.b`) is `<unknown>`, selected whole: tsserver names a
 *   spread only by an identifier.
 *
 * What cannot be restored: TypeScript 7 merges a property into a same-named class, function or
 * variable (or import) of the same list, and drops it (scripts/checks/index_agreement.ts's
 * `asNativeTypeScriptLists` states exactly that); where the declaration index answers (it is
 * proven against both generations), tools get tsserver's outline with such properties. CommonJS
 * exports in JavaScript files (`module.exports = {...}`, `exports.a = ...`) and properties
 * assigned to a class (`C.x = 1`) are listed differently by the two servers and are left as
 * TypeScript 7 gives them; the index answers for JavaScript on tsserver only.
 * @module
 */
import {
  finishSiblings,
  type Range,
  rangeContains,
  SymbolKind as K,
  type SymbolNode,
} from "./model.ts";
import { lineStarts, offsetAt, positionAt } from "../edit/line_index.ts";

/**
 * The version of this normalisation, part of the identity of cached outlines (lookup.ts): bump
 * it whenever the rewrite changes, so outlines cached by an earlier one are asked again.
 */
export const NATIVE_NORMALISATION = 3;

/** The name TypeScript 7's server gives itself in `serverInfo`. */
export const TYPESCRIPT_NATIVE_SERVER = "typescript-go";

/** Whether a running server is TypeScript 7's own (by its `serverInfo`). */
export function isNativeTypeScript(server: object): boolean {
  return serverName(server) === TYPESCRIPT_NATIVE_SERVER;
}

/**
 * Whether a server counts an import as a declaration (of the local name) and so leaves imports
 * out of references asked without the declaration: TypeScript 7 and ty do, tsserver and pyright
 * do not. Such servers are asked with the declaration, which the caller leaves out itself.
 */
export function importsAreDeclarations(server: object): boolean {
  const name = serverName(server);
  return name === TYPESCRIPT_NATIVE_SERVER || name === "ty";
}

function serverName(server: object): string | undefined {
  return (server as { serverInfo?: { name?: string } }).serverInfo?.name;
}

const IMPORT_PREFIX = /\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[\s\w$,]*|\*\s*as\s+)?$/;
const EXPORT_PREFIX = /\bexport\s+(?:type\s+)?\{[\s\w$,]*$/;
const DECLARATION_KEYWORD = /\b(const|let|var|using|catch)\b/g;
const MODIFIERS = String
  .raw`(?:(?:public|private|protected|static|override|abstract|readonly|declare|accessor)\s+)*`;
const ACCESSOR = new RegExp(String.raw`^${MODIFIERS}(?:get|set)\s`);
const TYPE_ALIAS = /^(?:export\s+)?(?:declare\s+)?type\s/;
const SPREAD = /^\.\.\./;
const IDENTIFIER = /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u;
/** Rewrite TypeScript 7's symbol tree of one file (`text`) into tsserver's shape, in place. */
export function normalizeNativeTypeScript(
  roots: SymbolNode[],
  text: string,
  relPath = roots[0]?.relPath ?? "",
): SymbolNode[] {
  const starts = lineStarts(text);
  const at = (pos: Range["start"]) => offsetAt(text, starts, pos);
  const clauses: ClauseMemo = { at: -1, clause: -1 };
  const keywords = newKeywordMemo();
  const rewrite = (nodes: SymbolNode[], parent: SymbolNode | null): SymbolNode[] => {
    const kept: SymbolNode[] = [];
    for (const node of nodes) {
      const start = at(node.range.start);
      const end = at(node.range.end);
      const before = text.slice(Math.max(0, start - 400), start);
      const source = text.slice(start, end);
      if (node.kind === K.Variable && isImportOrReExport(text, start, source, clauses)) continue;
      const selStart = at(node.selectionRange.start);
      const selEnd = at(node.selectionRange.end);
      if (selStart === selEnd) node.selectionRange = cloneRange(node.range);
      if (/^["[]/.test(node.name) && selEnd > selStart) {
        node.name = text.slice(selStart, selEnd);
      }
      if (node.kind === K.Property && SPREAD.test(source) && !IDENTIFIER.test(node.name)) {
        node.name = "<unknown>";
        node.selectionRange = cloneRange(node.range);
      }
      node.kind = tsserverKind(
        node,
        parent,
        text,
        start,
        source,
        text.slice(selEnd, end),
        keywords,
      );
      if (node.name === "export=") node.selectionRange = cloneRange(node.range);
      const exporting = /\bexport\s+default\s*$/.exec(before);
      if (node.name === "default" && node.kind === K.Function && exporting) {
        // An exported arrow or function expression: tsserver's `default` is the statement.
        const from = start - before.length + exporting.index;
        node.range = {
          start: positionAt(starts, from),
          end: positionAt(starts, statementEnd(text, start)),
        };
        node.selectionRange = cloneRange(node.range);
      }
      if (node.kind === K.Class || node.kind === K.Interface) {
        // TypeScript 7 lists what its type parameters, heritage clauses and decorators hold
        // (`class A<T = { a: 1 }> extends B<{ b: 2 }>`); tsserver lists only the members.
        const body = bodyStart(text, start, end);
        node.children = node.children.filter((c) => at(c.range.start) > body);
      }
      node.children = rewrite(node.children, node);
      if (node.name === "<function>" && node.children.length === 0) continue;
      kept.push(node);
    }
    return kept;
  };
  let rewritten = rewrite(roots, null);
  const exported = defaultExport(text, starts, relPath);
  if (exported && !rewritten.some((n) => n.name === "default")) {
    // TypeScript 7 lists what is declared in the expression at the top level; tsserver lists
    // it in `default` when the expression is an object literal or a call, and else not at all.
    const inside = rewritten.filter((n) => rangeContains(exported.node.range, n.range));
    rewritten = rewritten.filter((n) => !inside.includes(n));
    if (exported.listsMembers) {
      exported.node.children = inside;
      for (const n of inside) n.parent = exported.node;
    }
    rewritten.push(exported.node);
  }
  const result = finishSiblings(rewritten);
  markOverloads(result, text, starts);
  return result;
}

const DEFAULT_EXPRESSION =
  /^export\s+default\s+(?!(?:async\s+)?function\b|(?:abstract\s+)?class\b|interface\b|enum\b)/m;

/**
 * `export default <expression>;`, which tsserver lists as the Constant `default` (the statement)
 * and TypeScript 7 does not list; and whether tsserver lists what is declared in it (in an
 * object literal or a call).
 */
function defaultExport(
  text: string,
  starts: readonly number[],
  relPath: string,
): { node: SymbolNode; listsMembers: boolean } | null {
  // Not in a string, template or comment (`export default app` in a template of code).
  const match = DEFAULT_EXPRESSION.exec(/^export\s+default\b/m.test(text) ? codeOnly(text) : "");
  if (!match) return null;
  const valueStart = match.index + match[0].length;
  const end = statementEnd(text, valueStart);
  const value = text.slice(valueStart, end).replace(/;$/, "").trimEnd();
  const range = { start: positionAt(starts, match.index), end: positionAt(starts, end) };
  return {
    node: {
      name: "default",
      kind: K.Constant,
      overloadIndex: null,
      range,
      selectionRange: cloneRange(range),
      relPath,
      parent: null,
      children: [],
    },
    listsMembers: value.startsWith("{") || isCall(value),
  };
}

const REGEX_AFTER =
  /(?:[(,=:[!&|?{};+\-*%<>~^]|\b(?:return|typeof|case|do|else|in|of|void|yield|await))\s*$/;

/**
 * `text` with its strings, templates, regular expressions and comments blanked (their offsets
 * kept), so that what looks like code in them is not read as code.
 */
function codeOnly(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== "\n") out[k] = " ";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    let end = i;
    if (c === "'" || c === '"' || c === "`") end = quoteEnd(text, i) + 1;
    else if (c === "/" && text[i + 1] === "/") end = text.indexOf("\n", i) >>> 0;
    else if (c === "/" && text[i + 1] === "*") end = (text.indexOf("*/", i + 2) >>> 0) + 2;
    else if (c === "/" && REGEX_AFTER.test(text.slice(Math.max(0, i - 12), i))) {
      let inClass = false;
      for (end = i + 1; end < text.length && text[end] !== "\n"; end++) {
        if (text[end] === "\\") end++;
        else if (text[end] === "[") inClass = true;
        else if (text[end] === "]") inClass = false;
        else if (text[end] === "/" && !inClass) break;
      }
      end++;
    }
    if (end > i) {
      blank(i, end);
      i = end - 1;
    }
  }
  return out.join("");
}

/**
 * Where the statement that starts its expression at `from` ends (after its `;`, else at the
 * end of its line at depth 0), skipping strings, templates and comments.
 */
function statementEnd(text: string, from: number): number {
  let depth = 0;
  // Where the last token read ends: a statement ends at its last token, not at a comment.
  let lastToken = from;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      // A line comment runs to the end of its line (which may end the statement).
      const close = text[i + 1] === "/" ? text.indexOf("\n", i) - 1 : text.indexOf("*/", i + 2) + 1;
      if (close < i) return lastToken;
      i = close;
      continue;
    }
    if (c === "\n" && depth <= 0) return lastToken;
    if (/\s/.test(c)) continue;
    if (c === "'" || c === '"' || c === "`") i = quoteEnd(text, i);
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth <= 0 && c === ";") return i + 1;
    lastToken = i + 1;
  }
  return lastToken;
}

/**
 * The offset of the `{` that opens the body of the class or interface declared in
 * `text[start, end)`: the first at depth 0 of parentheses, brackets and type arguments.
 */
function bodyStart(text: string, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === "`") i = quoteEnd(text, i);
    else if (c === "(" || c === "[" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === ">" && text[i - 1] !== "=") depth--;
    else if (c === "{" && depth <= 0) return i;
    else if (c === "{") i = balancedEnd(text, i, "{", "}") - 1;
  }
  return end;
}

/** The offset of the quote that closes the string or template opened at `open`. */
function quoteEnd(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** Whether an expression is a call (`a.b<T>(...)`, and nothing after its closing parenthesis). */
function isCall(expression: string): boolean {
  const callee = /^[\p{L}$_][\w$.]*\s*(?:<[^()]*>)?\s*\(/u.exec(expression);
  if (!callee) return false;
  let depth = 0;
  for (let i = callee[0].length - 1; i < expression.length; i++) {
    const c = expression[i]!;
    if (c === "'" || c === '"' || c === "`") i = quoteEnd(expression, i);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i === expression.length - 1;
  }
  return false;
}

/**
 * tsserver selects the whole declaration of a function's or method's second and later overloads
 * (a class's or interface's method's, with the same `static`ness; accessors and the methods of
 * object literals are never overloads).
 */
function markOverloads(
  nodes: SymbolNode[],
  text: string,
  starts: readonly number[],
  parent: SymbolNode | null = null,
): void {
  const seen = new Set<string>();
  const members = parent?.kind === K.Class || parent?.kind === K.Interface;
  for (const node of nodes) {
    if (node.kind === K.Function || node.kind === K.Method && members) {
      const source = text.slice(offsetAt(text, starts, node.range.start));
      const modifiers = new RegExp(`^${MODIFIERS}`).exec(source)?.[0] ?? "";
      if (node.kind === K.Function || !ACCESSOR.test(source)) {
        const key = `${node.kind} ${/\bstatic\b/.test(modifiers) ? "static " : ""}${node.name}`;
        if (seen.has(key)) node.selectionRange = cloneRange(node.range);
        seen.add(key);
      }
    }
    markOverloads(node.children, text, starts, node);
  }
}

/** The clause start found for the last variable: where a walk back from `at` stops. */
interface ClauseMemo {
  at: number;
  clause: number;
}

/**
 * Whether the variable at `start` is an import or export specifier. The names before it in its
 * clause (`import { a, b, ... x }`, as long as a line of compiled code) are skipped first; a walk
 * that reaches the variable before (`clauses`) stops where that one's stopped, so that the
 * hundreds of names of one clause (typeorm's `index.mjs`) are walked over once, not once each.
 */
function isImportOrReExport(
  text: string,
  start: number,
  source: string,
  clauses: ClauseMemo,
): boolean {
  if (/^import\s/.test(source)) return true;
  let clause = start;
  while (clause > 0 && /[\s\w$,]/.test(text[clause - 1]!)) {
    if (clause === clauses.at) {
      clause = clauses.clause;
      break;
    }
    clause--;
  }
  clauses.at = start;
  clauses.clause = clause;
  const before = text.slice(Math.max(0, clause - 200), start);
  return IMPORT_PREFIX.test(before) || EXPORT_PREFIX.test(before);
}

function tsserverKind(
  node: SymbolNode,
  parent: SymbolNode | null,
  text: string,
  start: number,
  source: string,
  afterName: string,
  keywords: KeywordMemo,
): number {
  switch (node.kind) {
    case K.Variable:
      if (node.name === "export=") {
        return isFunctionValue(`:${source.replace(/^export\s*=/, "")}`) ? K.Function : K.Constant;
      }
      return declarationKeyword(text, start, keywords) === "const" ? K.Constant : K.Variable;
    case K.EnumMember:
      return K.Constant;
    case K.Namespace:
      return K.Module;
    case K.Class:
      return TYPE_ALIAS.test(source) ? K.Variable : K.Class;
    case K.Property: {
      if (node.name === "[]") return K.Variable;
      if (ACCESSOR.test(source)) return K.Method;
      // At the top level: a member of an object literal in a statement (`export default {}`).
      const inObjectLiteral = parent === null ||
        parent.kind !== K.Class && parent.kind !== K.Interface;
      return inObjectLiteral && isFunctionValue(afterName) ? K.Method : K.Property;
    }
    case K.Method:
    case K.Constructor:
      return node.name === "()" || node.name === "new()" ? K.Variable : node.kind;
    default:
      return node.kind;
  }
}

/**
 * Whether what follows a property's name (`: <value>`) is a function or an arrow function, as
 * opposed to any other value (a call of one, `(() => 1)()`, is not).
 */
function isFunctionValue(afterName: string): boolean {
  const head = /^\s*\??\s*:\s*(?:async\s+)?/.exec(afterName);
  if (!head) return false;
  let i = head[0].length;
  if (/^function\b/.test(afterName.slice(i))) return true;
  const simple = /^[\p{L}$_][\w$]*\s*=>/u.exec(afterName.slice(i));
  if (simple) return true;
  if (afterName[i] === "<") i = balancedEnd(afterName, i, "<", ">");
  while (/\s/.test(afterName[i] ?? "")) i++;
  if (afterName[i] !== "(") return false;
  i = balancedEnd(afterName, i, "(", ")");
  const rest = afterName.slice(i);
  if (/^\s*=>/.test(rest)) return true;
  // A return type (`(): T => ...`): an arrow at depth 0 before the value ends.
  if (!/^\s*:/.test(rest)) return false;
  let depth = 0;
  for (let k = 0; k < rest.length; k++) {
    const c = rest[k]!;
    if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || c === ">" && rest[k - 1] !== "=") {
      if (--depth < 0) return false;
    } else if (depth === 0 && (c === "," || c === ";" || c === "\n")) return false;
    else if (depth === 0 && c === "=" && rest[k + 1] === ">") return true;
  }
  return false;
}

/** The offset just after the bracket that closes the one at `open`. */
function balancedEnd(text: string, open: number, opening: string, closing: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === opening) depth++;
    else if (text[i] === closing && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * The keyword of the declaration list of the name declared at `start`: the nearest `const`,
 * `let`, `var`, `using` or `catch` before it with no `;` and no closing bracket of an enclosing
 * one between them, skipping strings. The text before is searched in growing windows: a
 * destructuring can list hundreds of names.
 */
function declarationKeyword(
  text: string,
  start: number,
  memo: KeywordMemo = newKeywordMemo(),
): string | undefined {
  if (memo.start >= 0 && start >= memo.start && memo.keyword !== undefined) {
    // The variable before was in a declaration: the same one still, unless a keyword comes
    // between the two (searched from a word's start: the pattern's \b must see what it sees).
    let from = memo.start;
    while (from > memo.keywordEnd && /\w/.test(text[from - 1]!)) from--;
    if (!ANY_DECLARATION_KEYWORD.test(text.slice(from, start))) return scanTo(text, start, memo);
  }
  let last: RegExpExecArray | undefined;
  for (let window = 400, from = start; last === undefined && from > 0; window *= 4) {
    from = Math.max(0, start - window);
    for (const m of text.slice(from, start).matchAll(DECLARATION_KEYWORD)) last = m;
    if (last) last.index += from;
  }
  if (!last) {
    memo.start = -1;
    return undefined;
  }
  memo.keyword = last[1];
  memo.keywordEnd = last.index + last[0].length;
  memo.at = memo.keywordEnd;
  memo.depth = 0;
  memo.ended = false;
  return scanTo(text, start, memo);
}

/**
 * Where declarationKeyword's walk from a keyword to a variable stopped, so that the next variable
 * of the same declaration goes on from there: the hundreds of names of one destructuring
 * (typeorm's `index.mjs`, `const { ... } = TypeORM`) were walked from its `const` once per name
 * (155 ms for a 9.6 KB file, against 1 ms).
 */
interface KeywordMemo {
  /** The variable last asked about; -1: none, or none followed a keyword. */
  start: number;
  keyword: string | undefined;
  keywordEnd: number;
  /** Where the walk is, and its bracket depth there. */
  at: number;
  depth: number;
  /** The declaration ended before `start` (a `;` or a closing bracket at its level). */
  ended: boolean;
}

function newKeywordMemo(): KeywordMemo {
  return { start: -1, keyword: undefined, keywordEnd: 0, at: 0, depth: 0, ended: false };
}

const ANY_DECLARATION_KEYWORD = new RegExp(DECLARATION_KEYWORD.source);

/** The walk of declarationKeyword from where the memo left it to `start`. */
function scanTo(text: string, start: number, memo: KeywordMemo): string | undefined {
  memo.start = start;
  let { at: i, depth } = memo;
  for (; !memo.ended && i < start; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === "`") i = quoteEnd(text, i);
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && --depth < 0) memo.ended = true;
    else if (c === ";" && depth === 0) memo.ended = true;
  }
  memo.at = i;
  memo.depth = depth;
  return memo.ended ? undefined : memo.keyword;
}

function cloneRange(r: Range): Range {
  return { start: { ...r.start }, end: { ...r.end } };
}
