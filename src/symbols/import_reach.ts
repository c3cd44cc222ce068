/**
 * The import-graph proof of a question about a name (ARCHITECTURE.md §5 rule 10): a file can
 * refer to a top-level symbol of a JavaScript or TypeScript module only through a binding that
 * an import path hands it: the symbol by one of the names its module and the re-exporting
 * modules give it (an import, a re-export chain, `export { A as B }`, `export *`), or a module
 * object holding it (`import * as`, a default, `import()`, `require`, an import type), which may
 * travel on in any value of a file it escapes into ({@linkcode reachOf}). A candidate file
 * handed no such binding holds the name for another reason, and need not be shown to the
 * language server.
 *
 * The graph is read from every import form in the raw text (moduleFacts), a superset of what the
 * import-line reader (toolchain/graph/import_lines.ts) takes: that reader's lexer can hide an
 * import after a regular expression that looks like a comment, it leaves out JSDoc import types
 * and triple-slash references, and its two passes per file cost more than the whole proof on a
 * cold tree. Extra edges only keep more files; a missing edge would drop one. So does an import
 * clause read as taking more than it does: one it cannot read takes the module whole.
 *
 * A `declare module "name"` block is an edge both ways: its file sees the module, and the
 * importers of that name (a library's, or a project module it augments) see what it declares.
 *
 * Where the graph cannot decide, it says so and the caller shows every file as before:
 * - the declaring module is a script (its declarations are global), or declares globals
 *   (`declare global`, `export as namespace`);
 * - a file that may hold the symbol is a script or declares globals (its globals may carry it);
 * and a file is kept (may hold anything) whenever one of its specifiers cannot be resolved for
 * sure: a relative one that names no project file, or a bare one that may lead into the project
 * (the caller decides: tsconfig `paths`/`baseUrl`, the project's own package names, `#` imports,
 * a `node_modules` link back into the project). A computed specifier (`require(name)`) is no
 * edge: the server resolves it to nothing either.
 * @module
 */
import { extname, posix } from "node:path";
import {
  DECLARE,
  EXPORT,
  FROM,
  IMPORT,
  ImportWords,
  JSX_PRAGMA,
  MODULE,
  NAMESPACE,
  REQUIRE,
  TRIPLE_SLASH,
} from "./import_words.ts";

/**
 * What a file takes from a module it names, over all its import forms. A module object held
 * whole may hand any export (the target too) to the file, and through it, if it escapes, to
 * every file importing this one.
 */
export interface Taken {
  /** The module object: a namespace, a default, `require`, `import()`, an import type... */
  whole: boolean;
  /**
   * The module object may leave the file: bound to a name used otherwise than `name.member`
   * (`export { ns }`, `f(ns)`, `typeof ns`), or not bound at all (`__exportStar(require(x))`).
   */
  escapes: boolean;
  /** `export * from`: every export passes through under its own name. */
  star: boolean;
  /** Export names it imports or re-exports by name (`import { A as B }` takes `A`). */
  names: string[];
  /** The names are re-exported (`export { A as B } from`): the file exports what it takes. */
  reexports: boolean;
}

/** What a JavaScript or TypeScript file's text says about the modules it reaches. */
export interface ModuleFacts {
  /** Module specifiers it names, as written. */
  specs: string[];
  /** Per specifier, what the file takes from that module. */
  takes: Record<string, Taken>;
  /**
   * Names it gives a binding (`A as B`, `import B = A.C`): `[from, to]` pairs. Where the file
   * holds the target under a name, it may export it under the other.
   */
  renames: Array<[string, string]>;
  /**
   * The local names its export statements hand on as they are (`export { A }`, `export { A as
   * B }`, `export default A;`, `export = A;`, `export import B = A.C`, `exports.B = A;`): a file
   * holding the target exports it only under one of these. Null when it cannot tell
   * (`module.exports = {...}`).
   */
  exports: string[] | null;
  /** The names whole modules are bound to (`import * as ns`, `const x = require(...)`). */
  bindings: string[];
  /** An `import(...)` or `require(...)` whose specifier is not a plain string. */
  dynamic: boolean;
  /** Its top-level declarations are not global (it imports or exports, or is CommonJS). */
  module: boolean;
  /** It declares globals (`declare global`, `export as namespace`): any file may use them. */
  global: boolean;
  /**
   * Its `declare global` blocks may hand on a binding of the file to every file: they import
   * (`import("./x")` types, `import A = B.C`), require, export by name or assign an export, or
   * cannot be read to their end; always where it says `export as namespace` (its exports are a
   * global). Other declarations there name the file's bindings in types only, which refers to
   * them but hands nothing on (a module object named otherwise than `ns.member` escapes: see
   * {@linkcode Taken}).
   */
  globalsCarry: boolean;
  /**
   * The relative modules it augments (`declare module "./x" {...}`) with blocks that hand on no
   * binding of the file, as {@linkcode globalsCarry} tells: their importers see what the blocks
   * declare, which refers to nothing of this file's unless a module object escapes in it.
   */
  quietAugments: string[];
  /**
   * Module names it declares or augments (`declare module "x" {...}`): an importer of that name
   * sees what this file declares there.
   */
  ambient: string[];
}

/** The extensions whose files take part in the graph, lower case. */
export const JS_TS_EXTENSIONS: ReadonlySet<string> = new Set([
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
]);

/** Extensions of files that import nothing (lower case): data, styles, images, text. */
const LEAF_EXTENSIONS: ReadonlySet<string> = new Set([
  ".json",
  ".jsonc",
  ".json5",
  ".css",
  ".scss",
  ".sass",
  ".less",
  ".styl",
  ".svg",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".avif",
  ".ico",
  ".bmp",
  ".woff",
  ".woff2",
  ".ttf",
  ".otf",
  ".wasm",
  ".txt",
  ".md",
  ".yaml",
  ".yml",
  ".toml",
  ".graphql",
  ".gql",
  ".csv",
  ".html",
]);

