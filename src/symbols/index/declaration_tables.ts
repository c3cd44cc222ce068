/**
 * The declaration index's tables in memory: each indexed file's entry (as the store on disk holds
 * it), the name table (declared name → the files declaring it), the files walked but not parsed,
 * and a generation that changes with each of them. The index (declaration_index.ts) decides what
 * goes in; this module keeps the tables consistent with each other and answers from them.
 * @module
 */
import type { CompactSymbol } from "../model.ts";
import { nameCloseness } from "../name_path.ts";
import type { StoredFile } from "./store.ts";

/** Counts describing the index. */
export interface IndexStats {
  files: number;
  declarations: number;
  names: number;
  /** Files walked that the index does not parse (no grammar). */
  otherFiles: number;
}

/** Whether `relPath` is `scope` or below it ("." or "": the whole project). */
export function inScope(relPath: string, scope: string): boolean {
  return scope === "." || scope === "" || relPath === scope || relPath.startsWith(scope + "/");
}

export class DeclarationTables {
  readonly #files = new Map<string, StoredFile>();
  readonly #others = new Set<string>();
  /** Declared name → the files declaring it. */
  readonly #postings = new Map<string, string[]>();
  #declarations = 0;
  #generation = 0;

  /** The indexed files' entries, by path. */
  get files(): ReadonlyMap<string, StoredFile> {
    return this.#files;
  }

  /**
   * A number that changes whenever a file is added, removed or indexed for new content: what
   * was computed from the file list and hashes at one generation holds while it stays.
   */
  get generation(): number {
    return this.#generation;
  }

  /** The files declaring `name` (or, with `substring`, a name containing it) in a scope, sorted. */
  candidates(name: string, scope: string, substring: boolean): string[] {
    const out = new Set<string>();
    const add = (files: readonly string[]) => {
      for (const f of files) if (inScope(f, scope)) out.add(f);
    };
    if (substring) {
      for (const [declared, files] of this.#postings) if (declared.includes(name)) add(files);
    } else {
      const files = this.#postings.get(name);
      if (files) add(files);
    }
    return [...out].sort();
  }

  /** The indexed files in a scope, sorted. */
  indexedFiles(scope: string): string[] {
    return [...this.#files.keys()].filter((f) => inScope(f, scope)).sort();
  }

  /** Declared names close to `wanted` (name_path.ts `nameCloseness`), closest first. */
  namesLike(wanted: string, limit: number): string[] {
    const lower = wanted.toLowerCase();
    const scored: Array<{ name: string; score: number }> = [];
    for (const name of this.#postings.keys()) {
      const score = nameCloseness(name, lower);
      if (score >= 0) scored.push({ name, score });
    }
    scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return scored.slice(0, limit).map((s) => s.name);
  }

  /** The files in a scope walked but not parsed (no grammar), sorted. */
  otherFiles(scope: string): string[] {
    return [...this.#others].filter((f) => inScope(f, scope)).sort();
  }

  /** A file's declarations (a forest), or undefined when the file is not indexed. */
  declarations(relPath: string): CompactSymbol[] | undefined {
    const entry = this.#files.get(relPath);
    return entry ? JSON.parse(entry.symbols) as CompactSymbol[] : undefined;
  }

  /** A file's declarations when they are exact and were computed for this content hash. */
  exactDeclarations(relPath: string, hash: string): CompactSymbol[] | undefined {
    const entry = this.#files.get(relPath);
    return entry?.hash === hash && entry.exact ? JSON.parse(entry.symbols) : undefined;
  }

  /** Every file walked (indexed or not), unsorted. */
  allFiles(): string[] {
    return [...this.#files.keys(), ...this.#others];
  }

  stats(): IndexStats {
    return {
      files: this.#files.size,
      declarations: this.#declarations,
      names: this.#postings.size,
      otherFiles: this.#others.size,
    };
  }

  /** List a file the index does not parse. */
  addOther(relPath: string): void {
    if (this.#others.has(relPath)) return;
    this.#others.add(relPath);
    this.#generation++;
  }

  removeOther(relPath: string): void {
    if (this.#others.delete(relPath)) this.#generation++;
  }

  /** Index an entry for a path that has none. */
  add(relPath: string, entry: StoredFile): void {
    this.#generation++;
    this.#files.set(relPath, entry);
    this.#declarations += entry.count;
    for (const name of JSON.parse(entry.names) as string[]) {
      const files = this.#postings.get(name);
      if (files) files.push(relPath);
      else this.#postings.set(name, [relPath]);
    }
  }

  /**
   * A new entry for an indexed file whose declarations are the same (its time or size moved):
   * the name table and the generation stay.
   */
  refresh(relPath: string, entry: StoredFile): void {
    this.#files.set(relPath, entry);
  }

  /** Forget a path (indexed or not); true when it had an indexed entry. */
  remove(relPath: string): boolean {
    this.removeOther(relPath);
    const entry = this.#files.get(relPath);
    if (!entry) return false;
    this.#generation++;
    this.#files.delete(relPath);
    this.#declarations -= entry.count;
    for (const name of JSON.parse(entry.names) as string[]) {
      const files = this.#postings.get(name);
      if (!files) continue;
      const i = files.indexOf(relPath);
      if (i >= 0) files.splice(i, 1);
      if (files.length === 0) this.#postings.delete(name);
    }
    return true;
  }

  /** Forget a path and everything below it; true when an indexed entry went. */
  removeUnder(relPath: string): boolean {
    const prefix = relPath + "/";
    let removed = false;
    for (const f of [...this.#files.keys()]) {
      if (f === relPath || f.startsWith(prefix)) removed = this.remove(f) || removed;
    }
    for (const f of [...this.#others]) {
      if (f === relPath || f.startsWith(prefix)) this.removeOther(f);
    }
    return removed;
  }

  /** Forget everything (a new build starts). */
  clear(): boolean {
    this.#generation++;
    this.#others.clear();
    let removed = false;
    for (const relPath of [...this.#files.keys()]) removed = this.remove(relPath) || removed;
    return removed;
  }
}
