/**
 * A SCIP index in memory, shaped for the questions Sextant answers from it: which symbol sits at
 * a position, every occurrence of a symbol, its definitions, and what implements it. Paths and
 * symbols are interned to numbers and each document's occurrences are packed into one
 * `Int32Array`, so a 50,000-file index costs a few bytes per occurrence, not an object each.
 * @module
 */
import { readScipIndex, type ScipDocument, type ScipRange, SymbolRole } from "./decode.ts";

/** Packed occurrence fields: start line, start char, end line, end char, symbol id, roles. */
const STRIDE = 6;

/** One occurrence, unpacked for an answer. */
export interface ScipLocation {
  /** Relative to the project root, `/`-separated. */
  relPath: string;
  range: ScipRange;
  roles: number;
}

export interface ScipLoadProgress {
  read: number;
  total: number;
  documents: number;
}

/** True when `symbol` is local to its document (`local N`). */
export function isLocalSymbol(symbol: string): boolean {
  return symbol.startsWith("local ");
}

export class ScipIndex {
  readonly #paths: string[] = [];
  readonly #pathIds = new Map<string, number>();
  readonly #symbols: string[] = [];
  readonly #symbolIds = new Map<string, number>();
  /** Per document id: its packed occurrences, sorted by start position. */
  readonly #occurrences: Int32Array[] = [];
  /** Per symbol id: the document ids that hold it (built by {@linkcode ScipIndex.seal}). */
  #documentsOf: Int32Array[] = [];
  /** implemented symbol id → implementing symbol ids. */
  readonly #implementations = new Map<number, number[]>();
  /** symbol id → what it implements or extends. */
  readonly #supertypes = new Map<number, number[]>();
  #sealed = false;
  /** The tools that wrote the index (e.g. `scip-typescript 0.4.0`). */
  readonly tools = new Set<string>();

  /** Reads `path` into a new index, streaming, with progress. */
  static async load(
    path: string,
    onProgress?: (progress: ScipLoadProgress) => void,
  ): Promise<ScipIndex> {
    const index = new ScipIndex();
    let documents = 0;
    await readScipIndex(path, {
      metadata: (m) => {
        if (m.toolName) index.tools.add(`${m.toolName} ${m.toolVersion}`.trim());
      },
      document: (d) => {
        index.add(d);
        documents++;
      },
      progress: (read, total) => onProgress?.({ read, total, documents }),
    });
    index.seal();
    return index;
  }

