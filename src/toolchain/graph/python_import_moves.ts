/**
 * The import edits a move of a Python module or package needs, for servers without
 * `workspace/willRenameFiles` (pyright, the default). Every `.py`/`.pyi` file of the project is
 * read; an import is resolved where it is before the move and written again for where its module
 * and the importing file are after it:
 *
 * - `import a.b`, `import a.b as x`, `from a.b import c` and imports of modules below a moved
 *   package get the new dotted name;
 * - relative imports (`from .b import c`, `from .. import b`) stay relative while the module stays
 *   inside the same top-level package, else become absolute; the moved files' own relative
 *   imports of modules that stay are written again from their new place;
 * - a module imported by name (`from a import b`, `from . import b`) keeps its local name:
 *   `from a import renamed as b`, in a statement of its own when its parent changed;
 * - a plain `import a.b` binds `a`, and code reaches the module as `a.b.f()`: in a file with such
 *   an import, those dotted uses in code (not in strings or comments) are rewritten too, since the
 *   old chain would no longer resolve.
 *
 * A module's dotted name is taken below its source root, the folder above its top-level package
 * (the highest folder chain with `__init__.py`), and below the project root. Strings are not
 * code: one that is a dotted path into the module (`mock.patch("a.b.f")`) is returned as not
 * updated, prose (a docstring) is left alone. Statements are read where a line starts (an import
 * after `;` is not), so the result is only lexical: the caller proves it with the language
 * server's errors.
 * @module
 */
import { posix } from "node:path";
import type { Position } from "../../deps.ts";
import { lineStarts, positionAt } from "../../edit/line_index.ts";
import type { Project } from "../../project/project.ts";
import {
  filesWithExtensions,
  type ImportEdit,
  type ImportMovePlan,
  isMoved,
  movedPath,
  type PathMove,
  readOrNull,
} from "./move_edits.ts";
import { type ImportStatement, maskPython, pythonStatements } from "./python_statements.ts";

const PY_EXTENSIONS = [".py", ".pyi"];
const IDENTIFIER = /^[A-Za-z_]\w*$/;

/** A module's path without its extension (`pkg/mod`), or a package's folder (`pkg`). */
function stem(relPath: string): string {
  const withoutExt = relPath.replace(/\.pyi?$/, "");
  return withoutExt.endsWith("/__init__") ? withoutExt.slice(0, -"/__init__".length) : withoutExt;
}

function parent(relPath: string): string {
  const up = posix.dirname(relPath);
  return up === "." ? "" : up;
}

function segments(relPath: string): string[] {
  return relPath === "" ? [] : relPath.split("/");
}

/** One planner run: the move, the project, and what it learnt of its folders. */
class PythonMove {
  readonly #project: Project;
  readonly move: PathMove;
  /** The moved module or package, as a module path (`src/pkg/mod`). */
  readonly oldModule: string;
  readonly newModule: string;
  readonly #packages = new Map<string, boolean>();
  readonly problems: string[] = [];

  constructor(project: Project, move: PathMove) {
    this.#project = project;
    this.move = move;
    this.oldModule = move.folder ? move.from : stem(move.from);
    this.newModule = move.folder ? move.to : stem(move.to);
  }