/** Whether a project file takes part in the import graph. */
export function isJsOrTs(relPath: string): boolean {
  return JS_TS_EXTENSIONS.has(extname(relPath).toLowerCase());
}

// Every pattern below but REFERENCE and JSX_PRAGMA_SOURCE is sticky: tried only where its first
// word occurs (import_words.ts), which finds what a scan of the whole text finds.
const RAW_FROM = /\b(?:from|import)\s*["']([^"'\n]+)["']/y;
const RAW_CALL = /(?<![\w$.])(?:import|require)\s*\(/y;
/** A string argument, after comments (`import(/* webpackChunkName: "x" *\/ "./x")`). */
const STRING_ARGUMENT =
  /^(?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n)*(?:"([^"\n]*)"|'([^'\n]*)'|`([^`$\n]*)`)\s*[),]/;
const DECLARE_MODULE = /\bdeclare\s+module\s+["']([^"'\n]+)["']/y;
const REFERENCE =
  /^[ \t]*\/\/\/[ \t]*<(?:reference|amd-dependency)\s+(?:path|types)\s*=\s*["']([^"'\n]+)["']/gm;
const JSX_PRAGMA_SOURCE = /@jsxImportSource\s+([^\s*]+)/g;
const GLOBALS = /\bdeclare\s+global\b|\bexport\s+as\s+namespace\b/y;
const COMMONJS = /\bmodule\.exports\b|\bexports\.[\w$]+\s*=|(?<![\w$.])require\s*\(/y;
/** An import or export statement (not an `import(...)` call, not `import A = N.B`). */
const MODULE_STATEMENT =
  /^[ \t]*(?:export\b|import\b(?![ \t]*\()(?![ \t]+(?:type[ \t]+)?[\w$]+[ \t]*=[ \t]*(?!require\b)))/my;
/** The same at the start of a line only: inside a namespace, `export` is indented. */
const MODULE_STATEMENT_AT_COLUMN_0 =
  /^(?:export\b|import\b(?![ \t]*\()(?![ \t]+(?:type[ \t]+)?[\w$]+[ \t]*=[ \t]*(?!require\b)))/my;
const NAMESPACE_BLOCK = /^[ \t]*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+[\w$.]+\s*\{/my;
/** A line that is a comment: `//`, `/*`, or a JSDoc continuation (` * ...`). */
const COMMENT_LINE = /^[ \t]*(?:\/\/|\/\*|\*)/;

/**
 * The facts of one file, from its text. Every match of an import form counts unless it is on a
 * comment line (`//`, `/*`, ` * `), where only a JSDoc import type counts (`import("x")`,
 * `@import ... from "x"`): examples in comments (`import { Hono } from "hono"`) are no imports.
 * A match in a string counts too: extra edges only keep more files. Module-ness and globals,
 * where a wrong "yes" would be unsafe, count only matches that are surely code
 * ({@linkcode codeAt}). What a file takes from a module ({@linkcode Taken}) is read from the
 * import clause; a clause it cannot read takes the module whole, and lets it escape.
 */
export function moduleFacts(relPath: string, text: string): ModuleFacts {
  const specs = new Set<string>();
  const takes: Record<string, Taken> = {};
  const renames: Array<[string, string]> = [];
  const scan: Scan = { text, renames, bindings: [] };
  const take = (spec: string, part: Partial<Taken>) => {
    const key = spec.trim();
    if (key === "") return;
    specs.add(key);
    const known = takes[key] ??= {
      whole: false,
      escapes: false,
      star: false,
      names: [],
      reexports: false,
    };
    known.whole ||= part.whole ?? false;
    known.escapes ||= part.escapes ?? false;
    known.star ||= part.star ?? false;
    known.reexports ||= part.reexports ?? false;
    for (const name of part.names ?? []) if (!known.names.includes(name)) known.names.push(name);
  };
  const onCommentLine = (at: number) =>
    COMMENT_LINE.test(text.slice(text.lastIndexOf("\n", at) + 1, at + 1));
  const jsdocImport = (at: number) => /@import\b[^*]*$/.test(text.slice(Math.max(0, at - 300), at));
  const words = new ImportWords(text);
  let dynamic = false;
  for (const m of words.matches(RAW_FROM, FROM | IMPORT)) {
    const comment = onCommentLine(m.index!);
    if (comment && !jsdocImport(m.index!)) continue;
    if (comment) take(m[1]!, WHOLE);
    else if (m[0].startsWith("import")) take(m[1]!, {}); // `import "x"`: no binding
    else take(m[1]!, clauseBefore(scan, m.index!));
  }
  for (const m of words.matches(RAW_CALL, IMPORT | REQUIRE)) {
    const comment = onCommentLine(m.index!);
    if (comment && !m[0].startsWith("import")) continue;
    const start = m.index! + m[0].length;
    const argument = STRING_ARGUMENT.exec(text.slice(start, start + 400));
    if (argument) {
      const after = start + argument[0].length;
      take(
        argument[1] ?? argument[2] ?? argument[3]!,
        callTaken(scan, m.index!, after, argument[0].endsWith(")")),
      );
    } else if (!comment) dynamic = true;
  }
  const code = codeAt(text);
  const ambient = new Set<string>();
  const quietAugments: string[] = [];
  const loud = new Set<string>();
  for (const m of words.matches(DECLARE_MODULE, DECLARE)) {
    if (onCommentLine(m.index!)) continue;
    ambient.add(m[1]!);
    if (!isRelative(m[1]!)) continue;
    // The block sees the module's declarations; no binding of the file holds its module object.
    take(m[1]!, { whole: true });
    if (blocksCarry(text, [m.index! + m[0].length])) loud.add(m[1]!);
    else if (!quietAugments.includes(m[1]!)) quietAugments.push(m[1]!);
  }
  for (const m of words.has(TRIPLE_SLASH) ? text.matchAll(REFERENCE) : []) take(m[1]!, WHOLE);
  for (const m of words.has(JSX_PRAGMA) ? text.matchAll(JSX_PRAGMA_SOURCE) : []) {
    take(`${m[1]}/jsx-runtime`, WHOLE);
  }
  let exports: string[] | null = [];
  const exported = (names: readonly string[] | null) => {
    if (names === null) exports = null;
    else if (exports !== null) { for (const n of names) if (!exports.includes(n)) exports.push(n); }
  };
  for (const m of words.matches(LOCAL_EXPORT, EXPORT)) {
    exported(m[1] !== undefined ? bracedNames(m[1], renames) : [firstPart(m[2]!)]);
  }
  let aliased = false;
  for (const m of words.matches(IMPORT_ALIAS, IMPORT)) {
    aliased = true;
    renames.push([lastPart(m[2]!), m[1]!]);
    const before = text.slice(Math.max(0, m.index! - 12), m.index!);
    if (/\bexport\s+$/.test(before)) exported([firstPart(m[2]!)]);
  }
  const javascript = /\.[cm]?jsx?$/i.test(relPath);
  if (javascript) {
    // `exports.B = A` is an alias of A in JavaScript, as `export { A as B }` is.
    for (const m of words.matches(EXPORTS, MODULE | EXPORT)) {
      if (m[5] !== undefined) {
        // `module.exports =`: under a name only as `module.exports = A.B;`.
        exported(m[4] === undefined ? null : [firstPart(m[4])]);
      } else if (m[3] !== undefined) {
        renames.push([lastPart(m[3]), m[1] ?? m[2]!]);
        exported([firstPart(m[3])]);
      }
    }
  }
  const surelyCode = (matches: Iterable<RegExpExecArray>) => {
    for (const m of matches) if (code(m.index + m[0].search(/\S/))) return true;
    return false;
  };
  // Where namespaces may hold `export`s, only an unindented statement says "module". Only a
  // file holding `namespace` or `module` followed by white space is looked at for them.
  const namespaces = words.hasFollowedBy(NAMESPACE | MODULE, /\s/) &&
    surelyCode(words.lineMatches(NAMESPACE_BLOCK, EXPORT | DECLARE | NAMESPACE | MODULE, true));
  const module = namespaces
    ? surelyCode(words.lineMatches(MODULE_STATEMENT_AT_COLUMN_0, EXPORT | IMPORT, false))
    : surelyCode(words.lineMatches(MODULE_STATEMENT, EXPORT | IMPORT, true)) ||
      (javascript && surelyCode(words.matches(COMMONJS, MODULE | EXPORT | REQUIRE)));
  if (namespaces && aliased) {
    // A namespace may export what the file imports under a name of its own (`export import
    // A = ...` inside `namespace N`, reached as `N.A`): every module it takes may escape.
    for (const taken of Object.values(takes)) Object.assign(taken, { whole: true, escapes: true });
  }
  // Most takes carry no names: one shared object per shape, kept for every file of a tree.
  for (const [spec, taken] of Object.entries(takes)) {
    takes[spec] = taken.names.length === 0
      ? sharedTaken(taken)
      : { ...taken, names: taken.names.map(detached) };
  }
  const globalStarts: number[] = [];
  for (const m of words.matches(GLOBALS, DECLARE | EXPORT)) {
    if (code(m.index + m[0].search(/\S/))) globalStarts.push(m.index + m[0].length);
  }
  const global = globalStarts.length > 0;
  return {
    specs: [...specs].map(detached),
    takes,
    renames: renames.map(([from, to]) => [detached(from), detached(to)]),
    exports: exports === null ? null : (exports as string[]).map(detached),
    bindings: scan.bindings.map(detached),
    dynamic,
    module,
    global,
    globalsCarry: global && blocksCarry(text, globalStarts),
    quietAugments: quietAugments.filter((spec) => !loud.has(spec)).map(detached),
    ambient: [...ambient].map(detached),
  };
}

/**
 * Whether the declaration blocks whose keywords (`declare global`, `declare module "x"`) end at
 * `starts` may hand on a binding of their file (see ModuleFacts.globalsCarry): any of them
 * imports, requires, exports by name or assigns an export, or its end is not found; always after
 * `export as namespace`.
 */
function blocksCarry(text: string, starts: readonly number[]): boolean {
  for (const start of starts) {
    if (/namespace\s*$/.test(text.slice(Math.max(0, start - 12), start))) return true;
    const open = /^\s*\{/.exec(text.slice(start, start + 200));
    if (!open) return true;
    const end = blockEnd(text, start + open[0].length);
    if (end === null || CARRYING.test(text.slice(start, end))) return true;
  }
  return false;
}

/** What in a declaration block may hand on a binding: an import, a require, an export by name. */
const CARRYING =
  /(?<![\w$.])(?:import|require)(?![\w$])|(?<![\w$.])export\s*(?:[{*=]|default(?![\w$]))/;

/**
 * Where the block whose `{` ends at `from` closes (the offset of its `}`), braces in strings and
 * comments aside; null when it does not close, or holds a template literal with a `${`, whose
 * braces this does not follow.
 */
function blockEnd(text: string, from: number): number | null {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}") {
      if (--depth === 0) return i;
    } else if (c === "/" && text[i + 1] === "/") {
      const eol = text.indexOf("\n", i);
      if (eol === -1) return null;
      i = eol;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      if (close === -1) return null;
      i = close + 1;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      for (; j < text.length && text[j] !== c; j++) {
        if (text[j] === "\\") j++;
        else if (c !== "`" && text[j] === "\n") return null;
        else if (c === "`" && text[j] === "$" && text[j + 1] === "{") return null;
      }
      if (j >= text.length) return null;
      i = j;
    }
  }
  return null;
}

/**
 * A string of a file's text as a string of its own. V8 keeps a substring of 13 characters or
 * more as a slice of the whole text, and the facts are kept for every file of a project: on
 * typeorm's npm package they held all 9.2 MB of its 1,997 texts, against 1.6 MB of their own.
 */
function detached(part: string): string {
  return part.length < 13 ? part : (" " + part).slice(1);
}

/** A frozen take without names for each combination of flags (bit 1 whole, 2 escapes, ...). */
const SHARED_TAKES: readonly Taken[] = Array.from({ length: 16 }, (_, bits) =>
  Object.freeze({
    whole: (bits & 1) !== 0,
    escapes: (bits & 2) !== 0,
    star: (bits & 4) !== 0,
    reexports: (bits & 8) !== 0,
    names: Object.freeze([]) as unknown as string[],
  }));

/** The shared object of a take without names, for its flags. */
function sharedTaken(taken: Taken): Taken {
  const bits = +taken.whole | (+taken.escapes << 1) | (+taken.star << 2) | (+taken.reexports << 3);
  return SHARED_TAKES[bits]!;
}

/** A module taken whole, which may leave the file. */
const WHOLE: Partial<Taken> = { whole: true, escapes: true };

/**
 * A local export under a name: `export { A as B }` without `from` (group 1), or `export default
 * A;` / `export = A.B;` (group 2).
 */
const LOCAL_EXPORT =
  // deno-fmt-ignore
  /\bexport\s*(?:(?:type\s*)?\{([^}]*)\}(?!\s*from\b)|(?:default\s+|=\s*)([A-Za-z_$][\w$]*(?:\s*\.\s*[\w$]+)*)\s*(?:;|\n|$))/y;
/** `import B = A.C` (not `= require(...)`): B is another name of C. */
const IMPORT_ALIAS =
  /\bimport\s+(?:type\s+)?([\w$]+)\s*=\s*(?!require\b)([\w$]+(?:\s*\.\s*[\w$]+)*)\s*(?=[;\n])/y;
function firstPart(dotted: string): string {
  return dotted.split(".")[0]!.trim();
}

function lastPart(dotted: string): string {
  return dotted.split(".").at(-1)!.trim();
}

/** One file's text, and what reading its clauses found beyond each take. */
interface Scan {
  text: string;
  renames: Array<[string, string]>;
  bindings: string[];
}

/**
 * CommonJS exports in JavaScript: `exports.B = A.C;`, `module.exports.B = A;` or
 * `exports["B"] = A;` (the name in group 1 or 2, A.C in group 3 where it is a name), or
 * `module.exports =` (group 5) followed by a name (group 4) or anything else.
 */
const EXPORTS =
  // deno-fmt-ignore
  /(?<![\w$.])(?:module\s*\.\s*)?exports\s*(?:\.\s*([\w$]+)|\[\s*["']([^"'\n]+)["']\s*\])\s*=(?!=)\s*(?:([A-Za-z_$][\w$]*(?:\s*\.\s*[\w$]+)*)\s*(?=[;\n,)]))?|(?<![\w$.])module\s*\.\s*exports\s*=(?!=)(?:\s*([A-Za-z_$][\w$]*(?:\s*\.\s*[\w$]+)*)\s*(?=[;\n]))?()/y;

/**
 * What the import or export clause ending before `at` (a `from`) takes from its module; the
 * renames of a braced clause are added to `renames`.
 */
function clauseBefore(scan: Scan, at: number): Partial<Taken> {
  const { text, renames } = scan;
  let end = at - 1;
  while (end >= 0 && /\s/.test(text[end]!)) end--;
  const last = text[end];
  const head = (to: number) => text.slice(Math.max(0, to - 200), to);
  if (last === "}") {
    const open = text.lastIndexOf("{", end);
    if (open === -1) return WHOLE;
    const before = head(open);
    const names = bracedNames(text.slice(open + 1, end), renames);
    if (names === null) return WHOLE;
    const keyword = /(?:^|[^\w$.])(import|export)(?:\s+type)?\s*$/.exec(before);
    if (keyword) {
      const reexports = keyword[1] === "export";
      return names.includes("default") ? { ...WHOLE, names, reexports } : { names, reexports };
    }
    // `import D, { A } from`: the default is the module object where the module has none.
    const withDefault = /(?:^|[^\w$.])import\s+([\w$]+)\s*,\s*$/.exec(before);
    if (withDefault) {
      return { whole: true, escapes: bindingEscapes(scan, withDefault[1]!), names };
    }
    return WHOLE;
  }
  if (last === "*") {
    return /(?:^|[^\w$.])export(?:\s+type)?\s*$/.test(head(end)) ? { star: true } : WHOLE;
  }
  // `import D from`, `import * as ns from`, `import type D from`, `export * as ns from`.
  const bound = /(?:^|[^\w$.])(import|export)(?:\s+type)?\s+(\*\s*as\s+)?([\w$]+)\s*$/.exec(
    head(end + 1),
  );
  if (!bound || bound[1] === "export" || bound[3] === "type") return WHOLE;
  return { whole: true, escapes: bindingEscapes(scan, bound[3]!) };
}

/**
 * The export names a braced clause (`A, type B, C as D, "e" as F`) takes, its renames added to
 * `renames`; null where a part cannot be read.
 */
function bracedNames(inner: string, renames: Array<[string, string]>): string[] | null {
  const names: string[] = [];
  const clean = inner.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
  for (const part of clean.split(",")) {
    const p = part.trim();
    if (p === "") continue;
    const m = BRACED_PART.exec(p);
    if (!m) return null;
    const from = m[1] ?? m[2] ?? m[3]!;
    const to = m[4] ?? m[5] ?? m[6];
    names.push(from);
    if (to !== undefined && to !== from) renames.push([from, to]);
  }
  return names;
}

const BRACED_PART =
  /^(?:type\s+)?(?:([\w$]+)|"([^"]*)"|'([^']*)')(?:\s+as\s+(?:([\w$]+)|"([^"]*)"|'([^']*)'))?$/;

