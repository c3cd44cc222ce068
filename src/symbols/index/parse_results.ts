/**
 * How a parse worker's answer for one file changes the declaration index's tables
 * (declaration_tables.ts), and whether the store on disk is then out of date.
 * @module
 */
import type { CompactSymbol } from "../model.ts";
import type { DeclarationTables } from "./declaration_tables.ts";
import { declaredNames } from "./index_file.ts";
import type { StoredFile } from "./store.ts";
import type { ParseResult } from "./worker_messages.ts";

/**
 * Take a file's result into `tables`; `known` is what the store on disk holds for it. True when
 * the store no longer matches the tables. A file that failed to parse, or whose parse is not
 * trusted, is listed with the files the index does not parse (every search reads it, and its
 * language server finds its declarations).
 */
export function applyParseResult(
  tables: DeclarationTables,
  result: ParseResult,
  known: StoredFile | undefined,
): boolean {
  const path = result.relPath;
  switch (result.status) {
    case "deferred":
      return false; // only a search's scan sends needles
    case "gone":
      return tables.remove(path);
    case "untrusted":
    case "failed": {
      const removed = tables.remove(path);
      tables.addOther(path);
      return removed;
    }
  }
  let entry: StoredFile;
  if (result.status === "parsed") {
    const symbols = result.symbols ?? "[]";
    const named = result.names !== undefined && result.count !== undefined
      ? { names: result.names, count: result.count }
      : declaredNames(JSON.parse(symbols) as CompactSymbol[]);
    entry = {
      hash: result.hash,
      size: result.size,
      mtime: result.mtime,
      symbols,
      ...named,
      exact: result.exact ?? false,
    };
  } else {
    if (known === undefined) return false;
    entry = { ...known, hash: result.hash, size: result.size, mtime: result.mtime };
  }
  // As on disk (a start from disk that found the file unchanged saves nothing).
  const unchanged = known !== undefined && known.hash === entry.hash &&
    known.mtime === entry.mtime && known.size === entry.size && known.symbols === entry.symbols &&
    known.exact === entry.exact;
  const before = tables.files.get(path);
  if (
    before?.hash === entry.hash && before.symbols === entry.symbols &&
    before.exact === entry.exact
  ) {
    tables.refresh(path, entry);
    return before.mtime !== entry.mtime;
  }
  let changed = before !== undefined && tables.remove(path);
  tables.removeOther(path);
  tables.add(path, entry);
  if (!unchanged) changed = true;
  return changed;
}
