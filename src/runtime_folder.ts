/**
 * The user's private runtime folder, `$XDG_RUNTIME_DIR/sextant/` (else
 * `<temp dir>/sextant-<uid>/`): mode 0700 and owned by the user, so nothing in it can be read,
 * created or locked by another user. The service keeps its endpoint and log there, and every
 * Sextant process its file locks.
 * @module
 */
import { inFolder, parentFolder } from "./plain_path.ts";

/** A refused private folder: wrong owner or open to others. */
export class UnsafeFolderError extends Error {
  override name = "UnsafeFolderError";
}

/** The user id of this process, read from a file it creates (needs no `sys` permission). */
function ownUid(): { uid: number | null; tempDir: string } {
  const probe = Deno.makeTempFileSync({ prefix: "sextant-uid-" });
  try {
    return { uid: Deno.statSync(probe).uid, tempDir: parentFolder(probe) };
  } finally {
    Deno.removeSync(probe);
  }
}

/**
 * Make sure `dir` exists, belongs to `uid` and is closed to everyone else (0700). A folder that
 * does not is refused with an error that says what is wrong and what to do; it is never
 * loosened or taken over.
 */
export function ensurePrivateFolder(dir: string, uid: number | null): void {
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = Deno.lstatSync(dir);
  if (!info.isDirectory) {
    throw new UnsafeFolderError(`The service folder ${dir} is not a folder; remove it.`);
  }
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    throw new UnsafeFolderError(
      `The service folder ${dir} belongs to user ${info.uid}, not to you (${uid}); ` +
        "Sextant will not use it. Remove it, or set XDG_RUNTIME_DIR to a folder of your own.",
    );
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    throw new UnsafeFolderError(
      `The service folder ${dir} is open to other users (mode ` +
        `${(info.mode & 0o777).toString(8)}); Sextant needs it to be 0700. ` +
        `Run 'chmod 700 ${dir}' or remove it.`,
    );
  }
}

/**
 * The private runtime folder for `env` (default: the process environment), created (0700) or
 * checked; throws {@linkcode UnsafeFolderError} for one that is not private.
 */
export function privateRuntimeFolder(
  env: (key: string) => string | undefined = (key) => Deno.env.get(key),
): string {
  const { uid, tempDir } = ownUid();
  const runtime = env("XDG_RUNTIME_DIR");
  const dir = runtime
    ? inFolder(runtime, "sextant")
    : inFolder(tempDir, `sextant-${uid ?? "user"}`);
  ensurePrivateFolder(dir, uid);
  return dir;
}

/**
 * A folder of the private runtime folder (0700 as well), created on first use; null where the
 * runtime folder is refused as unsafe or cannot be made. The answer is kept for the process,
 * whose environment does not change.
 */
export function privateSubfolder(name: string): string | null {
  const key = `${Deno.env.get("XDG_RUNTIME_DIR") ?? ""}\0${name}`;
  const known = subfolders.get(key);
  if (known !== undefined) return known;
  let dir: string | null;
  try {
    dir = inFolder(privateRuntimeFolder(), name);
    try {
      Deno.mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  } catch {
    dir = null;
  }
  subfolders.set(key, dir);
  return dir;
}

/** {@linkcode privateSubfolder}'s answers, by runtime folder and name. */
const subfolders = new Map<string, string | null>();