/**
 * What a `require(...)` or `import(...)` call at `at`, whose string argument ends at `after`
 * (`closed`: with its `)`), takes: the module whole, which escapes unless bound to a name used
 * only as `name.member` (`const x = require("y")`, `import x = require("y")`,
 * `const x = __importStar(require("y"))`) or used at once (`require("y").A`, `import("y").T`).
 * A statement of its own (`require("./setup");`) binds nothing. `import(...)` in a value is a
 * promise, which hands the module on; followed by a member, it is an import type.
 */
function callTaken(scan: Scan, at: number, after: number, closed: boolean): Partial<Taken> {
  const { text } = scan;
  if (!closed) return WHOLE;
  if (text.startsWith("import", at)) {
    // `import("y").T` is a type; in a value, `import("y")` is a promise that hands it on.
    const member = /^\s*\.\s*([\w$]+)/.exec(text.slice(after, after + 40));
    return member && !/^(?:then|catch|finally)$/.test(member[1]!) ? { whole: true } : WHOLE;
  }
  if (memberFollows(text, after)) return { whole: true };
  const before = text.slice(Math.max(0, at - 120), at);
  // `export * from "x"` compiled to CommonJS: `__exportStar(require("x"), exports)`.
  if (
    /\b__exportStar\)?\s*\(\s*$/.test(before) &&
    /^\s*,\s*exports\s*\)/.test(text.slice(after, after + 30))
  ) {
    return { star: true };
  }
  if (/(?:^|[;{}\n])\s*$/.test(before) && /^[ \t]*(?:;|\n|$)/.test(text.slice(after, after + 20))) {
    return {};
  }
  // `const { A, B: C } = require("y")` takes names, as `import { A, B as C }` does.
  const destructured = /\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*$/.exec(before);
  if (destructured && /^\s*(?:;|\n|,|$)/.test(text.slice(after, after + 20))) {
    const names = destructuredNames(destructured[1]!, scan.renames);
    return names === null ? WHOLE : { names };
  }
  const bound =
    /(?:\b(?:const|let|var)\s+([\w$]+)\s*=\s*(?:[\w$.]+\s*\(\s*)?|\bimport\s+([\w$]+)\s*=\s*)$/
      .exec(before);
  if (!bound) return WHOLE;
  // A wrapper (`__importStar(require(x))`) must end right after the call.
  const wrapped = bound[1] !== undefined && /\(\s*$/.test(before);
  if (wrapped && !/^\s*\)\s*[;\n,]/.test(text.slice(after, after + 20))) return WHOLE;
  return { whole: true, escapes: bindingEscapes(scan, bound[1] ?? bound[2]!) };
}

