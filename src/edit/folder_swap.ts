/**
 * Folders that must stay real while another process may swap one for a symbolic link at any
 * moment. Deno offers no operation relative to an open folder (`openat`), and its sandbox keeps
 * `/proc/self/fd` out of reach; but a process has one folder that no swap of a path redirects:
 * its working folder. So each step that could land elsewhere (creating a file, removing one,
 * making a folder) is run by `sh` started in the folder: it enters the folder once, checks that
 * its physical path is the folder's, and names files relative to where it stands.
 *
 * What follows by path cannot do harm on the other side of a swap: a file created so (empty, under
 * a temporary name only this process uses) is then opened without creating, written, and renamed
 * by its path, and on the other side of a link that name does not exist.
 *
 * Where `sh` cannot be started (Windows, a sandbox without it), the callers create by path and
 * locate the file right after ({@linkcode createInFolder}), which a swap and its undoing between
 * the two steps can defeat.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { ToolError } from "../errors.ts";

/** The error of an operation refused because a folder on its path was swapped for a link. */
export function folderSwapped(folder: string, elsewhere: string | null): ToolError {
  return new ToolError(
    `The folder '${folder}' changed during the operation (a part of its path became a symbolic ` +
      `link${elsewhere ? ` to '${elsewhere}'` : ""}); it was refused and nothing was changed.`,
  );
}

/** The real path of `path`, or null when it cannot be resolved. */
export function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** The exit status of a folder script that is not in its folder (named on its stderr). */
const NOT_IN_FOLDER = 3;

/** Enter the folder `$1` and stop unless the physical path of where the script stands is `$1`. */
const ENTER = `cd -P -- "$1" 2>/dev/null && [ "$(pwd -P)" = "$1" ] || ` +
  `{ printf '%s' "$1" >&2; exit ${NOT_IN_FOLDER}; }`;

/**
 * Run `script` with `sh`, its arguments `args`. False when `sh` cannot be started (the caller
 * goes by path instead); throws {@linkcode folderSwapped} when a folder it enters is not at its
 * path, and the script's last line of error when it fails otherwise.
 */
async function runSh(script: string, args: string[]): Promise<boolean> {
  if (Deno.build.os === "windows") return false;
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("sh", {
      args: ["-c", script, "sh", ...args],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
  } catch {
    return false; // not installed, or not allowed
  }
  if (output.code === 0) return true;
  const message = new TextDecoder().decode(output.stderr).trim();
  if (output.code === NOT_IN_FOLDER) throw folderSwapped(message, null);
  throw new ToolError(message.split("\n").at(-1) || `sh exited with status ${output.code}.`);
}

/** Run `script` with `sh` in the real folder `folder` (`$1`), `args` as `$2`...; see runSh. */
export function runInFolder(folder: string, script: string, args: string[]): Promise<boolean> {
  return runSh(`${ENTER}\n${script}`, [folder, ...args]);
}

/**
 * Create each of `paths` (in real folders, under names that do not exist) as an empty file, in
 * its folder itself, with the permissions Deno's default 0o644 and the umask give; one `sh` for
 * them all. False when `sh` cannot be started; throws when a folder is not at its path (files
 * created before it stay, empty, under their temporary names).
 */
export function createEmptyFiles(paths: readonly string[]): Promise<boolean> {
  const script = [
    `umask "$(printf '%o' $(( $(umask) | 0133 )))"`,
    "set -C",
    "while [ $# -gt 0 ]; do",
    `  ${ENTER}`,
    '  : > "$2" || exit 1',
    "  shift 2",
    "done",
  ].join("\n");
  return runSh(script, paths.flatMap((path) => [dirname(path), basename(path)]));
}

/**
 * Create the file `name` in `folder` (a real path) exclusively with `data`, by its path, and
 * locate it right after, synchronously, back to back: one that a swap sent elsewhere is removed
 * there and {@linkcode folderSwapped} is thrown. A swap and its undoing between the two steps
 * can still leave it where no path leads back to it. Returns the file's real path.
 */
export function createInFolder(
  folder: string,
  name: string,
  data: Uint8Array,
  mode: number,
): string {
  const path = join(folder, name);
  Deno.writeFileSync(path, data, { createNew: true, mode });
  const landed = realOrNull(path);
  if (landed === null || dirname(landed) !== folder) {
    if (landed !== null) Deno.removeSync(landed);
    throw folderSwapped(folder, landed === null ? null : dirname(landed));
  }
  return landed;
}
