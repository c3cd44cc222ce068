/**
 * The one reader of import lines: what a source file says it imports, with the 1-based line of
 * each import, per language (TypeScript/JavaScript, Python, Go, Rust, C and C++, Java and
 * Kotlin). The dependency graph (language_graphs.ts) resolves these specifiers to project modules;
 * the import index (importers.ts) asks which files may import a given file or folder.
 *
 * Reading is lexical (comments and strings handled), not a compiler's: good enough to draw the
 * module structure and to find the importers of a file, not to prove them.
 * @module
 */
import { extname } from "node:path";
import { lineStarts, positionAt } from "../../edit/line_index.ts";

/** One import in a file: the specifier as written and the 1-based line it is on. */
export interface ImportSpec {
  spec: string;
  line: number;
}

/** Blank out comments and string contents (keeping line breaks) for C-like languages. */
export function stripCLike(source: string, keepStrings = true): string {
  // Ordinary text is copied in runs up to the next character that may open a comment or string.
  const special = /[/"'`]/g;
  let out = "";
  let i = 0;
  while (i < source.length) {
    special.lastIndex = i;
    const found = special.exec(source);
    if (found === null) {
      out += source.slice(i);
      break;
    }
    out += source.slice(i, found.index);
    i = found.index;
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const lineEnd = source.indexOf("\n", i);
      i = lineEnd < 0 ? source.length : lineEnd;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && !(c !== "`" && source[j] === "\n")) {
        if (source[j] === "\\") j++;
        j++;
      }
      const literal = source.slice(i, j + 1);
      out += keepStrings ? literal : c + literal.slice(1, -1).replace(/[^\n]/g, " ") + c;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The 1-based line of each offset of `text`, for offsets in ascending or any order: counts the
 * line breaks before it (stripping keeps every line break, so a line of stripped text is a line of
 * the source).
 */
function lineAt(text: string): (offset: number) => number {
  const starts = lineStarts(text);
  return (offset) => positionAt(starts, offset).line + 1;
}

// ---- TypeScript / JavaScript ---------------------------------------------------------------

const JS_IMPORT =
  /\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"'\n]+)["']/g;
const JS_DYNAMIC = /\b(?:import|require)\s*\(\s*["']([^"'\n]+)["']\s*\)/g;

/**
 * The imports of a JavaScript or TypeScript module (static ones, then dynamic ones and
 * `require`); the line of each is the line of its specifier (`} from "./a"` of a long import).
 */
export function jsImportSpecs(source: string): ImportSpec[] {
  // Every form names one of these words; most files of a large tree import nothing.
  if (!/\b(?:import|export|require)\b/.test(source)) return [];
  const code = stripCLike(source);
  const line = lineAt(code);
  return [...code.matchAll(JS_IMPORT), ...code.matchAll(JS_DYNAMIC)].map((m) => ({
    spec: m[1]!,
    line: line(m.index! + m[0].lastIndexOf(m[1]!)),
  }));
}

// ---- Python --------------------------------------------------------------------------------

/** A Python import: the module as written (relative ones keep their leading dots), and names. */
export interface PythonImport extends ImportSpec {
  module: string;
  names: string[];
}

/** Stands for a line break joined into a logical line, so that lines can still be counted. */
const JOINED = "\uE000";

/** The modules a Python file imports, as written, with the names `from ... import` takes. */
export function pythonImportSpecs(source: string): PythonImport[] {
  // Join continued lines and parenthesised import lists; drop comments.
  const text = source.replace(/#[^\n]*/g, "").replace(/\\\n/g, JOINED)
    .replace(/\(([^)]*)\)/g, (m) => m.replace(/\n/g, JOINED));
  const imports: PythonImport[] = [];
  let lineNo = 1;
  for (const marked of text.split("\n")) {
    const line = lineNo;
    lineNo += marked.split(JOINED).length;
    const logical = marked.replaceAll(JOINED, " ");
    const from = /^\s*from\s+(\.*[\w.]*)\s+import\s+\(?([^)]*)\)?/.exec(logical);
    if (from) {
      const names = from[2]!.split(",").map((n) => n.trim().split(/\s+as\s+/)[0]!.trim())
        .filter((n) => n && n !== "*");
      imports.push({ spec: from[1]!, module: from[1]!, names, line });
      continue;
    }
    const plain = /^\s*import\s+(.+)$/.exec(logical);
    if (plain) {
      for (const part of plain[1]!.split(",")) {
        const module = part.trim().split(/\s+as\s+/)[0]!.trim();
        if (/^[\w.]+$/.test(module)) imports.push({ spec: module, module, names: [], line });
      }
    }
  }
  return imports;
}

// ---- Go ------------------------------------------------------------------------------------

/** The import paths of a Go file (those of `import (...)` blocks first). */
export function goImportSpecs(source: string): ImportSpec[] {
  const code = stripCLike(source);
  const line = lineAt(code);
  const out: ImportSpec[] = [];
  for (const block of code.matchAll(/^import\s*\(([\s\S]*?)\)/gm)) {
    const inner = block.index! + block[0].indexOf("(") + 1;
    for (const m of block[1]!.matchAll(/"([^"]+)"/g)) {
      out.push({ spec: m[1]!, line: line(inner + m.index!) });
    }
  }
  for (const m of code.matchAll(/^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm)) {
    out.push({ spec: m[1]!, line: line(m.index!) });
  }
  return out;
}