/**
 * The export names an object pattern (`A, B: C, D = 1`) takes, its renames added to `renames`;
 * null where a part cannot be read (`...rest` holds the module's other exports: whole).
 */
function destructuredNames(inner: string, renames: Array<[string, string]>): string[] | null {
  const names: string[] = [];
  for (const part of inner.replace(/\/\*[\s\S]*?\*\//g, " ").split(",")) {
    const p = part.trim();
    if (p === "") continue;
    const m = /^([\w$]+)(?:\s*:\s*([\w$]+))?(?:\s*=[^=].*)?$/s.exec(p);
    if (!m) return null;
    names.push(m[1]!);
    if (m[2] !== undefined && m[2] !== m[1]) renames.push([m[1]!, m[2]]);
  }
  return names;
}

/** Whether `.member`, `?.member` or `[...]` follows `at` (after blanks). */
function memberFollows(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  const c = text[i];
  if (c === "[") return true;
  if (c === "?") return text[i + 1] === "." && !/\d/.test(text[i + 2] ?? "");
  return c === "." && text[i + 1] !== ".";
}

/**
 * Whether a module object bound to `name` may leave the file: some whole-word use of `name` is
 * not the binding itself, not a property (`x.name`), and not followed by a member access. The
 * binding's own occurrence and any other declaration of the name count as uses: only the safe
 * answer is wrong there.
 */
function bindingEscapes(scan: Scan, name: string): boolean {
  const { text } = scan;
  if (!scan.bindings.includes(name)) scan.bindings.push(name);
  let bindings = 0;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length)) {
    const prev = text.charCodeAt(at - 1);
    const next = text.charCodeAt(at + name.length);
    if (isWordCode(prev) || isWordCode(next)) continue;
    // A part of a path or a name in a string (`require("./name")`, `"@scope/name-x"`).
    if (prev === SLASH || prev === AT || prev === DASH) continue;
    if (next === QUOTE || next === APOSTROPHE || next === TICK || next === SLASH || next === DASH) {
      continue;
    }
    if (prev === DOT && text.charCodeAt(at - 2) !== DOT) continue; // a property of another
    if (memberFollows(text, at + name.length)) continue;
    // The binding: `import * as name from`, `import name from`, `const name = require(...)`.
    if (bindings === 0 && bindingSite(text, at, name)) {
      bindings++;
      continue;
    }
    return true;
  }
  return false;
}

