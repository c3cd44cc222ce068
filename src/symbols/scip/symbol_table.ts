/**
 * A file's symbols as its language server would outline them, read from a SCIP index: name
 * paths from the symbols' descriptors, body ranges from the definitions' enclosing ranges, kinds
 * from the descriptors and the declaring keyword. Only where every part is known for certain is
 * a symbol *vouched*; the rest is there for the tree's shape (overload numbers, parents) and is
 * never answered from.
 *
 * The indexers give neither kinds (scip-typescript 0.4.0 and scip-python 0.6.6 leave
 * `SymbolInformation.kind` unset) nor names for local symbols (`local 12`), and each outlines
 * some declarations unlike its language server. Measured on the fixtures, typeorm and flask
 * against tsserver and pyright, and kept to what agreed:
 *
 * - TypeScript: classes, interfaces and enums (`#` after `class`, `interface`, `enum`), methods
 *   and constructors with a body range, functions declared with `function`. Properties, variables,
 *   type aliases, accessors, interface methods and enum members are not vouched (the server's
 *   ranges or kinds differ, or the index has no body range);
 * - Python: classes, methods and functions (`def`), but not properties, overloads or other
 *   decorated forms the server kinds differently; variables of a module or class (the server's
 *   range is the name's) when defined once and not named like constants.
 *
 * Everything the index cannot place as the server would, a local, a parameter, a member of a
 * namespace, an object literal's property, is listed in `definitionAt` as null: a question about
 * such a name goes to the live server.
 * @module
 */
import { finishSiblings, type Range, SymbolKind, type SymbolNode } from "../model.ts";
import { isLocalSymbol, type ScipIndex } from "./scip_index.ts";
import type { ScipRange } from "./decode.ts";

/** The outline of one indexed file (see the module documentation). */
export interface IndexedOutline {
  roots: SymbolNode[];
  /** Nodes whose name path, kind and body range are the language server's. */
  vouched: ReadonlySet<SymbolNode>;
  /** Nodes whose name path is the language server's (kind or range may not be): a superset. */
  placed: ReadonlySet<SymbolNode>;
  /**
   * Every definition in the file by the start of its name (`line:character`, zero-based UTF-16):
   * its node, or null where the index cannot place it as the server would.
   */
  definitionAt: ReadonlyMap<string, SymbolNode | null>;
}

/** The languages whose indexers' outlines are read (by file extension). */
export type OutlineLanguage = "typescript" | "python";

/** The language of a file whose outline the index can give, or null. */
export function outlineLanguage(relPath: string): OutlineLanguage | null {
  if (/\.[cm]?[jt]sx?$/.test(relPath)) return "typescript";
  if (/\.pyi?$/.test(relPath)) return "python";
  return null;
}

/** One descriptor of a SCIP symbol: its name and suffix, and where it ends in the symbol. */
interface Descriptor {
  name: string;
  /** `#` type, `.` term, `()` method, `/` namespace, `:` meta, `!` macro, `(p)` parameter, `[t]` type parameter. */
  suffix: "#" | "." | "()" | "/" | ":" | "!" | "(p)" | "[t]";
  end: number;
}

const PLAIN = /[A-Za-z0-9_+\-$]/;

/** The descriptors of `text` (the part of a symbol after its document's own), or null. */
function descriptorsOf(text: string): Descriptor[] | null {
  const out: Descriptor[] = [];
  let i = 0;
  const readName = (): string | null => {
    if (text[i] === "`") {
      let name = "";
      i++;
      while (i < text.length) {
        if (text[i] === "`") {
          if (text[i + 1] === "`") {
            name += "`";
            i += 2;
            continue;
          }
          i++;
          return name;
        }
        name += text[i++];
      }
      return null;
    }
    const start = i;
    while (i < text.length && PLAIN.test(text[i]!)) i++;
    return i > start ? text.slice(start, i) : null;
  };
  while (i < text.length) {
    const open = text[i];
    if (open === "(" || open === "[") {
      i++;
      const name = readName();
      if (name === null || text[i] !== (open === "(" ? ")" : "]")) return null;
      i++;
      out.push({ name, suffix: open === "(" ? "(p)" : "[t]", end: i });
      continue;
    }
    const name = readName();
    if (name === null) return null;
    const suffix = text[i];
    if (suffix === "(") {
      // A method's disambiguator, `(+1)`, then `.`.
      const close = text.indexOf(")", i);
      if (close < 0 || text[close + 1] !== ".") return null;
      i = close + 2;
      out.push({ name, suffix: "()", end: i });
    } else if (
      suffix === "#" || suffix === "." || suffix === "/" || suffix === ":" || suffix === "!"
    ) {
      i++;
      out.push({ name, suffix, end: i });
    } else {
      return null;
    }
  }
  return out;
}

const toRange = (r: ScipRange): Range => ({
  start: { line: r[0], character: r[1] },
  end: { line: r[2], character: r[3] },
});