  #symbolId(symbol: string, documentId: number): number {
    // A local symbol is a name only within its document.
    const key = isLocalSymbol(symbol) ? `${documentId}\u0000${symbol}` : symbol;
    let id = this.#symbolIds.get(key);
    if (id === undefined) {
      id = this.#symbols.length;
      this.#symbols.push(symbol);
      this.#symbolIds.set(key, id);
    }
    return id;
  }

  /**
   * Adds one document. A document already present (two partial indexes that both hold it) is
   * replaced by the later one, as protobuf's merge keeps the last of a repeated key.
   */
  add(document: ScipDocument): void {
    if (this.#sealed) throw new Error("ScipIndex.add after seal()");
    const path = document.relativePath.replaceAll("\\", "/");
    let id = this.#pathIds.get(path);
    if (id === undefined) {
      id = this.#paths.length;
      this.#paths.push(path);
      this.#pathIds.set(path, id);
    }
    const sorted = [...document.occurrences].sort((a, b) =>
      a.range[0] - b.range[0] || a.range[1] - b.range[1]
    );
    const packed = new Int32Array(sorted.length * STRIDE);
    sorted.forEach((o, i) => {
      packed.set(o.range, i * STRIDE);
      packed[i * STRIDE + 4] = this.#symbolId(o.symbol, id);
      packed[i * STRIDE + 5] = o.roles;
    });
    this.#occurrences[id] = packed;
    for (const info of document.symbols) {
      const from = this.#symbolId(info.symbol, id);
      for (const r of info.relationships) {
        if (!r.isImplementation) continue;
        const to = this.#symbolId(r.symbol, id);
        const list = this.#implementations.get(to) ?? [];
        list.push(from);
        this.#implementations.set(to, list);
        const up = this.#supertypes.get(from) ?? [];
        up.push(to);
        this.#supertypes.set(from, up);
      }
    }
  }

  /** Builds the symbol → documents table; no document can be added afterwards. */
  seal(): void {
    const counts = new Int32Array(this.#symbols.length);
    const last = new Int32Array(this.#symbols.length).fill(-1);
    this.#occurrences.forEach((packed, doc) => {
      for (let i = 4; i < packed.length; i += STRIDE) {
        const s = packed[i]!;
        if (last[s] !== doc) {
          last[s] = doc;
          counts[s]!++;
        }
      }
    });
    const lists = Array.from(counts, (n) => new Int32Array(n));
    const fill = new Int32Array(this.#symbols.length);
    last.fill(-1);
    this.#occurrences.forEach((packed, doc) => {
      for (let i = 4; i < packed.length; i += STRIDE) {
        const s = packed[i]!;
        if (last[s] !== doc) {
          last[s] = doc;
          lists[s]![fill[s]!++] = doc;
        }
      }
    });
    this.#documentsOf = lists;
    this.#sealed = true;
  }

  /** How many documents the index holds. */
  get documentCount(): number {
    return this.#paths.length;
  }

  /** The documents' relative paths. */
  paths(): readonly string[] {
    return this.#paths;
  }

  /** True when the index has a document for `relPath`. */
  has(relPath: string): boolean {
    return this.#pathIds.has(relPath);
  }

  /**
   * The symbol whose occurrence covers the zero-based position, the innermost one when ranges
   * nest; null when no occurrence does.
   */
  symbolAt(relPath: string, line: number, character: number): number | null {
    const doc = this.#pathIds.get(relPath);
    if (doc === undefined) return null;
    const packed = this.#occurrences[doc]!;
    let best: number | null = null;
    let bestSize = Infinity;
    for (let i = 0; i < packed.length; i += STRIDE) {
      const sl = packed[i]!, sc = packed[i + 1]!, el = packed[i + 2]!, ec = packed[i + 3]!;
      if (sl > line) break;
      const after = line > sl || (line === sl && character >= sc);
      const before = line < el || (line === el && character <= ec);
      if (!after || !before) continue;
      const size = (el - sl) * 1e6 + (ec - sc);
      if (size < bestSize) {
        best = packed[i + 4]!;
        bestSize = size;
      }
    }
    return best;
  }

  /** The id of a global symbol, by its SCIP identifier; null when the index has none. */
  idOf(symbol: string): number | null {
    return isLocalSymbol(symbol) ? null : this.#symbolIds.get(symbol) ?? null;
  }

  /** The SCIP identifier of a symbol id. */
  symbolName(id: number): string {
    return this.#symbols[id] ?? "";
  }

  /** Every occurrence of the symbol, by document and position. */
  occurrencesOf(id: number): ScipLocation[] {
    const out: ScipLocation[] = [];
    for (const doc of this.#documentsOf[id] ?? []) {
      const packed = this.#occurrences[doc]!;
      for (let i = 0; i < packed.length; i += STRIDE) {
        if (packed[i + 4] !== id) continue;
        out.push({
          relPath: this.#paths[doc]!,
          range: [packed[i]!, packed[i + 1]!, packed[i + 2]!, packed[i + 3]!],
          roles: packed[i + 5]!,
        });
      }
    }
    return out;
  }

  /** The definitions in one document: symbol id and range, in file order. */
  definitionsIn(relPath: string): Array<{ symbol: number; range: ScipRange }> {
    const doc = this.#pathIds.get(relPath);
    if (doc === undefined) return [];
    const packed = this.#occurrences[doc]!;
    const out: Array<{ symbol: number; range: ScipRange }> = [];
    for (let i = 0; i < packed.length; i += STRIDE) {
      if ((packed[i + 5]! & SymbolRole.Definition) === 0) continue;
      out.push({
        symbol: packed[i + 4]!,
        range: [packed[i]!, packed[i + 1]!, packed[i + 2]!, packed[i + 3]!],
      });
    }
    return out;
  }

  /** The occurrences of the symbol that define it. */
  definitionsOf(id: number): ScipLocation[] {
    return this.occurrencesOf(id).filter((o) => (o.roles & SymbolRole.Definition) !== 0);
  }

  /** The symbols that declare they implement (or extend) `id`, transitively. */
  implementationsOf(id: number): number[] {
    const seen = new Set<number>();
    const queue = [...(this.#implementations.get(id) ?? [])];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(this.#implementations.get(next) ?? []));
    }
    return [...seen];
  }

  /** What `id` declares it implements or extends (one level). */
  supertypesOf(id: number): number[] {
    return [...(this.#supertypes.get(id) ?? [])];
  }

  /** The documents whose occurrences include the symbol. */
  documentsOf(id: number): string[] {
    return Array.from(this.#documentsOf[id] ?? [], (doc) => this.#paths[doc]!);
  }
}