const [SLASH, AT, DASH, QUOTE, APOSTROPHE, TICK, DOT] = [..."/@-\"'`."].map((c) => c.charCodeAt(0));

/** Whether a character code is one of an identifier's (`[A-Za-z0-9_$]`). */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) || code === 95 || code === 36;
}

/** Whether the occurrence of `name` at `at` is where an import binds it. */
function bindingSite(text: string, at: number, name: string): boolean {
  const before = text.slice(Math.max(0, at - 60), at);
  const after = text.slice(at + name.length, at + name.length + 40);
  return (/(?:\bimport(?:\s+type)?\s+(?:\*\s*as\s+)?|\bas\s+)$/.test(before) &&
    /^\s*(?:from\b|,)/.test(after)) ||
    (/\bimport\s+(?:type\s+)?$/.test(before) && /^\s*=/.test(after)) ||
    (/\b(?:const|let|var)\s+$/.test(before) && /^\s*=/.test(after));
}

/**
 * Whether an offset of `text` is surely code: not on a `//` line, not after a `/*` that no ` */ `
 * closed, not after an odd number of backticks (in a template literal). Each mistake it can
 * make says "not code" for code (a backtick or `; /*` in a string before it), the safe answer
 * for what it decides: that a file is a module, or declares no globals.
 */