// ---- Rust ----------------------------------------------------------------------------------

/** A Rust `mod name;` or `use path` (the path up to a `{` list or the end). */
export interface RustImport extends ImportSpec {
  kind: "mod" | "use";
}

const RUST_MOD = /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/gm;
const RUST_USE = /^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([\w:]+)/gm;

/** The `mod` declarations and `use` paths of a Rust file, in that order. */
export function rustImportSpecs(source: string): RustImport[] {
  const code = stripCLike(source, false);
  const line = lineAt(code);
  return [
    ...[...code.matchAll(RUST_MOD)].map((m) => ({
      spec: m[1]!,
      kind: "mod" as const,
      line: line(m.index! + m[0].search(/\S/)),
    })),
    ...[...code.matchAll(RUST_USE)].map((m) => ({
      spec: m[1]!,
      kind: "use" as const,
      line: line(m.index! + m[0].search(/\S/)),
    })),
  ];
}

// ---- C, C++, Java, Kotlin ------------------------------------------------------------------

/** The files a C or C++ file includes (`#include "x.h"` and `#include <x.h>`). */
export function cIncludeSpecs(source: string): ImportSpec[] {
  const code = stripCLike(source);
  const line = lineAt(code);
  return [...code.matchAll(/^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]/gm)].map((m) => ({
    spec: m[1]!.trim(),
    line: line(m.index!),
  }));
}

/** The imports of a Java or Kotlin file (`import a.b.C`, `import static a.b.C.m`). */
export function jvmImportSpecs(source: string): ImportSpec[] {
  const code = stripCLike(source);
  const line = lineAt(code);
  return [...code.matchAll(/^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+)/gm)].map((m) => ({
    spec: m[1]!,
    line: line(m.index!),
  }));
}

// ---- By file -------------------------------------------------------------------------------

const BY_EXTENSION: Readonly<Record<string, (source: string) => ImportSpec[]>> = {
  ".ts": jsImportSpecs,
  ".tsx": jsImportSpecs,
  ".mts": jsImportSpecs,
  ".cts": jsImportSpecs,
  ".js": jsImportSpecs,
  ".jsx": jsImportSpecs,
  ".mjs": jsImportSpecs,
  ".cjs": jsImportSpecs,
  ".vue": jsImportSpecs,
  ".svelte": jsImportSpecs,
  ".py": pythonImportSpecs,
  ".pyi": pythonImportSpecs,
  ".rs": rustImportSpecs,
  ".go": goImportSpecs,
  ".c": cIncludeSpecs,
  ".h": cIncludeSpecs,
  ".cc": cIncludeSpecs,
  ".cpp": cIncludeSpecs,
  ".cxx": cIncludeSpecs,
  ".hh": cIncludeSpecs,
  ".hpp": cIncludeSpecs,
  ".hxx": cIncludeSpecs,
  ".java": jvmImportSpecs,
  ".kt": jvmImportSpecs,
};

/** The extensions (lower case, with the dot) of the files whose imports are read. */
export const IMPORTING_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(BY_EXTENSION));

/** The imports of a file, read as its extension says; none for a file of another language. */
export function importSpecs(path: string, source: string): ImportSpec[] {
  return BY_EXTENSION[extname(path).toLowerCase()]?.(source) ?? [];
}
