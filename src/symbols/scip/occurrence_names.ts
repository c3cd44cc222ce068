/**
 * An index occurrence in the language server's terms. The indexers mark occurrences where the
 * servers count something else, found by comparing the two on typeorm and flask
 * (scripts/checks/scip_agreement.ts, docs/scale.md):
 *
 * - scip-python records `name as alias` in an import as one occurrence over both names; pyright
 *   counts each name that is the symbol's own (`from .ctx import f as f` re-exports `f`: two
 *   references), and never an alias of another name;
 * - scip-python files the uses of an alias (`class Blueprint(SansioBlueprint)`) under the
 *   original symbol; pyright counts only the import;
 * - scip-typescript files the `exports` of CommonJS's `exports.name = name`, and the property
 *   `name` itself, under the exported function; tsserver counts neither (the property is the
 *   export's own symbol);
 * - scip-typescript files `typeof X`, where X is both a type and a value (a type alias beside a
 *   const of the same name), under the type as well as the value; tsserver counts it as the
 *   value's only (`typeof` always reads a value).
 * @module
 */

/** Zero-based line and UTF-16 start of a location the server would list. */
export interface NamedLocation {
  line: number;
  character: number;
}

const ALIAS = /^([\p{L}_][\p{L}\p{N}_]*)(\s+as\s+)([\p{L}_][\p{L}\p{N}_]*)$/u;
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** What the caller knows of an occurrence beyond its text. */
export interface OccurrenceContext {
  /** The occurrence is in a Python file. */
  python: boolean;
  /** The occurrence is in a JavaScript file. */
  javascript: boolean;
  /** The asked symbol is a type and the index has its value twin at the same range. */
  valueTwin: boolean;
}

/**
 * Where the server counts a reference to the symbol named `word` within an occurrence
 * `range` (`[startLine, startChar, endLine, endChar]`, UTF-16) on `line` (its text): none, one,
 * or two (an import `word as word`).
 */
export function serverLocations(
  range: readonly number[],
  line: string,
  word: string,
  context: OccurrenceContext,
): NamedLocation[] {
  const { python } = context;
  const [startLine, start, endLine, end] = range as [number, number, number, number];
  const at = (character: number) => [{ line: startLine, character }];
  if (startLine !== endLine) return at(start);
  const text = line.slice(start, end);
  const before = line.slice(0, start);
  if (text === word) {
    if (context.valueTwin && /\btypeof\s+$/.test(before)) return [];
    const exported = /\bexports\.$/.test(before) && /^\s*=(?!=)/.test(line.slice(end));
    return context.javascript && exported ? [] : at(start);
  }
  const alias = ALIAS.exec(text);
  if (alias) {
    const [, name, gap, local] = alias as unknown as [string, string, string, string];
    const out: NamedLocation[] = [];
    if (name === word) out.push({ line: startLine, character: start });
    if (local === word) {
      out.push({ line: startLine, character: start + name.length + gap.length });
    }
    return out.length > 0 ? out : at(start);
  }
  if (IDENTIFIER.test(text) && (python || text === "exports")) return [];
  return at(start);
}
