/**
 * A SCIP index in memory, shaped for the questions Sextant answers from it: which symbol sits at
 * a position, every occurrence of a symbol, its definitions, and what implements it.
 *
 * Built for indexes of tens of thousands of files, loaded in seconds in a few hundred
 * megabytes: each document is parsed straight from its bytes (no object per occurrence), each
 * document's occurrences are packed into one `Int32Array`, and global symbols are interned by
 * their bytes into one byte arena with an open-addressing hash table, so a symbol's string is
 * made only when an answer needs it. The symbol → documents table is one offsets array and one
 * data array.
 * @module
 */
import { readScipIndex, type ScipRange, SymbolRole } from "./decode.ts";

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
  /** Set while the index is downloaded (the global config names a URL), before it is read. */
  phase?: "download";
}

/** A progress message for the client. */
export function scipProgressMessage(p: ScipLoadProgress): string {
  return p.phase === "download"
    ? `downloading the SCIP index (${Math.round(p.read / 1e6)} MB)`
    : `loading the SCIP index (${p.documents} documents)`;
}

/** True when `symbol` is local to its document (`local N`). */
export function isLocalSymbol(symbol: string): boolean {
  return symbol.startsWith("local ");
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();
/** `local ` as bytes. */
const LOCAL = encoder.encode("local ");

/** Global symbols interned by their bytes: ids are dense, strings made on demand. */
class SymbolTable {
  #arena = new Uint8Array(1 << 20);
  #used = 0;
  /** Per id: start and end in the arena. */
  #bounds = new Int32Array(1 << 16);
  #count = 0;
  /** Open addressing: id + 1 per slot, 0 when empty. */
  #slots = new Int32Array(1 << 16);
  /** Ids of local symbols (not in the table), made by {@linkcode SymbolTable.local}. */
  readonly #localNames: string[] = [];

  get size(): number {
    return this.#count;
  }

  /**
   * FNV-1a over the length and the last 32 bytes: symbols share long prefixes (the package and
   * the file's path) and differ at their end, so the tail is what tells them apart.
   */
  static #hash(bytes: Uint8Array, start: number, end: number): number {
    let h = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
    for (let i = Math.max(start, end - 32); i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    return h >>> 0;
  }

  /** Compared from the end, where symbols differ. */
  #equals(id: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.#bounds[id * 2]!;
    const to = this.#bounds[id * 2 + 1]!;
    if (to - from !== end - start) return false;
    const arena = this.#arena;
    for (let i = end - start - 1; i >= 0; i--) {
      if (arena[from + i] !== bytes[start + i]) return false;
    }
    return true;
  }

  /** The id of the bytes `bytes[start, end)`, added when new (`add`), else -1 when unknown. */
  find(bytes: Uint8Array, start: number, end: number, add: boolean): number {
    const mask = this.#slots.length - 1;
    let slot = SymbolTable.#hash(bytes, start, end) & mask;
    while (true) {
      const entry = this.#slots[slot]!;
      if (entry === 0) break;
      if (this.#equals(entry - 1, bytes, start, end)) return entry - 1;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const id = this.#count++;
    this.#store(id, bytes, start, end);
    this.#slots[slot] = id + 1;
    if (this.#count * 2 > this.#slots.length) this.#grow();
    return id;
  }

  #store(id: number, bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.#used + length > this.#arena.length) {
      const bigger = new Uint8Array(Math.max(this.#arena.length * 2, this.#used + length));
      bigger.set(this.#arena.subarray(0, this.#used));
      this.#arena = bigger;
    }
    this.#arena.set(bytes.subarray(start, end), this.#used);
    if (id * 2 + 1 >= this.#bounds.length) {
      const bigger = new Int32Array(this.#bounds.length * 2);
      bigger.set(this.#bounds);
      this.#bounds = bigger;
    }
    this.#bounds[id * 2] = this.#used;
    this.#bounds[id * 2 + 1] = this.#used + length;
    this.#used += length;
  }

  #grow(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.#count; id++) {
      let slot = SymbolTable.#hash(this.#arena, this.#bounds[id * 2]!, this.#bounds[id * 2 + 1]!) &
        mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.#slots = slots;
  }

  /** A new id for a document's local symbol (never shared, never looked up by name). */
  local(name: string): number {
    const id = this.#count++;
    const bytes = encoder.encode(name);
    this.#store(id, bytes, 0, bytes.length);
    this.#localNames.push(name);
    return id;
  }

  name(id: number): string {
    if (id < 0 || id >= this.#count) return "";
    return utf8.decode(this.#arena.subarray(this.#bounds[id * 2]!, this.#bounds[id * 2 + 1]!));
  }

  /** Shrinks the arena to what it holds. */
  trim(): void {
    this.#arena = this.#arena.slice(0, this.#used);
    this.#bounds = this.#bounds.slice(0, this.#count * 2);
  }
}

/** A cursor over protobuf bytes: varints and length-delimited fields, nothing allocated. */
class Cursor {
  bytes: Uint8Array;
  pos: number;
  end: number;

  constructor(bytes: Uint8Array, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    while (true) {
      const byte = this.bytes[this.pos++]!;
      if (shift < 28) result |= (byte & 0x7f) << shift;
      else result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return shift < 28 ? result >>> 0 : result;
      shift += 7;
      if (this.pos > this.end) throw new RangeError("a varint runs past its message");
    }
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) {
      // Not `this.pos += this.varint()`: that reads pos before the varint moves it.
      const length = this.varint();
      this.pos += length;
    } else if (wireType === 5) this.pos += 4;
    else throw new RangeError(`wire type ${wireType} cannot be skipped`);
  }
}

/** The signed value of an int32 varint (negative values are written as 64-bit). */
function int32(value: number): number {
  return value | 0;
}

export class ScipIndex {
  readonly #paths: string[] = [];
  readonly #pathIds = new Map<string, number>();
  readonly #symbols = new SymbolTable();
  /** Per document id: its packed occurrences, sorted by start position. */
  readonly #occurrences: Int32Array[] = [];
  /** Symbol → documents, as offsets into #documentIds (built by seal). */
  #documentOffsets = new Int32Array(0);
  #documentIds = new Int32Array(0);
  /** implemented symbol id → implementing symbol ids. */
  readonly #implementations = new Map<number, number[]>();
  /**
   * The enclosing ranges of definitions that have one (the whole declaration, where the indexer
   * gives it), six numbers each: the definition's start line and character, then the enclosing
   * range. One buffer for all documents (an array per document costs more than its data), each
   * document's span in `#enclosingSpans`.
   */
  #enclosing = new Int32Array(1 << 16);
  #enclosingUsed = 0;
  /** Per document id: where its records start and end in `#enclosing`. */
  readonly #enclosingSpans: number[] = [];
  /** symbol id → what it implements or extends. */
  readonly #supertypes = new Map<number, number[]>();
  /**
   * Both ways, the `is_reference` relationships: symbols whose references count as each other's
   * (a method and the interface or base method it implements or overrides).
   */
  readonly #referenceLinks = new Map<number, number[]>();
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
      documentBytes: (bytes) => {
        index.#addDocument(bytes);
        documents++;
      },
      progress: (read, total) => onProgress?.({ read, total, documents }),
    });
    index.#seal();
    return index;
  }

  /** The symbol id of an occurrence's symbol field `[start, end)` in `doc`'s bytes. */
  #symbolOf(
    bytes: Uint8Array,
    start: number,
    end: number,
    locals: Map<string | number, number>,
  ): number {
    let local = end - start > LOCAL.length;
    for (let i = 0; local && i < LOCAL.length; i++) local = bytes[start + i] === LOCAL[i];
    if (!local) return this.#symbols.find(bytes, start, end, true);
    // A local symbol is a name only within its document; indexers number them (`local 12`), and
    // the number is the key, read without making a string.
    let key = 0;
    let numeric = true;
    for (let i = start + LOCAL.length; i < end && numeric; i++) {
      const digit = bytes[i]! - 48;
      numeric = digit >= 0 && digit <= 9 && key < 1e9;
      key = key * 10 + digit;
    }
    const name = numeric ? key : utf8.decode(bytes.subarray(start, end));
    let id = locals.get(name);
    if (id === undefined) {
      locals.set(name, id = this.#symbols.local(utf8.decode(bytes.subarray(start, end))));
    }
    return id;
  }

  #addDocument(bytes: Uint8Array): void {
    if (this.#sealed) throw new Error("ScipIndex: a document after seal");
    const doc = new Cursor(bytes);
    let path = "";
    const occurrences: number[] = [];
    const infos: number[] = [];
    while (doc.pos < doc.end) {
      const tag = doc.varint();
      const field = tag >>> 3;
      const wireType = tag & 7;
      if (wireType !== 2) {
        doc.skip(wireType);
        continue;
      }
      const length = doc.varint();
      const start = doc.pos;
      doc.pos += length;
      if (field === 1) path = utf8.decode(bytes.subarray(start, start + length));
      else if (field === 2) occurrences.push(start, start + length);
      else if (field === 3) infos.push(start, start + length);
    }
    if (path === "") throw new RangeError("a SCIP document has no relative_path");
    path = path.replaceAll("\\", "/");
    let id = this.#pathIds.get(path);
    if (id === undefined) {
      id = this.#paths.length;
      this.#paths.push(path);
      this.#pathIds.set(path, id);
    }
    const locals = new Map<string | number, number>();
    const count = occurrences.length / 2;
    const packed = new Int32Array(count * STRIDE);
    const range: number[] = [];
    const enclosing: number[] = [];
    const enclosedFrom = this.#enclosingUsed;
    const c = new Cursor(bytes);
    for (let k = 0; k < count; k++) {
      enclosing.length = 0;
      c.pos = occurrences[k * 2]!;
      c.end = occurrences[k * 2 + 1]!;
      range.length = 0;
      let symbol = -1;
      let roles = 0;
      while (c.pos < c.end) {
        const tag = c.varint();
        const field = tag >>> 3;
        const wireType = tag & 7;
        if (field === 1 && wireType === 2) {
          const stop = c.varint() + c.pos;
          while (c.pos < stop) range.push(int32(c.varint()));
        } else if (field === 1 && wireType === 0) {
          range.push(int32(c.varint()));
        } else if (field === 2 && wireType === 2) {
          const length = c.varint();
          symbol = this.#symbolOf(bytes, c.pos, c.pos + length, locals);
          c.pos += length;
        } else if (field === 3 && wireType === 0) {
          roles = int32(c.varint());
        } else if (field === 7 && wireType === 2) {
          const stop = c.varint() + c.pos;
          while (c.pos < stop) enclosing.push(int32(c.varint()));
        } else if (field === 7 && wireType === 0) {
          enclosing.push(int32(c.varint()));
        } else {
          c.skip(wireType);
        }
      }
      if ((roles & SymbolRole.Definition) !== 0 && range.length >= 3) {
        if (enclosing.length === 3) {
          const [line, from, to] = enclosing as [number, number, number];
          this.#addEnclosing(range[0]!, range[1]!, line, from, line, to);
        } else if (enclosing.length === 4) {
          const [sl, sc, el, ec] = enclosing as [number, number, number, number];
          this.#addEnclosing(range[0]!, range[1]!, sl, sc, el, ec);
        }
      }
      const o = k * STRIDE;
      if (range.length === 3) {
        packed[o] = range[0]!;
        packed[o + 1] = range[1]!;
        packed[o + 2] = range[0]!;
        packed[o + 3] = range[2]!;
      } else if (range.length === 4) {
        packed.set(range, o);
      } else {
        throw new RangeError(`an occurrence range in ${path} has ${range.length} numbers`);
      }
      packed[o + 4] = symbol;
      packed[o + 5] = roles;
    }
    this.#occurrences[id] = sortByStart(packed);
    this.#enclosingSpans[id * 2] = enclosedFrom;
    this.#enclosingSpans[id * 2 + 1] = this.#enclosingUsed;
    for (let k = 0; k < infos.length; k += 2) this.#addRelationships(bytes, infos, k, locals);
  }

  /** A SymbolInformation's implementation relationships. */
  #addRelationships(
    bytes: Uint8Array,
    infos: number[],
    k: number,
    locals: Map<string | number, number>,
  ): void {
    const c = new Cursor(bytes, infos[k]!, infos[k + 1]!);
    let from = -1;
    const targets: number[] = [];
    const referenced: number[] = [];
    while (c.pos < c.end) {
      const tag = c.varint();
      const field = tag >>> 3;
      const wireType = tag & 7;
      if (field === 1 && wireType === 2) {
        const length = c.varint();
        from = this.#symbolOf(bytes, c.pos, c.pos + length, locals);
        c.pos += length;
      } else if (field === 4 && wireType === 2) {
        const stop = c.varint() + c.pos;
        const r = new Cursor(bytes, c.pos, stop);
        let to = -1;
        let implementation = false;
        let reference = false;
        while (r.pos < r.end) {
          const rtag = r.varint();
          if (rtag >>> 3 === 1 && (rtag & 7) === 2) {
            const length = r.varint();
            to = this.#symbolOf(bytes, r.pos, r.pos + length, locals);
            r.pos += length;
          } else if (rtag >>> 3 === 2 && (rtag & 7) === 0) {
            reference = r.varint() !== 0;
          } else if (rtag >>> 3 === 3 && (rtag & 7) === 0) {
            implementation = r.varint() !== 0;
          } else {
            r.skip(rtag & 7);
          }
        }
        if (implementation && to >= 0) targets.push(to);
        if (reference && to >= 0) referenced.push(to);
        c.pos = stop;
      } else {
        c.skip(wireType);
      }
    }
    if (from < 0) return;
    // Appended in place: an interface method that 50,000 classes implement has 50,000 links, and
    // copying the list for each would be quadratic.
    for (const to of referenced) {
      this.#link(from, to);
      this.#link(to, from);
    }
    for (const to of targets) {
      const down = this.#implementations.get(to);
      if (down) down.push(from);
      else this.#implementations.set(to, [from]);
      const up = this.#supertypes.get(from);
      if (up) up.push(to);
      else this.#supertypes.set(from, [to]);
    }
  }

  #addEnclosing(...record: [number, number, number, number, number, number]): void {
    if (this.#enclosingUsed + 6 > this.#enclosing.length) {
      const bigger = new Int32Array(this.#enclosing.length * 2);
      bigger.set(this.#enclosing);
      this.#enclosing = bigger;
    }
    this.#enclosing.set(record, this.#enclosingUsed);
    this.#enclosingUsed += 6;
  }

  #link(from: number, to: number): void {
    const links = this.#referenceLinks.get(from);
    if (links) links.push(to);
    else this.#referenceLinks.set(from, [to]);
  }

  /** Builds the symbol → documents table; no document can be added afterwards. */
  #seal(): void {
    const symbols = this.#symbols.size;
    const offsets = new Int32Array(symbols + 1);
    const last = new Int32Array(symbols).fill(-1);
    this.#occurrences.forEach((packed, doc) => {
      for (let i = 4; i < packed.length; i += STRIDE) {
        const s = packed[i]!;
        if (s >= 0 && last[s] !== doc) {
          last[s] = doc;
          offsets[s + 1]!++;
        }
      }
    });
    for (let s = 0; s < symbols; s++) offsets[s + 1]! += offsets[s]!;
    const ids = new Int32Array(offsets[symbols]!);
    const fill = offsets.slice(0, symbols);
    last.fill(-1);
    this.#occurrences.forEach((packed, doc) => {
      for (let i = 4; i < packed.length; i += STRIDE) {
        const s = packed[i]!;
        if (s >= 0 && last[s] !== doc) {
          last[s] = doc;
          ids[fill[s]!++] = doc;
        }
      }
    });
    this.#documentOffsets = offsets;
    this.#documentIds = ids;
    this.#symbols.trim();
    this.#enclosing = this.#enclosing.slice(0, this.#enclosingUsed);
    this.#sealed = true;
  }

  /** How many documents the index holds. */
  get documentCount(): number {
    return this.#paths.length;
  }

  /** How many distinct symbols (locals counted per document). */
  get symbolCount(): number {
    return this.#symbols.size;
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
      if (!after || !before || packed[i + 4]! < 0) continue;
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
    if (isLocalSymbol(symbol)) return null;
    const bytes = encoder.encode(symbol);
    const id = this.#symbols.find(bytes, 0, bytes.length, false);
    return id < 0 ? null : id;
  }

  /** The SCIP identifier of a symbol id. */
  symbolName(id: number): string {
    return this.#symbols.name(id);
  }

  /** The documents whose occurrences include the symbol, as document ids. */
  #documentsOf(id: number): Int32Array {
    if (id < 0 || id + 1 >= this.#documentOffsets.length) return new Int32Array(0);
    return this.#documentIds.subarray(this.#documentOffsets[id]!, this.#documentOffsets[id + 1]!);
  }

  /** Every occurrence of the symbol, by document and position. */
  occurrencesOf(id: number): ScipLocation[] {
    const out: ScipLocation[] = [];
    for (const doc of this.#documentsOf(id)) {
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
      if ((packed[i + 5]! & SymbolRole.Definition) === 0 || packed[i + 4]! < 0) continue;
      out.push({
        symbol: packed[i + 4]!,
        range: [packed[i]!, packed[i + 1]!, packed[i + 2]!, packed[i + 3]!],
      });
    }
    return out;
  }

  /**
   * The enclosing range (the whole declaration) the indexer gave the definition starting at the
   * zero-based position in `relPath`; null when it gave none.
   */
  enclosingRangeAt(relPath: string, line: number, character: number): ScipRange | null {
    const doc = this.#pathIds.get(relPath);
    if (doc === undefined) return null;
    const records = this.#enclosing;
    const end = this.#enclosingSpans[doc * 2 + 1] ?? 0;
    for (let i = this.#enclosingSpans[doc * 2] ?? 0; i < end; i += 6) {
      if (records[i] !== line || records[i + 1] !== character) continue;
      return [records[i + 2]!, records[i + 3]!, records[i + 4]!, records[i + 5]!];
    }
    return null;
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

  /**
   * The symbols linked to `id` by `is_reference` relationships, transitively and both ways, `id`
   * included: the interface or base method it implements and every other implementation of it,
   * which the language servers count among one another's references.
   */
  referenceFamilyOf(id: number): number[] {
    const seen = new Set<number>([id]);
    const queue = [id];
    while (queue.length > 0) {
      for (const next of this.#referenceLinks.get(queue.pop()!) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return [...seen];
  }

  /** What `id` declares it implements or extends (one level). */
  supertypesOf(id: number): number[] {
    return [...(this.#supertypes.get(id) ?? [])];
  }

  /** The documents whose occurrences include the symbol. */
  documentsOf(id: number): string[] {
    return Array.from(this.#documentsOf(id), (doc) => this.#paths[doc]!);
  }
}

/** The packed occurrences ordered by start line and character (indexers usually are already). */
function sortByStart(packed: Int32Array): Int32Array {
  const count = packed.length / STRIDE;
  let sorted = true;
  for (let k = 1; k < count && sorted; k++) {
    const a = (k - 1) * STRIDE, b = k * STRIDE;
    sorted = packed[a]! < packed[b]! ||
      (packed[a] === packed[b] && packed[a + 1]! <= packed[b + 1]!);
  }
  if (sorted) return packed;
  const order = Array.from({ length: count }, (_, k) => k).sort((x, y) =>
    packed[x * STRIDE]! - packed[y * STRIDE]! || packed[x * STRIDE + 1]! - packed[y * STRIDE + 1]!
  );
  const out = new Int32Array(packed.length);
  order.forEach((from, to) =>
    out.set(packed.subarray(from * STRIDE, from * STRIDE + STRIDE), to * STRIDE)
  );
  return out;
}