  /** Whether a folder is a package (has `__init__.py`), before the move. */
  isPackage(dir: string): boolean {
    if (dir === "") return false;
    let known = this.#packages.get(dir);
    if (known === undefined) {
      known = PY_EXTENSIONS.some((ext) => {
        try {
          return Deno.statSync(this.#project.absolute(`${dir}/__init__${ext}`)).isFile;
        } catch {
          return false;
        }
      });
      this.#packages.set(dir, known);
    }
    return known;
  }

  /** The folder above the top-level package of a module path (before the move). */
  sourceRoot(modulePath: string): string {
    let dir = parent(modulePath);
    while (this.isPackage(dir)) dir = parent(dir);
    return dir;
  }

  /** The folders a dotted name may be taken below, for the moved module: its source root and "". */
  roots(): string[] {
    const root = this.sourceRoot(this.oldModule);
    return root === "" ? [""] : [root, ""];
  }

  /** A module path as a dotted name below `root`, or null when it is not below it. */
  dotted(modulePath: string, root: string): string | null {
    if (root !== "" && !modulePath.startsWith(root + "/")) return null;
    const rest = root === "" ? modulePath : modulePath.slice(root.length + 1);
    const parts = segments(rest);
    return parts.length > 0 && parts.every((p) => IDENTIFIER.test(p)) ? parts.join(".") : null;
  }

  /** Where a module path (before the move) is after it. */
  moved(modulePath: string): string {
    if (modulePath === this.oldModule) return this.newModule;
    if (this.move.folder) return movedPath(this.move, modulePath);
    return modulePath;
  }

  /** Whether a module path (before the move) is the moved module or inside the moved package. */
  isMovedModule(modulePath: string): boolean {
    return modulePath === this.oldModule ||
      (this.move.folder && modulePath.startsWith(this.oldModule + "/"));
  }

  /**
   * How `importer` (its path after the move) names `target` (a module path after the move):
   * relative when asked and both are in one top-level package, else absolute below `root`.
   */
  spec(importer: string, target: string, relative: boolean, root: string): string | null {
    if (relative) {
      const from = segments(parent(importer));
      const to = segments(target);
      let common = 0;
      while (common < from.length && common < to.length && from[common] === to[common]) common++;
      // The folder the dots climb to must still be inside the package below the source root.
      if (common > segments(root).length) {
        const rest = to.slice(common);
        if (rest.every((p) => IDENTIFIER.test(p))) {
          return ".".repeat(1 + from.length - common) + rest.join(".");
        }
      }
    }
    const absolute = this.dotted(target, root);
    if (absolute === null) {
      this.problems.push(
        `'${target}' is not below the source root '${root || "."}', so the import in ` +
          `'${importer}' cannot name it.`,
      );
    }
    return absolute;
  }
}

/**
 * The module paths a `from` statement's module may name from `importer` (before the move), each
 * with the folder its dotted name is taken below.
 */
function fromModulePaths(
  move: PythonMove,
  importer: string,
  module: string,
): Array<{ path: string; root: string }> {
  const dots = /^\.*/.exec(module)![0].length;
  const rest = module.slice(dots).split(".").filter(Boolean).join("/");
  if (dots === 0) {
    return move.roots().map((root) => ({ path: root === "" ? rest : `${root}/${rest}`, root }));
  }
  let base = parent(importer);
  for (let i = 1; i < dots; i++) base = parent(base);
  const path = rest === "" ? base : base === "" ? rest : `${base}/${rest}`;
  return [{ path, root: move.sourceRoot(path) }];
}

function join(folder: string, name: string): string {
  return folder === "" ? name : `${folder}/${name}`;
}

/** Offsets to 0-based line and character. */
function positionsOf(text: string): (offset: number) => Position {
  const starts = lineStarts(text);
  return (offset) => positionAt(starts, offset);
}

/** The edits of one file, by offsets, turned into {@linkcode ImportEdit}s at the end. */
class FileEdits {
  readonly #spans: Array<{ start: number; end: number; text: string }> = [];
  constructor(readonly relPath: string, readonly text: string) {}

  replace(start: number, end: number, text: string): void {
    if (this.text.slice(start, end) !== text) this.#spans.push({ start, end, text });
  }

  covers(offset: number): boolean {
    return this.#spans.some((s) => s.start <= offset && offset < s.end);
  }

  edits(): ImportEdit[] {
    const at = positionsOf(this.text);
    return this.#spans.sort((a, b) => a.start - b.start).map((s) => ({
      relPath: this.relPath,
      ...at(s.start),
      oldText: this.text.slice(s.start, s.end),
      newText: s.text,
    }));
  }
}

