/**
 * The import-graph proof of a question about a name (ARCHITECTURE.md §5 rule 10): a file can
 * refer to a top-level symbol of a JavaScript or TypeScript module only through an import path
 * to that module (an import, a re-export chain, `export *`, `import * as`, `import()`,
 * `require`, an import type). A candidate file with no such path holds the name for another
 * reason, and need not be shown to the language server.
 *
 * The graph is read from every import form in the raw text (moduleFacts), a superset of what the
 * import-line reader (toolchain/graph/import_lines.ts) takes: that reader's lexer can hide an
 * import after a regular expression that looks like a comment, it leaves out JSDoc import types
 * and triple-slash references, and its two passes per file cost more than the whole proof on a
 * cold tree. Extra edges only keep more files; a missing edge would drop one.
 *
 * A `declare module "name"` block is an edge both ways: its file sees the module, and the
 * importers of that name (a library's, or a project module it augments) see what it declares.
 *
 * Where the graph cannot decide, it says so and the caller shows every file as before:
 * - the declaring module is a script (its declarations are global), or declares globals
 *   (`declare global`, `export as namespace`);
 * - a file on a path to it is a script or declares globals (its globals may carry the type);
 * and a file is kept (may reach) whenever one of its specifiers cannot be resolved for sure: a
 * dynamic specifier, a relative one that names no project file, or a bare one that may lead into
 * the project (the caller decides: tsconfig `paths`/`baseUrl`, the project's own package names,
 * `#` imports, a `node_modules` link back into the project).
 * @module
 */
import { extname, posix } from "node:path";

