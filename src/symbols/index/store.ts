/**
 * The index on disk: `<root>/.sextant/cache/declarations.jsonl`, read at start so that a known
 * project is indexed again by checking sizes and modification times (and content hashes where
 * those differ) instead of parsing every file.
 *
 * Format: a header line `{"format":3,"parser":"<grammars and rules version>"}`, then one line per
 * file: `<relPath as JSON>\t<hash>\t<size>\t<mtime>\t<exact: 1 or 0>\t<count>\t<names as
 * JSON>\t<declarations as JSON>`. The names (each declared name once, and for a file that is not
 * exact every word of what its rules do not model) and the count let a start from disk build the
 * name table without parsing every file's declarations. A file of another format or parser version
 * is ignored (and replaced on the next save).
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "../../edit/text_file.ts";
import { log } from "../../log.ts";
import { cacheDir } from "../cache.ts";

const FORMAT = 3;
/** Bump with the grammars or with extract.ts's rules: stored declarations would differ. */
export const PARSER_VERSION = "web-tree-sitter@0.25.10;tree-sitter-wasms@0.1.13;rules@6;names@3";

/** What the index holds per file. */
export interface StoredFile {
  hash: string;
  size: number;
  mtime: number;
  /** CompactSymbol[] as JSON. */
  symbols: string;
  /**
   * The names declared, each once, as a JSON array of strings; for a file that is not exact,
   * every word of what its rules do not model (see index_file.ts's declaredNames).
   */
  names: string;
  /** How many declarations. */
  count: number;
  /** The declarations are exactly the language server's (extract.ts's `exact`). */
  exact: boolean;
}

/** The store's path for a project root. */
export function storePath(root: string): string {
  return join(cacheDir(root), "declarations.jsonl");
}

/** Read the stored index; an empty map when there is none or it is unreadable. */
export async function loadStore(root: string): Promise<Map<string, StoredFile>> {
  const files = new Map<string, StoredFile>();
  let text: string;
  try {
    text = await Deno.readTextFile(storePath(root));
  } catch {
    return files;
  }
  try {
    const headerEnd = text.indexOf("\n");
    if (headerEnd < 0) return files;
    const header = JSON.parse(text.slice(0, headerEnd)) as { format?: number; parser?: string };
    if (header.format !== FORMAT || header.parser !== PARSER_VERSION) return files;
    let at = headerEnd + 1;
    while (at < text.length) {
      let end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
      const line = text.slice(at, end);
      at = end + 1;
      const t1 = line.indexOf("\t");
      const t2 = line.indexOf("\t", t1 + 1);
      const t3 = line.indexOf("\t", t2 + 1);
      const t4 = line.indexOf("\t", t3 + 1);
      const t5 = line.indexOf("\t", t4 + 1);
      const t6 = line.indexOf("\t", t5 + 1);
      const t7 = line.indexOf("\t", t6 + 1);
      if (t1 < 0 || t2 < 0 || t3 < 0 || t4 < 0 || t5 < 0 || t6 < 0 || t7 < 0) {
        throw new Error("bad line");
      }
      const quoted = line.slice(0, t1);
      const relPath = quoted.includes("\\") ? JSON.parse(quoted) as string : quoted.slice(1, -1);
      files.set(relPath, {
        hash: line.slice(t1 + 1, t2),
        size: Number(line.slice(t2 + 1, t3)),
        mtime: Number(line.slice(t3 + 1, t4)),
        exact: line.slice(t4 + 1, t5) === "1",
        count: Number(line.slice(t5 + 1, t6)),
        names: line.slice(t6 + 1, t7),
        symbols: line.slice(t7 + 1),
      });
    }
  } catch (error) {
    log.warn(`Ignoring the unreadable symbol index ${storePath(root)}: ${String(error)}`);
    files.clear();
  }
  return files;
}

/**
 * Files serialised between two turns of the event loop: a store of 20,000 files is 15 MB, and
 * serialising it at once held a question asked meanwhile for 100–300 ms on a loaded machine.
 */
const SAVE_SLICE = 1000;

/**
 * Write the index atomically; failures are logged (the index works without its file). The
 * entries are taken when it is called; each line is one entry as it was then.
 */
export async function saveStore(
  root: string,
  files: ReadonlyMap<string, StoredFile>,
): Promise<void> {
  const entries = [...files];
  const encoder = new TextEncoder();
  const chunks = [
    encoder.encode(JSON.stringify({ format: FORMAT, parser: PARSER_VERSION }) + "\n"),
  ];
  for (let start = 0; start < entries.length; start += SAVE_SLICE) {
    if (start > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const lines: string[] = [];
    for (const [relPath, f] of entries.slice(start, start + SAVE_SLICE)) {
      lines.push(
        `${JSON.stringify(relPath)}\t${f.hash}\t${f.size}\t${f.mtime}\t${
          f.exact ? 1 : 0
        }\t${f.count}\t${f.names}\t${f.symbols}\n`,
      );
    }
    chunks.push(encoder.encode(lines.join("")));
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  const dir = cacheDir(root);
  try {
    await Deno.mkdir(dir, { recursive: true });
    const ignoreFile = join(dir, ".gitignore");
    try {
      await Deno.lstat(ignoreFile);
    } catch {
      await Deno.writeTextFile(ignoreFile, "# Sextant's caches; safe to delete.\n*\n");
    }
    await writeFileAtomic(storePath(root), bytes);
  } catch (error) {
    log.warn(`Could not save the symbol index ${storePath(root)}: ${String(error)}`);
  }
}

/**
 * Whether a file still has the size and modification time it was indexed with (then its stored
 * declarations stand, as a parse worker would decide too: index_file.ts).
 */
export function unchangedOnDisk(absPath: string, known: StoredFile): boolean {
  try {
    const info = Deno.statSync(absPath);
    const mtime = info.mtime?.getTime() ?? 0;
    return info.isFile && info.size === known.size && mtime === known.mtime && mtime !== 0;
  } catch {
    return false; // a worker finds it gone
  }
}