/** The dotted names the moved module or package is imported by (below its source root). */
export function movedModuleNames(project: Project, move: PathMove): string[] {
  const plan = new PythonMove(project, move);
  return plan.roots().map((root) => plan.dotted(plan.oldModule, root))
    .filter((name): name is string => name !== null);
}

/** The import edits for moving `move` (a Python module or package), or why they cannot follow. */
export async function pythonImportMoves(
  project: Project,
  move: PathMove,
  signal?: AbortSignal,
): Promise<ImportMovePlan> {
  const plan = new PythonMove(project, move);
  if (!move.folder) {
    const bad = [move.from, move.to].find((p) => !PY_EXTENSIONS.includes(posix.extname(p)));
    if (bad !== undefined || [move.from, move.to].some((p) => /(^|\/)__init__\.pyi?$/.test(p))) {
      return {
        edits: [],
        problem: `Moving '${move.from}' to '${move.to}' does not keep it a Python module ` +
          "of its own; its importers would not follow.",
      };
    }
  }
  const lastName = posix.basename(plan.oldModule);
  const edits: ImportEdit[] = [];
  const candidates: string[] = [];
  const notUpdated: NonNullable<ImportMovePlan["notUpdated"]> = [];
  for (const relPath of await filesWithExtensions(project, PY_EXTENSIONS, signal)) {
    const moved = isMoved(move, relPath);
    const text = await readOrNull(project, relPath);
    if (text === null || (!moved && !text.includes(lastName))) continue;
    candidates.push(relPath);
    const file = new FileEdits(relPath, text);
    rewriteFile(plan, file, moved);
    edits.push(...file.edits());
    notUpdated.push(...stringsNaming(plan, relPath, text));
  }
  const problem = [...new Set(plan.problems)].join(" ");
  return { edits, candidates, notUpdated, ...(problem ? { problem } : {}) };
}

/**
 * String literals that are a dotted path into the moved module (`"a.b"`, `"a.b.f"`,
 * `"a.b:main"`): targets of `mock.patch`, `import_module`, entry points. Prose that mentions the
 * module (a docstring) is not one.
 */
function stringsNaming(
  plan: PythonMove,
  relPath: string,
  text: string,
): Array<{ relPath: string; line: number; text: string }> {
  const names = plan.roots().map((root) => plan.dotted(plan.oldModule, root))
    .filter((name): name is string => name !== null && name.includes("."));
  if (names.length === 0) return [];
  const lines = text.split("\n");
  const out: Array<{ relPath: string; line: number; text: string }> = [];
  const alternatives = names.map((n) => n.replaceAll(".", "\\.")).join("|");
  const pattern = new RegExp(`(["'])(?:${alternatives})(?:[.:][\\w.:]*)?\\1`, "g");
  const at = positionsOf(text);
  const seen = new Set<number>();
  for (const m of text.matchAll(pattern)) {
    const { line } = at(m.index!);
    if (seen.has(line)) continue;
    seen.add(line);
    out.push({ relPath, line: line + 1, text: lines[line]!.trim() });
  }
  return out;
}

function rewriteFile(plan: PythonMove, file: FileEdits, importerMoved: boolean): void {
  const importer = file.relPath;
  const importerAfter = movedPath(plan.move, importer);
  const statements = pythonStatements(file.text);
  /** Dotted names reached through a plain `import`, old to new, whose uses in code follow. */
  const uses = new Map<string, string>();
  for (const statement of statements) {
    if (statement.kind === "import") {
      rewriteImport(plan, file, statement, uses);
    } else {
      rewriteFrom(plan, file, statement, importer, importerAfter, importerMoved);
    }
  }
  if (uses.size > 0) rewriteUses(file, statements, uses);
}