function codeAt(text: string): (offset: number) => boolean {
  let ticks: number[] | null = null;
  return (at) => {
    if (COMMENT_LINE.test(text.slice(text.lastIndexOf("\n", at - 1) + 1, at + 2))) return false;
    if (text.lastIndexOf("/*", at) > text.lastIndexOf("*/", at)) return false;
    if (ticks === null) {
      ticks = [];
      for (let i = text.indexOf("`"); i !== -1; i = text.indexOf("`", i + 1)) ticks.push(i);
    }
    let before = 0;
    while (before < ticks.length && ticks[before]! < at) before++;
    return before % 2 === 0;
  };
}

/** How a bare specifier (`react`, `@scope/pkg/x`) of a file resolves, as the caller knows. */
export type BareVerdict = "outside" | "maybe-inside";

/** What the proof needs to know of a project. */
export interface ReachQuestion {
  /** The file declaring the symbol (project-relative). */
  target: string;
  /**
   * The symbol's exported name: a file that takes other names only from the modules exporting
   * it cannot refer to it. Without it, any name taken counts.
   */
  name?: string;
  /** Every project file, of every kind (project-relative, `/` separators). */
  files: readonly string[];
  /** The facts of a JavaScript or TypeScript file; null when it cannot be read. */
  facts(relPath: string): ModuleFacts | null;
  /** Whether a bare specifier of `importer` may lead to a project file. */
  bare(importer: string, spec: string): BareVerdict;
  /** Specifiers every `.tsx`/`.jsx` file imports implicitly (`<jsxImportSource>/jsx-runtime`). */
  jsxRuntimes?: readonly string[];
  /**
   * Where the `package.json` of a project folder (lower case) leads an import of the folder:
   * its `types`, `typings` and `main`, relative to the folder; null when it cannot be told
   * (unreadable, `typesVersions`). Without it, such an import is unresolved.
   */
  folderEntries?(folder: string): readonly string[] | null;
}

/** The proof's answer: the files that may refer to the target, or why it cannot tell. */
export type Reach =
  | { decided: true; reaching: ReadonlySet<string> }
  | { decided: false; reason: string };

/**
 * A path's module key: lower case, without a JavaScript or TypeScript extension or `.d`. The
 * ES module and CommonJS extensions keep their kind: TypeScript resolves `./x` and `./x.js` to
 * `x.ts`, `x.tsx`, `x.d.ts`, `x.js` or `x.jsx`, never to `x.mts` or `x.mjs` (`./x.mjs` names
 * those), nor the folder `x` to `x/index.mjs`.
 */
function moduleKey(path: string): string {
  const lower = path.toLowerCase();
  // `x.d.css.ts` declares `./x.css`.
  const declared = /\.d(\.[^./]+)\.ts$/.exec(lower);
  if (declared && !/^\.[cm]?[jt]sx?$/.test(declared[1]!)) {
    return lower.slice(0, declared.index) + declared[1];
  }
  const m = /(\.d)?\.([cm]?)[jt]sx?$/.exec(lower);
  if (!m) return lower;
  const base = lower.slice(0, m.index);
  return m[2] === "" ? base : `${base}\0${m[2]}`;
}

/** A module taken whole, which may leave the file (what the graph assumes where it cannot read). */
const ESCAPING: Taken = { whole: true, escapes: true, star: false, names: [], reexports: false };

/** What a file takes from its implicit JSX runtime: the module, under no name of the file's. */
const RUNTIME: Taken = { whole: true, escapes: false, star: false, names: [], reexports: false };

/** Whether a specifier is relative (`.`, `..`, `./x`, `../x`). */
function isRelative(spec: string): boolean {
  return spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../");
}

/**
 * The files that may refer to the target's symbol (the target included), or why the graph
 * cannot decide. A file outside the set cannot refer to it ({@linkcode reachOf}).
 */
export function importReach(question: ReachQuestion): Reach {
  return reachOf(importGraph(question), question.target, question.name);
}

/** The import graph of a project, for any target: who imports whom, and who may reach anything. */
export interface ImportGraph {
  /** The files each file is imported by, with what each takes from it. */
  importers: ReadonlyMap<string, ReadonlyArray<{ file: string; taken: Taken }>>;
  /** Files that may reach any module whole: an unresolved specifier, or unreadable. */
  seeds: readonly string[];
  /**
   * Files that may refer to any module's exports but hold no module object under a name: a
   * `.tsx` or `.jsx` file whose implicit JSX runtime (`<jsxImportSource>/jsx-runtime`) cannot be
   * resolved for sure. Its elements may refer to the runtime's exports; nothing of it leaves.
   */
  holders: readonly string[];
  /**
   * Per file, the project modules it augments with blocks that hand on none of its bindings
   * (ModuleFacts.quietAugments): their importers see nothing of the file's, unless a module
   * object escapes in it, which the blocks may name.
   */
  quietAugments: ReadonlyMap<string, readonly string[]>;
  facts(relPath: string): ModuleFacts | null;
}

/**
 * The files that may refer to the symbol `name` exported by `target` (the target included), or
 * why the graph cannot decide. A file refers to it only through a binding to it or to a module
 * object holding it:
 * - the modules exporting it (under `name` or another name `export { A as B }` gives it) are the
 *   target and each file holding it, and each file re-exporting one of them (`export *`);
 * - a file holds it where it takes one of those names from such a module, or the module whole
 *   (a namespace, a default, `require`, `import()`, an import type, an augmentation);
 * - a module object that escapes its file ({@linkcode Taken}) may reach every file importing
 *   that file, whatever it takes, and on through theirs.
 * Without `name`, any name taken counts.
 */
