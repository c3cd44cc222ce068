/**
 * Which files still have the content a SCIP index was built from. A SCIP document carries no
 * hash of its file, so the index travels with a manifest beside it, `<index>.files`: one line
 * per indexed file, `<git blob id> <relative path>`, the format `git ls-files -s` prints after
 * its mode (a CI job writes it with `git ls-files -s | awk '{print $2, $4}'`; `sextant index
 * build` writes it itself). A file answers from the index only while its blob id is the one in
 * the manifest; every other file is "changed since the index". Without a manifest no file is
 * fresh: nothing is ever answered from an index that cannot be checked.
 * @module
 */
import { join } from "node:path";
import { type GitIndex, matchesEntry } from "../../project/git_index.ts";

/** The manifest's path for an index at `indexPath`. */
export function manifestPath(indexPath: string): string {
  return `${indexPath}.files`;
}

/** Git's blob id of `bytes`: SHA-1 of `blob <size>\0` followed by the content. */
export async function gitBlobId(bytes: Uint8Array): Promise<string> {
  const header = new TextEncoder().encode(`blob ${bytes.length}\u0000`);
  const data = new Uint8Array(header.length + bytes.length);
  data.set(header);
  data.set(bytes, header.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parses a manifest's text: relative path → blob id. Malformed lines are an error. */
export function parseManifest(text: string): Map<string, string> {
  const out = new Map<string, string>();
  text.split("\n").forEach((line, i) => {
    const trimmed = line.replace(/\r$/, "");
    if (trimmed === "") return;
    const match = /^([0-9a-f]{40}) (.+)$/.exec(trimmed);
    if (!match) throw new Error(`Line ${i + 1} of the index manifest is not "<blob id> <path>"`);
    out.set(match[2]!, match[1]!);
  });
  return out;
}

/** Renders a manifest from path → blob id, sorted by path. */
export function formatManifest(entries: ReadonlyMap<string, string>): string {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, id]) => `${id} ${path}\n`).join("");
}

/** Compares project files with the manifest, hashing a file again only when it was touched. */
export class Freshness {
  readonly #root: string;
  readonly #expected: ReadonlyMap<string, string>;
  /** relative path → the stamp and blob id last computed for it. */
  readonly #seen = new Map<string, { stamp: string; id: string | null }>();

  /** Git's record of the checkout, when it has one: a file git vouches for is not read. */
  readonly #git: GitIndex | null;

  constructor(root: string, expected: ReadonlyMap<string, string>, git: GitIndex | null = null) {
    this.#root = root;
    this.#expected = expected;
    this.#git = git;
  }

  /** The files the manifest lists. */
  paths(): IterableIterator<string> {
    return this.#expected.keys();
  }

  /** How many files the manifest lists. */
  get size(): number {
    return this.#expected.size;
  }

  /** True when `relPath` is in the manifest and its content is the indexed one. */
  async isFresh(relPath: string): Promise<boolean> {
    const expected = this.#expected.get(relPath);
    if (expected === undefined) return false;
    const full = join(this.#root, relPath);
    let stat: Deno.FileInfo;
    try {
      stat = await Deno.stat(full);
    } catch {
      return false;
    }
    const mtimeMs = stat.mtime?.getTime() ?? 0;
    const stamp = `${stat.size}:${mtimeMs}`;
    const cached = this.#seen.get(relPath);
    if (cached?.stamp === stamp) return cached.id === expected;
    const tracked = this.#git?.entries.get(relPath);
    if (tracked && matchesEntry(this.#git!, tracked, { size: stat.size, mtimeMs })) {
      // Unchanged since git hashed it: its content is git's blob.
      this.#seen.set(relPath, { stamp, id: tracked.blob });
      return tracked.blob === expected;
    }
    let id: string | null = null;
    try {
      id = await gitBlobId(await Deno.readFile(full));
    } catch {
      id = null;
    }
    this.#seen.set(relPath, { stamp, id });
    return id === expected;
  }

  /** The subset of `relPaths` that is not fresh. */
  async stale(relPaths: Iterable<string>): Promise<string[]> {
    const out: string[] = [];
    for (const p of relPaths) if (!(await this.isFresh(p))) out.push(p);
    return out;
  }
}