const before = (a: Range["start"], b: Range["start"]) =>
  a.line < b.line || (a.line === b.line && a.character <= b.character);

/** Whether `outer` contains the position, strictly larger than the name itself. */
function contains(outer: Range, at: Range["start"]): boolean {
  return before(outer.start, at) && before(at, outer.end);
}

/** What the outline knows of one global definition while it is built. */
interface Entry {
  node: SymbolNode;
  symbol: string;
  parentSymbol: string | null;
  /** The enclosing range the indexer gave, when it gave one. */
  enclosing: Range | null;
  /** The name is the server's (the text at the definition). */
  named: boolean;
  /** The kind and the body range are the server's. */
  shaped: boolean;
}

/** Decorators the language server kinds otherwise (Python), or whose forms it lists apart. */
const PYTHON_UNVOUCHED_DECORATOR =
  /@\s*(?:[\w.]+\.)?(?:property|setter|getter|deleter|overload|cached_property)\b/;

/**
 * The outline of `relPath` from the index (`lines`: the file's text, unchanged since the index
 * was built); null when the index has no document for it or its language is not read.
 */
export function indexedOutline(
  index: ScipIndex,
  relPath: string,
  lines: readonly string[],
): IndexedOutline | null {
  const language = outlineLanguage(relPath);
  if (language === null || !index.has(relPath)) return null;
  const definitions = index.definitionsIn(relPath);
  // The document's own symbol (its module), defined by an empty range at its start: every
  // symbol of the file is named below it.
  const module = definitions.find((d) =>
    d.range[0] === 0 && d.range[1] === 0 && d.range[2] === 0 && d.range[3] === 0 &&
    /[/:]$/.test(index.symbolName(d.symbol))
  );
  // scip-python names the module `pkg.mod/__init__:` and its symbols `pkg.mod/Name#`.
  const prefix = module === undefined
    ? null
    : index.symbolName(module.symbol).replace(/__init__:$/, "");
  const definitionAt = new Map<string, SymbolNode | null>();
  const entries: Entry[] = [];
  const defined = new Map<string, number>();
  /** Enclosing ranges of definitions that are not nodes (locals): containers all the same. */
  const otherContainers: Range[] = [];
  for (const d of definitions) {
    if (d === module) continue;
    const key = `${d.range[0]}:${d.range[1]}`;
    const name = index.symbolName(d.symbol);
    const enclosing = index.enclosingRangeAt(relPath, d.range[0], d.range[1]);
    defined.set(name, (defined.get(name) ?? 0) + 1);
    const descriptors = prefix !== null && !isLocalSymbol(name) && name.startsWith(prefix)
      ? descriptorsOf(name.slice(prefix.length))
      : null;
    const placeable = descriptors !== null && descriptors.length > 0 &&
      descriptors.every((x) => x.suffix === "#" || x.suffix === "." || x.suffix === "()");
    if (!placeable) {
      definitionAt.set(key, null);
      if (enclosing) otherContainers.push(toRange(enclosing));
      continue;
    }
    const last = descriptors[descriptors.length - 1]!;
    const parent = descriptors.length > 1 ? descriptors[descriptors.length - 2]! : null;
    const node: SymbolNode = {
      name: last.name === "<constructor>" ? "constructor" : last.name,
      kind: 0,
      overloadIndex: null,
      range: toRange(enclosing ?? d.range),
      selectionRange: toRange(d.range),
      relPath,
      parent: null,
      children: [],
    };
    const line = lines[d.range[0]] ?? "";
    const word = d.range[0] === d.range[2] ? line.slice(d.range[1], d.range[3]) : "";
    const shape = language === "typescript"
      ? typescriptShape(last, parent, line.slice(0, d.range[1]), enclosing !== null)
      : pythonShape(last, parent, line.slice(0, d.range[1]), enclosing, lines, d.range);
    node.kind = shape?.kind ?? 0;
    if (shape?.range === "name") node.range = toRange(d.range);
    entries.push({
      node,
      symbol: name,
      parentSymbol: parent === null ? null : name.slice(0, prefix!.length + parent.end),
      enclosing: enclosing ? toRange(enclosing) : null,
      named: word === node.name,
      shaped: shape !== null,
    });
    definitionAt.set(key, node);
  }
  return assemble(entries, otherContainers, definitionAt, defined, language);
}