/** What a JavaScript or TypeScript file's text says about the modules it reaches. */
export interface ModuleFacts {
  /** Module specifiers it names, as written. */
  specs: string[];
  /** An `import(...)` or `require(...)` whose specifier is not a plain string. */
  dynamic: boolean;
  /** Its top-level declarations are not global (it imports or exports, or is CommonJS). */
  module: boolean;
  /** It declares globals (`declare global`, `export as namespace`): any file may use them. */
  global: boolean;
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

const RAW_FROM = /\b(?:from|import)\s*["']([^"'\n]+)["']/g;
const RAW_CALL = /(?<![\w$.])(?:import|require)\s*\(/g;
const STRING_ARGUMENT = /^\s*(?:"([^"\n]*)"|'([^'\n]*)'|`([^`$\n]*)`)\s*[),]/;
const DECLARE_MODULE = /\bdeclare\s+module\s+["']([^"'\n]+)["']/g;
const REFERENCE =
  /^[ \t]*\/\/\/[ \t]*<(?:reference|amd-dependency)\s+(?:path|types)\s*=\s*["']([^"'\n]+)["']/gm;
const JSX_PRAGMA = /@jsxImportSource\s+([^\s*]+)/g;
const GLOBALS = /\bdeclare\s+global\b|\bexport\s+as\s+namespace\b/g;
const COMMONJS = /\bmodule\.exports\b|\bexports\.[\w$]+\s*=|(?<![\w$.])require\s*\(/g;
/** An import or export statement (not an `import(...)` call, not `import A = N.B`). */
const MODULE_STATEMENT =
  /^[ \t]*(?:export\b|import\b(?![ \t]*\()(?![ \t]+(?:type[ \t]+)?[\w$]+[ \t]*=[ \t]*(?!require\b)))/gm;
/** The same at the start of a line only: inside a namespace, `export` is indented. */
const MODULE_STATEMENT_AT_COLUMN_0 =
  /^(?:export\b|import\b(?![ \t]*\()(?![ \t]+(?:type[ \t]+)?[\w$]+[ \t]*=[ \t]*(?!require\b)))/gm;
const NAMESPACE_BLOCK = /^[ \t]*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+[\w$.]+\s*\{/gm;
/** A line that is a comment: `//`, `/*`, or a JSDoc continuation (` * ...`). */
const COMMENT_LINE = /^[ \t]*(?:\/\/|\/\*|\*)/;

/**
 * The facts of one file, from its text. Every match of an import form counts unless it is on a
 * comment line (`//`, `/*`, ` * `), where only a JSDoc import type counts (`import("x")`,
 * `@import ... from "x"`): examples in comments (`import { Hono } from "hono"`) are no imports.
 * A match in a string counts too: extra edges only keep more files. Module-ness and globals,
 * where a wrong "yes" would be unsafe, count only matches that are surely code
 * ({@linkcode codeAt}).
 */
export function moduleFacts(relPath: string, text: string): ModuleFacts {
  const specs = new Set<string>();
  const onCommentLine = (at: number) =>
    COMMENT_LINE.test(text.slice(text.lastIndexOf("\n", at) + 1, at + 1));
  const jsdocImport = (at: number) => /@import\b[^*]*$/.test(text.slice(Math.max(0, at - 300), at));
  let dynamic = false;
  for (const m of text.matchAll(RAW_FROM)) {
    if (!onCommentLine(m.index!) || jsdocImport(m.index!)) specs.add(m[1]!);
  }
  for (const m of text.matchAll(RAW_CALL)) {
    const comment = onCommentLine(m.index!);
    if (comment && !m[0].startsWith("import")) continue;
    const argument = STRING_ARGUMENT.exec(text.slice(m.index! + m[0].length, m.index! + 400));
    if (argument) specs.add(argument[1] ?? argument[2] ?? argument[3]!);
    else if (!comment) dynamic = true;
  }
  const code = codeAt(text);
  const ambient = new Set<string>();
  // Each rarer form is looked for only where its words occur (a plain search is much faster).
  for (const m of text.includes("declare") ? text.matchAll(DECLARE_MODULE) : []) {
    if (onCommentLine(m.index!)) continue;
    ambient.add(m[1]!);
    if (isRelative(m[1]!)) specs.add(m[1]!);
  }
  for (const m of text.includes("///") ? text.matchAll(REFERENCE) : []) specs.add(m[1]!);
  for (const m of text.includes("@jsx") ? text.matchAll(JSX_PRAGMA) : []) {
    specs.add(`${m[1]}/jsx-runtime`);
  }
  const some = (pattern: RegExp, ...words: string[]) => {
    if (!words.some((w) => text.includes(w))) return false;
    for (const m of text.matchAll(pattern)) if (code(m.index! + m[0].search(/\S/))) return true;
    return false;
  };
  // Where namespaces may hold `export`s, only an unindented statement says "module".
  const module = some(NAMESPACE_BLOCK, "namespace ", "module ")
    ? some(MODULE_STATEMENT_AT_COLUMN_0, "export", "import")
    : some(MODULE_STATEMENT, "export", "import") ||
      (/\.[cm]?jsx?$/i.test(relPath) && some(COMMONJS, "exports", "require"));
  return {
    specs: [...specs].map((s) => s.trim()).filter((s) => s !== ""),
    dynamic,
    module,
    global: some(GLOBALS, "global", "namespace"),
    ambient: [...ambient],
  };
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
  /** Every project file, of every kind (project-relative, `/` separators). */
  files: readonly string[];
  /** The facts of a JavaScript or TypeScript file; null when it cannot be read. */
  facts(relPath: string): ModuleFacts | null;
  /** Whether a bare specifier of `importer` may lead to a project file. */
  bare(importer: string, spec: string): BareVerdict;
  /** Specifiers every `.tsx`/`.jsx` file imports implicitly (`<jsxImportSource>/jsx-runtime`). */
  jsxRuntimes?: readonly string[];
}

/** The proof's answer: the files that may reach the target, or why it cannot tell. */
export type Reach =
  | { decided: true; reaching: ReadonlySet<string> }
  | { decided: false; reason: string };

/** A path's module key: lower case, without a JavaScript or TypeScript extension or `.d`. */
function moduleKey(path: string): string {
  const lower = path.toLowerCase();
  // `x.d.css.ts` declares `./x.css`.
  const declared = /\.d(\.[^./]+)\.ts$/.exec(lower);
  if (declared && !/^\.[cm]?[jt]sx?$/.test(declared[1]!)) {
    return lower.slice(0, declared.index) + declared[1];
  }
  const m = /(\.d)?\.[cm]?[jt]sx?$/.exec(lower);
  return m ? lower.slice(0, m.index) : lower;
}

/** Whether a specifier is relative (`.`, `..`, `./x`, `../x`). */
function isRelative(spec: string): boolean {
  return spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../");
}

/**
 * The files from which an import path leads to `question.target` (the target included), or why
 * the graph cannot decide. A file outside the set cannot refer to a top-level symbol of it.
 */
export function importReach(question: ReachQuestion): Reach {
  return reachOf(importGraph(question), question.target);
}

/** The import graph of a project, for any target: who imports whom, and who may reach anything. */
export interface ImportGraph {
  /** The files each file is imported by (a reverse edge per import that may name it). */
  importers: ReadonlyMap<string, readonly string[]>;
  /** Files that may reach any module: an unresolved specifier, or unreadable. */
  seeds: readonly string[];
  facts(relPath: string): ModuleFacts | null;
}

/**
 * The files from which an import path leads to `target` (the target included), or why the
 * graph cannot decide. A file outside the set cannot refer to a top-level symbol of it.
 */
export function reachOf(graph: ImportGraph, target: string): Reach {
  const targetFacts = graph.facts(target);
  if (targetFacts === null) return { decided: false, reason: `${target} cannot be read` };
  if (!targetFacts.module) {
    return { decided: false, reason: `${target} is a script: its declarations are global` };
  }
  if (targetFacts.global) return { decided: false, reason: `${target} declares globals` };
  const reaching = new Set<string>();
  const queue = [target, ...graph.seeds];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reaching.has(file)) continue;
    reaching.add(file);
    for (const importer of graph.importers.get(file) ?? []) {
      if (!reaching.has(importer)) queue.push(importer);
    }
  }
  for (const file of reaching) {
    if (file === target) continue;
    const facts = graph.facts(file);
    if (facts === null) continue; // unreadable now: it declares nothing
    if (!facts.module) {
      return { decided: false, reason: `${file} may reach ${target} and is a script` };
    }
    if (facts.global) {
      return { decided: false, reason: `${file} may reach ${target} and declares globals` };
    }
  }
  return { decided: true, reaching };
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
      if (posix.basename(key) === "index") addKey(folderOf(key), file);
    } else {
      others.add(file.toLowerCase());
      if (posix.basename(file) === "package.json") {
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
  const resolved = new Map<string, readonly string[] | null>();
  const importers = new Map<string, string[]>();
  const edge = (from: string, to: string) => {
    const list = importers.get(to);
    if (list) list.push(from);
    else importers.set(to, [from]);
  };
  const seeds: string[] = [];
  for (const file of code) {
    const facts = question.facts(file);
    if (facts === null || facts.dynamic) {
      seeds.push(file);
      continue;
    }
    // An augmented project module shows what this file declares in it to its importers.
    for (const name of facts.ambient.filter(isRelative)) {
      const augmented = resolve(file, name, folderOf(file));
      if (augmented === null) seeds.push(file);
      else for (const module of augmented) edge(module, file);
    }
    const specs = /\.[jt]sx$/i.test(file) && question.jsxRuntimes
      ? [...facts.specs, ...question.jsxRuntimes]
      : facts.specs;
    let unresolved = false;
    const folder = folderOf(file);
    for (const spec of specs) {
      const targets = resolve(file, spec, folder);
      if (targets === null) {
        unresolved = true;
        break;
      }
      for (const t of targets) edge(file, t);
    }
    if (unresolved) seeds.push(file);
  }
  return { importers, seeds, facts: question.facts };

  /**
   * The project files a specifier may name; [] for none (a package, a data file); null: unsure.
   * The answer depends on the importer's folder only, and is kept per folder and specifier.
   */
  function resolve(importer: string, spec: string, folder: string): readonly string[] | null {
    const key = `${folder}\0${spec}`;
    let known = resolved.get(key);
    if (known === undefined) resolved.set(key, known = resolveAfresh(importer, spec));
    return known;
  }

  function resolveAfresh(importer: string, spec: string): string[] | null {
    if (isRelative(spec)) {
      const joined = posix.normalize(posix.join(posix.dirname(importer), spec)).replace(/\/$/, "");
      if (joined === ".." || joined.startsWith("../")) return null; // outside the project
      const path = joined === "." ? "" : joined.toLowerCase();
      if (packageFolders.has(path)) return null; // a folder whose package.json names its entry
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
