/**
 * Which files, and which of their lines, a session's agent has read: the prior-read rule of the
 * line-editing tools asks it, and writes and moves by Sextant's tools keep it true.
 * @module
 */

/** Line ranges (0-based, inclusive) read per file; the prior-read rule of the line tools. */
export class ReadTracker {
  readonly #everRead = new Set<string>();
  readonly #ranges = new Map<string, Array<[number, number]>>();

  /** Record a read of lines `start..end` (inclusive; `end` Infinity for "to the end"). */
  recordRead(realPath: string, start = 0, end = Infinity): void {
    this.#everRead.add(realPath);
    const ranges = this.#ranges.get(realPath) ?? [];
    ranges.push([start, end]);
    this.#ranges.set(realPath, ranges);
  }

  wasRead(realPath: string): boolean {
    return this.#everRead.has(realPath);
  }

  /** Whether a read since the last line edit covered all of `start..end`. */
  rangeWasRead(realPath: string, start: number, end: number): boolean {
    const ranges = this.#ranges.get(realPath) ?? [];
    return ranges.some(([s, e]) => s <= start && end <= e);
  }

  /** After an edit, line numbers have moved: line ranges must be read again. */
  noteEdited(realPath: string): void {
    this.#ranges.delete(realPath);
  }

  /** A file created by the agent counts as read (it knows the content). */
  noteCreated(realPath: string): void {
    this.#ranges.delete(realPath);
    this.recordRead(realPath);
  }

  /** A file or folder moved: what was read there counts as read at the new place. */
  noteMoved(from: string, to: string): void {
    for (const path of [...this.#everRead]) {
      const moved = movedPath(path, from, to);
      if (moved === null) continue;
      this.#everRead.delete(path);
      this.#everRead.add(moved);
      const ranges = this.#ranges.get(path);
      this.#ranges.delete(path);
      if (ranges) this.#ranges.set(moved, ranges);
    }
  }
}

/** `path` after moving `from` to `to` (a file, or anything below a folder); null if unmoved. */
export function movedPath(path: string, from: string, to: string): string | null {
  if (path === from) return to;
  return path.startsWith(from + "/") ? to + path.slice(from.length) : null;
}
