/**
 * Indexing one file: skip it when unchanged (same size and modification time, or same content
 * hash as known), else hash and parse it. The parse workers run this; so do tests.
 *
 * It reads synchronously: a worker has nothing else to do meanwhile, and for the small files of
 * a project the asynchronous calls cost several times the work (measured: 20,000 files
 * stat-and-read in 1.1 s synchronously, 4.9 s asynchronously). The hash stays crypto.subtle's:
 * node:crypto's is faster alone, but loading it made the workers' parsing 2x slower.
 * @module
 */
import { contentHash } from "../content_hash.ts";
import type { CompactSymbol } from "../model.ts";
import { grammarFor } from "./grammars.ts";
import { parseFile } from "./parser.ts";
import { textWords } from "./unparsed_words.ts";
import type { ParseJob, ParseResult } from "./worker_messages.ts";

const decoder = new TextDecoder("utf-8");
const GO_METHOD = /^\(\*?[^)]*\)\.(.+)$/;

const WORD = /[\p{L}\p{N}_$]+/gu;

/**
 * Every name a forest declares, each once, as a JSON array; and how many declarations. With
 * `missed` (a file whose declarations are not exact, see extract.ts): every word of the texts
 * the rules did not model too. There the rules may leave out what the server lists (tsserver
 * lists a function value's destructured parameters and their type literal's members), so a
 * search reads the file whenever such a text holds the name, as it would without an index.
 */
export function declaredNames(
  symbols: readonly CompactSymbol[],
  missed?: string | readonly string[],
): { names: string; count: number } {
  const texts = missed === undefined ? [] : typeof missed === "string" ? [missed] : missed;
  const names = new Set<string>(texts.flatMap((text) => text.match(WORD) ?? []));
  let count = 0;
  const visit = (forest: readonly CompactSymbol[]) => {
    for (const s of forest) {
      names.add(s[0]);
      // A Go method (`(*T).M`) is also found by its own name, as name paths `T/M` ask for it.
      const goMethod = GO_METHOD.exec(s[0]);
      if (goMethod) names.add(goMethod[1]!);
      count++;
      if (s[10]) visit(s[10]);
    }
  };
  visit(symbols);
  return { names: JSON.stringify([...names]), count };
}

/**
 * Index one file; never throws (an unreadable file is "gone"). With a needle, a changed file
 * whose text lacks it is left for later ("deferred"), with its words: the next search decides
 * from them without reading it again (unparsed_words.ts).
 */
export async function indexFile(job: ParseJob): Promise<ParseResult> {
  const relPath = job.relPath;
  let size = 0;
  let mtime = 0;
  let bytes: Uint8Array;
  if (job.needle !== undefined && job.known === undefined) {
    // Most files of a search's scan lack the needle: for them, a read is all it takes. Those
    // that have it are indexed as usual below (stat first, then read: the time stored is never
    // newer than the content).
    try {
      const text = decoder.decode(Deno.readFileSync(job.absPath));
      if (!text.includes(job.needle)) {
        return { relPath, status: "deferred", hash: "", size: 0, mtime: 0, words: textWords(text) };
      }
    } catch { /* gone or unreadable: said below */ }
  }
  try {
    const info = Deno.statSync(job.absPath);
    if (!info.isFile) return { relPath, status: "gone", hash: "", size, mtime };
    size = info.size;
    mtime = info.mtime?.getTime() ?? 0;
    const known = job.known;
    if (known && known.size === size && known.mtime === mtime && mtime !== 0) {
      return { relPath, status: "same", hash: known.hash, size, mtime };
    }
    bytes = Deno.readFileSync(job.absPath);
  } catch {
    return { relPath, status: "gone", hash: "", size, mtime };
  }
  size = bytes.length;
  const raw = decoder.decode(bytes);
  if (job.needle !== undefined && !raw.includes(job.needle)) {
    return { relPath, status: "deferred", hash: "", size, mtime, words: textWords(raw) };
  }
  const hash = await contentHash(bytes);
  if (job.known && job.known.hash === hash) {
    return { relPath, status: "same", hash, size, mtime };
  }
  const grammar = grammarFor(relPath);
  try {
    if (grammar === null) throw new Error(`No grammar for ${relPath}`);
    const text = raw.includes("\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
    const found = await parseFile(text, grammar);
    if (found.untrusted !== undefined) {
      return { relPath, status: "untrusted", hash, size, mtime, error: found.untrusted };
    }
    const symbols = JSON.stringify(found.symbols);
    const missed = found.exact ? undefined : found.unmodelled === null ? text : found.unmodelled;
    const { names, count } = declaredNames(found.symbols, missed);
    return {
      relPath,
      status: "parsed",
      hash,
      size,
      mtime,
      symbols,
      names,
      count,
      exact: found.exact,
    };
  } catch (error) {
    // The parser itself failed (a grammar that does not load): the file stays unindexed.
    return { relPath, status: "failed", hash, size, mtime, error: String(error) };
  }
}
