/**
 * All-or-nothing writes of several files: every new content is encoded and written to a
 * temporary file first; only then are the temporaries renamed over their targets. If a rename
 * fails, the files already replaced are restored, so a multi-file edit lands whole or not at all.
 * @module
 */
import {
  encodeText,
  keepFinalNewline,
  tempPathFor,
  type TextFormat,
  writeFileAtomic,
  writeTextFile,
} from "./text_file.ts";

export interface PlannedWrite {
  /** Real (symlink-resolved) path of the target. */
  path: string;
  /** New content with `\n` line endings. */
  text: string;
  format: TextFormat;
}

export async function writeAllOrNothing(writes: readonly PlannedWrite[]): Promise<void> {
  if (writes.length === 1) {
    const only = writes[0]!;
    return await writeTextFile(only.path, only.text, only.format);
  }
  // Encoding errors surface here, before any file is touched.
  const encoded = writes.map((w) => encodeText(keepFinalNewline(w.text, w.format), w.format));
  const backups = new Map<string, Uint8Array | null>();
  for (const w of writes) {
    try {
      backups.set(w.path, await Deno.readFile(w.path));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      backups.set(w.path, null);
    }
  }
  const temps: string[] = [];
  try {
    for (const [i, w] of writes.entries()) {
      const temp = tempPathFor(w.path);
      await Deno.writeFile(temp, encoded[i]!, { createNew: true, mode: w.format.mode ?? 0o644 });
      temps.push(temp);
      if (w.format.mode !== null && Deno.build.os !== "windows") {
        await Deno.chmod(temp, w.format.mode & 0o7777);
      }
    }
  } catch (error) {
    await Promise.allSettled(temps.map((t) => Deno.remove(t)));
    throw error;
  }
  const replaced: PlannedWrite[] = [];
  try {
    for (const [i, w] of writes.entries()) {
      await Deno.rename(temps[i]!, w.path);
      replaced.push(w);
    }
  } catch (error) {
    for (const w of replaced) {
      const original = backups.get(w.path);
      if (original === null || original === undefined) {
        await Deno.remove(w.path).catch(() => {});
      } else {
        await writeFileAtomic(w.path, original, w.format.mode).catch(() => {});
      }
    }
    await Promise.allSettled(temps.slice(replaced.length).map((t) => Deno.remove(t)));
    throw error;
  }
}
