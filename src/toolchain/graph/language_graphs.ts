/**
 * Per-language graph builders for the dependency graph. Each takes the project's source files of
 * its language (project-relative paths) and a reader, reads their imports (import_lines.ts, the
 * one reader of import lines), and adds nodes and edges for those that resolve.
 * @module
 */
import { dirname, posix } from "node:path";
import { readUnitHeader } from "../ada/units.ts";
import {
  goImportSpecs,
  jsImportSpecs,
  pythonImportSpecs,
  rustImportSpecs,
  stripCLike,
} from "./import_lines.ts";

/** A module, package, unit or file in the graph. */
export interface GraphNode {
  id: string;
  language: string;
  /** The file of a file-level node (TypeScript, Python, Rust). */
  file?: string;
  /** The files of a unit or package (Ada spec and body, a Go package's files). */
  files?: string[];
  /** A module outside the project (only with include_external). */
  external?: boolean;
}

/** `from` depends on `to`; `kind` says how (with, import, mod, use, parent, separate). */
export interface GraphEdge {
  from: string;
  to: string;
  kind: string;
}

/** Collects nodes and edges without duplicates. */
export class GraphBuilder {
  readonly nodes = new Map<string, GraphNode>();
  readonly #edges = new Map<string, GraphEdge>();

  node(node: GraphNode): GraphNode {
    const existing = this.nodes.get(node.id);
    if (existing) return existing;
    this.nodes.set(node.id, node);
    return node;
  }