/** Parents by descriptor, checked against the ranges; the vouched set; overload numbers. */
function assemble(
  entries: Entry[],
  otherContainers: readonly Range[],
  definitionAt: Map<string, SymbolNode | null>,
  defined: ReadonlyMap<string, number>,
  language: OutlineLanguage,
): IndexedOutline {
  const bySymbol = new Map<string, Entry[]>();
  for (const e of entries) {
    const list = bySymbol.get(e.symbol);
    if (list) list.push(e);
    else bySymbol.set(e.symbol, [e]);
  }
  const roots: SymbolNode[] = [];
  const vouched = new Set<SymbolNode>();
  const placedNodes = new Set<SymbolNode>();
  const containers = [
    ...entries.filter((e) => e.enclosing !== null).map((e) => ({ range: e.enclosing!, entry: e })),
    ...otherContainers.map((range) => ({ range, entry: null })),
  ];
  for (const e of entries) {
    let parent: Entry | null = null;
    if (e.parentSymbol !== null) {
      const candidates = bySymbol.get(e.parentSymbol) ?? [];
      parent = candidates.find((c) => contains(c.node.range, e.node.selectionRange.start)) ??
        candidates[0] ?? null;
    }
    // The innermost declaration around the name must be the parent the descriptors name: a
    // function nested in a method, or a member of a namespace, is named otherwise by the index.
    let innermost: { range: Range; entry: Entry | null } | null = null;
    for (const c of containers) {
      if (c.entry === e || !contains(c.range, e.node.selectionRange.start)) continue;
      if (innermost === null || before(innermost.range.start, c.range.start)) innermost = c;
    }
    let placed = innermost === null ? parent === null : innermost.entry === parent;
    // Python: an attribute assigned in a method (`self.x = ...`) is the class's.
    if (
      !placed && language === "python" && e.node.kind === SymbolKind.Variable &&
      innermost?.entry?.parentSymbol === e.parentSymbol && parent !== null
    ) {
      placed = true;
    }
    if (parent !== null && e.parentSymbol !== null) {
      e.node.parent = parent.node;
      parent.node.children.push(e.node);
    } else {
      roots.push(e.node);
    }
    if (e.named && placed && (e.parentSymbol === null || parent !== null)) {
      placedNodes.add(e.node);
      const once = e.node.kind !== SymbolKind.Variable || defined.get(e.symbol) === 1;
      if (e.shaped && once) vouched.add(e.node);
    }
  }
  // A node under a parent whose name path is not the server's has none either.
  for (const node of [...placedNodes]) {
    for (let p = node.parent; p !== null; p = p.parent) {
      if (!placedNodes.has(p)) {
        placedNodes.delete(node);
        vouched.delete(node);
        break;
      }
    }
  }
  return { roots: finishSiblings(roots), vouched, placed: placedNodes, definitionAt };
}

interface Shape {
  kind: number;
  /** `enclosing`: the indexer's enclosing range; `name`: the name's own range. */
  range: "enclosing" | "name";
}

/** tsserver's kind and range for a scip-typescript definition, or null when not vouched. */
function typescriptShape(
  last: Descriptor,
  parent: Descriptor | null,
  textBefore: string,
  hasEnclosing: boolean,
): Shape | null {
  if (!hasEnclosing) return null;
  if (last.suffix === "#") {
    const keyword = /\b(class|interface|enum)\s+$/.exec(textBefore)?.[1];
    if (keyword === "class") return { kind: SymbolKind.Class, range: "enclosing" };
    if (keyword === "interface") return { kind: SymbolKind.Interface, range: "enclosing" };
    if (keyword === "enum") return { kind: SymbolKind.Enum, range: "enclosing" };
    return null;
  }
  if (last.suffix !== "()") return null;
  if (parent === null) {
    return /\bfunction\s*\*?\s*$/.test(textBefore)
      ? { kind: SymbolKind.Function, range: "enclosing" }
      : null;
  }
  if (parent.suffix !== "#") return null;
  if (last.name === "<constructor>") return { kind: SymbolKind.Constructor, range: "enclosing" };
  return { kind: SymbolKind.Method, range: "enclosing" };
}

/** pyright's kind and range for a scip-python definition, or null when not vouched. */
function pythonShape(
  last: Descriptor,
  parent: Descriptor | null,
  textBefore: string,
  enclosing: ScipRange | null,
  lines: readonly string[],
  name: ScipRange,
): Shape | null {
  if (parent !== null && parent.suffix !== "#") return null;
  if (last.suffix === "#") {
    return enclosing !== null && /\bclass\s+$/.test(textBefore)
      ? { kind: SymbolKind.Class, range: "enclosing" }
      : null;
  }
  if (last.suffix === "()") {
    if (enclosing === null || !/\bdef\s+$/.test(textBefore)) return null;
    const decorators = lines.slice(enclosing[0], name[0]).join("\n");
    if (PYTHON_UNVOUCHED_DECORATOR.test(decorators)) return null;
    return { kind: parent === null ? SymbolKind.Function : SymbolKind.Method, range: "enclosing" };
  }
  if (last.suffix !== ".") return null;
  // pyright names ALL_CAPS and Final variables constants.
  if (/^[A-Z0-9_]+$/.test(last.name) && /[A-Z]/.test(last.name)) return null;
  if (/\bFinal\b/.test(lines[name[0]] ?? "")) return null;
  return { kind: SymbolKind.Variable, range: "name" };
}
