/**
 * Moves of files and folders together with text changes, all or nothing: the text changes are
 * committed first (at the paths they were planned for), then each move is a `rename` of the real
 * path, so a folder moves whole and a file keeps its bytes, mode and identity. If a move fails,
 * the moves already made are undone and the text changes reverted.
 * @module
 */
import { commitFileChanges, type FileChange, missingFolders } from "./all_or_nothing.ts";

/** One move of a file or folder (real, symlink-resolved paths). */
export interface FileMove {
  from: string;
  to: string;
}

/**
 * Commit `changes` (see `commitFileChanges`), then make the moves in order. Returns the real
 * paths whose content changed. Throws, with everything restored, when any step fails.
 */
export async function commitChangesAndMoves(
  changes: readonly FileChange[],
  moves: readonly FileMove[],
): Promise<string[]> {
  const written = await commitFileChanges(changes);
  const done: FileMove[] = [];
  const made: string[] = [];
  try {
    for (const move of moves) {
      for (const dir of await missingFolders([move.to])) {
        await Deno.mkdir(dir);
        made.push(dir);
      }
      // Never overwrite: a target that appeared since the plan stops the whole change.
      try {
        await Deno.lstat(move.to);
        throw new Deno.errors.AlreadyExists(`'${move.to}' exists`);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      await Deno.rename(move.from, move.to);
      done.push(move);
    }
  } catch (error) {
    for (const move of done.reverse()) await Deno.rename(move.to, move.from).catch(() => {});
    for (const dir of made.reverse()) await Deno.remove(dir).catch(() => {});
    const undo = changes
      .filter((c) => c.before !== undefined)
      .map((c) => {
        // The undo writes over this edit's own result, not over the file as first read.
        const { read: _, ...format } = c.format;
        return { real: c.real, before: c.after, after: c.before ?? null, format };
      });
    await commitFileChanges(undo).catch(() => {});
    throw error;
  }
  return written;
}
