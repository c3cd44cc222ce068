/**
 * Indexing one file: skip it when unchanged (same size and modification time, or same content
 * hash as known), else hash and parse it. The parse workers run this; so do tests.
 * @module
 */
import { contentHash } from "../lsp/symbol_cache.ts";
import { grammarFor } from "./grammars.ts";
import { parseFile } from "./parser.ts";
import type { ParseJob, ParseResult } from "./protocol.ts";

const decoder = new TextDecoder("utf-8");

/** Index one file; never throws (an unreadable file is "gone"). */
export async function indexFile(job: ParseJob): Promise<ParseResult> {
  const relPath = job.relPath;
  let size = 0;
  let mtime = 0;
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(job.absPath);
    if (!info.isFile) return { relPath, status: "gone", hash: "", size, mtime };
    size = info.size;
    mtime = info.mtime?.getTime() ?? 0;
    const known = job.known;
    if (known && known.size === size && known.mtime === mtime && mtime !== 0) {
      return { relPath, status: "same", hash: known.hash, size, mtime };
    }
    bytes = await Deno.readFile(job.absPath);
  } catch {
    return { relPath, status: "gone", hash: "", size, mtime };
  }
  size = bytes.length;
  const hash = await contentHash(bytes);
  if (job.known && job.known.hash === hash) {
    return { relPath, status: "same", hash, size, mtime };
  }
  const grammar = grammarFor(relPath);
  try {
    if (grammar === null) throw new Error(`No grammar for ${relPath}`);
    const raw = decoder.decode(bytes);
    const text = raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
    const found = await parseFile(text, grammar);
    const symbols = JSON.stringify(found.symbols);
    return { relPath, status: "parsed", hash, size, mtime, symbols, exact: found.exact };
  } catch (error) {
    // The parser itself failed (a grammar that does not load): the file stays unindexed.
    return { relPath, status: "failed", hash, size, mtime, error: String(error) };
  }
}