export function reachOf(graph: ImportGraph, target: string, name?: string): Reach {
  const targetFacts = graph.facts(target);
  if (targetFacts === null) return { decided: false, reason: `${target} cannot be read` };
  if (!targetFacts.module) {
    return { decided: false, reason: `${target} is a script: its declarations are global` };
  }
  if (targetFacts.global) return { decided: false, reason: `${target} declares globals` };
  const aliases = new Set<string>(name === undefined ? [] : [name]);
  const named = (names: readonly string[]) =>
    name === undefined ? names.length > 0 : names.some((n) => aliases.has(n));
  const exporters = new Set<string>();
  const holding = new Set<string>();
  const tainted = new Set<string>();
  const modules: string[] = [];
  const taints: string[] = [];
  /** Takes of names that are not (yet) the symbol's, from its modules. */
  let waiting: Array<{ file: string; taken: Taken }> = [];
  let aliasAdded = false;
  const exporter = (file: string) => {
    if (exporters.has(file)) return;
    exporters.add(file);
    modules.push(file);
  };
  const rename = (file: string) => {
    for (const [from, to] of graph.facts(file)?.renames ?? []) {
      if (aliases.has(from) && !aliases.has(to)) {
        aliases.add(to);
        aliasAdded = true;
      }
    }
  };
  /**
   * Whether a file holding the symbol may export it: under a name it holds it by, or unsure.
   * Without a name, whatever it holds may be the symbol.
   */
  const exportsIt = (file: string) => {
    const facts = graph.facts(file);
    if (name === undefined || facts === null || facts.exports === null) return true;
    return facts.exports.some((n) => aliases.has(n) || facts.bindings.includes(n));
  };
  const hold = (file: string) => {
    if (holding.has(file)) return;
    holding.add(file);
    rename(file);
    if (exportsIt(file)) exporter(file);
  };
  const taint = (file: string) => {
    if (tainted.has(file)) return;
    tainted.add(file);
    hold(file);
    taints.push(file);
  };
  // The target exports it, under its name and its own renames (`export { A as B }`).
  hold(target);
  exporter(target);
  for (const seed of graph.seeds) taint(seed);
  for (const file of graph.holders) hold(file);
  while (modules.length > 0 || taints.length > 0 || aliasAdded) {
    const file = taints.pop();
    if (file !== undefined) {
      for (const importer of graph.importers.get(file) ?? []) taint(importer.file);
      for (const module of graph.quietAugments.get(file) ?? []) taint(module);
      continue;
    }
    const module = modules.pop();
    if (module !== undefined) {
      for (const { file, taken } of graph.importers.get(module) ?? []) {
        if (taken.whole) hold(file);
        if (taken.whole && taken.escapes) taint(file);
        if (taken.star) exporter(file);
        if (named(taken.names)) {
          hold(file);
          if (taken.reexports) exporter(file);
        } else if (taken.names.length > 0) waiting.push({ file, taken });
      }
      continue;
    }
    // New names of the symbol: the files holding it may give it more, export it under them,
    // and waiting takes may match them.
    aliasAdded = false;
    for (const file of holding) {
      rename(file);
      if (!exporters.has(file) && exportsIt(file)) exporter(file);
    }
    waiting = waiting.filter((take) => {
      if (!named(take.taken.names)) return true;
      hold(take.file);
      if (take.taken.reexports) exporter(take.file);
      return false;
    });
  }
  for (const file of holding) {
    if (file === target) continue;
    const facts = graph.facts(file);
    if (facts === null) continue; // unreadable now: it declares nothing
    if (!facts.module) {
      return { decided: false, reason: `${file} may refer to ${target} and is a script` };
    }
    if (facts.global && globalsMayCarry(file, facts)) {
      return { decided: false, reason: `${file} may refer to ${target} and declares globals` };
    }
  }
  return { decided: true, reaching: new Set([target, ...holding]) };

  /**
   * Whether the globals of a file holding the symbol may hand it on to every file: where they
   * may hand on a binding (ModuleFacts.globalsCarry), or a module object escapes in the file.
   */
  function globalsMayCarry(file: string, facts: ModuleFacts): boolean {
    return name === undefined || facts.globalsCarry || tainted.has(file);
  }
}

