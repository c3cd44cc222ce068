/**
 * Git's own record of a checkout (`.git/index`, versions 2 to 4): for each tracked file, its blob
 * id and the size and modification time it had when git last hashed it. A file whose size and
 * time still match has that content, the way `git status` knows without reading it: Sextant uses
 * this to check a checkout against a SCIP index's manifest without hashing every file. An entry
 * written in the same second as the index itself ("racily clean") is not trusted, as git does not
 * trust it.
 *
 * Only a plain `.git` folder is read (a worktree's `.git` file is not followed); anything
 * unreadable or unknown gives null, and the caller hashes the files itself.
 * @module
 */
import { join } from "node:path";

/** What git recorded for one file. */
export interface GitIndexEntry {
  /** The blob id, 40 hex digits. */
  blob: string;
  size: number;
  /** Modification time, ms since the epoch. */
  mtimeMs: number;
}

/** A checkout's index: entries by path, and whether an entry may be trusted. */
export interface GitIndex {
  entries: Map<string, GitIndexEntry>;
  /** The index file's own modification time (ms): entries as new as it are not trusted. */
  writtenMs: number;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Reads `<root>/.git/index`; null when there is none or it is not a version git 2–4 index. */
export async function readGitIndex(root: string): Promise<GitIndex | null> {
  const path = join(root, ".git", "index");
  let bytes: Uint8Array;
  let writtenMs: number;
  try {
    const stat = await Deno.stat(path);
    if (!stat.isFile) return null;
    writtenMs = stat.mtime?.getTime() ?? 0;
    bytes = await Deno.readFile(path);
  } catch {
    return null;
  }
  try {
    return { entries: parseGitIndex(bytes), writtenMs };
  } catch {
    return null;
  }
}

/** The entries of a git index file's bytes (stage 0 only). Throws on an unknown format. */
export function parseGitIndex(bytes: Uint8Array): Map<string, GitIndexEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  const version = view.getUint32(4);
  if (signature !== "DIRC" || version < 2 || version > 4) {
    throw new RangeError(`not a git index of version 2-4 (${signature} ${version})`);
  }
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  const entries = new Map<string, GitIndexEntry>();
  let pos = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let n = 0; n < count; n++) {
    const start = pos;
    const mtimeSeconds = view.getUint32(pos + 8);
    const mtimeNanos = view.getUint32(pos + 12);
    const size = view.getUint32(pos + 36);
    let blob = "";
    for (let i = 0; i < 20; i++) blob += HEX[bytes[pos + 40 + i]!];
    const flags = view.getUint16(pos + 60);
    pos += 62;
    if (version >= 3 && (flags & 0x4000) !== 0) pos += 2; // extended flags
    let name: Uint8Array;
    if (version === 4) {
      // The path is the previous one, less a number of bytes, plus a suffix.
      let strip = bytes[pos]! & 0x7f;
      while ((bytes[pos++]! & 0x80) !== 0) strip = ((strip + 1) << 7) | (bytes[pos]! & 0x7f);
      const end = bytes.indexOf(0, pos);
      const suffix = bytes.subarray(pos, end);
      name = new Uint8Array(previous.length - strip + suffix.length);
      name.set(previous.subarray(0, previous.length - strip));
      name.set(suffix, previous.length - strip);
      pos = end + 1;
    } else {
      const end = bytes.indexOf(0, pos);
      name = bytes.subarray(pos, end);
      // Entries are padded with NULs to a multiple of 8 bytes (at least one NUL).
      pos = start + ((end - start + 8) & ~7);
    }
    previous = name;
    const stage = (flags >> 12) & 3;
    if (stage !== 0) continue;
    entries.set(decoder.decode(name), {
      blob,
      size,
      mtimeMs: mtimeSeconds * 1000 + Math.floor(mtimeNanos / 1e6),
    });
  }
  return entries;
}

/**
 * True when `stat` is the stat git recorded for the entry, and the entry is older than the index
 * (not racily clean): the file's content is then the entry's blob.
 */
export function matchesEntry(
  index: GitIndex,
  entry: GitIndexEntry,
  stat: { size: number; mtimeMs: number },
): boolean {
  return stat.size === entry.size && stat.mtimeMs === entry.mtimeMs &&
    Math.floor(entry.mtimeMs / 1000) < Math.floor(index.writtenMs / 1000);
}