/** `import a.b.c [as x], ...`: absolute names of the moved module or below it. */
function rewriteImport(
  plan: PythonMove,
  file: FileEdits,
  statement: ImportStatement,
  uses: Map<string, string>,
): void {
  for (const root of plan.roots()) {
    const oldName = plan.dotted(plan.oldModule, root);
    const newName = plan.dotted(plan.newModule, root);
    if (oldName === null) continue;
    for (const item of statement.items) {
      const name = item.name.text;
      // `import a` alone reaches `a.b` through `a`'s own namespace, which the rewrite of `a`'s
      // imports keeps (`from . import b2 as b`): only imports of the module or below it change.
      if (name !== oldName && !name.startsWith(oldName + ".")) continue;
      if (newName === null) {
        plan.problems.push(
          `'${plan.newModule}' is not below the source root '${root || "."}', so ` +
            `'${file.relPath}' cannot import it as '${name}'.`,
        );
        continue;
      }
      file.replace(item.name.start, item.name.end, newName + name.slice(oldName.length));
      // `import a.b` binds `a`: uses say `a.b.f`.
      if (item.alias === null) uses.set(oldName, newName);
    }
  }
}

/** `from m import n [as x], ...`: the module, or a moved module imported by name. */
function rewriteFrom(
  plan: PythonMove,
  file: FileEdits,
  statement: ImportStatement,
  importer: string,
  importerAfter: string,
  importerMoved: boolean,
): void {
  const module = statement.module!;
  const relative = module.text.startsWith(".");
  for (const { path: modulePath, root } of fromModulePaths(plan, importer, module.text)) {
    if (plan.isMovedModule(modulePath) || (relative && importerMoved)) {
      // The module moved, or the importer moved and names it relative to itself.
      const spec = plan.spec(importerAfter, plan.moved(modulePath), relative, root);
      if (spec !== null) file.replace(module.start, module.end, spec);
      return;
    }
    const byName = statement.items.filter((item) =>
      join(modulePath, item.name.text) === plan.oldModule
    );
    if (byName.length === 0) continue;
    const newName = posix.basename(plan.newModule);
    const parentSpec = plan.spec(importerAfter, parent(plan.newModule), relative, root);
    if (parentSpec === null) return;
    const whole = byName.length === statement.items.length;
    for (const item of byName) {
      const binding = item.alias ?? item.name.text;
      const imported = newName === binding ? newName : `${newName} as ${binding}`;
      if (parentSpec === module.text || whole) {
        file.replace(item.start, item.end, imported);
        continue;
      }
      // The module's parent changed and the statement imports other names: its own statement.
      removeItem(file, statement, item);
      file.replace(
        statement.end,
        statement.end,
        `\n${statement.indent}from ${parentSpec} import ${imported}`,
      );
    }
    if (whole) file.replace(module.start, module.end, parentSpec);
    return;
  }
}

/** Remove one item of an import list with the comma that joins it to its neighbour. */
function removeItem(
  file: FileEdits,
  statement: ImportStatement,
  item: ImportStatement["items"][number],
): void {
  const index = statement.items.indexOf(item);
  const next = statement.items[index + 1];
  const previous = statement.items[index - 1];
  if (next !== undefined) file.replace(item.start, next.start, "");
  else if (previous !== undefined) file.replace(previous.end, item.end, "");
}

/** Dotted uses in code (`a.b.f()`) of names whose module moved, outside import statements. */
function rewriteUses(
  file: FileEdits,
  statements: readonly ImportStatement[],
  uses: ReadonlyMap<string, string>,
): void {
  const code = maskPython(file.text);
  const inStatement = (offset: number) =>
    statements.some((s) => s.start <= offset && offset < s.end);
  for (const [oldName, newName] of uses) {
    if (oldName === newName) continue;
    const pattern = new RegExp(`(?<![\\w.])${oldName.replaceAll(".", "\\.")}(?!\\w)`, "g");
    for (const m of code.matchAll(pattern)) {
      if (inStatement(m.index!) || file.covers(m.index!)) continue;
      file.replace(m.index!, m.index! + oldName.length, newName);
    }
  }
}