/** The import graph of the project a question describes (its target plays no part). */
export function importGraph(question: Omit<ReachQuestion, "target">): ImportGraph {
  // Module keys: a file by its path without extension, an index file by its folder too.
  const byKey = new Map<string, string[]>();
  const addKey = (key: string, file: string) => {
    const list = byKey.get(key);
    if (list) list.push(file);
    else byKey.set(key, [file]);
  };
  const others = new Set<string>();
  const packageFolders = new Set<string>();
  const code: string[] = [];
  for (const file of question.files) {
    if (isJsOrTs(file)) {
      code.push(file);
      const key = moduleKey(file);
      addKey(key, file);
      if (key === "index" || key.endsWith("/index")) addKey(folderOf(key), file);
    } else {
      others.add(file.toLowerCase());
      if (file === "package.json" || file.endsWith("/package.json")) {
        packageFolders.add(folderOf(file).toLowerCase());
      }
    }
  }
  // Module names declared or augmented by `declare module "name"` (a pattern may hold a `*`).
  const ambientNames = new Map<string, string[]>();
  const ambientPatterns: Array<{ prefix: string; suffix: string; file: string }> = [];
  for (const file of code) {
    for (const name of question.facts(file)?.ambient ?? []) {
      if (isRelative(name)) continue; // an augmentation of a project module: an edge below
      const star = name.indexOf("*");
      if (star !== -1) {
        ambientPatterns.push({ prefix: name.slice(0, star), suffix: name.slice(star + 1), file });
      } else {
        const list = ambientNames.get(name);
        if (list) list.push(file);
        else ambientNames.set(name, [file]);
      }
    }
  }
  // Reverse edges, and the files that may reach anything (an unresolved specifier).
  /** Per folder, per specifier: the files it resolves to (no key to join per look-up). */
  const resolved = new Map<string, Map<string, readonly string[] | null>>();
  const importers = new Map<string, Array<{ file: string; taken: Taken }>>();
  const edge = (from: string, to: string, taken: Taken) => {
    const list = importers.get(to);
    if (list) list.push({ file: from, taken });
    else importers.set(to, [{ file: from, taken }]);
  };
  const seeds: string[] = [];
  const holders: string[] = [];
  const quietAugments = new Map<string, string[]>();
  for (const file of code) {
    const facts = question.facts(file);
    // A specifier the server cannot resolve either (`require(name)`) gives it `any`: no edge.
    if (facts === null) {
      seeds.push(file);
      continue;
    }
    // An augmented project module shows what this file declares in it to its importers: as
    // if it imported the file, where the block may hand on the file's bindings; where it may
    // not, only once a module object escapes in the file (ImportGraph.quietAugments).
    for (const name of facts.ambient.filter(isRelative)) {
      const augmented = resolve(file, name, folderOf(file));
      if (augmented === null) seeds.push(file);
      else if (!facts.quietAugments.includes(name)) {
        for (const module of augmented) edge(module, file, ESCAPING);
      } else {
        const list = quietAugments.get(file);
        if (list) list.push(...augmented);
        else quietAugments.set(file, [...augmented]);
      }
    }
    let unresolved = false;
    const folder = folderOf(file);
    for (const spec of facts.specs) {
      const targets = resolve(file, spec, folder);
      if (targets === null) {
        unresolved = true;
        break;
      }
      const taken = facts.takes[spec] ?? ESCAPING;
      for (const t of targets) edge(file, t, taken);
    }
    if (unresolved) {
      seeds.push(file);
      continue;
    }
    // The implicit JSX runtime binds no name in the file: its elements may refer to what the
    // runtime exports, but no module object of it can leave the file.
    if (!/\.[jt]sx$/i.test(file)) continue;
    for (const spec of question.jsxRuntimes ?? []) {
      if (facts.specs.includes(spec)) continue; // imported by name too: taken as written
      const targets = resolve(file, spec, folder);
      if (targets === null) {
        holders.push(file);
        break;
      }
      for (const t of targets) edge(file, t, RUNTIME);
    }
  }
  return { importers, seeds, holders, quietAugments, facts: question.facts };

  /**
   * The project files a specifier may name; [] for none (a package, a data file); null: unsure.
   * The answer depends on the importer's folder only, and is kept per folder and specifier.
   */
  function resolve(importer: string, spec: string, folder: string): readonly string[] | null {
    let inFolder = resolved.get(folder);
    if (inFolder === undefined) resolved.set(folder, inFolder = new Map());
    let known = inFolder.get(spec);
    if (known === undefined) inFolder.set(spec, known = resolveAfresh(importer, spec));
    return known;
  }

  /**
   * The files an import of a folder with a `package.json` may name: each entry it gives (as
   * TypeScript tries them, in turn), and the folder's index (its last resort).
   */
  function packageEntry(folder: string): string[] | null {
    const entries = question.folderEntries?.(folder) ?? null;
    if (entries === null) return null;
    const files = [...(byKey.get(folder) ?? [])];
    for (const entry of entries) {
      const path = posix.normalize(posix.join(folder, entry)).replace(/\/$/, "").toLowerCase();
      if (path === ".." || path.startsWith("../")) return null;
      const at = path === "." ? "" : path;
      files.push(...(byKey.get(moduleKey(at)) ?? []), ...(byKey.get(at) ?? []));
    }
    return files.length > 0 ? files : null;
  }

  function resolveAfresh(importer: string, spec: string): string[] | null {
    if (isRelative(spec)) {
      const joined = joinRelative(folderOf(importer), spec);
      if (joined === null) return null; // outside the project
      const path = joined.toLowerCase();
      if (packageFolders.has(path)) return packageEntry(path);
      const files = [...(byKey.get(moduleKey(path)) ?? []), ...(byKey.get(path) ?? [])];
      if (files.length > 0) return files;
      // A stylesheet, JSON, an image: it imports nothing. A component of another language
      // (`.vue`, `.svelte`, `.astro`) may import anything.
      if (others.has(path) && LEAF_EXTENSIONS.has(extname(path))) return [];
      return null;
    }
    if (spec.startsWith("/") || /^[a-z]+:\/\//i.test(spec) || spec.startsWith("file:")) {
      return null;
    }
    if (question.bare(importer, spec) !== "outside") return null;
    // A library's name, unless a project file declares or augments that module.
    const declared = [...(ambientNames.get(spec) ?? [])];
    for (const p of ambientPatterns) {
      if (spec.startsWith(p.prefix) && spec.endsWith(p.suffix)) declared.push(p.file);
    }
    return declared;
  }
}

/**
 * The project path a relative specifier names from a folder (`/` separators, "" for the root,
 * no trailing `/`), as `posix.normalize(posix.join(folder, spec))` gives it at a fraction of its
 * cost (a few thousand resolutions per cold proof); null where it leaves the project.
 */
export function joinRelative(folder: string, spec: string): string | null {
  const parts = folder === "" ? [] : folder.split("/");
  for (const part of spec.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") parts.push(part);
    else if (parts.pop() === undefined) return null;
  }
  return parts.join("/");
}

/** The package a bare specifier names: `@scope/name` or `name` (`node:` kept as written). */
export function packageOf(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The folder of a project-relative path (`/` separators), "" for the root. */
export function folderOf(relPath: string): string {
  const slash = relPath.lastIndexOf("/");
  return slash === -1 ? "" : relPath.slice(0, slash);
}
