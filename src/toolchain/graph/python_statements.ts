/**
 * Python import statements with the exact place of each part, for rewriting them
 * (python_import_moves.ts): `import a.b as x, c` and `from ..a import b as y, (c, d)`, across
 * continued and parenthesised lines, at any indentation. The lexical reader that finds importers
 * (import_lines.ts) keeps only lines; a rewrite needs offsets.
 * @module
 */

/** A dotted name or module (spaces removed), and the offsets of its text as written. */
export interface Located {
  text: string;
  start: number;
  end: number;
}

/** One item of an import list: `name` or `name as alias`, spanning `start` to `end`. */
export interface ImportItem {
  name: Located;
  alias: string | null;
  start: number;
  end: number;
}

/** One import statement: `import items` or `from module import items` (`*` gives no items). */
export interface ImportStatement {
  kind: "import" | "from";
  /** For `from`: the module as written, leading dots included. */
  module: Located | null;
  items: ImportItem[];
  /** Offsets of the statement's first and after its last character. */
  start: number;
  end: number;
  /** The whitespace before the statement on its line. */
  indent: string;
}

/**
 * Blank out comments and the contents of string literals (keeping every offset and line
 * break), so that names are found only in code.
 */
export function maskPython(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n") out[i] = " ";
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "#") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = source.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < source.length && !source.startsWith(quote, j)) {
        if (!triple && source[j] === "\n") break;
        j += source[j] === "\\" ? 2 : 1;
      }
      const stop = Math.min(source.length, j + quote.length);
      blank(i + quote.length, Math.min(j, source.length));
      i = stop;
    } else {
      i++;
    }
  }
  return out.join("");
}

const NAME = String.raw`[A-Za-z_]\w*`;
const DOTTED = String.raw`${NAME}(?:\s*\.\s*${NAME})*`;
const ITEM = new RegExp(String.raw`(${DOTTED})(?:\s+as\s+(${NAME}))?`, "g");

/** Where the statement that starts at `start` ends: a line break outside brackets, or `;`. */
function statementEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i]!;
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    else if (c === "\\" && code[i + 1] === "\n") i++;
    else if (c === "\\" && code.startsWith("\r\n", i + 1)) i += 2;
    else if ((c === "\n" || c === ";") && depth === 0) {
      return c === "\n" && code[i - 1] === "\r" ? i - 1 : i;
    }
  }
  return code.length;
}

function itemsIn(code: string, from: number, to: number): ImportItem[] {
  const items: ImportItem[] = [];
  const part = code.slice(from, to);
  for (const m of part.matchAll(ITEM)) {
    if (m[1] === "as") continue;
    const start = from + m.index!;
    items.push({
      name: { text: m[1]!.replace(/\s+/g, ""), start, end: start + m[1]!.length },
      alias: m[2] ?? null,
      start,
      end: start + m[0].length,
    });
  }
  return items;
}

/** The import statements of a Python source, in order. */
export function pythonStatements(source: string): ImportStatement[] {
  if (!/\b(?:import)\b/.test(source)) return [];
  const code = maskPython(source);
  const out: ImportStatement[] = [];
  for (const m of code.matchAll(/^([ \t]*)(from|import)\b/gm)) {
    const start = m.index! + m[1]!.length;
    const end = statementEnd(code, start);
    const indent = m[1]!;
    if (m[2] === "import") {
      out.push({
        kind: "import",
        module: null,
        items: itemsIn(code, start + "import".length, end),
        start,
        end,
        indent,
      });
      continue;
    }
    const head = /^from\s+(\.*(?:\s*(?:[A-Za-z_]\w*)(?:\s*\.\s*[A-Za-z_]\w*)*)?)\s*import\b/
      .exec(code.slice(start, end));
    if (!head) continue;
    const moduleText = head[1]!;
    const moduleStart = start + head[0].indexOf(moduleText, 4);
    out.push({
      kind: "from",
      module: {
        text: moduleText.replace(/\s+/g, ""),
        start: moduleStart,
        end: moduleStart + moduleText.length,
      },
      items: itemsIn(code, start + head[0].length, end),
      start,
      end,
      indent,
    });
  }
  return out;
}