  edge(from: string, to: string, kind: string): void {
    if (from === to) return;
    const key = `${from}\0${to}`;
    if (!this.#edges.has(key)) this.#edges.set(key, { from, to, kind });
  }

  get edges(): GraphEdge[] {
    return [...this.#edges.values()];
  }
}

/** Reads a project file's text (null when unreadable). */
export type ReadFile = (path: string) => Promise<string | null>;

// ---- Ada -----------------------------------------------------------------------------------

/** Ada: one node per unit (spec and body together), edges from with clauses. */
export async function adaGraph(
  files: string[],
  read: ReadFile,
  graph: GraphBuilder,
  includeExternal: boolean,
): Promise<void> {
  const units = new Map<
    string,
    {
      id: string;
      files: string[];
      withs: Array<{ unit: string; kind: string }>;
      parent: string | null;
    }
  >();
  for (const file of files) {
    const text = await read(file);
    const header = text === null ? null : readUnitHeader(text);
    if (!header) continue;
    const key = header.unit.toLowerCase();
    const unit = units.get(key) ?? { id: header.unit, files: [], withs: [], parent: null };
    unit.files.push(file);
    unit.withs.push(...header.withs);
    if (header.part === "subunit") unit.parent = header.parent;
    units.set(key, unit);
  }
  for (const unit of units.values()) {
    graph.node({ id: unit.id, language: "ada", files: unit.files });
  }
  const idOf = (name: string) => units.get(name.toLowerCase())?.id;
  for (const unit of units.values()) {
    for (const w of unit.withs) {
      const target = idOf(w.unit);
      if (target) graph.edge(unit.id, target, w.kind);
      else if (includeExternal) {
        graph.node({ id: w.unit, language: "ada", external: true });
        graph.edge(unit.id, w.unit, w.kind);
      }
    }
    if (unit.parent) {
      const parent = idOf(unit.parent);
      if (parent) graph.edge(unit.id, parent, "separate");
    }
    // A child unit depends on its parent.
    const dot = unit.id.lastIndexOf(".");
    const parentUnit = dot > 0 && !unit.parent ? idOf(unit.id.slice(0, dot)) : undefined;
    if (parentUnit) graph.edge(unit.id, parentUnit, "parent");
  }
}

// ---- TypeScript / JavaScript ---------------------------------------------------------------

const JS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"];

/** The import specifiers of a JavaScript or TypeScript module. */
export function jsImports(source: string): string[] {
  return jsImportSpecs(source).map((s) => s.spec);
}

function resolveJs(from: string, specifier: string, known: Set<string>): string | null {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [base];
  const ext = posix.extname(base);
  // TypeScript's ESM convention: "./a.js" names the source "./a.ts".
  const swaps: Record<string, string[]> = {
    ".js": [".ts", ".tsx"],
    ".jsx": [".tsx"],
    ".mjs": [".mts"],
    ".cjs": [".cts"],
  };
  for (const swap of swaps[ext] ?? []) candidates.push(base.slice(0, -ext.length) + swap);
  for (const e of JS_EXTENSIONS) candidates.push(base + e, `${base}/index${e}`);
  return candidates.find((c) => known.has(c)) ?? null;
}

/** The package an external specifier belongs to (`@scope/pkg/sub` → `@scope/pkg`). */
function packageOf(specifier: string): string {
  if (/^(npm|jsr|node):/.test(specifier)) {
    return specifier.replace(/^(npm:|jsr:)(@?[^@/]+(?:\/[^@/]+)?).*$/, "$1$2");
  }
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** TypeScript/JavaScript: one node per file, edges for relative imports. */
export async function jsGraph(
  files: string[],
  read: ReadFile,
  graph: GraphBuilder,
  includeExternal: boolean,
): Promise<void> {
  const known = new Set(files);
  for (const file of files) graph.node({ id: file, language: "typescript", file });
  for (const file of files) {
    const text = await read(file);
    if (text === null) continue;
    for (const specifier of jsImports(text)) {
      if (specifier.startsWith(".")) {
        const target = resolveJs(file, specifier, known);
        if (target) graph.edge(file, target, "import");
      } else if (includeExternal && !/^(https?:|data:|\/)/.test(specifier)) {
        const id = packageOf(specifier);
        graph.node({ id, language: "typescript", external: true });
        graph.edge(file, id, "import");
      }
    }
  }
}

// ---- Python --------------------------------------------------------------------------------

/** The modules a Python file imports, as written (relative ones keep their leading dots). */
export function pythonImports(source: string): Array<{ module: string; names: string[] }> {
  return pythonImportSpecs(source).map(({ module, names }) => ({ module, names }));
}

/** Dotted module names of Python files: from the root, and from `src/` in a src layout. */
function pythonModules(files: string[]): Map<string, string> {
  const modules = new Map<string, string>();
  const srcLayout = !files.includes("src/__init__.py");
  for (const file of files) {
    const prefix = srcLayout && file.startsWith("src/") ? "src/" : "";
    const rel = file.slice(prefix.length).replace(/\.pyi?$/, "");
    const parts = rel.split("/");
    if (parts[parts.length - 1] === "__init__") parts.pop();
    if (parts.length === 0 || !parts.every((p) => /^\w+$/.test(p))) continue;
    const name = parts.join(".");
    // A .py file wins over a stub (.pyi) of the same module.
    if (!modules.has(name) || file.endsWith(".py")) modules.set(name, file);
  }
  return modules;
}

/** Python: one node per module, edges for imports that resolve to project modules. */
export async function pythonGraph(
  files: string[],
  read: ReadFile,
  graph: GraphBuilder,
  includeExternal: boolean,
): Promise<void> {
  const modules = pythonModules(files);
  const moduleOfFile = new Map<string, string>();
  for (const [name, file] of modules) moduleOfFile.set(file, name);
  for (const [name, file] of modules) graph.node({ id: name, language: "python", file });
  const longest = (name: string): string | null => {
    const parts = name.split(".");
    for (let n = parts.length; n > 0; n--) {
      const candidate = parts.slice(0, n).join(".");
      if (modules.has(candidate)) return candidate;
    }
    return null;
  };
  for (const [file, self] of moduleOfFile) {
    const text = await read(file);
    if (text === null) continue;
    const isPackage = /__init__\.pyi?$/.test(file);
    for (const { module, names } of pythonImports(text)) {
      let absolute = module;
      const dots = /^\.*/.exec(module)![0].length;
      if (dots > 0) {
        const pkg = (isPackage ? self : self.split(".").slice(0, -1).join(".")).split(".")
          .filter(Boolean);
        const base = pkg.slice(0, Math.max(0, pkg.length - (dots - 1)));
        absolute = [...base, module.slice(dots)].filter(Boolean).join(".");
      }
      const qualified = (n: string) => (absolute ? `${absolute}.${n}` : n);
      const targets = names.length
        ? names.map((n) => (modules.has(qualified(n)) ? qualified(n) : absolute))
        : [absolute];
      for (const target of targets) {
        const resolved = longest(target);
        if (resolved) graph.edge(self, resolved, "import");
        else if (includeExternal && dots === 0 && target) {
          const id = target.split(".")[0]!;
          graph.node({ id, language: "python", external: true });
          graph.edge(self, id, "import");
        }
      }
    }
  }
}

// ---- Rust ----------------------------------------------------------------------------------

/** Module paths (`crate::a::b`) of the .rs files below each crate's `src/`, per crate root. */
function rustModules(files: string[]): Map<string, Map<string, string>> {
  const crates = new Map<string, Map<string, string>>();
  for (const file of files) {
    const at = file.lastIndexOf("src/");
    if (at < 0 || (at > 0 && file[at - 1] !== "/")) continue;
    const src = file.slice(0, at + 4);
    const rel = file.slice(at + 4).replace(/\.rs$/, "");
    if (rel.startsWith("bin/")) continue; // binaries are crates of their own
    const parts = rel.split("/");
    const last = parts[parts.length - 1];
    if (parts.length === 1 && (last === "lib" || last === "main")) parts.pop();
    else if (last === "mod") parts.pop();
    const modules = crates.get(src) ?? new Map<string, string>();
    const path = ["crate", ...parts].join("::");
    // lib.rs wins over main.rs as the crate root of a package with both.
    if (!(path === "crate" && modules.has(path) && file.endsWith("main.rs"))) {
      modules.set(path, file);
    }
    crates.set(src, modules);
  }
  return crates;
}

/** The library crate name of the package whose `src/` folder is `src` (from its Cargo.toml). */
async function libName(src: string, read: ReadFile): Promise<string | null> {
  const manifest = await read(`${src.slice(0, -4)}Cargo.toml`);
  if (!manifest) return null;
  const lib = /\[lib\][^[]*?\bname\s*=\s*"([^"]+)"/.exec(manifest)?.[1];
  const pkg = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/.exec(manifest)?.[1];
  return (lib ?? pkg)?.replaceAll("-", "_") ?? null;
}

/**
 * Rust: one node per file, edges for `mod x;` and `crate::`/`super::`/`self::` paths, and for
 * paths through the package's library crate name from its tests, examples and binaries.
 */
export async function rustGraph(
  files: string[],
  read: ReadFile,
  graph: GraphBuilder,
): Promise<void> {
  for (const file of files) graph.node({ id: file, language: "rust", file });
  for (const [src, modules] of rustModules(files)) {
    const pathOfFile = new Map<string, string>();
    for (const [path, file] of modules) pathOfFile.set(file, path);
    const longest = (segments: string[]): string | null => {
      for (let n = segments.length; n > 0; n--) {
        const file = modules.get(segments.slice(0, n).join("::"));
        if (file) return file;
      }
      return null;
    };
    const packageDir = src.slice(0, -4);
    const lib = modules.has("crate") ? await libName(src, read) : null;
    const crateFiles = files.filter((f) =>
      f.startsWith(packageDir) && !f.slice(packageDir.length).includes("/src/")
    );
    for (const file of crateFiles) {
      const self = pathOfFile.get(file);
      const text = await read(file);
      if (text === null) continue;
      const code = stripCLike(text, false);
      // Expand `use crate::{a::X, b}` one level, then follow every path.
      const expanded = code.replace(
        /\b(\w+)((?:::\w+)*)::\{([^{}]*)\}/g,
        (_, head: string, mid: string, list: string) =>
          list.split(",").map((item) => `${head}${mid}::${item.trim()}`).join(" "),
      );
      if (self === undefined) {
        // Tests, examples, benches and binaries reach the library by its crate name.
        if (!lib) continue;
        for (const m of expanded.matchAll(new RegExp(`\\b${lib}((?:::\\w+)+)`, "g"))) {
          const target = longest(["crate", ...m[1]!.split("::").filter(Boolean)]);
          if (target) graph.edge(file, target, "use");
        }
        continue;
      }
      for (const m of rustImportSpecs(text)) {
        const target = m.kind === "mod" ? modules.get(`${self}::${m.spec}`) : undefined;
        if (target) graph.edge(file, target, "mod");
      }
      const selfParts = self.split("::");
      for (const m of expanded.matchAll(/\b(crate|super|self)((?:::\w+)+)/g)) {
        const rest = m[2]!.split("::").filter(Boolean);
        const base = m[1] === "crate"
          ? ["crate"]
          : m[1] === "super"
          ? selfParts.slice(0, -1)
          : selfParts;
        const target = longest([...base, ...rest]);
        if (target && target !== file) graph.edge(file, target, "use");
      }
    }
  }
}

// ---- Go ------------------------------------------------------------------------------------

/** The import paths of a Go file. */
export function goImports(source: string): string[] {
  return goImportSpecs(source).map((s) => s.spec);
}

/** Go: one node per package (folder), edges for imports within the module. */
export async function goGraph(
  files: string[],
  read: ReadFile,
  graph: GraphBuilder,
  includeExternal: boolean,
): Promise<void> {
  const goMod = await read("go.mod");
  const module = goMod ? /^module\s+(\S+)/m.exec(goMod)?.[1] ?? "" : "";
  const packageOf = (file: string) => {
    const dir = dirname(file);
    return dir === "." ? module || "." : module ? `${module}/${dir}` : dir;
  };
  const packages = new Map<string, string[]>();
  for (const file of files) {
    const id = packageOf(file);
    packages.set(id, [...(packages.get(id) ?? []), file]);
  }
  for (const [id, pkgFiles] of packages) graph.node({ id, language: "go", files: pkgFiles });
  for (const file of files) {
    const text = await read(file);
    if (text === null) continue;
    for (const path of goImports(text)) {
      if (packages.has(path)) graph.edge(packageOf(file), path, "import");
      else if (includeExternal) {
        graph.node({ id: path, language: "go", external: true });
        graph.edge(packageOf(file), path, "import");
      }
    }
  }
}
